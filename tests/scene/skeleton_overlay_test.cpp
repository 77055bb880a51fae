// A rig as overlay geometry: a segment from each joint to its nearest rig ancestor,
// a dot per joint and an axis triad per joint along its world axes, at hand-known places.
#include <gtest/gtest.h>

#include <cmath>

#include "kinema/scene/skeleton_overlay.hpp"

namespace kinema {
namespace {

Transform at(Vec3 t) {
    Transform x;
    x.translation = t;
    return x;
}

TEST(SkeletonOverlay, BonesDotsAndAxesAtTheJointsWorldPlaces) {
    Scene scene;
    const NodeId root = scene.addNode({}, "root", at({1, 0, 0})).value();
    const NodeId middle = scene.addNode(root, "not in the rig", at({0, 1, 0})).value();
    Transform turned = at({0, 0, 2});
    turned.rotation = {0.0f, 0.0f, std::sqrt(0.5f), std::sqrt(0.5f)};  // 90 degrees about +Z
    const NodeId tip = scene.addNode(middle, "tip", turned).value();
    scene.updateWorldTransforms();

    const NodeId rig[] = {tip, root};
    SkeletonOverlayStyle style;
    style.axisLength = 0.5f;
    Overlay overlay;
    appendSkeletonOverlay(scene, rig, style, overlay);

    // Two joints: two dots, six axis lines and one bone (tip -> root, skipping the
    // middle node, which is not in the rig).
    ASSERT_EQ(overlay.dots.size(), 2u);
    ASSERT_EQ(overlay.segments.size(), 7u);
    // Joints in node order: root at (1, 0, 0), tip at (1, 1, 2).
    EXPECT_EQ(overlay.dots[0].at.x, 1.0f);
    EXPECT_EQ(overlay.dots[1].at.y, 1.0f);
    EXPECT_EQ(overlay.dots[1].at.z, 2.0f);
    // The root's three axes, then the tip's bone from the root, then its axes.
    const OverlaySegment& bone = overlay.segments[3];
    EXPECT_EQ(bone.from.x, 1.0f);
    EXPECT_EQ(bone.from.y, 0.0f);
    EXPECT_EQ(bone.to.y, 1.0f);
    EXPECT_EQ(bone.to.z, 2.0f);
    // The tip's X axis is world +Y after the quarter turn about Z: from (1,1,2) to (1,1.5,2).
    const OverlaySegment& tipX = overlay.segments[4];
    EXPECT_NEAR(tipX.to.x, 1.0f, 1e-6f);
    EXPECT_NEAR(tipX.to.y, 1.5f, 1e-6f);
    EXPECT_NEAR(tipX.to.z, 2.0f, 1e-6f);
    EXPECT_EQ(tipX.color, overlay.segments[0].color);  // X is drawn in one colour throughout
}

TEST(SkeletonOverlay, AxisLengthDefaultsToAFractionOfTheRigAndCanBeOff) {
    Scene scene;
    const NodeId a = scene.addNode({}, "a", at({0, 0, 0})).value();
    const NodeId b = scene.addNode(a, "b", at({0, 3, 4})).value();  // 5 apart
    scene.updateWorldTransforms();
    const NodeId rig[] = {a, b};
    Overlay overlay;
    appendSkeletonOverlay(scene, rig, SkeletonOverlayStyle{}, overlay);
    ASSERT_EQ(overlay.segments.size(), 7u);
    const OverlaySegment& axis = overlay.segments[0];  // a's X axis, 6% of the 5-unit diagonal
    EXPECT_NEAR(axis.to.x - axis.from.x, 0.3f, 1e-6f);

    SkeletonOverlayStyle noAxes;
    noAxes.axisLength = -1.0f;
    overlay.clear();
    const NodeId withStranger[] = {a, b, NodeId{99}};
    appendSkeletonOverlay(scene, withStranger, noAxes, overlay);
    EXPECT_EQ(overlay.segments.size(), 1u);  // the bone only; the unknown id is skipped
    EXPECT_EQ(overlay.dots.size(), 2u);
}

}  // namespace
}  // namespace kinema
