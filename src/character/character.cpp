#include "kinema/character/character.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace kinema {

namespace {

constexpr Status kUnknownClip = Status::failure(StatusCode::UnknownName, "no clip of this name");
constexpr Status kBadLayer = Status::failure(StatusCode::OutOfRange, "no upper layer of this index (1..2)");
constexpr Status kMovedFrom = Status::failure(StatusCode::NotReady, "the character was moved from");
constexpr Status kIdleLayer = Status::failure(StatusCode::NotReady, "the layer plays no clip");

}  // namespace

Result<Character> Character::create(const Model& model, CharacterOptions options) {
    if (!options.compressedClips.empty() && options.compressedClips.size() != model.clips.size()) {
        return Fault{"compressedClips",
                     std::to_string(options.compressedClips.size()) + " compressed clips for " +
                         std::to_string(model.clips.size()) + " clips"};
    }
    EvaluatorOptions eo;
    eo.simd = options.simd;
    eo.skins = model.skins;
    eo.curves = options.curves;
    Result<InstanceEvaluator> evaluator = InstanceEvaluator::create(model.skeleton, model.restWeights, eo);
    if (!evaluator) return std::vector<Fault>(evaluator.faults().begin(), evaluator.faults().end());
    Character c;
    c.model_ = ModelLink(&model);
    c.evaluator_ = std::move(evaluator).value();
    c.packed_.reserve(model.clips.size());
    std::size_t markers = 0;
    for (std::size_t i = 0; i < model.clips.size(); ++i) {
        const Clip& clip = model.clips[i];
        if (options.compressedClips.empty() || options.compressedClips[i].tracks.empty()) {
            c.packed_.emplace_back(clip);
        } else {
            auto packed = PackedClip::fromCompressed(options.compressedClips[i], clip);
            if (!packed) {
                std::vector<Fault> faults(packed.faults().begin(), packed.faults().end());
                for (Fault& f : faults) f.where = "compressedClips/" + std::to_string(i) + "/" + f.where;
                return faults;
            }
            c.packed_.push_back(std::move(packed).value());
        }
        markers = std::max(markers, clip.markers().size());
    }
    if (!options.rootMotionJoint.empty()) {
        const auto joint = model.skeleton.findJoint(options.rootMotionJoint);
        if (!joint) {
            return Fault{"rootMotionJoint", "no joint named \"" + std::string(options.rootMotionJoint) + "\""};
        }
        c.rootJoint_ = *joint;
        c.rootMotions_.reserve(model.clips.size());
        for (std::size_t i = 0; i < model.clips.size(); ++i) {
            auto motion =
                RootMotion::create(model.clips[i], *joint, model.skeleton.restPose()[*joint], options.rootMotionMask);
            if (!motion) {
                std::vector<Fault> faults(motion.faults().begin(), motion.faults().end());
                for (Fault& f : faults) f.where = "rootMotionJoint/clips/" + std::to_string(i) + "/" + f.where;
                return faults;
            }
            c.rootMotions_.push_back(std::move(motion).value());
        }
    }
    c.work_ = c.evaluator_.makeWorkPoses();
    c.modelMatrices_.resize(c.evaluator_.jointCount());
    c.palettes_.resize(c.evaluator_.paletteSize());
    // Each head (two base slots, the upper layers) reports each marker at most once
    // per step, and at most one loop or end.
    c.events_.resize((2 + kUpperLayers) * (markers + 1));
    c.crossed_.resize(markers);
    c.skinned_.resize(model.meshInstances.size());
    // Before the first update the character stands in its rest pose, its matrices and
    // palettes included (not identities), as pose() does.
    (void)c.evaluator_.evaluate(InstanceRequest{}, c.state_, c.work_, c.modelMatrices_,
                                c.palettes_);  // the character's own outputs, sized for its evaluator
    return c;
}

std::optional<std::uint32_t> Character::findClip(std::string_view name) const noexcept {
    if (!model_) return std::nullopt;
    for (std::size_t i = 0; i < model_->clips.size(); ++i) {
        if (model_->clips[i].name() == name) return static_cast<std::uint32_t>(i);
    }
    return std::nullopt;
}

std::uint32_t Character::clipIndexOf(const Clip* clip) const noexcept {
    return static_cast<std::uint32_t>(clip - model_->clips.data());
}

Status Character::play(std::string_view clip, LoopMode loop) noexcept {
    if (!model_) return kMovedFrom;
    const auto i = findClip(clip);
    if (!i) return kUnknownClip;
    // A cut from the clip's start, also when it is the clip playing (a crossfade to the
    // clip playing keeps it as it is): nothing plays first, so the fade's cut row applies.
    base_.crossFadeTo(nullptr, 0.0);
    base_.crossFadeTo(&model_->clips[*i], 0.0, loop);
    return Status::success();
}

Status Character::crossFade(std::string_view clip, double seconds, LoopMode loop) noexcept {
    if (!model_) return kMovedFrom;
    const auto i = findClip(clip);
    if (!i) return kUnknownClip;
    if (!std::isfinite(seconds)) return Status::failure(StatusCode::NotFinite, "fade time is not finite");
    base_.crossFadeTo(&model_->clips[*i], seconds, loop);
    return Status::success();
}

Status Character::setSpeed(double speed) noexcept {
    if (!model_) return kMovedFrom;
    return base_.current().setSpeed(speed);
}

Status Character::playLayer(std::size_t layer, std::string_view clip, LoopMode loop, LayerMode mode,
                            const JointMask* mask, float weight) noexcept {
    if (layer == 0 || layer > kUpperLayers) return kBadLayer;
    if (!model_) return kMovedFrom;
    const auto i = findClip(clip);
    if (!i) return kUnknownClip;
    if (Status s = checkUnitWeight(weight, "layer weight outside [0, 1]", "layer weight not finite"); !s) return s;
    if (mask != nullptr && !evaluator_.fits(*mask)) {
        return Status::failure(StatusCode::ForeignInput, "layer mask was made for another skeleton");
    }
    Upper& u = upper_[layer - 1];
    u = Upper{};
    u.clip = *i;
    u.active = true;
    u.player = Player(model_->clips[*i], loop);
    u.player.play();
    u.mode = mode;
    u.mask = mask;
    u.weight = u.target = weight;
    return Status::success();
}

Status Character::fadeLayer(std::size_t layer, float target, double seconds) noexcept {
    if (layer == 0 || layer > kUpperLayers) return kBadLayer;
    if (!model_) return kMovedFrom;
    if (Status s = checkUnitWeight(target, "layer weight outside [0, 1]", "layer weight not finite"); !s) return s;
    if (!std::isfinite(seconds)) return Status::failure(StatusCode::NotFinite, "fade time is not finite");
    Upper& u = upper_[layer - 1];
    if (!u.active) return kIdleLayer;
    u.target = target;
    // A fade too short for its rate to be a finite number is a cut.
    const double rate = seconds > 0.0 ? std::fabs(u.target - u.weight) / seconds : 0.0;
    if (seconds <= 0.0 || !std::isfinite(rate)) {
        u.weight = target;
        u.rate = 0.0;
    } else {
        u.rate = rate;
    }
    return Status::success();
}

Status Character::setLayerSpeed(std::size_t layer, double speed) noexcept {
    if (layer == 0 || layer > kUpperLayers) return kBadLayer;
    if (!model_) return kMovedFrom;
    if (!upper_[layer - 1].active) return kIdleLayer;
    return upper_[layer - 1].player.setSpeed(speed);
}

Status Character::stopLayer(std::size_t layer) noexcept {
    if (!model_) return kMovedFrom;
    if (layer == 0 || layer > kUpperLayers) return kBadLayer;
    upper_[layer - 1] = Upper{};
    return Status::success();
}

const Player& Character::current() const noexcept {
    static const Player none;  // immutable: the head of a character that plays nothing
    return model_ ? base_.current() : none;
}

float Character::layerWeight(std::size_t layer) const noexcept {
    if (!model_) return 0.0f;
    if (layer == 0) return 1.0f;
    if (layer > kUpperLayers || !upper_[layer - 1].active) return 0.0f;
    return static_cast<float>(upper_[layer - 1].weight);
}

void Character::report(std::uint32_t layer, std::uint32_t clip, LoopMode loop, const PlaybackStep& step,
                       bool stopped) noexcept {
    // A one-shot finishes when its head stops at the end it runs towards, even without
    // moving: one of no length, or one started backwards from its start.
    if (step.travel == 0.0) {
        if (stopped && loop == LoopMode::Clamp && eventCount_ < events_.size())
            events_[eventCount_++] = {CharacterEvent::Kind::Finished, layer, clip, {}};
        return;
    }
    const Clip& c = model_->clips[clip];
    const std::size_t n = markersCrossed(c, loop, step, crossed_);
    for (std::size_t k = 0; k < n && eventCount_ < events_.size(); ++k) {
        events_[eventCount_++] = {CharacterEvent::Kind::Marker, layer, clip, c.markers()[crossed_[k]].name};
    }
    const double d = c.duration();
    const double period = loopPeriod(loop, d);
    bool looped = false, finished = false;
    if (period > 0.0) {
        looped = std::fabs(step.travel) >= period || (step.travel > 0.0 ? step.to < step.from : step.to > step.from);
    } else if (d > 0.0) {
        finished =
            stopped || (step.travel > 0.0 ? (step.from < d && step.to >= d) : (step.from > 0.0 && step.to <= 0.0));
    }
    if ((looped || finished) && eventCount_ < events_.size()) {
        events_[eventCount_++] = {
            looped ? CharacterEvent::Kind::Looped : CharacterEvent::Kind::Finished, layer, clip, {}};
    }
}

void Character::fill(const CrossFadeStep& baseStep, InstanceRequest& r,
                     std::array<const RootMotion*, kMaxLayers>& motions) const noexcept {
    r = InstanceRequest{};
    r.ik = ik_;
    motions = {};
    const auto add = [&](const Player& p, float weight, const PlaybackStep& step) -> LayerRequest& {
        const std::uint32_t clip = clipIndexOf(p.clip());
        if (rootJoint_) motions[r.layerCount] = &rootMotions_[clip];
        LayerRequest& l = r.layers[r.layerCount++];
        l.clip = &packed_[clip];
        l.time = p.position();
        l.loop = p.mode();
        l.weight = weight;
        l.step = step;
        return l;
    };
    if (const Player* out = base_.outgoing(); out != nullptr && out->clip() != nullptr) {
        (void)add(*out, 1.0f, baseStep.outgoing.value_or(PlaybackStep{}));
    }
    if (base_.current().clip() != nullptr) {
        (void)add(base_.current(), r.layerCount == 0 ? 1.0f : base_.currentWeight(), baseStep.current);
    }
    if (r.layerCount == 0) return;  // nothing on the base layer: the rest pose
    // The pose plays in place: the root held where the base layer's newest clip starts.
    if (rootJoint_) r.rootAnchor = motions[r.layerCount - 1]->anchor(*rootJoint_);
    for (const Upper& u : upper_) {
        if (!u.active || u.weight <= 0.0) continue;
        LayerRequest& l = add(u.player, static_cast<float>(u.weight), u.step);
        l.mode = u.mode;
        l.mask = u.mask;
    }
}

Status Character::update(double elapsed) noexcept {
    if (!model_) return kMovedFrom;
    if (!std::isfinite(elapsed)) return Status::failure(StatusCode::NotFinite, "elapsed time is not finite");
    if (elapsed < 0.0) return Status::failure(StatusCode::OutOfRange, "elapsed time is negative");
    // The players advance on copies, kept only when every one could and the request
    // they make is accepted: a failed update changes nothing.
    CrossFade base = base_;
    CrossFadeStep baseStep;
    if (Status s = base.update(elapsed, baseStep); !s) return s.at(-1, 0);
    std::array<Upper, kUpperLayers> upper = upper_;
    for (std::size_t k = 0; k < upper.size(); ++k) {
        Upper& u = upper[k];
        if (!u.active) continue;
        if (Status s = u.player.update(elapsed, u.step); !s) return s.at(-1, static_cast<std::int64_t>(k + 1));
        if (u.rate > 0.0) {
            const double move = u.rate * elapsed;
            u.weight = u.target > u.weight ? std::min(u.weight + move, u.target) : std::max(u.weight - move, u.target);
            if (u.weight == u.target) u.rate = 0.0;
        }
    }
    std::swap(base, base_);
    std::swap(upper, upper_);
    InstanceRequest request;
    std::array<const RootMotion*, kMaxLayers> motions;
    fill(baseStep, request, motions);
    if (Status s = evaluator_.check(request); !s) {
        std::swap(base, base_);
        std::swap(upper, upper_);
        return s;
    }
    // Accepted: the events of the step, then the pose.
    eventCount_ = 0;
    baseStep_ = baseStep;
    const Player* outgoingBefore = base.outgoing();
    if (base_.current().clip() != nullptr) {
        report(0, clipIndexOf(base_.current().clip()), base_.current().mode(), baseStep_.current,
               base_.current().reachedEnd());
    }
    if (baseStep_.outgoing && outgoingBefore != nullptr) {
        const std::uint32_t clip = outgoingBefore->clip() != nullptr ? clipIndexOf(outgoingBefore->clip()) : 0;
        report(0, clip, outgoingBefore->mode(), *baseStep_.outgoing, false);
    }
    for (std::size_t k = 0; k < upper_.size(); ++k) {
        const Upper& u = upper_[k];
        if (u.active) {
            report(static_cast<std::uint32_t>(k + 1), u.clip, u.player.mode(), u.step, u.player.reachedEnd());
        }
    }
    (void)evaluator_.evaluate(request, state_, work_, modelMatrices_, palettes_);  // sized at creation
    rootMotion_ = rootJoint_ ? inModelSpace(rootMotionDelta(request, motions, *rootJoint_)) : Transform{};
    ++frame_;
    return Status::success();
}

Transform Character::inModelSpace(const Transform& delta) const noexcept {
    // The delta is in the root joint's parent's frame; the nodes above the root (a
    // Z-up armature, a scale) turn it into the model's, as they stand this update.
    const std::int32_t parent = model_->skeleton.parents()[*rootJoint_];
    if (parent < 0) return delta;
    const Mat4& above = modelMatrices_[static_cast<std::size_t>(parent)];
    const Transform seen = decompose(mulAffine(mulAffine(above, toMatrix(delta)), inverseAffine(above)));
    return isFinite(seen) ? seen : delta;
}

Status Character::setIk(std::span<const IkTask> tasks) {
    if (!model_) return kMovedFrom;
    if (Status s = checkIkTasks(tasks, model_->skeleton.parents()); !s) return s;
    ik_.assign(tasks.begin(), tasks.end());
    return Status::success();
}

std::optional<float> Character::curve(std::string_view name) const noexcept {
    const auto names = evaluator_.curveNames();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name) return state_.curves()[i];
    }
    return std::nullopt;
}

std::span<const Mat4> Character::palette(std::size_t skin) const noexcept {
    if (!model_) return {};
    if (skin >= evaluator_.skins().size()) return {};
    const std::size_t from = evaluator_.paletteOffset(skin);
    return std::span<const Mat4>(palettes_).subspan(from, evaluator_.paletteOffset(skin + 1) - from);
}

Character::Skinned* Character::skin(std::size_t instance, std::size_t primitive, bool normals) {
    if (!model_ || instance >= model_->meshInstances.size()) return nullptr;
    const MeshInstance& mi = model_->meshInstances[instance];
    if (mi.skin < 0 || mi.mesh >= model_->meshes.size()) return nullptr;
    const Mesh& mesh = model_->meshes[mi.mesh];
    if (primitive >= mesh.primitives.size()) return nullptr;
    const MeshPrimitive& prim = mesh.primitives[primitive];
    std::vector<Skinned>& perPrimitive = skinned_[instance];
    if (perPrimitive.size() < mesh.primitives.size()) perPrimitive.resize(mesh.primitives.size());
    Skinned& s = perPrimitive[primitive];
    normals = normals && !prim.normals.empty();
    if (s.frame == frame_ && (s.withNormals || !normals)) return &s;
    s.positions.resize(prim.positions.size());
    if (normals) s.normals.resize(prim.normals.size());
    const auto pal = palette(static_cast<std::size_t>(mi.skin));
    if (!evaluator_.kernels().skinVertices(prim, pal, prim.positions,
                                           normals ? std::span<const Vec3>(prim.normals) : std::span<const Vec3>{},
                                           s.positions, normals ? std::span<Vec3>(s.normals) : std::span<Vec3>{})) {
        return nullptr;
    }
    s.frame = frame_;
    s.withNormals = normals;
    return &s;
}

std::span<const Vec3> Character::skinnedPositions(std::size_t instance, std::size_t primitive) {
    const Skinned* s = skin(instance, primitive, false);
    return s != nullptr ? std::span<const Vec3>(s->positions) : std::span<const Vec3>{};
}

std::span<const Vec3> Character::skinnedNormals(std::size_t instance, std::size_t primitive) {
    const Skinned* s = skin(instance, primitive, true);
    return s != nullptr && s->withNormals ? std::span<const Vec3>(s->normals) : std::span<const Vec3>{};
}

}  // namespace kinema
