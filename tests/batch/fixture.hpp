// A small skeleton with two clips and a skin for the batch tests: clip A animates
// every joint (so no rest fill is needed), clip B only some joints, with uneven
// keys, so both sampling paths of PoseBatch are used.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/model.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/runtime/packed_clip.hpp"

namespace kinema::test {

struct BatchFixture {
    Skeleton skeleton;
    Clip clipA, clipB;
    PackedClip packedA, packedB;
    Skin skin;

    explicit BatchFixture(unsigned seed, std::size_t joints = 20) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> v(-1.0f, 1.0f);
        std::vector<JointDesc> desc(joints);
        for (std::size_t k = 0; k < joints; ++k) {
            desc[k].name = std::to_string(k);  // ("j" + ... trips g++ 12 -O3 -Wrestrict)
            desc[k].parent = k == 0 ? kNoParent : static_cast<std::int32_t>(rng() % k);
            desc[k].rest.translation = {v(rng), 0.5f + v(rng), v(rng)};
        }
        skeleton = Skeleton::create(desc).value();
        clipA = makeClip("A", joints, joints, {0.0f, 0.3f, 0.6f, 0.9f, 1.2f}, rng);
        clipB = makeClip("B", joints, joints / 2, {0.05f, 0.2f, 0.7f, 1.6f}, rng);
        packedA = PackedClip(clipA);
        packedB = PackedClip(clipB);
        for (std::uint32_t j = 0; j < joints; j += 2) {
            skin.joints.push_back(j);
            Mat4 m;
            m.m[12] = v(rng);
            m.m[13] = v(rng);
            skin.inverseBindMatrices.push_back(m);
        }
    }

    static Clip makeClip(const char* name, std::size_t joints, std::size_t animated, const std::vector<float>& times,
                         std::mt19937& rng) {
        std::uniform_real_distribution<float> v(-1.0f, 1.0f);
        std::vector<Track> tracks;
        for (std::uint32_t j = 0; j < animated; ++j) {
            const std::uint32_t target = animated == joints ? j : static_cast<std::uint32_t>(joints - 1 - 2 * j);
            for (const TrackPath p : {TrackPath::Translation, TrackPath::Rotation, TrackPath::Scale}) {
                Track t;
                t.target = target;
                t.path = p;
                t.width = p == TrackPath::Rotation ? 4 : 3;
                t.times = times;
                for (std::size_t k = 0; k < times.size(); ++k) {
                    if (p == TrackPath::Rotation) {
                        const Quat q = fromAxisAngle(Vec3{0.0f, 1.0f, 0.0f}, 1.5f * v(rng));
                        t.values.insert(t.values.end(), {q.x, q.y, q.z, q.w});
                    } else if (p == TrackPath::Scale) {
                        t.values.insert(t.values.end(), {1.0f + 0.2f * v(rng), 1.0f + 0.2f * v(rng), 1.0f});
                    } else {
                        t.values.insert(t.values.end(), {v(rng), v(rng), v(rng)});
                    }
                }
                tracks.push_back(std::move(t));
            }
            if (animated != joints && 2 * j + 2 >= joints) break;
        }
        return Clip::create(name, std::move(tracks)).value();
    }
};

}  // namespace kinema::test
