#include "kinema/runtime/instance.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "kinema/core/counted.hpp"
#include "kinema/math/finite.hpp"
#include "kinema/runtime/external_pose.hpp"
#include "ik_lanes.hpp"

namespace kinema {

static_assert(kIkGroup == detail::kIkLanes, "a group's IK tasks fill the solver's lanes");

namespace {

// Asks the memory system for `bytes` bytes from `at`.
void prefetch(const void* at, std::size_t bytes) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    const auto* first = static_cast<const char*>(at);
    for (std::size_t k = 0; k < bytes; k += 64) __builtin_prefetch(first + k);
#else
    (void)at;
    (void)bytes;
#endif
}

}  // namespace

Transform anchoredTransform(const RootAnchor& anchor, const Transform& posed) noexcept {
    Transform t = posed;
    if (anchor.x) t.translation.x = anchor.value.translation.x;
    if (anchor.y) t.translation.y = anchor.value.translation.y;
    if (anchor.z) t.translation.z = anchor.value.translation.z;
    // In double: check() took rotations of any length that has a direction.
    const Quat held = tryNormalize(anchor.value.rotation).value_or(t.rotation);
    if (anchor.rotation == RootRotation::Full) t.rotation = held;
    if (anchor.rotation == RootRotation::Heading) {
        // The pose's turn about up undone, the held one put in its place: q = H S
        // becomes H0 S.
        const Quat q = normalize(t.rotation);
        t.rotation = normalize(twistAbout(held, anchor.up) * conjugate(twistAbout(q, anchor.up)) * q);
    }
    return t;
}

Result<InstanceEvaluator> InstanceEvaluator::create(const Skeleton& skeleton, std::span<const float> restWeights,
                                                    EvaluatorOptions options) {
    std::vector<Fault> faults;
    const std::size_t joints = skeleton.jointCount();
    if (!options.skins.empty() && !options.modelMatrices) {
        faults.push_back({"options/skins", "skin palettes need model matrices (modelMatrices is off)"});
    }
    for (std::size_t k = 0; k < options.skins.size(); ++k) {
        const Skin& skin = options.skins[k];
        const std::string where = "options/skins/" + std::to_string(k);
        if (skin.skeleton != 0 && skin.skeleton != skeleton.fingerprint()) {
            faults.push_back(
                {where, "skin \"" + skin.name + "\" belongs to another skeleton (its joint names differ)"});
            continue;
        }
        if (skin.inverseBindMatrices.size() != skin.joints.size()) {
            faults.push_back(
                {where,
                 "has " + counted(skin.inverseBindMatrices.size(), "inverse bind matrix", "inverse bind matrices") +
                     " for " + counted(skin.joints.size(), "joint")});
        }
        for (std::size_t j = 0; j < skin.joints.size(); ++j) {
            if (skin.joints[j] >= joints) {
                faults.push_back({where + "/joints/" + std::to_string(j),
                                  "joint " + std::to_string(skin.joints[j]) + " is outside the skeleton (" +
                                      std::to_string(joints) + " joints): the skin belongs to another skeleton"});
                break;
            }
        }
    }
    for (std::size_t w = 0; w < restWeights.size(); ++w) {
        if (!std::isfinite(restWeights[w])) {
            faults.push_back({"restWeights/" + std::to_string(w), "is not finite"});
            break;
        }
    }
    for (std::size_t i = 0; i < options.curves.size(); ++i) {
        const std::string& name = options.curves[i];
        if (name.empty()) faults.push_back({"options/curves/" + std::to_string(i), "a curve needs a name"});
        if (std::find(options.curves.begin(), options.curves.begin() + static_cast<std::ptrdiff_t>(i), name) !=
            options.curves.begin() + static_cast<std::ptrdiff_t>(i)) {
            faults.push_back({"options/curves/" + std::to_string(i), "curve \"" + name + "\" is named twice"});
        }
    }
    if (!faults.empty()) return faults;
    InstanceEvaluator e;
    e.parents_.assign(skeleton.parents().begin(), skeleton.parents().end());
    e.skeleton_ = skeleton.fingerprint();
    e.rest_ = SoaPose(skeleton.restPose(), restWeights);
    e.kernels_ = PoseKernels(options.simd, options.kernels);
    e.modelMatrices_ = options.modelMatrices;
    e.skins_ = options.skins;
    e.curveNames_.assign(options.curves.begin(), options.curves.end());
    e.paletteOffsets_.assign(1, 0);
    for (const Skin& skin : options.skins) e.paletteOffsets_.push_back(e.paletteOffsets_.back() + skin.joints.size());
    return e;
}

bool InstanceEvaluator::fits(const JointMask& mask) const noexcept {
    return mask.jointCount() == jointCount() &&
        (mask.skeletonFingerprint() == 0 || mask.skeletonFingerprint() == skeleton_);
}

Status InstanceEvaluator::check(const InstanceRequest& in) const noexcept {
    const std::size_t joints = jointCount();
    const std::size_t weights = weightCount();
    if (in.layerCount > kMaxLayers) return Status::failure(StatusCode::OutOfRange, "more layers than kMaxLayers");
    for (std::size_t l = 0; l < in.layerCount; ++l) {
        const LayerRequest& layer = in.layers[l];
        const auto bad = [&](StatusCode code, const char* what) {
            Status s = Status::failure(code, what);
            s.layer = static_cast<std::int64_t>(l);
            return s;
        };
        if (layer.clip == nullptr) return bad(StatusCode::Missing, "layer has no clip");
        if (layer.clip->skeletonFingerprint() != 0 && layer.clip->skeletonFingerprint() != skeleton_) {
            return bad(StatusCode::ForeignInput, "clip was made for another skeleton (bind it with bindClip)");
        }
        if (layer.clip->jointsNeeded() > joints || layer.clip->weightsNeeded() > weights) {
            return bad(StatusCode::ForeignInput, "clip animates joints or morph weights the skeleton lacks");
        }
        if (!std::isfinite(layer.time)) return bad(StatusCode::NotFinite, "layer time is not finite");
        if (Status s = checkUnitWeight(layer.weight, "layer weight outside [0, 1]", "layer weight not finite"); !s)
            return bad(s.code, s.what);
        if (layer.mask != nullptr && !fits(*layer.mask)) {
            if (layer.mask->jointCount() == joints)
                return bad(StatusCode::ForeignInput, "layer mask was made for another skeleton");
            return bad(StatusCode::WrongCount, "layer mask has another joint count than the skeleton");
        }
        if (layer.reference != nullptr &&
            (layer.reference->jointCount() != joints || layer.reference->weights().size() != weights)) {
            return bad(StatusCode::ForeignInput, "reference pose does not fit the skeleton");
        }
        if (layer.reference != nullptr) {
            if (const std::int64_t j = firstUnsoundJoint(*layer.reference); j >= 0) {
                if (j == static_cast<std::int64_t>(joints))
                    return bad(StatusCode::NotFinite, "reference pose holds a morph weight that is not finite");
                return bad(StatusCode::NotFinite, "reference pose holds a value that is not finite or a zero rotation")
                    .withIndex(j);
            }
        }
        if (layer.sweep) {
            const PlaybackStep& s = layer.step;
            if (!std::isfinite(s.from) || !std::isfinite(s.to) || !std::isfinite(s.travel)) {
                return bad(StatusCode::NotFinite, "playback step is not finite");
            }
        }
    }
    if (in.external != nullptr) {
        if (in.external->jointCount() != joints || in.external->weights().size() != weights) {
            return Status::failure(StatusCode::ForeignInput, "external pose does not fit the skeleton");
        }
        if (Status s = checkUnitWeight(in.externalWeight, "external pose weight outside [0, 1]",
                                       "external pose weight not finite");
            !s)
            return s;
        if (const std::int64_t j = firstUnsoundJoint(*in.external); j >= 0) {
            if (j == static_cast<std::int64_t>(joints))
                return Status::failure(StatusCode::NotFinite, "external pose holds a morph weight that is not finite");
            return Status::failure(StatusCode::NotFinite,
                                   "external pose holds a value that is not finite or a zero rotation")
                .withIndex(j);
        }
        if (in.externalMask != nullptr && !fits(*in.externalMask)) {
            if (in.externalMask->jointCount() == joints)
                return Status::failure(StatusCode::ForeignInput, "external pose mask was made for another skeleton");
            return Status::failure(StatusCode::WrongCount,
                                   "external pose mask has another joint count than the skeleton");
        }
    }
    if (in.rootAnchor) {
        const RootAnchor& a = *in.rootAnchor;
        if (a.joint >= joints) return Status::failure(StatusCode::OutOfRange, "root anchor joint past the skeleton");
        const Vec3& t = a.value.translation;
        const Quat& q = a.value.rotation;
        const Vec3& s = a.value.scale;  // not applied, but a value given is a finite one
        const float values[] = {t.x, t.y, t.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z};
        if (!allFinite(values)) {
            return Status::failure(StatusCode::NotFinite, "root anchor value is not finite");
        }
        if (!tryNormalize(q)) {
            return Status::failure(StatusCode::OutOfRange, "root anchor rotation is zero");
        }
        if (!isFinite(a.up)) return Status::failure(StatusCode::NotFinite, "root anchor up axis is not finite");
        if (a.up == Vec3{}) return Status::failure(StatusCode::OutOfRange, "root anchor up axis is zero");
        if (a.rotation != RootRotation::None && a.rotation != RootRotation::Heading &&
            a.rotation != RootRotation::Full) {
            return Status::failure(StatusCode::OutOfRange, "root anchor rotation is not a RootRotation");
        }
    }
    if (Status s = checkBoneAdjustments(in.adjustments, joints); !s) return s;
    return checkIkTasks(in.ik, parents_);
}

InstanceState::InstanceState(InstanceState&& other) noexcept { *this = std::move(other); }

InstanceState& InstanceState::operator=(InstanceState&& other) noexcept {
    if (this == &other) return *this;
    cursors_ = std::move(other.cursors_);
    crossed_ = std::move(other.crossed_);
    events_ = std::move(other.events_);
    eventCount_ = other.eventCount_;
    ikOutcomes_ = std::move(other.ikOutcomes_);
    ikCount_ = other.ikCount_;
    curves_ = std::move(other.curves_);
    curveLayer_ = std::move(other.curveLayer_);
    curveCount_ = other.curveCount_;
    curveClips_ = other.curveClips_;
    curveNames_ = other.curveNames_;
    curveOutputs_ = std::move(other.curveOutputs_);
    other.forgetMoved();
    return *this;
}

void InstanceState::forgetMoved() noexcept {
    // The moves emptied the lists these count into and left the cursors unbound.
    crossed_.clear();
    events_.clear();
    eventCount_ = 0;
    ikOutcomes_.clear();
    ikCount_ = 0;
    curves_.clear();
    curveLayer_.clear();
    curveCount_ = 0;
    curveClips_.fill(nullptr);
    curveNames_.fill(0);
    for (std::vector<std::int32_t>& o : curveOutputs_) o.clear();
}

Status InstanceEvaluator::evaluate(const InstanceRequest& request, InstanceState& state, WorkPoses& work,
                                   std::span<Mat4> model, std::span<Mat4> palettes) const {
    return evaluateGroup({&request, 1}, {&state, 1}, {&work, 1}, model, palettes);
}

Status InstanceEvaluator::evaluateGroup(std::span<const InstanceRequest> requests, std::span<InstanceState> states,
                                        std::span<WorkPoses> work, std::span<Mat4> model,
                                        std::span<Mat4> palettes) const {
    const std::size_t count = requests.size();
    if (states.size() != count || work.size() != count) {
        return Status::failure(StatusCode::WrongCount, "one instance state and one work pose pair per request");
    }
    const auto fits = [&](const SoaPose& p) {
        return p.jointCount() == jointCount() && p.weights().size() == weightCount();
    };
    for (const WorkPoses& w : work) {
        if (!fits(w.pose) || !fits(w.layer)) {
            return Status::failure(StatusCode::WrongCount, "work poses of another skeleton (see makeWorkPoses)");
        }
    }
    if ((modelMatrices_ && model.size() < count * jointCount()) || palettes.size() < count * paletteSize()) {
        return Status::failure(StatusCode::WrongCount,
                               "fewer model matrices or palette matrices than the instances need");
    }
    // The IK tasks were last read when the whole batch was checked, long enough ago to
    // have left the cache: fetched now with the outcomes' place, they arrive while the
    // poses blend.
    for (std::size_t k = 0; k < count; ++k) {
        if (requests[k].ik.empty()) continue;
        prefetch(requests[k].ik.data(), requests[k].ik.size_bytes());
        prefetch(&states[k], sizeof(InstanceState));
    }
    for (std::size_t k = 0; k < count; ++k) {
        const std::vector<IkOutcome>& outcomes = states[k].ikOutcomes_;
        if (!requests[k].ik.empty() && !outcomes.empty())
            prefetch(outcomes.data(), outcomes.size() * sizeof(IkOutcome));
    }
    for (std::size_t k = 0; k < count; ++k) blendPose(requests[k], states[k], work[k]);
    solveIk(requests, states, work);
    if (!modelMatrices_) return Status::success();
    const std::size_t joints = jointCount();
    const std::size_t palette = paletteSize();
    for (std::size_t k = 0; k < count; ++k) {
        const std::span<Mat4> composed = model.subspan(k * joints, joints);
        (void)kernels_.localToModel(parents_, work[k].pose, composed);
        for (std::size_t s = 0; s < skins_.size(); ++s) {
            const std::size_t from = k * palette + paletteOffsets_[s];
            (void)kernels_.skinPalette(skins_[s], composed,
                                       palettes.subspan(from, paletteOffsets_[s + 1] - paletteOffsets_[s]));
        }
    }
    return Status::success();
}

void InstanceEvaluator::solveIk(std::span<const InstanceRequest> requests, std::span<InstanceState> states,
                                std::span<WorkPoses> work) const {
    std::size_t most = 0;
    for (std::size_t k = 0; k < requests.size(); ++k) {
        const std::size_t tasks = requests[k].ik.size();
        if (states[k].ikOutcomes_.size() < tasks) states[k].ikOutcomes_.resize(tasks);
        states[k].ikCount_ = tasks;
        most = std::max(most, tasks);
    }
    if (most == 0) return;
    // Task by task, so each instance runs its own in list order; the two-bone tasks
    // of one position naming the same joints are solved side by side, and so are the
    // aim tasks naming the same joints.
    const auto sideBySide = [](const IkTask& task) {
        if (const auto* t = std::get_if<TwoBoneIk>(&task)) return t->weight > 0.0f;
        if (const auto* t = std::get_if<AimIk>(&task)) return t->weight > 0.0f;
        return false;
    };
    const auto sameJoints = [](const IkTask& a, const IkTask& b) {
        if (a.index() != b.index()) return false;
        if (const auto* t = std::get_if<TwoBoneIk>(&a)) {
            const auto& u = std::get<TwoBoneIk>(b);
            return t->root == u.root && t->middle == u.middle && t->end == u.end;
        }
        const auto x = std::get<AimIk>(a).joints, y = std::get<AimIk>(b).joints;
        return x.data() == y.data() ? x.size() == y.size() : std::ranges::equal(x, y);
    };
    for (std::size_t from = 0; from < requests.size(); from += kIkGroup) {
        const std::size_t count = std::min(kIkGroup, requests.size() - from);
        std::array<SoaPose*, kIkGroup> groupPoses;
        std::array<const IkTask*, kIkGroup> lists;  // each request's tasks
        std::array<std::size_t, kIkGroup> holds;    // how many
        for (std::size_t k = 0; k < count; ++k) {
            groupPoses[k] = &work[from + k].pose;
            lists[k] = requests[from + k].ik.data();
            holds[k] = requests[from + k].ik.size();
        }
        detail::PoseLanes poses({groupPoses.data(), count});
        for (std::size_t t = 0; t < most; ++t) {
            std::uint32_t pending = 0;
            for (std::size_t k = 0; k < count; ++k) {
                if (t < holds[k]) pending |= 1u << k;
            }
            while (pending != 0) {
                const auto first = static_cast<std::size_t>(std::countr_zero(pending));
                const IkTask& lead = lists[first][t];
                if (!sideBySide(lead)) {
                    poses.flush();
                    states[from + first].ikOutcomes_[t] = detail::solveIkTask(parents_, work[from + first].pose, lead);
                    pending &= pending - 1;
                    continue;
                }
                const auto solve = [&]<class Task>(const Task&) {
                    std::array<detail::TaskLane<Task>, kIkGroup> lanes;
                    for (std::size_t k = 0; k < kIkGroup; ++k) {
                        const bool member =
                            (pending >> k & 1u) != 0 && sideBySide(lists[k][t]) && sameJoints(lead, lists[k][t]);
                        lanes[k] = member
                            ? detail::TaskLane<Task>{&std::get<Task>(lists[k][t]), &states[from + k].ikOutcomes_[t]}
                            : detail::TaskLane<Task>{};
                        if (member) pending &= ~(1u << k);
                    }
                    if constexpr (std::is_same_v<Task, TwoBoneIk>) {
                        detail::solveTwoBoneLanes(parents_, poses, lanes);
                    } else {
                        detail::solveAimLanes(parents_, poses, lanes);
                    }
                };
                if (const auto* twoBone = std::get_if<TwoBoneIk>(&lead)) {
                    solve(*twoBone);
                } else {
                    solve(std::get<AimIk>(lead));
                }
            }
        }
        poses.flush();
    }
}

void InstanceEvaluator::blendPose(const InstanceRequest& input, InstanceState& state, WorkPoses& work) const {
    // `work` may hold another instance's pose (a thread's scratch): every path
    // below writes the whole pose before reading it (a clip that does not cover it
    // starts from the rest pose), so nothing of that instance shows through.
    const std::size_t joints = jointCount();
    const std::size_t weights = weightCount();
    if (input.layerCount == 0) work.pose.assign(rest_);
    sweepMarkers(input, state);
    for (std::uint32_t l = 0; l < input.layerCount; ++l) {
        const LayerRequest& layer = input.layers[l];
        const PackedClip& clip = *layer.clip;
        PackedClipCursor& cursor = state.cursors_[l];
        if (!cursor.isBoundTo(clip)) {
            // Every layer's cursor grows with the widest clip any of them has bound: a
            // clip seen on one layer plays on another without allocating.
            if (cursor.capacity() < clip.timelines().size()) {
                for (PackedClipCursor& c : state.cursors_) c.reserve(clip.timelines().size());
            }
            cursor.bind(clip);
        }
        const double t = clipTime(layer.time, clip.duration(), layer.loop);
        const bool covers = clip.coversPose(joints, weights);
        if (l != 0 && layer.mode != LayerMode::Additive && covers) {
            // An override layer over the whole pose: sampled straight over it.
            (void)kernels_.sampleOver(clip, t, cursor, layer.weight, layer.mask, work.pose);
            continue;
        }
        SoaPose& target = l == 0 ? work.pose : work.layer;
        if (!covers) target.assign(rest_);
        (void)kernels_.sample(clip, t, cursor, target);
        if (l == 0) continue;
        if (layer.mode == LayerMode::Additive) {
            (void)kernels_.add(work.pose, work.layer, layer.reference != nullptr ? *layer.reference : rest_,
                               layer.weight, layer.mask, work.pose);
        } else if (layer.mask != nullptr) {
            (void)kernels_.blend(work.pose, work.layer, layer.weight, *layer.mask, work.pose);
        } else {
            (void)kernels_.blend(work.pose, work.layer, layer.weight, work.pose);
        }
    }
    if (!curveNames_.empty()) blendCurves(input, state);
    if (input.rootAnchor) {
        const RootAnchor& a = *input.rootAnchor;
        work.pose.setJoint(a.joint, anchoredTransform(a, work.pose.joint(a.joint)));
    }
    if (input.external != nullptr && input.externalWeight > 0.0f) {
        // The layer scratch is free now; blending into it and swapping keeps the
        // animated morph weights without a copy of them.
        (void)blendExternalPose(kernels_, work.pose, *input.external, input.externalWeight, input.externalMask,
                                work.layer);
        std::swap(work.pose, work.layer);
    }
    if (!input.adjustments.empty()) (void)applyBoneAdjustments(parents_, work.pose, input.adjustments);
}

void InstanceEvaluator::blendCurves(const InstanceRequest& input, InstanceState& state) const {
    const std::size_t n = curveNames_.size();
    if (state.curves_.size() < n) {
        state.curves_.resize(n);
        state.curveLayer_.resize(n);
    }
    state.curveCount_ = n;
    std::fill_n(state.curves_.begin(), n, 0.0f);
    for (std::uint32_t l = 0; l < input.layerCount; ++l) {
        const LayerRequest& layer = input.layers[l];
        const PackedClip& clip = *layer.clip;
        const auto curves = clip.curves();
        std::vector<std::int32_t>& outputs = state.curveOutputs_[l];
        if (state.curveClips_[l] != &clip || state.curveNames_[l] != clip.curveNamesFingerprint() ||
            outputs.size() != curves.size()) {
            // Mapped once per clip a layer takes up, like a cursor binding.
            outputs.assign(curves.size(), -1);
            for (std::size_t k = 0; k < curves.size(); ++k) {
                const auto found = std::find(curveNames_.begin(), curveNames_.end(), curves[k].name);
                if (found != curveNames_.end()) outputs[k] = static_cast<std::int32_t>(found - curveNames_.begin());
            }
            state.curveClips_[l] = &clip;
            state.curveNames_[l] = clip.curveNamesFingerprint();
        }
        const double t = clipTime(layer.time, clip.duration(), layer.loop);
        const float w = l == 0 ? 1.0f : layer.weight;
        if (l != 0 && layer.mode == LayerMode::Additive) {
            for (std::size_t k = 0; k < curves.size(); ++k) {
                if (outputs[k] >= 0)
                    state.curves_[static_cast<std::size_t>(outputs[k])] += w * sampleCurve(curves[k], t);
            }
            continue;
        }
        std::fill_n(state.curveLayer_.begin(), n, 0.0f);
        for (std::size_t k = 0; k < curves.size(); ++k) {
            if (outputs[k] >= 0) state.curveLayer_[static_cast<std::size_t>(outputs[k])] = sampleCurve(curves[k], t);
        }
        for (std::size_t c = 0; c < n; ++c) state.curves_[c] += w * (state.curveLayer_[c] - state.curves_[c]);
    }
}

void InstanceEvaluator::sweepMarkers(const InstanceRequest& input, InstanceState& state) const {
    state.eventCount_ = 0;
    std::size_t total = 0, widest = 0;
    for (std::uint32_t l = 0; l < input.layerCount; ++l) {
        const LayerRequest& layer = input.layers[l];
        if (!layer.sweep) continue;
        total += layer.clip->markers().size();
        widest = std::max(widest, layer.clip->markers().size());
    }
    if (total == 0) return;
    // A step crosses each marker at most once, so these bound every later frame
    // with the same clips: they grow here, once, like a cursor binding.
    if (state.events_.size() < total) state.events_.resize(total);
    if (state.crossed_.size() < widest) state.crossed_.resize(widest);
    for (std::uint32_t l = 0; l < input.layerCount; ++l) {
        const LayerRequest& layer = input.layers[l];
        if (!layer.sweep) continue;
        const auto markers = layer.clip->markers();
        const std::size_t n = markersCrossed(markers, layer.clip->duration(), layer.loop, layer.step,
                                             {state.crossed_.data(), markers.size()});
        for (std::size_t k = 0; k < n; ++k) state.events_[state.eventCount_++] = {l, state.crossed_[k], layer.clip};
    }
}

}  // namespace kinema
