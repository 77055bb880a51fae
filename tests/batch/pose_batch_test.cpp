// The batch API: the same results as the per-instance kernels and (within the
// SIMD tolerance) the scalar reference, bit-for-bit identical results for any
// thread count, inputs checked before anything changes, layers blended by weight.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "support/batch_maker.hpp"
#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/sample.hpp"
#include "batch/fixture.hpp"

namespace {

using namespace kinema;
using kinema::test::BatchFixture;

bool sameBits(std::span<const Mat4> a, std::span<const Mat4> b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Mat4)) == 0;
}

std::vector<InstanceRequest> inputsAt(const BatchFixture& f, std::size_t n, double t, bool twoLayers) {
    std::vector<InstanceRequest> in(n);
    for (std::size_t i = 0; i < n; ++i) {
        in[i].layerCount = twoLayers ? 2 : 1;
        in[i].layers[0] = {&f.packedA, t + 0.037 * static_cast<double>(i), 1.0f, LoopMode::Loop};
        in[i].layers[1] = {&f.packedB, t * 1.3 + 0.011 * static_cast<double>(i), 0.35f, LoopMode::Clamp};
    }
    return in;
}

TEST(PoseBatch, ResultsAreBitForBitTheSameForAnyThreadCount) {
    const BatchFixture f(37);
    constexpr std::size_t kInstances = 61;
    BatchOptions o1, o2, o4;
    o1.threads = 1;
    o2.threads = 2;
    o4.threads = 4;
    o4.grainSize = 1;
    for (BatchOptions* o : {&o1, &o2, &o4}) o->skins = {&f.skin, 1};
    PoseBatch b1 = test::makeBatch(f.skeleton, {}, kInstances, o1);
    PoseBatch b2 = test::makeBatch(f.skeleton, {}, kInstances, o2);
    PoseBatch b4 = test::makeBatch(f.skeleton, {}, kInstances, o4);
    for (int frame = 0; frame < 20; ++frame) {
        const auto in = inputsAt(f, kInstances, frame / 60.0, frame % 2 == 0);
        ASSERT_TRUE(b1.evaluate(in).ok());
        ASSERT_TRUE(b2.evaluate(in).ok());
        ASSERT_TRUE(b4.evaluate(in).ok());
        for (std::size_t i = 0; i < kInstances; ++i) {
            ASSERT_TRUE(sameBits(b1.model(i), b2.model(i))) << "instance " << i << " frame " << frame;
            ASSERT_TRUE(sameBits(b1.model(i), b4.model(i))) << "instance " << i << " frame " << frame;
            ASSERT_TRUE(sameBits(b1.palette(i), b4.palette(i))) << "instance " << i << " frame " << frame;
        }
    }
}

// Without local poses each thread evaluates its instances in one scratch pose,
// which still holds the previous instance's when the next starts: instances here
// alternate between clips that cover the pose and clips that leave joints to the
// rest pose (B), with no layers, two layers of every kind and an external pose, so
// anything left over would show in the matrices.
TEST(PoseBatch, WithoutLocalPosesTheMatricesAreTheSameBitForBit) {
    const BatchFixture f(43);
    constexpr std::size_t kInstances = 47;
    const SoaPose ragdoll(f.skeleton.restPose(), {});
    JointMask mask(f.skeleton.jointCount());
    ASSERT_TRUE(mask.setSubtree(f.skeleton.parents(), 1, 0.5f));
    const auto inputs = [&](int frame) {
        std::vector<InstanceRequest> in(kInstances);
        for (std::size_t i = 0; i < kInstances; ++i) {
            const double t = frame / 60.0 + 0.029 * static_cast<double>(i);
            InstanceRequest& x = in[i];
            x.layers[0] = {i % 2 == 0 ? &f.packedA : &f.packedB, t, 1.0f, LoopMode::Loop};
            x.layers[1] = {i % 3 == 0 ? &f.packedA : &f.packedB, 1.7 * t, 0.4f, LoopMode::Loop};
            x.layerCount = i % 5 == 4 ? 0 : i % 5 == 3 ? 1 : 2;
            if (i % 7 == 1) x.layers[1].mask = &mask;
            if (i % 7 == 2) x.layers[1].mode = LayerMode::Additive;
            if (i % 4 == 1) {
                x.external = &ragdoll;
                x.externalWeight = 0.6f;
            }
        }
        return in;
    };
    BatchOptions kept;
    kept.threads = 1;
    kept.skins = {&f.skin, 1};
    PoseBatch reference = test::makeBatch(f.skeleton, {}, kInstances, kept);
    std::vector<PoseBatch> batches;
    for (const std::size_t threads : {1u, 2u, 4u}) {
        BatchOptions o = kept;
        o.threads = threads;
        o.grainSize = 1;
        o.localPoses = false;
        batches.push_back(test::makeBatch(f.skeleton, {}, kInstances, o));
    }
    for (int frame = 0; frame < 12; ++frame) {
        const auto in = inputs(frame);
        ASSERT_TRUE(reference.evaluate(in).ok());
        for (PoseBatch& b : batches) {
            ASSERT_TRUE(b.evaluate(in).ok());
            for (std::size_t i = 0; i < kInstances; ++i) {
                ASSERT_TRUE(sameBits(reference.model(i), b.model(i)))
                    << "instance " << i << " frame " << frame << ", " << b.threadCount() << " threads";
                ASSERT_TRUE(sameBits(reference.palette(i), b.palette(i))) << "instance " << i << " frame " << frame;
                ASSERT_EQ(b.local(i).jointCount(), 0u);
            }
        }
        ASSERT_EQ(reference.local(0).jointCount(), f.skeleton.jointCount());
    }
    // Without model matrices the local poses are the only output: they are kept.
    BatchOptions posesOnly;
    posesOnly.modelMatrices = false;
    posesOnly.localPoses = false;
    PoseBatch onlyPoses = test::makeBatch(f.skeleton, {}, kInstances, posesOnly);
    ASSERT_TRUE(onlyPoses.evaluate(inputs(3)).ok());
    EXPECT_EQ(onlyPoses.local(kInstances - 1).jointCount(), f.skeleton.jointCount());
    EXPECT_TRUE(onlyPoses.model(0).empty());
}

// With either kernel mix (they differ on a CPU whose wideVectorCost() is not Native:
// the batch then runs some avx2 kernels under avx512, or not).
TEST(PoseBatch, MatchesTheScalarReferencePath) {
    for (const KernelMix mix : {KernelMix::Tuned, KernelMix::Uniform}) {
        const BatchFixture f(23);
        constexpr std::size_t kInstances = 9;
        BatchOptions o;
        o.skins = {&f.skin, 1};
        o.kernels = mix;
        PoseBatch batch = test::makeBatch(f.skeleton, {}, kInstances, o);
        const PoseKernels alone(o.simd, mix);
        ASSERT_EQ(batch.kernels().mixed(), alone.mixed());
        ASSERT_EQ(batch.kernels().name(), alone.name());
        if (mix == KernelMix::Uniform) {
            ASSERT_FALSE(batch.kernels().mixed());
        }
        std::vector<Transform> local(f.skeleton.jointCount());
        std::vector<Mat4> model(local.size()), palette(f.skin.joints.size());
        for (int frame = 0; frame < 30; ++frame) {
            const auto in = inputsAt(f, kInstances, 0.1 + frame / 30.0, false);
            ASSERT_TRUE(batch.evaluate(in).ok());
            for (std::size_t i = 0; i < kInstances; ++i) {
                std::copy(f.skeleton.restPose().begin(), f.skeleton.restPose().end(), local.begin());
                const double t = clipTime(in[i].layers[0].time, f.clipA.duration(), LoopMode::Loop);
                ASSERT_TRUE(reference::sample(f.clipA, t, local, {}));
                reference::localToModel(f.skeleton.parents(), local, model);
                reference::skinPalette(f.skin, model, palette);
                for (std::size_t j = 0; j < model.size(); ++j) {
                    for (std::size_t e = 0; e < 16; ++e) {
                        ASSERT_NEAR(batch.model(i)[j].m[e], model[j].m[e],
                                    3e-5f * std::max(1.0f, std::fabs(model[j].m[e])))
                            << "instance " << i << " joint " << j << " element " << e;
                    }
                }
                for (std::size_t j = 0; j < palette.size(); ++j) {
                    for (std::size_t e = 0; e < 16; ++e) {
                        ASSERT_NEAR(batch.palette(i)[j].m[e], palette[j].m[e],
                                    3e-5f * std::max(1.0f, std::fabs(palette[j].m[e])));
                    }
                }
            }
        }
    }
}

TEST(PoseBatch, TwoLayersAreTheFirstBlendedTowardTheSecondByItsWeight) {
    const BatchFixture f(11);
    BatchOptions o;
    o.threads = 1;
    PoseBatch batch = test::makeBatch(f.skeleton, {}, 3, o);
    const auto in = inputsAt(f, 3, 0.4, true);
    ASSERT_TRUE(batch.evaluate(in).ok());
    const PoseKernels k(o.simd);
    for (std::size_t i = 0; i < 3; ++i) {
        SoaPose a(f.skeleton.restPose(), {}), b(f.skeleton.restPose(), {}), want(f.skeleton.jointCount(), 0);
        PackedClipCursor ca(f.packedA), cb(f.packedB);
        ASSERT_TRUE(k.sample(f.packedA, clipTime(in[i].layers[0].time, f.packedA.duration(), LoopMode::Loop), ca, a));
        ASSERT_TRUE(k.sample(f.packedB, clipTime(in[i].layers[1].time, f.packedB.duration(), LoopMode::Clamp), cb, b));
        ASSERT_TRUE(k.blend(a, b, 0.35f, want));
        for (std::size_t j = 0; j < f.skeleton.jointCount(); ++j) {
            const Transform g = batch.local(i).joint(j), w = want.joint(j);
            ASSERT_EQ(std::memcmp(&g, &w, sizeof(Transform)), 0) << "instance " << i << " joint " << j;
        }
    }
}

TEST(PoseBatch, MaskedAndAdditiveLayersAreTheKernelsApplied) {
    const BatchFixture f(12);
    BatchOptions o;
    o.threads = 1;
    PoseBatch batch = test::makeBatch(f.skeleton, {}, 2, o);
    JointMask upper(f.skeleton.jointCount());
    ASSERT_TRUE(upper.setSubtree(f.skeleton.parents(), 1, 0.8f));
    const SoaPose rest(f.skeleton.restPose(), {});
    auto in = inputsAt(f, 2, 0.3, true);
    in[0].layers[1].mask = &upper;
    in[1].layers[1].mode = LayerMode::Additive;
    in[1].layers[1].mask = &upper;
    ASSERT_TRUE(batch.evaluate(in).ok());
    const PoseKernels k(o.simd);
    for (std::size_t i = 0; i < 2; ++i) {
        SoaPose a(rest), b(rest), want(rest);
        PackedClipCursor ca(f.packedA), cb(f.packedB);
        ASSERT_TRUE(k.sample(f.packedA, clipTime(in[i].layers[0].time, f.packedA.duration(), LoopMode::Loop), ca, a));
        ASSERT_TRUE(k.sample(f.packedB, clipTime(in[i].layers[1].time, f.packedB.duration(), LoopMode::Clamp), cb, b));
        if (i == 0) {
            ASSERT_TRUE(k.blend(a, b, 0.35f, upper, want));
        } else {
            ASSERT_TRUE(k.add(a, b, rest, 0.35f, &upper, want));
        }
        for (std::size_t j = 0; j < f.skeleton.jointCount(); ++j) {
            const Transform g = batch.local(i).joint(j), w = want.joint(j);
            ASSERT_EQ(std::memcmp(&g, &w, sizeof(Transform)), 0) << "instance " << i << " joint " << j;
        }
    }
    // A mask made for no skeleton, of another joint count: the count is what is wrong.
    JointMask wrong(3);
    in[0].layers[1].mask = &wrong;
    const Status refused = batch.evaluate(in);
    EXPECT_EQ(refused.code, StatusCode::WrongCount);
    EXPECT_EQ(refused.message(), "instance 0, layer 1: layer mask has another joint count than the skeleton");
}

TEST(PoseBatch, BadInputIsRefusedWithItsPlaceAndChangesNothing) {
    const BatchFixture f(5);
    BatchOptions o;
    o.threads = 2;
    PoseBatch batch = test::makeBatch(f.skeleton, {}, 4, o);
    auto in = inputsAt(f, 4, 0.25, false);
    ASSERT_TRUE(batch.evaluate(in).ok());
    const std::vector<Mat4> before(batch.model(2).begin(), batch.model(2).end());
    auto later = inputsAt(f, 4, 0.9, false);

    auto bad = later;
    bad[3].layers[0].time = std::nan("");
    EXPECT_EQ(batch.evaluate(bad).message(), "instance 3, layer 0: layer time is not finite");
    bad = later;
    bad[1].layerCount = 2;
    bad[1].layers[1].clip = nullptr;
    EXPECT_EQ(batch.evaluate(bad).message(), "instance 1, layer 1: layer has no clip");
    bad = later;
    bad[2].layers[0].weight = 1.5f;
    EXPECT_EQ(batch.evaluate(bad).message(), "instance 2, layer 0: layer weight outside [0, 1]");
    bad[1].layers[0].weight = -0.5f;  // two bad instances: the lower one is named, whatever the threads
    EXPECT_EQ(batch.evaluate(bad).instance, 1);
    bad = later;
    bad[2].layers[0].weight = std::nanf("");  // not a weight out of range: one that is no number
    EXPECT_EQ(batch.evaluate(bad).code, StatusCode::NotFinite);
    EXPECT_EQ(batch.evaluate(bad).message(), "instance 2, layer 0: layer weight not finite");
    bad = later;
    bad[0].layerCount = 9;
    EXPECT_EQ(batch.evaluate(bad).message(), "instance 0: more layers than kMaxLayers");
    EXPECT_EQ(batch.evaluate(std::span(later).first(3)).code, StatusCode::WrongCount);
    const BatchFixture big(5, 40);
    bad = later;
    bad[2].layers[0].clip = &big.packedA;
    EXPECT_EQ(batch.evaluate(bad).message(),
              "instance 2, layer 0: clip animates joints or morph weights the skeleton lacks");

    EXPECT_TRUE(sameBits(batch.model(2), before)) << "a refused evaluation changed an instance";
}

// The caller's update run in the parallel pass: once per instance, with its index,
// and the results those of the same update made in a loop before evaluate().
TEST(PoseBatch, AnUpdateInTheParallelPassActsAsOneMadeBeforeTheCall) {
    const BatchFixture f(37);
    constexpr std::size_t kInstances = 61;
    for (const std::size_t threads : {std::size_t{1}, std::size_t{4}}) {
        BatchOptions o;
        o.threads = threads;
        o.grainSize = 1;
        PoseBatch before = test::makeBatch(f.skeleton, {}, kInstances, o);
        PoseBatch inside = test::makeBatch(f.skeleton, {}, kInstances, o);
        auto looped = inputsAt(f, kInstances, 0.0, true);
        auto updated = looped;
        const auto step = [](std::size_t i) { return 1.0 / 60.0 + 0.01 * static_cast<double>(i % 3); };
        for (int frame = 0; frame < 5; ++frame) {
            for (std::size_t i = 0; i < kInstances; ++i) looped[i].layers[0].time += step(i);
            std::vector<std::atomic<int>> calls(kInstances);
            const auto advance = [&](std::size_t i, InstanceRequest& in) {
                calls[i].fetch_add(1);
                in.layers[0].time += step(i);
            };
            ASSERT_TRUE(before.evaluate(looped).ok());
            ASSERT_TRUE(inside.evaluate(updated, advance).ok());
            for (std::size_t i = 0; i < kInstances; ++i) {
                ASSERT_EQ(calls[i].load(), 1) << "instance " << i << ", " << threads << " threads";
                ASSERT_EQ(updated[i].layers[0].time, looped[i].layers[0].time) << i;
                ASSERT_TRUE(sameBits(before.model(i), inside.model(i))) << "instance " << i << " frame " << frame;
            }
        }
    }
}

// Every update runs before any instance is checked: one that makes a request bad
// is refused with its place, having changed no instance, and the others still ran.
TEST(PoseBatch, AnUpdateThatBreaksARequestIsRefusedBeforeAnythingChanges) {
    const BatchFixture f(5);
    BatchOptions o;
    o.threads = 2;
    o.grainSize = 1;
    PoseBatch batch = test::makeBatch(f.skeleton, {}, 8, o);
    auto in = inputsAt(f, 8, 0.25, false);
    ASSERT_TRUE(batch.evaluate(in).ok());
    const std::vector<Mat4> before(batch.model(6).begin(), batch.model(6).end());
    std::atomic<int> calls{0};
    const auto breakFive = [&](std::size_t i, InstanceRequest& r) {
        calls.fetch_add(1);
        r.layers[0].time = i == 5 ? std::nan("") : 0.9;
    };
    EXPECT_EQ(batch.evaluate(in, breakFive).message(), "instance 5, layer 0: layer time is not finite");
    EXPECT_EQ(calls.load(), 8);
    EXPECT_EQ(in[6].layers[0].time, 0.9);
    EXPECT_TRUE(sameBits(batch.model(6), before)) << "a refused evaluation changed an instance";
}

TEST(PoseBatch, ASkinWithTooFewInverseBindMatricesIsRefused) {
    const BatchFixture f(6);
    Skin skin = f.skin;
    skin.inverseBindMatrices.pop_back();
    BatchOptions o;
    o.skins = {&skin, 1};
    const Result<PoseBatch> batch = PoseBatch::create(f.skeleton, {}, 2, o);
    ASSERT_FALSE(batch.ok());
    EXPECT_EQ(batch.message(), "options/skins/0: has 9 inverse bind matrices for 10 joints");
}

TEST(PoseBatch, ContradictoryOptionsAndForeignSkinsAreRefusedAtCreation) {
    const BatchFixture f(6);
    BatchOptions o;
    o.skins = {&f.skin, 1};
    o.modelMatrices = false;
    const Result<PoseBatch> noModel = PoseBatch::create(f.skeleton, {}, 2, o);
    ASSERT_FALSE(noModel.ok());
    EXPECT_EQ(noModel.message(), "options/skins: skin palettes need model matrices (modelMatrices is off)");

    // A skin of a larger skeleton: its joint 20 does not exist in this one.
    const BatchFixture big(6, 30);
    BatchOptions foreign;
    foreign.skins = {&big.skin, 1};
    const Result<PoseBatch> refused = PoseBatch::create(f.skeleton, {}, 2, foreign);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.message(),
              "options/skins/0/joints/10: joint 20 is outside the skeleton (20 joints): the skin "
              "belongs to another skeleton");
}

TEST(PoseBatch, NoLayersShowsTheRestPose) {
    const BatchFixture f(3);
    PoseBatch batch = test::makeBatch(f.skeleton, {}, 2);
    std::vector<InstanceRequest> in(2);
    ASSERT_TRUE(batch.evaluate(in).ok());
    std::vector<Mat4> rest(f.skeleton.jointCount());
    reference::localToModel(f.skeleton.parents(), f.skeleton.restPose(), rest);
    for (std::size_t j = 0; j < rest.size(); ++j) {
        for (std::size_t e = 0; e < 16; ++e) ASSERT_NEAR(batch.model(1)[j].m[e], rest[j].m[e], 1e-5f);
    }
}

}  // namespace
