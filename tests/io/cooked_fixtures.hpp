// Test helpers for cooked files: little-endian field access, the checksum made to
// match again after damage (with a FNV-1a written here, not taken from the reader),
// and two models compared in every part a cooked file holds, floats by bit pattern
// (so -0 and NaN payloads count too).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/io/cooked.hpp"

namespace kinema::test {

using Bytes = std::vector<std::byte>;

// Byte access, little-endian as the format is.

inline std::uint64_t getLE(const Bytes& b, std::size_t at, std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{std::to_integer<std::uint8_t>(b.at(at + i))} << (8 * i);
    return v;
}
inline void putLE(Bytes& b, std::size_t at, std::size_t n, std::uint64_t v) {
    for (std::size_t i = 0; i < n; ++i) b.at(at + i) = static_cast<std::byte>((v >> (8 * i)) & 0xffu);
}
inline std::uint32_t getU32(const Bytes& b, std::size_t at) { return static_cast<std::uint32_t>(getLE(b, at, 4)); }
inline std::uint64_t getU64(const Bytes& b, std::size_t at) { return getLE(b, at, 8); }
inline void putU32(Bytes& b, std::size_t at, std::uint32_t v) { putLE(b, at, 4, v); }
inline void putU64(Bytes& b, std::size_t at, std::uint64_t v) { putLE(b, at, 8, v); }
inline void putF32(Bytes& b, std::size_t at, float v) { putU32(b, at, std::bit_cast<std::uint32_t>(v)); }

inline std::uint64_t fnv1a64(std::span<const std::byte> bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const std::byte c : bytes) {
        h ^= std::to_integer<std::uint64_t>(c);
        h *= 0x100000001b3ull;
    }
    return h;
}

// The checksum: FNV-1a 64 of the file without its own field (bytes 0..31, then 40..end).
inline std::uint64_t checksumOf(const Bytes& b) {
    Bytes covered(b.begin(), b.begin() + 32);
    covered.insert(covered.end(), b.begin() + 40, b.end());
    return fnv1a64(covered);
}

// Makes the checksum (bytes 32..39) match the file again after damage.
inline void reseal(Bytes& b) { putU64(b, 32, checksumOf(b)); }

inline bool sameBits(std::span<const float> a, std::span<const float> b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}
inline bool sameBits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

// Every truncation of `bytes` refused at a byte offset, and every single bit flipped refused.
inline void expectEveryCutAndFlipRefused(const Bytes& bytes, const std::string& source) {
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        const Bytes cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
        auto read = readCooked(cut, source);
        ASSERT_FALSE(read.ok()) << n;
        ASSERT_NE(read.faults().front().where.find("@byte"), std::string::npos) << read.message();
    }
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        for (int bit = 0; bit < 8; ++bit) {
            Bytes damaged = bytes;
            damaged[i] ^= static_cast<std::byte>(1u << bit);
            ASSERT_FALSE(readCooked(damaged, source).ok()) << "byte " << i << " bit " << bit;
        }
    }
}

template <class T>
std::span<const float> floatsOf(const std::vector<T>& v) {
    return {v.empty() ? nullptr : reinterpret_cast<const float*>(v.data()), v.size() * sizeof(T) / sizeof(float)};
}

// What draws the model: meshes, instances, materials, textures, images (names and
// decoded pixels), scenes and cameras.
inline void expectSameDrawing(const Model& got, const Model& want) {
    ASSERT_EQ(got.meshes.size(), want.meshes.size());
    for (std::size_t m = 0; m < want.meshes.size(); ++m) {
        const Mesh &a = got.meshes[m], &b = want.meshes[m];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.targetCount, b.targetCount);
        EXPECT_TRUE(sameBits(a.weights, b.weights));
        EXPECT_EQ(a.targetNames, b.targetNames);
        ASSERT_EQ(a.primitives.size(), b.primitives.size());
        for (std::size_t p = 0; p < b.primitives.size(); ++p) {
            const MeshPrimitive &x = a.primitives[p], &y = b.primitives[p];
            EXPECT_EQ(x.mode, y.mode);
            EXPECT_EQ(x.material, y.material);
            EXPECT_TRUE(sameBits(floatsOf(x.positions), floatsOf(y.positions))) << m << " " << p;
            EXPECT_TRUE(sameBits(floatsOf(x.normals), floatsOf(y.normals))) << m << " " << p;
            EXPECT_TRUE(sameBits(floatsOf(x.texcoords), floatsOf(y.texcoords))) << m << " " << p;
            EXPECT_TRUE(sameBits(floatsOf(x.colors), floatsOf(y.colors))) << m << " " << p;
            EXPECT_EQ(x.influencesPerVertex, y.influencesPerVertex);
            EXPECT_EQ(x.joints, y.joints);
            EXPECT_TRUE(sameBits(x.weights, y.weights));
            EXPECT_EQ(x.indices, y.indices);
            ASSERT_EQ(x.targets.size(), y.targets.size());
            for (std::size_t t = 0; t < y.targets.size(); ++t) {
                EXPECT_TRUE(sameBits(floatsOf(x.targets[t].positions), floatsOf(y.targets[t].positions)));
                EXPECT_TRUE(sameBits(floatsOf(x.targets[t].normals), floatsOf(y.targets[t].normals)));
            }
        }
    }
    ASSERT_EQ(got.meshInstances.size(), want.meshInstances.size());
    for (std::size_t i = 0; i < want.meshInstances.size(); ++i) {
        EXPECT_EQ(got.meshInstances[i].joint, want.meshInstances[i].joint);
        EXPECT_EQ(got.meshInstances[i].mesh, want.meshInstances[i].mesh);
        EXPECT_EQ(got.meshInstances[i].skin, want.meshInstances[i].skin);
        EXPECT_EQ(got.meshInstances[i].weightOffset, want.meshInstances[i].weightOffset);
    }
    ASSERT_EQ(got.materials.size(), want.materials.size());
    for (std::size_t i = 0; i < want.materials.size(); ++i) {
        const Material &a = got.materials[i], &b = want.materials[i];
        EXPECT_EQ(a.name, b.name);
        EXPECT_TRUE(sameBits(a.baseColorFactor, b.baseColorFactor));
        ASSERT_EQ(a.baseColorTexture.has_value(), b.baseColorTexture.has_value());
        if (b.baseColorTexture) {
            EXPECT_EQ(a.baseColorTexture->texture, b.baseColorTexture->texture);
            EXPECT_EQ(a.baseColorTexture->texCoord, b.baseColorTexture->texCoord);
        }
        EXPECT_EQ(a.alphaMode, b.alphaMode);
        EXPECT_TRUE(sameBits(a.alphaCutoff, b.alphaCutoff));
        EXPECT_EQ(a.doubleSided, b.doubleSided);
    }
    ASSERT_EQ(got.textures.size(), want.textures.size());
    for (std::size_t i = 0; i < want.textures.size(); ++i) {
        const Texture &a = got.textures[i], &b = want.textures[i];
        EXPECT_EQ(a.image, b.image);
        EXPECT_EQ(a.sampler, b.sampler);
        EXPECT_EQ(a.magFilter, b.magFilter);
        EXPECT_EQ(a.minFilter, b.minFilter);
        EXPECT_EQ(a.mipmapFilter, b.mipmapFilter);
        EXPECT_EQ(a.wrapS, b.wrapS);
        EXPECT_EQ(a.wrapT, b.wrapT);
    }
    ASSERT_EQ(got.images.size(), want.images.size());
    for (std::size_t i = 0; i < want.images.size(); ++i) {
        EXPECT_EQ(got.images[i].name, want.images[i].name);
        EXPECT_EQ(got.images[i].mimeType, want.images[i].mimeType);
    }
    ASSERT_EQ(got.decodedImages.size(), want.decodedImages.size());
    for (std::size_t i = 0; i < want.decodedImages.size(); ++i) {
        EXPECT_EQ(got.decodedImages[i].width, want.decodedImages[i].width);
        EXPECT_EQ(got.decodedImages[i].height, want.decodedImages[i].height);
        EXPECT_TRUE(got.decodedImages[i].pixels == want.decodedImages[i].pixels) << "image " << i;
    }
    ASSERT_EQ(got.scenes.size(), want.scenes.size());
    for (std::size_t i = 0; i < want.scenes.size(); ++i) {
        EXPECT_EQ(got.scenes[i].name, want.scenes[i].name);
        EXPECT_EQ(got.scenes[i].roots, want.scenes[i].roots);
    }
    EXPECT_EQ(got.defaultScene, want.defaultScene);
    ASSERT_EQ(got.cameras.size(), want.cameras.size());
    for (std::size_t i = 0; i < want.cameras.size(); ++i) {
        const Camera &a = got.cameras[i], &b = want.cameras[i];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.projection, b.projection);
        EXPECT_TRUE(sameBits(a.yfov, b.yfov));
        EXPECT_EQ(a.aspectRatio, b.aspectRatio);
        EXPECT_TRUE(sameBits(a.xmag, b.xmag));
        EXPECT_TRUE(sameBits(a.ymag, b.ymag));
        EXPECT_TRUE(sameBits(a.znear, b.znear));
        EXPECT_EQ(a.zfar, b.zfar);
    }
    ASSERT_EQ(got.cameraInstances.size(), want.cameraInstances.size());
    for (std::size_t i = 0; i < want.cameraInstances.size(); ++i) {
        EXPECT_EQ(got.cameraInstances[i].joint, want.cameraInstances[i].joint);
        EXPECT_EQ(got.cameraInstances[i].camera, want.cameraInstances[i].camera);
    }
}

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
    expectSameDrawing(got, want);
}

}  // namespace kinema::test
