// kinema/scene: a rig drawn as debug geometry: a segment from each joint to its
// parent joint, a dot on each joint and an axis triad (X red, Y green, Z blue) at each.
#pragma once

#include <array>
#include <span>

#include "kinema/render/overlay.hpp"
#include "kinema/scene/scene.hpp"

namespace kinema {

struct SkeletonOverlayStyle {
    std::array<float, 4> boneColor{1.0f, 0.85f, 0.2f, 1.0f};  // linear RGBA
    std::array<float, 4> jointColor{1.0f, 1.0f, 1.0f, 1.0f};
    float boneWidthPixels = 2.0f;
    float jointSizePixels = 5.0f;
    // Length of each axis line in world units; 0 picks 6% of the diagonal of the
    // joints' bounds (nothing when the rig is a single point); negative: no axes.
    float axisLength = 0.0f;
    float axisWidthPixels = 1.5f;
};

// Appends the overlay of the rig made of `joints` (nodes of `scene`, any order) at
// the scene's current world transforms (call after updateWorldTransforms()). A joint
// is linked to its nearest ancestor that is also in `joints`; a root joint has no
// segment. Ids that are not nodes of the scene are skipped.
void appendSkeletonOverlay(const Scene& scene, std::span<const NodeId> joints, const SkeletonOverlayStyle& style,
                           Overlay& out);

}  // namespace kinema
