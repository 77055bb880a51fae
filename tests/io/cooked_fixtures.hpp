// Test helper: two models compared in every part a cooked file holds, floats by
// bit pattern (so -0 and NaN payloads count too).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "kinema/asset/model.hpp"

namespace kinema::test {

inline bool sameBits(std::span<const float> a, std::span<const float> b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}
inline bool sameBits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

inline void expectSameModel(const Model& got, const Model& want) {
    const Skeleton& gs = got.skeleton;
    const Skeleton& ws = want.skeleton;
    ASSERT_EQ(gs.jointCount(), ws.jointCount());
    EXPECT_TRUE(std::ranges::equal(gs.names(), ws.names()));
    EXPECT_TRUE(std::ranges::equal(gs.parents(), ws.parents()));
    for (std::size_t j = 0; j < ws.jointCount(); ++j) {
        // Transform is plain floats without padding: compare it as bytes.
        static_assert(sizeof(Transform) == 10 * sizeof(float));
        EXPECT_EQ(std::memcmp(&gs.restPose()[j], &ws.restPose()[j], sizeof(Transform)), 0) << "joint " << j;
        EXPECT_EQ(gs.findJoint(ws.name(j)), ws.findJoint(ws.name(j)));
    }
    EXPECT_EQ(gs.fingerprint(), ws.fingerprint());
    EXPECT_EQ(got.nodeOfJoint, want.nodeOfJoint);
    EXPECT_EQ(got.jointOfNode, want.jointOfNode);
    EXPECT_EQ(got.weightOffsetOfJoint, want.weightOffsetOfJoint);
    EXPECT_TRUE(sameBits(got.restWeights, want.restWeights));

    ASSERT_EQ(got.skins.size(), want.skins.size());
    for (std::size_t k = 0; k < want.skins.size(); ++k) {
        const Skin& a = got.skins[k];
        const Skin& b = want.skins[k];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.joints, b.joints);
        EXPECT_EQ(a.root, b.root);
        EXPECT_EQ(a.skeleton, b.skeleton);
        ASSERT_EQ(a.inverseBindMatrices.size(), b.inverseBindMatrices.size());
        for (std::size_t j = 0; j < b.inverseBindMatrices.size(); ++j) {
            EXPECT_TRUE(sameBits(a.inverseBindMatrices[j].m, b.inverseBindMatrices[j].m)) << "skin " << k << " " << j;
        }
    }

    ASSERT_EQ(got.clips.size(), want.clips.size());
    for (std::size_t c = 0; c < want.clips.size(); ++c) {
        SCOPED_TRACE("clip " + std::to_string(c));
        const Clip& a = got.clips[c];
        const Clip& b = want.clips[c];
        EXPECT_EQ(a.name(), b.name());
        EXPECT_TRUE(sameBits(a.length(), b.length()));
        EXPECT_TRUE(sameBits(a.duration(), b.duration()));
        EXPECT_EQ(a.skeletonFingerprint(), b.skeletonFingerprint());
        EXPECT_EQ(a.jointsNeeded(), b.jointsNeeded());
        EXPECT_EQ(a.weightsNeeded(), b.weightsNeeded());
        EXPECT_TRUE(std::ranges::equal(a.jointNames(), b.jointNames()));
        ASSERT_EQ(a.tracks().size(), b.tracks().size());
        for (std::size_t t = 0; t < b.tracks().size(); ++t) {
            const Track& x = a.tracks()[t];
            const Track& y = b.tracks()[t];
            EXPECT_EQ(x.target, y.target);
            EXPECT_EQ(x.path, y.path);
            EXPECT_EQ(x.interpolation, y.interpolation);
            EXPECT_EQ(x.width, y.width);
            EXPECT_EQ(x.weightOffset, y.weightOffset);
            EXPECT_TRUE(sameBits(x.times, y.times)) << "track " << t;
            EXPECT_TRUE(sameBits(x.values, y.values)) << "track " << t;
        }
        ASSERT_EQ(a.markers().size(), b.markers().size());
        for (std::size_t k = 0; k < b.markers().size(); ++k) {
            EXPECT_EQ(a.markers()[k].name, b.markers()[k].name);
            EXPECT_TRUE(sameBits(a.markers()[k].time, b.markers()[k].time));
        }
        ASSERT_EQ(a.curves().size(), b.curves().size());
        for (std::size_t k = 0; k < b.curves().size(); ++k) {
            EXPECT_EQ(a.curves()[k].name, b.curves()[k].name);
            EXPECT_EQ(a.curves()[k].interpolation, b.curves()[k].interpolation);
            EXPECT_TRUE(sameBits(a.curves()[k].times, b.curves()[k].times));
            EXPECT_TRUE(sameBits(a.curves()[k].values, b.curves()[k].values));
        }
    }
}

}  // namespace kinema::test
