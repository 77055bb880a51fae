// kinema/batch: evaluating many instances of one skeleton in one call.
//
// A PoseBatch is InstanceEvaluator::evaluate() (runtime/instance.hpp) mapped over N
// instances in parallel, plus the ordered gather of their marker events. It owns
// the per-instance outputs (local pose unless BatchOptions::localPoses is off,
// model matrices, skin palettes) and sampling state, all sized when it is made.
// Instances share nothing writable, so there are no locks and the results are bit
// for bit the same whatever the thread count. After the first evaluation with a
// given set of clips (on any layers), IK task counts and marker layouts,
// evaluate() allocates nothing (InstanceEvaluator::evaluate names the exceptions).
//
// evaluate() runs on oneTBB. An engine with its own job system calls the same three
// steps itself: check() once, evaluateRange() over disjoint ranges on its workers,
// then gatherEvents().
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/core/result.hpp"
#include "kinema/core/status.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/runtime/instance.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

// One marker a layer crossed in the last evaluation.
struct BatchEvent {
    std::uint32_t instance = 0;
    std::uint32_t layer = 0;
    std::uint32_t marker = 0;          // index into clip->markers()
    const PackedClip* clip = nullptr;  // the layer's clip
    friend constexpr bool operator==(const BatchEvent&, const BatchEvent&) = default;
};

inline constexpr std::size_t kMaxBatchThreads = 1024;

struct BatchOptions {
    // 0: as many as oneTBB's default arena has; at most kMaxBatchThreads. More than
    // the machine runs at once serve evaluateRange()'s own workers: evaluate() still
    // runs no more threads than oneTBB allows.
    std::size_t threads = 0;
    SimdLevel simd = bestSimdLevel();
    KernelMix kernels = KernelMix::Tuned;  // per-pass kernel choice (simd.hpp)
    bool modelMatrices = true;             // compose local -> model (needed for palettes)
    // A palette per skin and instance (see EvaluatorOptions::skins).
    std::span<const Skin> skins{};
    // The user curves to blend per instance (see EvaluatorOptions::curves).
    std::span<const std::string> curves{};
    std::size_t grainSize = 4;  // instances per task, at least (oneTBB splits the rest by load)
    // Keep each instance's local pose for local(). False (with modelMatrices): each
    // worker evaluates in a scratch pose of its own, so that an evaluation writes
    // only model matrices and palettes; local() is then an empty pose. The outputs
    // are bit for bit the same either way.
    bool localPoses = true;
};

// A caller's per-instance update of its requests (advance a clip time, set a
// weight), called as update(instance, request). A reference to the callable for one
// evaluate() call, not a copy: it must outlive the call, as a lambda given inline does.
class InstanceUpdate {
public:
    template <typename F>
    requires(!std::same_as<std::remove_cvref_t<F>, InstanceUpdate> &&
             std::invocable<std::remove_reference_t<F>&, std::size_t, InstanceRequest&>) InstanceUpdate(F&& update)
    noexcept  // NOLINT(google-explicit-constructor): a lambda converts as a parameter
        : callable_(const_cast<void*>(static_cast<const void*>(std::addressof(update)))),
          call_([](void* callable, std::size_t instance, InstanceRequest& request) {
              (*static_cast<std::remove_reference_t<F>*>(callable))(instance, request);
          }) {}

    void operator()(std::size_t instance, InstanceRequest& request) const { call_(callable_, instance, request); }

private:
    void* callable_;
    void (*call_)(void*, std::size_t, InstanceRequest&);
};

class PoseBatch {
public:
    // Faults as InstanceEvaluator::create, and at "options/threads" for more than
    // kMaxBatchThreads.
    static Result<PoseBatch> create(const Skeleton& skeleton, std::span<const float> restWeights, std::size_t instances,
                                    BatchOptions options = {});
    ~PoseBatch();
    // A moved-from batch has no instances and no workers; it evaluates an empty list.
    PoseBatch(PoseBatch&&) noexcept;
    PoseBatch& operator=(PoseBatch&&) noexcept;

    std::size_t size() const noexcept { return states_.size(); }
    std::size_t jointCount() const noexcept { return evaluator_.jointCount(); }
    // Workers evaluate() uses, and how many scratch poses evaluateRange() offers.
    std::size_t threadCount() const noexcept;
    const PoseKernels& kernels() const noexcept { return evaluator_.kernels(); }
    const InstanceEvaluator& evaluator() const noexcept { return evaluator_; }

    // One request per instance. Checks every request first (InstanceEvaluator::
    // check, in parallel) and returns the lowest-numbered instance's failure
    // (Status::instance) without changing any instance or the events; otherwise
    // evaluates all of them and gathers the events.
    Status evaluate(std::span<const InstanceRequest> requests);

    // evaluate() with the caller's per-instance update moved into its parallel pass:
    // update(i, requests[i]) runs once for every instance, on the worker that then
    // checks that request, and all of them run before any instance is evaluated. The
    // frame's per-instance work then scales with the threads instead of running on
    // one thread before the call (with 10,000 instances, a serial loop that only
    // advances each clip time can take longer than the parallel evaluation). The
    // updates run even when a check then fails: the requests are the caller's.
    Status evaluate(std::span<InstanceRequest> requests, InstanceUpdate update);

    // The steps of evaluate(), for a job system of the caller's. check() the whole
    // list; then evaluateRange() instances [begin, end) of it, disjoint ranges
    // concurrently, `worker` in [0, threadCount()) distinct among concurrent calls
    // (it picks the scratch poses when the batch keeps no local poses); then
    // gatherEvents(). Ranges of requests check() did not accept are undefined; a
    // list of another length than size(), a range past it or a worker past
    // threadCount() is refused (WrongCount, OutOfRange) and nothing is evaluated.
    Status check(std::span<const InstanceRequest> requests) noexcept;
    Status evaluateRange(std::span<const InstanceRequest> requests, std::size_t begin, std::size_t end,
                         std::size_t worker = 0);
    void gatherEvents();

    // Markers crossed in the last evaluation, ordered by instance, then layer, then
    // the order the head met them: the same whatever the thread count. Valid until
    // the next evaluation. Buffers are sized when a layer's clip is first seen, so
    // the steady state allocates nothing for them either.
    std::span<const BatchEvent> events() const noexcept { return events_; }

    // Per instance below: an instance past size() gets an empty span or pose.
    // The blended user curves of `instance` (BatchOptions::curves order).
    std::span<const float> curves(std::size_t instance) const noexcept {
        return instance < states_.size() ? states_[instance].curves() : std::span<const float>{};
    }
    // The outcome of each IK task of `instance`'s last request, in its order.
    std::span<const IkOutcome> ikOutcomes(std::size_t instance) const noexcept {
        return instance < states_.size() ? states_[instance].ikOutcomes() : std::span<const IkOutcome>{};
    }

    // The last evaluation's outputs; before the first, the rest pose's (local pose,
    // model matrices, palettes). An empty pose (no joints) when the batch keeps no
    // local poses (BatchOptions::localPoses).
    const SoaPose& local(std::size_t instance) const noexcept {
        return localPoses_ && instance < states_.size() ? poses_[instance].pose : noPose_;
    }
    std::span<const Mat4> model(std::size_t instance) const noexcept;
    // Skin `skin`'s palette of `instance` (empty without skins).
    std::span<const Mat4> palette(std::size_t instance, std::size_t skin = 0) const noexcept;

private:
    PoseBatch() = default;
    // evaluate(), with `update` (when given) run on requests[i] of `updated` (the same
    // list, writable) before instance i is checked.
    Status evaluateUpdated(std::span<const InstanceRequest> requests, std::span<InstanceRequest> updated,
                           const InstanceUpdate* update);
    // The first failure among requests [begin, end), and whether any of them sweeps markers.
    Status checkRange(std::span<const InstanceRequest> requests, std::size_t begin, std::size_t end,
                      bool& sweeps) const noexcept;

    InstanceEvaluator evaluator_;
    std::vector<InstanceState> states_;
    std::vector<WorkPoses> poses_;  // one per instance, or kIkGroup per worker when !localPoses_
    SoaPose noPose_;
    std::vector<Mat4> model_;    // instance after instance, joints each
    std::vector<Mat4> palette_;  // instance after instance, every skin's palette each
    std::vector<BatchEvent> events_;
    bool localPoses_ = true;
    bool anyMarkers_ = false;  // some layer of the last checked list sweeps markers (gatherEvents looks)
    std::size_t grain_ = 4;
    struct Arena;
    std::unique_ptr<Arena> arena_;
};

}  // namespace kinema
