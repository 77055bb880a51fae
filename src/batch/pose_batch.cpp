#include "kinema/batch/pose_batch.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

namespace kinema {

struct PoseBatch::Arena {
    tbb::task_arena arena;
};

Result<PoseBatch> PoseBatch::create(const Skeleton& skeleton, std::span<const float> restWeights, std::size_t instances,
                                    BatchOptions options) {
    if (options.threads > kMaxBatchThreads) {
        return Fault{"options/threads",
                     std::to_string(options.threads) + " threads; at most " + std::to_string(kMaxBatchThreads) +
                         " (0: oneTBB's default)"};
    }
    EvaluatorOptions eo;
    eo.simd = options.simd;
    eo.kernels = options.kernels;
    eo.modelMatrices = options.modelMatrices;
    eo.skins = options.skins;
    eo.curves = options.curves;
    Result<InstanceEvaluator> evaluator = InstanceEvaluator::create(skeleton, restWeights, eo);
    if (!evaluator) return std::vector<Fault>(evaluator.faults().begin(), evaluator.faults().end());
    PoseBatch b;
    b.evaluator_ = std::move(evaluator).value();
    b.localPoses_ = options.localPoses || !options.modelMatrices;
    b.grain_ = options.grainSize == 0 ? 1 : options.grainSize;
    b.arena_ = std::make_unique<Arena>();
    if (options.threads == 0) {
        b.arena_->arena.initialize();
    } else {
        b.arena_->arena.initialize(static_cast<int>(options.threads));
    }
    b.states_.resize(instances);
    const std::size_t joints = b.evaluator_.jointCount();
    const std::size_t palette = b.evaluator_.paletteSize();
    if (options.modelMatrices) b.model_.resize(instances * joints);
    b.palette_.resize(instances * palette);
    if (instances > 0 && options.modelMatrices) {
        // Before the first evaluation every instance shows the rest pose, its model
        // matrices and palettes included (not identities), as its local pose does.
        InstanceState state;
        WorkPoses work = b.evaluator_.makeWorkPoses();
        (void)b.evaluator_.evaluate(InstanceRequest{}, state, work, {b.model_.data(), joints},
                                    {b.palette_.data(), palette});  // sized for it above
        for (std::size_t i = 1; i < instances; ++i) {
            std::copy_n(b.model_.begin(), joints, b.model_.begin() + static_cast<std::ptrdiff_t>(i * joints));
            std::copy_n(b.palette_.begin(), palette, b.palette_.begin() + static_cast<std::ptrdiff_t>(i * palette));
        }
    }
    if (!b.localPoses_) {
        // A group's worth per worker: instances with IK tasks are evaluated kIkGroup at a time.
        b.poses_.assign(static_cast<std::size_t>(b.arena_->arena.max_concurrency()) * kIkGroup,
                        b.evaluator_.makeWorkPoses());
        return b;
    }
    // All poses first, then all layer poses: allocated in that order, the poses that
    // every evaluation writes lie next to each other, not between layer buffers that
    // most evaluations never touch.
    b.poses_.resize(instances);
    const SoaPose& rest = b.evaluator_.restPose();
    for (WorkPoses& w : b.poses_) w.pose = rest;
    for (WorkPoses& w : b.poses_) w.layer = rest;
    return b;
}

PoseBatch::~PoseBatch() = default;
PoseBatch::PoseBatch(PoseBatch&&) noexcept = default;
PoseBatch& PoseBatch::operator=(PoseBatch&&) noexcept = default;

std::size_t PoseBatch::threadCount() const noexcept {
    return arena_ == nullptr ? 0 : static_cast<std::size_t>(arena_->arena.max_concurrency());
}

std::span<const Mat4> PoseBatch::model(std::size_t instance) const noexcept {
    if (model_.empty() || instance >= states_.size()) return {};
    const std::size_t n = evaluator_.jointCount();
    return {model_.data() + instance * n, n};
}

std::span<const Mat4> PoseBatch::palette(std::size_t instance, std::size_t skin) const noexcept {
    if (skin >= evaluator_.skins().size() || instance >= states_.size()) return {};
    const std::size_t stride = evaluator_.paletteSize();
    const std::size_t from = evaluator_.paletteOffset(skin);
    return {palette_.data() + instance * stride + from, evaluator_.paletteOffset(skin + 1) - from};
}

Status PoseBatch::checkRange(std::span<const InstanceRequest> requests, std::size_t begin, std::size_t end,
                             bool& sweeps) const noexcept {
    for (std::size_t i = begin; i < end; ++i) {
        const InstanceRequest& r = requests[i];
        if (Status s = evaluator_.check(r); !s) return s.at(static_cast<std::int64_t>(i));
        for (std::uint32_t l = 0; l < r.layerCount; ++l) sweeps = sweeps || r.layers[l].sweep;
    }
    return Status::success();
}

Status PoseBatch::check(std::span<const InstanceRequest> requests) noexcept {
    if (requests.size() != states_.size()) {
        return Status::failure(StatusCode::WrongCount, "one request per instance");
    }
    bool sweeps = false;
    if (Status s = checkRange(requests, 0, requests.size(), sweeps); !s) return s;
    anyMarkers_ = sweeps;
    return Status::success();
}

Status PoseBatch::evaluateRange(std::span<const InstanceRequest> requests, std::size_t begin, std::size_t end,
                                std::size_t worker) {
    if (requests.size() != states_.size()) {
        return Status::failure(StatusCode::WrongCount, "one request per instance");
    }
    if (begin > end || end > states_.size()) {
        return Status::failure(StatusCode::OutOfRange, "instance range past the batch");
    }
    if (begin < end && worker >= threadCount()) {
        return Status::failure(StatusCode::OutOfRange, "worker index not below threadCount()");
    }
    const std::size_t joints = evaluator_.jointCount();
    const std::size_t palette = evaluator_.paletteSize();
    for (std::size_t i = begin; i < end;) {
        // Instances with IK tasks go in runs of up to kIkGroup, whose two-bone and aim
        // tasks are solved side by side; the others one by one.
        std::size_t n = 1;
        if (!requests[i].ik.empty()) {
            while (n < kIkGroup && i + n < end && !requests[i + n].ik.empty()) ++n;
        }
        const std::span<WorkPoses> work(localPoses_ ? poses_.data() + i : poses_.data() + worker * kIkGroup, n);
        const std::span<Mat4> model =
            model_.empty() ? std::span<Mat4>{} : std::span<Mat4>{model_.data() + i * joints, n * joints};
        (void)evaluator_.evaluateGroup(requests.subspan(i, n), {states_.data() + i, n}, work, model,
                                       {palette_.data() + i * palette, n * palette});
        i += n;
    }
    return Status::success();
}

void PoseBatch::gatherEvents() {
    events_.clear();
    if (!anyMarkers_) return;
    // Serial and in instance order, so the list does not depend on which worker
    // evaluated what. Reserved to the sum of the per-instance buffers, which only
    // grow when a larger marker clip appears.
    std::size_t capacity = 0;
    for (const InstanceState& s : states_) capacity += s.eventBound();
    if (events_.capacity() < capacity) events_.reserve(capacity);
    for (std::size_t i = 0; i < states_.size(); ++i) {
        for (const MarkerEvent& e : states_[i].events()) {
            events_.push_back({static_cast<std::uint32_t>(i), e.layer, e.marker, e.clip});
        }
    }
}

Status PoseBatch::evaluate(std::span<const InstanceRequest> requests) { return evaluateUpdated(requests, {}, nullptr); }

Status PoseBatch::evaluate(std::span<InstanceRequest> requests, InstanceUpdate update) {
    return evaluateUpdated(requests, requests, &update);
}

Status PoseBatch::evaluateUpdated(std::span<const InstanceRequest> requests, std::span<InstanceRequest> updated,
                                  const InstanceUpdate* update) {
    if (requests.size() != states_.size()) {
        return Status::failure(StatusCode::WrongCount, "one request per instance");
    }
    const auto updateRange = [&](std::size_t begin, std::size_t end) {
        if (update == nullptr) return;
        for (std::size_t i = begin; i < end; ++i) (*update)(i, updated[i]);
    };
    // No arena: a moved-from batch, of no instances.
    if (arena_ == nullptr || arena_->arena.max_concurrency() == 1) {
        // One worker: the same work without the arena and its tasks, which cost W1a
        // (256 instances of 64 joints) about 5 %.
        updateRange(0, requests.size());
        if (Status s = check(requests); !s) return s;
        (void)evaluateRange(requests, 0, requests.size(), 0);
        gatherEvents();
        return Status::success();
    }
    // The checks run in parallel too; the lowest failing instance is looked up
    // again afterwards so that the answer does not depend on the thread count. Both
    // passes run in one entry into the arena. oneTBB's auto_partitioner splits the
    // instances into a few chunks per thread (more only where a thread steals work),
    // never below grain_: 10,000 instances make tens of tasks, not thousands.
    std::atomic<std::size_t> firstBad{requests.size()};
    std::atomic<bool> sweeps{false};
    const tbb::blocked_range<std::size_t> all(0, requests.size(), grain_);
    arena_->arena.execute([&] {
        tbb::parallel_for(
            all,
            [&](const tbb::blocked_range<std::size_t>& range) {
                updateRange(range.begin(), range.end());
                bool rangeSweeps = false;
                if (Status s = checkRange(requests, range.begin(), range.end(), rangeSweeps); !s) {
                    const auto bad = static_cast<std::size_t>(s.instance);
                    std::size_t seen = firstBad.load(std::memory_order_relaxed);
                    while (bad < seen && !firstBad.compare_exchange_weak(seen, bad, std::memory_order_relaxed)) {}
                }
                if (rangeSweeps) sweeps.store(true, std::memory_order_relaxed);
            },
            tbb::auto_partitioner());
        if (firstBad.load() < requests.size()) return;
        tbb::parallel_for(
            all,
            [&](const tbb::blocked_range<std::size_t>& range) {
                // The arena's slot of this thread, in [0, max_concurrency).
                const auto worker = static_cast<std::size_t>(tbb::this_task_arena::current_thread_index());
                (void)evaluateRange(requests, range.begin(), range.end(), worker);
            },
            tbb::auto_partitioner());
    });
    if (const std::size_t bad = firstBad.load(); bad < requests.size()) {
        return evaluator_.check(requests[bad]).at(static_cast<std::int64_t>(bad));
    }
    anyMarkers_ = sweeps.load();
    gatherEvents();
    return Status::success();
}

}  // namespace kinema
