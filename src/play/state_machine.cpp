#include "kinema/play/state_machine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <unordered_map>
#include "elapsed.hpp"
#include "kinema/core/quoted.hpp"

namespace kinema {

ClipLookup clipsByName(std::span<const Clip> clips) {
    return [clips](std::string_view name) -> const Clip* {
        for (const Clip& clip : clips) {
            if (clip.name() == name) return &clip;
        }
        return nullptr;
    };
}

// ---------------------------------------------------------------- names

namespace {

template <class E, std::size_t N>
std::optional<E> parseName(const std::string_view (&names)[N], std::string_view name) noexcept {
    for (std::size_t i = 0; i < N; ++i) {
        if (names[i] == name) return static_cast<E>(i);
    }
    return std::nullopt;
}

template <class E, std::size_t N>
std::string_view nameOf(const std::string_view (&names)[N], E value) noexcept {
    const auto i = static_cast<std::size_t>(value);
    return i < N ? names[i] : std::string_view{};
}

// In enumerator order.
constexpr std::string_view kParameterTypes[] = {"float", "bool", "trigger"};
constexpr std::string_view kConditionOps[] = {">", ">=", "<", "<=", "==", "!=", "true", "false"};
constexpr std::string_view kInterruptions[] = {"none", "source", "destination", "sourceThenDestination",
                                               "destinationThenSource"};
constexpr std::string_view kLoopModes[] = {"loop", "clamp", "pingPong"};
constexpr std::string_view kBlendSyncs[] = {"normalizedTime", "markers"};

// A blend space names a clip's markers by their place in the clip ("clips/2/markers/1"),
// a place the state machine's description does not have (markers come with the clip):
// such a fault points at the entry naming the clip and says which marker.
Fault blendSpaceFault(const std::string& at, const Fault& f) {
    const std::size_t markers = f.where.find("/markers");
    if (markers == std::string::npos) return {at + "/" + f.where, f.what};
    const std::string where = at + "/" + f.where.substr(0, markers) + "/clip";
    const std::string rest = f.where.substr(markers + 8);  // "" or "/<k>"
    if (rest.empty()) return {where, f.what.rfind("has ", 0) == 0 ? "the clip " + f.what : f.what};
    return {where, "the clip's marker " + rest.substr(1) + " " + f.what};
}

}  // namespace

std::string_view toString(ParameterType type) noexcept { return nameOf(kParameterTypes, type); }
std::string_view toString(ConditionOp op) noexcept { return nameOf(kConditionOps, op); }
std::string_view toString(Interruption interruption) noexcept { return nameOf(kInterruptions, interruption); }
std::string_view toString(LoopMode mode) noexcept { return nameOf(kLoopModes, mode); }
std::string_view toString(BlendSync sync) noexcept { return nameOf(kBlendSyncs, sync); }
std::optional<ParameterType> parseParameterType(std::string_view name) noexcept {
    return parseName<ParameterType>(kParameterTypes, name);
}
std::optional<ConditionOp> parseConditionOp(std::string_view name) noexcept {
    return parseName<ConditionOp>(kConditionOps, name);
}
std::optional<Interruption> parseInterruption(std::string_view name) noexcept {
    return parseName<Interruption>(kInterruptions, name);
}
std::optional<LoopMode> parseLoopMode(std::string_view name) noexcept { return parseName<LoopMode>(kLoopModes, name); }
std::optional<BlendSync> parseBlendSync(std::string_view name) noexcept {
    return parseName<BlendSync>(kBlendSyncs, name);
}

// ---------------------------------------------------------------- definition

namespace {

std::optional<std::uint32_t> find(const NameIndex& index, std::string_view name) noexcept {
    const auto found = index.find(name);
    if (found == index.end()) return std::nullopt;
    return found->second;
}

}  // namespace

std::optional<std::uint32_t> StateMachineDefinition::findState(std::string_view name) const noexcept {
    return find(stateIndex_, name);
}
std::optional<std::uint32_t> StateMachineDefinition::findParameter(std::string_view name) const noexcept {
    return find(parameterIndex_, name);
}
std::optional<std::uint32_t> StateMachineDefinition::findPredicate(std::string_view name) const noexcept {
    return find(predicateIndex_, name);
}

Result<StateMachineDefinition> StateMachineDefinition::create(StateMachineDesc desc, const ClipLookup& lookup) {
    std::vector<Fault> faults;
    const auto fault = [&](std::string where, std::string what) {
        appendFault(faults, {std::move(where), std::move(what)}, "");
    };
    StateMachineDefinition def;

    for (std::size_t i = 0; i < desc.parameters.size(); ++i) {
        const ParameterDesc& p = desc.parameters[i];
        const std::string at = "/parameters/" + std::to_string(i);
        if (p.name.empty()) fault(at + "/name", "a parameter needs a name");
        if (!def.parameterIndex_.emplace(p.name, static_cast<std::uint32_t>(i)).second)
            fault(at + "/name", "parameter " + inQuotes(p.name) + " is defined twice");
        if (!std::isfinite(p.defaultValue)) fault(at + "/default", "not finite");
        // A trigger starts unset: a default would be a value the machine never uses.
        if (p.type == ParameterType::Trigger && p.defaultValue != 0.0f)
            fault(at + "/default", "a trigger has no default (it starts unset)");
    }
    // A parameter reference by name that must have one of `types`; -1 when missing.
    const auto parameter = [&](const std::string& name, const std::string& at,
                               std::initializer_list<ParameterType> types, std::string_view need) -> std::int32_t {
        const auto index = find(def.parameterIndex_, name);
        if (!index) {
            fault(at, "no parameter named " + inQuotes(name));
            return -1;
        }
        if (std::find(types.begin(), types.end(), desc.parameters[*index].type) == types.end()) {
            fault(at,
                  "parameter " + inQuotes(name) + " is a " + std::string(toString(desc.parameters[*index].type)) +
                      ", " + std::string(need) + " is needed");
            return -1;
        }
        return static_cast<std::int32_t>(*index);
    };
    std::unordered_map<const Clip*, std::uint32_t> clipSlots;
    const auto clipSlot = [&](const std::string& name, const std::string& at) -> std::int32_t {
        const Clip* clip = lookup ? lookup(name) : nullptr;
        if (clip == nullptr) {
            fault(at, "no clip named " + inQuotes(name));
            return -1;
        }
        const auto [slot, added] = clipSlots.emplace(clip, static_cast<std::uint32_t>(def.clips_.size()));
        if (added) def.clips_.push_back(clip);
        return static_cast<std::int32_t>(slot->second);
    };

    if (desc.states.empty()) fault("/states", "a state machine needs at least one state");
    std::uint32_t blendStates = 0;
    for (std::size_t i = 0; i < desc.states.size(); ++i) {
        const StateDesc& s = desc.states[i];
        const std::string at = "/states/" + std::to_string(i);
        State state;
        if (s.name.empty()) fault(at + "/name", "a state needs a name");
        if (s.name == "*") fault(at + "/name", "\"*\" stands for any state in transitions: no state may take it");
        if (!def.stateIndex_.emplace(s.name, static_cast<std::uint32_t>(i)).second)
            fault(at + "/name", "state " + inQuotes(s.name) + " is defined twice");
        if (!std::isfinite(s.speed)) fault(at + "/speed", "not finite");
        state.speed = s.speed;
        state.mode = s.mode;
        if (!s.speedParameter.empty()) {
            state.speedParameter =
                parameter(s.speedParameter, at + "/speedParameter", {ParameterType::Float}, "a float");
        }
        if (s.blendSpace.has_value() == s.clip.has_value()) {
            fault(at, "a state plays exactly one clip or one blend space");
        } else if (s.clip) {
            state.clipSlot = clipSlot(*s.clip, at + "/clip");
        } else {
            const BlendSpaceDesc& b = *s.blendSpace;
            const std::string bat = at + "/blendSpace";
            if (s.mode != LoopMode::Loop) fault(at + "/mode", "a blend space state loops");
            if (b.dimensions != 1 && b.dimensions != 2) fault(bat + "/dimensions", "1 or 2");
            state.xParameter = parameter(b.xParameter, bat + "/x", {ParameterType::Float}, "a float");
            if (b.dimensions == 2)
                state.yParameter = parameter(b.yParameter, bat + "/y", {ParameterType::Float}, "a float");
            std::vector<BlendSpaceClip> clips;
            std::vector<std::uint32_t> slots;
            bool found = true;
            for (std::size_t c = 0; c < b.clips.size(); ++c) {
                const std::int32_t slot = clipSlot(b.clips[c].clip, bat + "/clips/" + std::to_string(c) + "/clip");
                if (slot < 0) {
                    found = false;
                    continue;
                }
                clips.push_back({def.clips_[static_cast<std::size_t>(slot)], b.clips[c].x, b.clips[c].y});
                slots.push_back(static_cast<std::uint32_t>(slot));
            }
            if (found && (b.dimensions == 1 || b.dimensions == 2)) {
                auto space = b.dimensions == 1 ? BlendSpace::create1D(std::move(clips), b.sync)
                                               : BlendSpace::create2D(std::move(clips), b.sync);
                if (!space) {
                    for (const Fault& f : space.faults()) {
                        const Fault located = blendSpaceFault(bat, f);
                        fault(located.where, located.what);
                    }
                } else {
                    state.blendSpace = static_cast<std::int32_t>(def.blendSpaces_.size());
                    state.blendSlot = blendStates++;
                    def.blendSpaceFirstClip_.push_back(static_cast<std::uint32_t>(def.blendSpaceClipSlots_.size()));
                    def.blendSpaceClipSlots_.insert(def.blendSpaceClipSlots_.end(), slots.begin(), slots.end());
                    def.maxSamplesPerState_ = std::max(def.maxSamplesPerState_, slots.size());
                    def.blendSpaces_.push_back(std::move(*space));
                }
            }
        }
        def.states_.push_back(state);
    }

    for (std::size_t i = 0; i < desc.transitions.size(); ++i) {
        const TransitionDesc& t = desc.transitions[i];
        const std::string at = "/transitions/" + std::to_string(i);
        Transition tr{};
        tr.from = -1;
        if (t.from != "*") {
            const auto from = find(def.stateIndex_, t.from);
            if (!from) fault(at + "/from", "no state named " + inQuotes(t.from) + " (\"*\" is any state)");
            tr.from = from ? static_cast<std::int32_t>(*from) : -1;
            // From a named state into itself is always allowed; the flag would say nothing.
            if (t.canTransitionToSelf) {
                fault(at + "/canTransitionToSelf", "applies to \"*\" transitions only");
            }
        }
        const auto to = find(def.stateIndex_, t.to);
        if (!to) fault(at + "/to", "no state named " + inQuotes(t.to));
        tr.to = to.value_or(0);
        if (!(t.duration >= 0.0f) || !std::isfinite(t.duration)) fault(at + "/duration", "must be finite and >= 0");
        tr.duration = t.duration;
        tr.easing = t.easing;
        tr.firstCondition = static_cast<std::uint32_t>(def.conditions_.size());
        for (std::size_t c = 0; c < t.conditions.size(); ++c) {
            const ConditionDesc& cd = t.conditions[c];
            const std::string cat = at + "/conditions/" + std::to_string(c);
            const bool comparison = cd.op != ConditionOp::IsTrue && cd.op != ConditionOp::IsFalse;
            std::int32_t p = -1;
            if (comparison) {
                p = parameter(cd.parameter, cat + "/parameter", {ParameterType::Float},
                              "a float for " + std::string(toString(cd.op)));
                if (!std::isfinite(cd.value)) fault(cat + "/value", "not finite");
            } else if (cd.op == ConditionOp::IsFalse) {
                p = parameter(cd.parameter, cat + "/parameter", {ParameterType::Bool}, "a bool for \"false\"");
            } else {
                p = parameter(cd.parameter, cat + "/parameter", {ParameterType::Bool, ParameterType::Trigger},
                              "a bool or trigger for \"true\"");
            }
            if (p >= 0) def.conditions_.push_back({static_cast<std::uint32_t>(p), cd.op, cd.value});
        }
        tr.conditionCount = static_cast<std::uint32_t>(def.conditions_.size()) - tr.firstCondition;
        tr.hasExitTime = t.exitTime.has_value();
        if (tr.hasExitTime) {
            if (!(*t.exitTime >= 0.0f) || !std::isfinite(*t.exitTime))
                fault(at + "/exitTime", "must be finite and >= 0");
            tr.exitTime = *t.exitTime;
        }
        if (!(t.offset >= 0.0f && t.offset < 1.0f)) fault(at + "/offset", "must be in [0, 1)");
        tr.offset = t.offset;
        tr.syncMarkers = t.syncMarkers;
        tr.interruption = t.interruption;
        tr.toSelf = t.canTransitionToSelf;
        tr.predicate = -1;
        if (!t.predicate.empty()) {
            const auto [slot, added] =
                def.predicateIndex_.emplace(t.predicate, static_cast<std::uint32_t>(def.predicates_.size()));
            if (added) def.predicates_.push_back(t.predicate);
            tr.predicate = static_cast<std::int32_t>(slot->second);
        }
        def.transitions_.push_back(tr);
    }

    if (!desc.defaultState.empty()) {
        const auto d = find(def.stateIndex_, desc.defaultState);
        if (!d) fault("/defaultState", "no state named " + inQuotes(desc.defaultState));
        def.defaultState_ = d.value_or(0);
    }
    if (!faults.empty()) return faults;

    // Each state's candidates: its own transitions and the "*" ones, merged in list order.
    std::vector<std::uint32_t> anyState, ownFirst(def.states_.size() + 1, 0), own(def.transitions_.size());
    for (std::size_t t = 0; t < def.transitions_.size(); ++t) {
        const std::int32_t from = def.transitions_[t].from;
        if (from < 0)
            anyState.push_back(static_cast<std::uint32_t>(t));
        else
            ++ownFirst[static_cast<std::size_t>(from) + 1];
    }
    for (std::size_t s = 0; s < def.states_.size(); ++s) ownFirst[s + 1] += ownFirst[s];
    {
        std::vector<std::uint32_t> next(ownFirst.begin(), ownFirst.end() - 1);
        for (std::size_t t = 0; t < def.transitions_.size(); ++t) {
            const std::int32_t from = def.transitions_[t].from;
            if (from >= 0) own[next[static_cast<std::size_t>(from)]++] = static_cast<std::uint32_t>(t);
        }
    }
    for (std::size_t s = 0; s < def.states_.size(); ++s) {
        State& state = def.states_[s];
        state.firstCandidate = static_cast<std::uint32_t>(def.candidates_.size());
        std::merge(anyState.begin(), anyState.end(), own.begin() + ownFirst[s], own.begin() + ownFirst[s + 1],
                   std::back_inserter(def.candidates_));
        state.candidateCount = static_cast<std::uint32_t>(def.candidates_.size()) - state.firstCandidate;
    }
    for (const Clip* clip : def.clips_) def.maxMarkers_ = std::max(def.maxMarkers_, clip->markers().size());
    def.desc_ = std::move(desc);
    return def;
}

// ---------------------------------------------------------------- instance

StateMachine::StateMachine(const StateMachineDefinition& definition) : def_(&definition) {
    values_.reserve(def_->desc_.parameters.size());
    for (const ParameterDesc& p : def_->desc_.parameters) {
        values_.push_back(p.type == ParameterType::Float      ? p.defaultValue
                              : p.type == ParameterType::Bool ? (p.defaultValue != 0.0f ? 1.0f : 0.0f)
                                                              : 0.0f);
    }
    predicates_.resize(def_->predicates_.size());
    for (const StateMachineDefinition::State& s : def_->states_) {
        if (s.blendSpace < 0) continue;
        const BlendSpace& space = def_->blendSpaces_[static_cast<std::size_t>(s.blendSpace)];
        blendPlayers_.emplace_back(space);
        blendPlayers_.emplace_back(space);
    }
    samples_.resize(2 * def_->maxSamplesPerState_);
    motion_.resize(samples_.size());
    events_.resize(2 * def_->maxMarkers_);
    crossed_.resize(def_->maxMarkers_);
    enter(slots_[0], def_->defaultState_, 0.0, nullptr);
    publish(samples_, sampleCount_);
}

namespace {
constexpr Status kMachineMovedFrom = Status::failure(StatusCode::NotReady, "the state machine was moved from");
}  // namespace

// Members start empty and take the other's in the assignment.
StateMachine::StateMachine(StateMachine&& other) noexcept : def_(other.def_) { *this = std::move(other); }

StateMachine& StateMachine::operator=(StateMachine&& other) noexcept {
    if (this == &other) return *this;
    def_ = other.def_;
    movedFrom_ = other.movedFrom_;
    values_ = std::move(other.values_);
    predicates_ = std::move(other.predicates_);
    blendPlayers_ = std::move(other.blendPlayers_);
    slots_[0] = std::move(other.slots_[0]);
    slots_[1] = std::move(other.slots_[1]);
    fading_ = other.fading_;
    transition_ = other.transition_;
    fadeRemaining_ = other.fadeRemaining_;
    samples_ = std::move(other.samples_);
    sampleCount_ = other.sampleCount_;
    motion_ = std::move(other.motion_);
    motionCount_ = other.motionCount_;
    motionApart_ = other.motionApart_;
    events_ = std::move(other.events_);
    eventCount_ = other.eventCount_;
    crossed_ = std::move(other.crossed_);
    other.becomeMovedFrom();
    return *this;
}

void StateMachine::becomeMovedFrom() noexcept {
    // Every container the moves emptied is read as empty: no slot refers to a blend
    // player or a parameter, and nothing is published.
    movedFrom_ = true;
    values_.clear();
    predicates_.clear();
    blendPlayers_.clear();
    slots_[0] = Slot{};
    slots_[1] = Slot{};
    fading_ = false;
    fadeRemaining_ = 0.0;
    samples_.clear();
    sampleCount_ = 0;
    motion_.clear();
    motionCount_ = 0;
    motionApart_ = true;
    events_.clear();
    eventCount_ = 0;
    crossed_.clear();
}

Status StateMachine::checkParameter(std::uint32_t parameter, ParameterType type) const noexcept {
    if (movedFrom_) return kMachineMovedFrom;
    if (parameter >= values_.size()) {
        return Status::failure(StatusCode::OutOfRange, "no parameter with this index").withIndex(parameter);
    }
    if (def_->desc_.parameters[parameter].type != type) {
        const char* what = type == ParameterType::Float ? "the parameter is not a float"
            : type == ParameterType::Bool               ? "the parameter is not a bool"
                                                        : "the parameter is not a trigger";
        return Status::failure(StatusCode::WrongType, what).withIndex(parameter);
    }
    return Status::success();
}

Status StateMachine::setFloat(std::uint32_t parameter, float value) noexcept {
    if (Status s = checkParameter(parameter, ParameterType::Float); !s) return s;
    if (!std::isfinite(value)) {
        return Status::failure(StatusCode::NotFinite, "parameter value is not finite").withIndex(parameter);
    }
    values_[parameter] = value;
    return Status::success();
}

Status StateMachine::setBool(std::uint32_t parameter, bool value) noexcept {
    if (Status s = checkParameter(parameter, ParameterType::Bool); !s) return s;
    values_[parameter] = value ? 1.0f : 0.0f;
    return Status::success();
}

Status StateMachine::setTrigger(std::uint32_t parameter) noexcept {
    if (Status s = checkParameter(parameter, ParameterType::Trigger); !s) return s;
    values_[parameter] = 1.0f;
    return Status::success();
}

Status StateMachine::resetTrigger(std::uint32_t parameter) noexcept {
    if (Status s = checkParameter(parameter, ParameterType::Trigger); !s) return s;
    values_[parameter] = 0.0f;
    return Status::success();
}

namespace {
constexpr Status kUnknownParameter = Status::failure(StatusCode::UnknownName, "no parameter of this name");
}  // namespace

Status StateMachine::setFloat(std::string_view parameter, float value) noexcept {
    const auto i = def_->findParameter(parameter);
    return i ? setFloat(*i, value) : kUnknownParameter;
}
Status StateMachine::setBool(std::string_view parameter, bool value) noexcept {
    const auto i = def_->findParameter(parameter);
    return i ? setBool(*i, value) : kUnknownParameter;
}
Status StateMachine::setTrigger(std::string_view parameter) noexcept {
    const auto i = def_->findParameter(parameter);
    return i ? setTrigger(*i) : kUnknownParameter;
}

float StateMachine::floatValue(std::uint32_t parameter) const noexcept {
    return parameter < values_.size() ? values_[parameter] : 0.0f;
}
bool StateMachine::boolValue(std::uint32_t parameter) const noexcept {
    return parameter < values_.size() && values_[parameter] != 0.0f;
}

bool StateMachine::setPredicate(std::uint32_t index, Predicate predicate) {
    if (index >= predicates_.size()) return false;
    predicates_[index] = std::move(predicate);
    return true;
}

std::optional<std::uint32_t> StateMachine::targetState() const noexcept {
    if (!fading_) return std::nullopt;
    return slots_[1].state;
}

std::optional<std::uint32_t> StateMachine::activeTransition() const noexcept {
    if (!fading_) return std::nullopt;
    return transition_;
}

float StateMachine::blendFactor() const noexcept {
    if (!fading_) return 0.0f;
    const auto& t = def_->transitions_[transition_];
    // Back and Elastic overshoot [0, 1]; a share of the pose cannot (found by fuzzing:
    // the weights stopped summing to 1), so the eased value is clamped.
    return std::clamp(ease(t.easing, static_cast<float>(1.0 - fadeRemaining_ / t.duration)), 0.0f, 1.0f);
}

double StateMachine::speedOf(std::uint32_t state) const noexcept {
    const auto& s = def_->states_[state];
    double speed = s.speed;
    if (s.speedParameter >= 0) speed *= values_[static_cast<std::size_t>(s.speedParameter)];
    return speed;
}

double StateMachine::timeOf(const Slot& slot) const noexcept {
    if (movedFrom_) return 0.0;
    const auto& s = def_->states_[slot.state];
    if (s.blendSpace < 0) return slot.player.clipTime();
    const BlendSpacePlayer& bp = blendPlayers_[slot.blend];
    return bp.phase() * bp.cycleDuration();
}

void StateMachine::enter(Slot& slot, std::uint32_t state, double offset, const Slot* other, bool synced) noexcept {
    const auto& s = def_->states_[state];
    slot.state = state;
    slot.normalized = offset;
    slot.step = {};
    if (s.blendSpace < 0) {
        const Clip& clip = *def_->clips_[static_cast<std::size_t>(s.clipSlot)];
        slot.player = Player(clip, s.mode);
        slot.player.play();
        (void)slot.player.setSpeed(speedOf(state));
        // A one-shot played backwards starts from its end: the offset is measured
        // along the way it plays. (A loop played backwards wraps from its start.) A
        // synced start is a place on the clip's own timeline, whichever way it plays.
        const bool fromEnd = !synced && s.mode == LoopMode::Clamp && speedOf(state) < 0.0;
        (void)slot.player.seek((fromEnd ? 1.0 - offset : offset) * clip.duration());
        slot.step = {slot.player.position(), slot.player.position(), 0.0};
        return;
    }
    // Two players per blend state, so a state fading into itself keeps both heads.
    std::uint32_t blend = 2 * s.blendSlot;
    if (other != nullptr && other->state == state && other->blend == blend) ++blend;
    slot.blend = blend;
    BlendSpacePlayer& bp = blendPlayers_[blend];
    (void)bp.setParameters(s.xParameter >= 0 ? values_[static_cast<std::size_t>(s.xParameter)] : 0.0f,
                           s.yParameter >= 0 ? values_[static_cast<std::size_t>(s.yParameter)] : 0.0f);
    (void)bp.setSpeed(speedOf(state));
    (void)bp.seekPhase(offset);
    (void)bp.update(0.0);  // clip times and weights at the new phase
}

bool StateMachine::stepsFinitely(const Slot& slot, double elapsed) const noexcept {
    const auto& s = def_->states_[slot.state];
    const double travel = elapsed * speedOf(slot.state);
    if (!std::isfinite(travel)) return false;
    const double length = s.blendSpace < 0 ? slot.player.clip()->duration() : blendPlayers_[slot.blend].cycleDuration();
    // The normalised time the step adds must stay finite too (a long step over a
    // very short clip).
    return !(length > 0.0) || std::isfinite(slot.normalized + std::fabs(travel) / length);
}

void StateMachine::advance(Slot& slot, double elapsed) noexcept {
    const auto& s = def_->states_[slot.state];
    const double speed = speedOf(slot.state);
    if (s.blendSpace < 0) {
        (void)slot.player.setSpeed(speed);
        (void)slot.player.update(elapsed, slot.step);
        const double d = slot.player.clip()->duration();
        if (d > 0.0) {
            slot.normalized += std::fabs(slot.step.travel) / d;
            // A one-shot that ran to its end (its start, played backwards) has played to
            // 1 exactly (from the offset it was entered at), whatever its steps'
            // quotients summed to: an exit time of 1 is met, not missed by a rounding
            // error for ever.
            if (s.mode == LoopMode::Clamp && slot.step.travel != 0.0 && !slot.player.playing())
                slot.normalized = std::max(slot.normalized, 1.0);
        } else if (elapsed * speed != 0.0) {
            slot.normalized += 1.0;  // a clip of no length: a whole lap each update that spends time
        }
        return;
    }
    BlendSpacePlayer& bp = blendPlayers_[slot.blend];
    (void)bp.setParameters(s.xParameter >= 0 ? values_[static_cast<std::size_t>(s.xParameter)] : 0.0f,
                           s.yParameter >= 0 ? values_[static_cast<std::size_t>(s.yParameter)] : 0.0f);
    (void)bp.setSpeed(speed);
    const double cycle = bp.cycleDuration();
    (void)bp.update(elapsed);
    if (cycle > 0.0) slot.normalized += elapsed * std::fabs(speed) / cycle;
}

bool StateMachine::satisfied(std::uint32_t t, const Slot& source, double previousNormalized) const noexcept {
    const auto& tr = def_->transitions_[t];
    for (std::uint32_t c = 0; c < tr.conditionCount; ++c) {
        const auto& cond = def_->conditions_[tr.firstCondition + c];
        const float v = values_[cond.parameter];
        bool holds = false;
        switch (cond.op) {
            case ConditionOp::Greater: holds = v > cond.value; break;
            case ConditionOp::GreaterEqual: holds = v >= cond.value; break;
            case ConditionOp::Less: holds = v < cond.value; break;
            case ConditionOp::LessEqual: holds = v <= cond.value; break;
            case ConditionOp::Equal: holds = v == cond.value; break;
            case ConditionOp::NotEqual: holds = v != cond.value; break;
            case ConditionOp::IsTrue: holds = v != 0.0f; break;
            case ConditionOp::IsFalse: holds = v == 0.0f; break;
        }
        if (!holds) return false;
    }
    if (tr.hasExitTime) {
        const double now = source.normalized;
        const bool loops = def_->states_[source.state].mode != LoopMode::Clamp;
        if (!loops || tr.exitTime >= 1.0) {
            if (now < tr.exitTime) return false;
        } else {
            // A looping state reaches a fractional exit time once per lap: the update
            // must carry the head over lap + exitTime for some whole lap.
            const double lap = std::floor(previousNormalized - tr.exitTime) + 1.0;
            if (!(lap + tr.exitTime <= now)) return false;
        }
    }
    if (tr.predicate >= 0) {
        const Predicate& p = predicates_[static_cast<std::size_t>(tr.predicate)];
        if (!p || !p(*this)) return false;
    }
    return true;
}

std::int32_t StateMachine::choose(const Slot& source, double previousNormalized) const noexcept {
    const auto& s = def_->states_[source.state];
    const std::uint32_t heading = fading_ ? slots_[1].state : slots_[0].state;
    for (std::uint32_t k = 0; k < s.candidateCount; ++k) {
        const std::uint32_t t = def_->candidates_[s.firstCandidate + k];
        const auto& tr = def_->transitions_[t];
        // "*" into the state already being played or entered restarts it only when asked to.
        if (tr.from == -1 && tr.to == heading && !tr.toSelf) continue;
        if (satisfied(t, source, previousNormalized)) return static_cast<std::int32_t>(t);
    }
    return -1;
}

std::optional<double> StateMachine::syncedOffset(const Slot& source, std::uint32_t state) const noexcept {
    // The source's leading clip and its time: a blend space's heaviest clip.
    const Clip* from = nullptr;
    double time = 0.0;
    if (def_->states_[source.state].blendSpace < 0) {
        from = source.player.clip();
        time = source.player.clipTime();
    } else {
        const BlendSpacePlayer& bp = blendPlayers_[source.blend];
        float best = -1.0f;
        for (const BlendSample& b : bp.samples()) {
            if (b.weight > best) {
                best = b.weight;
                from = bp.space()->clips()[b.clip].clip;
                time = b.time;
            }
        }
    }
    // The destination's clip; a blend space's phase follows its first clip's timeline.
    const auto& to = def_->states_[state];
    const Clip* dest = to.blendSpace < 0 ? def_->clips_[static_cast<std::size_t>(to.clipSlot)]
                                         : def_->blendSpaces_[static_cast<std::size_t>(to.blendSpace)].clips()[0].clip;
    if (from == nullptr || dest == nullptr || !(dest->duration() > 0.0f)) return std::nullopt;
    const auto synced = syncedMarkerTime(from->markers(), from->duration(), time, dest->markers(), dest->duration());
    if (!synced) return std::nullopt;
    return std::min(*synced / dest->duration(), std::nextafter(1.0, 0.0));
}

void StateMachine::fire(std::uint32_t t) noexcept {
    const auto& tr = def_->transitions_[t];
    for (std::uint32_t c = 0; c < tr.conditionCount; ++c) {
        const auto& cond = def_->conditions_[tr.firstCondition + c];
        if (def_->desc_.parameters[cond.parameter].type == ParameterType::Trigger) values_[cond.parameter] = 0.0f;
    }
    // Mid-fade the state fading in is the source: the one fading out is dropped.
    const Slot& source = fading_ ? slots_[1] : slots_[0];
    double offset = tr.offset;
    const std::optional<double> synced = tr.syncMarkers ? syncedOffset(source, tr.to) : std::nullopt;
    if (synced) offset = *synced;
    if (!(tr.duration > 0.0)) {  // a cut
        fading_ = false;
        enter(slots_[0], tr.to, offset, nullptr, synced.has_value());
        return;
    }
    if (fading_) slots_[0] = slots_[1];
    enter(slots_[1], tr.to, offset, &slots_[0], synced.has_value());
    fading_ = true;
    transition_ = t;
    fadeRemaining_ = tr.duration;
}

void StateMachine::collectEvents(const Slot& slot, float weight) noexcept {
    const auto& s = def_->states_[slot.state];
    const Clip* clip = nullptr;
    LoopMode mode = LoopMode::Loop;
    PlaybackStep step;
    if (s.blendSpace < 0) {
        clip = slot.player.clip();
        mode = s.mode;
        step = slot.step;
    } else {
        const BlendSpacePlayer& bp = blendPlayers_[slot.blend];
        float best = -1.0f;
        for (const BlendSample& b : bp.samples()) {
            if (b.weight > best) {
                best = b.weight;
                clip = bp.space()->clips()[b.clip].clip;
                step = b.step;
            }
        }
    }
    if (clip == nullptr || clip->markers().empty()) return;
    const std::size_t n = markersCrossed(*clip, mode, step, crossed_);
    for (std::size_t i = 0; i < n && eventCount_ < events_.size(); ++i) {
        events_[eventCount_++] = {slot.state, clip, crossed_[i], weight};
    }
}

void StateMachine::publish(std::vector<MotionSample>& out, std::size_t& count) const noexcept {
    count = 0;
    const float target = blendFactor();
    const auto add = [&](const Slot& slot, float weight) {
        if (!(weight > 0.0f)) return;
        const auto& s = def_->states_[slot.state];
        if (s.blendSpace < 0) {
            out[count++] = {slot.player.clip(),
                            static_cast<std::uint32_t>(s.clipSlot),
                            slot.state,
                            slot.player.clipTime(),
                            weight,
                            slot.step,
                            s.mode};
            return;
        }
        const BlendSpacePlayer& bp = blendPlayers_[slot.blend];
        const std::uint32_t first = def_->blendSpaceFirstClip_[static_cast<std::size_t>(s.blendSpace)];
        for (const BlendSample& b : bp.samples()) {
            const float w = weight * b.weight;
            if (!(w > 0.0f) || count == out.size()) continue;
            out[count++] = {bp.space()->clips()[b.clip].clip,
                            def_->blendSpaceClipSlots_[first + b.clip],
                            slot.state,
                            b.time,
                            w,
                            b.step,
                            LoopMode::Loop};
        }
    };
    add(slots_[0], fading_ ? 1.0f - target : 1.0f);
    if (fading_) add(slots_[1], target);
}

Status StateMachine::update(double elapsed) noexcept {
    if (movedFrom_) return kMachineMovedFrom;
    if (Status s = detail::checkElapsed(elapsed); !s) return s;
    if (!stepsFinitely(slots_[0], elapsed) || (fading_ && !stepsFinitely(slots_[1], elapsed))) {
        return Status::failure(StatusCode::OutOfRange, "elapsed time at this state's speed overflows its time");
    }
    double previous[2] = {slots_[0].normalized, slots_[1].normalized};
    advance(slots_[0], elapsed);
    if (fading_) advance(slots_[1], elapsed);

    // Float durations widen with an error of their own, too (elapsed.hpp).
    bool fadeEnded = false;
    if (fading_) {
        fadeRemaining_ -= elapsed;
        fadeEnded = fadeRemaining_ <= detail::kEndSlackSeconds;
        if (fadeEnded) fadeRemaining_ = 0.0;
    }
    // Events belong to the motion this update played, so they are taken before a
    // transition re-enters a slot, each at its state's share of the pose this update
    // leaves (the fade's weight at its end, as publish() gives it).
    eventCount_ = 0;
    const float target = blendFactor();
    collectEvents(slots_[0], fading_ ? 1.0f - target : 1.0f);
    if (fading_) collectEvents(slots_[1], target);
    if (fadeEnded) {
        slots_[0] = slots_[1];
        previous[0] = previous[1];
        fading_ = false;
    }

    std::int32_t chosen = -1;
    if (!fading_) {
        chosen = choose(slots_[0], previous[0]);
    } else {
        const auto source = [&] { return choose(slots_[0], previous[0]); };
        const auto destination = [&] { return choose(slots_[1], previous[1]); };
        switch (def_->transitions_[transition_].interruption) {
            case Interruption::None: break;
            case Interruption::Source: chosen = source(); break;
            case Interruption::Destination: chosen = destination(); break;
            case Interruption::SourceThenDestination:
                chosen = source();
                if (chosen < 0) chosen = destination();
                break;
            case Interruption::DestinationThenSource:
                chosen = destination();
                if (chosen < 0) chosen = source();
                break;
        }
    }
    // The motion this update played is the states' as they stand now, before a
    // transition re-enters a slot: a cut's source moved the character until the cut.
    // Without a transition it is what is posed, published once.
    motionApart_ = chosen >= 0;
    if (motionApart_) {
        publish(motion_, motionCount_);
        fire(static_cast<std::uint32_t>(chosen));
    }
    publish(samples_, sampleCount_);
    return {};
}

bool StateMachine::forceState(std::uint32_t state) noexcept {
    if (movedFrom_ || state >= def_->states_.size()) return false;
    fading_ = false;
    fadeRemaining_ = 0.0;
    enter(slots_[0], state, 0.0, nullptr);
    eventCount_ = 0;
    motionApart_ = true;
    motionCount_ = 0;
    publish(samples_, sampleCount_);
    return true;
}

std::string StateMachine::describe() const {
    if (movedFrom_) return "state machine moved from\n";
    const auto& states = def_->desc_.states;
    // Numbers alone go through printf, into room for any double's fixed form (a
    // time of 1e300 s has 301 digits); names are appended whole, however long.
    const auto number = [](const char* format, double value) {
        char buf[400];
        std::snprintf(buf, sizeof buf, format, value);
        return std::string(buf);
    };
    const auto line = [&](const char* label, const Slot& slot, float weight) {
        return std::string(label) + " " + states[slot.state].name + ": time " + number("%.4f", timeOf(slot)) +
            " s, normalised " + number("%.4f", slot.normalized) + ", weight " + number("%.3f", double(weight)) + "\n";
    };
    std::string out;
    const float target = blendFactor();
    out += line("current", slots_[0], fading_ ? 1.0f - target : 1.0f);
    if (fading_) {
        out += line("target ", slots_[1], target);
        out += "fade: transition " + std::to_string(transition_) + ", " + number("%.4f", fadeRemaining_) + " s of " +
            number("%.4f", def_->transitions_[transition_].duration) + " s left\n";
    }
    out += "parameters:";
    for (std::size_t i = 0; i < values_.size(); ++i) {
        const ParameterDesc& p = def_->desc_.parameters[i];
        out += " " + p.name + "=";
        out += p.type == ParameterType::Float ? number("%g", double(values_[i]))
            : values_[i] != 0.0f              ? "true"
                                              : "false";
    }
    out += '\n';
    return out;
}

}  // namespace kinema
