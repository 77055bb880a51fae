// kinema/play: data-driven animation state machines.
//
// Three layers, as everywhere in kinema:
//  - StateMachineDesc: the authored description, plain data with names. It is what
//    the JSON format reads and writes (state_machine_json.hpp, docs/STATE-MACHINES.md)
//    and what code builds by hand.
//  - StateMachineDefinition: the description checked and compiled (names resolved
//    to indices and clips, blend spaces built, per-state candidate transition
//    lists). Immutable and shareable by every instance.
//  - StateMachine: one instance's state: parameter values, the playing state (and
//    the state it fades into), their players, the last update's clip samples and
//    marker events. Allocates when it is made, never in update().
//
// A state plays a clip or a blend space (1D or 2D over float parameters) at a speed
// (times an optional float parameter) with a playback mode. Transitions go from a
// state, or from any state ("*"), to a state over a fade of `duration` unscaled
// seconds; they fire when all their conditions hold (float comparisons, bool
// tests, triggers), their code predicate (if named) returns true, and their exit
// time (normalised time of the source state) has been reached. Candidates are
// tried in the order they are listed: the first satisfied one wins. One
// transition at most fires per update. Triggers a firing transition tests are
// consumed.
//
// Mid-fade a transition can only be interrupted as its interruption policy says
// (by transitions out of the source state, of the destination, both in either
// order, or not at all). An interruption follows CrossFade's mid-fade rule:
// the state that was fading out is dropped, and the new fade starts from the
// state that was fading in.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kinema/core/status.hpp"
#include "kinema/asset/clip.hpp"
#include "kinema/asset/easing.hpp"
#include "kinema/core/name_index.hpp"
#include "kinema/core/result.hpp"
#include "kinema/play/blend_space.hpp"
#include "kinema/play/player.hpp"

namespace kinema {

// ---------------------------------------------------------------- description

enum class ParameterType : std::uint8_t { Float, Bool, Trigger };

struct ParameterDesc {
    std::string name;
    ParameterType type = ParameterType::Float;
    float defaultValue = 0.0f;  // Float: the value; Bool: non-zero is true; Trigger: 0 (it starts unset)

    bool operator==(const ParameterDesc&) const = default;
};

enum class ConditionOp : std::uint8_t {
    Greater,       // float parameter >  value
    GreaterEqual,  // float parameter >= value
    Less,          // float parameter <  value
    LessEqual,     // float parameter <= value
    Equal,         // float parameter == value
    NotEqual,      // float parameter != value
    IsTrue,        // bool parameter true, or trigger set
    IsFalse,       // bool parameter false
};

struct ConditionDesc {
    std::string parameter;
    ConditionOp op = ConditionOp::IsTrue;
    float value = 0.0f;  // float comparisons only

    bool operator==(const ConditionDesc&) const = default;
};

struct BlendSpaceClipDesc {
    std::string clip;
    float x = 0.0f;
    float y = 0.0f;

    bool operator==(const BlendSpaceClipDesc&) const = default;
};

struct BlendSpaceDesc {
    std::uint32_t dimensions = 1;  // 1 or 2
    std::string xParameter;        // float parameters giving the position in the space
    std::string yParameter;        // 2D only
    BlendSync sync = BlendSync::NormalizedTime;
    std::vector<BlendSpaceClipDesc> clips;

    bool operator==(const BlendSpaceDesc&) const = default;
};

struct StateDesc {
    std::string name;
    std::optional<std::string> clip;           // a clip (its name, "" for an unnamed one), or ...
    std::optional<BlendSpaceDesc> blendSpace;  // ... a blend space (exactly one of the two)
    float speed = 1.0f;                        // finite; negative plays backwards
    std::string speedParameter;                // optional float parameter multiplying `speed`
    LoopMode mode = LoopMode::Loop;            // blend spaces always loop

    bool operator==(const StateDesc&) const = default;
};

enum class Interruption : std::uint8_t {
    None,                   // a running fade finishes before anything else fires
    Source,                 // transitions out of the state being left may interrupt
    Destination,            // transitions out of the state being entered may interrupt
    SourceThenDestination,  // both, the source's first
    DestinationThenSource,  // both, the destination's first
};

struct TransitionDesc {
    std::string from;  // a state name, or "*" for any state
    std::string to;
    float duration = 0.2f;                  // fade length in unscaled seconds (0: a cut)
    Easing easing = Easing::Linear;         // shape of the fade weight
    std::vector<ConditionDesc> conditions;  // all must hold
    std::optional<float> exitTime;          // normalised time of the source state the fade waits for (>= 0)
    float offset = 0.0f;                    // normalised start time of the destination, in [0, 1)
    // Start the destination at the point of its marker cycle the source has reached
    // (syncedMarkerTime): walk to run without crossing feet. Falls back to `offset`
    // when either clip lacks markers or the destination lacks the source's last marker.
    bool syncMarkers = false;
    Interruption interruption = Interruption::None;
    bool canTransitionToSelf = false;  // "*" transitions only: may restart the state already playing
    std::string predicate;             // optional name of a code predicate (StateMachine::setPredicate)

    bool operator==(const TransitionDesc&) const = default;
};

struct StateMachineDesc {
    std::vector<ParameterDesc> parameters;
    std::vector<StateDesc> states;
    std::vector<TransitionDesc> transitions;
    std::string defaultState;  // empty: the first state

    bool operator==(const StateMachineDesc&) const = default;
};

// Stable names as the JSON format spells them.
std::string_view toString(ParameterType type) noexcept;
std::string_view toString(ConditionOp op) noexcept;  // ">", ">=", "<", "<=", "==", "!=", "true", "false"
std::string_view toString(Interruption interruption) noexcept;
std::string_view toString(LoopMode mode) noexcept;
std::string_view toString(BlendSync sync) noexcept;
std::optional<ParameterType> parseParameterType(std::string_view name) noexcept;
std::optional<ConditionOp> parseConditionOp(std::string_view name) noexcept;
std::optional<Interruption> parseInterruption(std::string_view name) noexcept;
std::optional<LoopMode> parseLoopMode(std::string_view name) noexcept;
std::optional<BlendSync> parseBlendSync(std::string_view name) noexcept;

// ---------------------------------------------------------------- definition

// Finds the clip a description names (e.g. from a Model's clips or an AssetCache);
// null when there is none. The clips must outlive the definition.
using ClipLookup = std::function<const Clip*(std::string_view name)>;

// A ClipLookup over `clips` (a Model's, say) by name, the first of a name; the clips
// must outlive it.
ClipLookup clipsByName(std::span<const Clip> clips);

class StateMachineDefinition {
public:
    // Checks `desc` and resolves its names. Every fault is reported, located by
    // the JSON pointer of the field in the description's JSON form (e.g.
    // "/transitions/2/conditions/0/parameter"): unique non-empty parameter and
    // state names; every referenced parameter exists and has the type its use
    // needs; clips found; blend spaces valid (see BlendSpace::create1D/2D);
    // finite speeds, durations >= 0, exit times >= 0, offsets in [0, 1); a known
    // default state; at least one state.
    static Result<StateMachineDefinition> create(StateMachineDesc desc, const ClipLookup& clips);

    const StateMachineDesc& desc() const noexcept { return desc_; }
    std::size_t stateCount() const noexcept { return states_.size(); }
    std::size_t parameterCount() const noexcept { return desc_.parameters.size(); }
    std::uint32_t defaultState() const noexcept { return defaultState_; }
    std::optional<std::uint32_t> findState(std::string_view name) const noexcept;
    std::optional<std::uint32_t> findParameter(std::string_view name) const noexcept;
    // Names of the code predicates transitions refer to; StateMachine::setPredicate
    // takes an index into this list.
    std::span<const std::string> predicates() const noexcept { return predicates_; }
    std::optional<std::uint32_t> findPredicate(std::string_view name) const noexcept;
    // Every distinct clip the states play, in order of first use; MotionSample::clipSlot
    // indexes it (e.g. to pick a PackedClip built once per clip).
    std::span<const Clip* const> clips() const noexcept { return clips_; }

private:
    friend class StateMachine;
    struct Condition {
        std::uint32_t parameter;
        ConditionOp op;
        float value;
    };
    struct Transition {
        std::int32_t from;  // -1: any state
        std::uint32_t to;
        double duration;
        Easing easing;
        std::uint32_t firstCondition, conditionCount;
        bool hasExitTime;
        double exitTime;
        double offset;
        bool syncMarkers;
        Interruption interruption;
        bool toSelf;
        std::int32_t predicate;  // -1: none
    };
    struct State {
        std::int32_t clipSlot = -1;    // into clips_ (a clip state)
        std::int32_t blendSpace = -1;  // into blendSpaces_ (a blend space state)
        std::int32_t xParameter = -1, yParameter = -1;
        std::int32_t speedParameter = -1;
        double speed = 1.0;
        LoopMode mode = LoopMode::Loop;
        std::uint32_t firstCandidate = 0, candidateCount = 0;  // into candidates_
        std::uint32_t blendSlot = 0;                           // which of an instance's blend players is this state's
    };

    StateMachineDesc desc_;
    std::vector<State> states_;
    std::vector<Transition> transitions_;
    std::vector<Condition> conditions_;
    std::vector<std::uint32_t> candidates_;  // per state: its transitions and the "*" ones, in list order
    std::vector<std::string> predicates_;
    NameIndex stateIndex_, parameterIndex_, predicateIndex_;
    std::vector<const Clip*> clips_;
    std::vector<BlendSpace> blendSpaces_;
    std::vector<std::uint32_t> blendSpaceClipSlots_;  // per blend space, per clip: its clip slot (flattened)
    std::vector<std::uint32_t> blendSpaceFirstClip_;
    std::uint32_t defaultState_ = 0;
    std::size_t maxSamplesPerState_ = 1;
    std::size_t maxMarkers_ = 0;
};

// ---------------------------------------------------------------- instance

// One clip to sample for this update's pose: weights of all samples sum to 1.
struct MotionSample {
    const Clip* clip = nullptr;
    std::uint32_t clipSlot = 0;  // index into StateMachineDefinition::clips()
    std::uint32_t state = 0;
    double time = 0.0;  // clip time in seconds
    float weight = 0.0f;
    PlaybackStep step;  // this update's sweep of the clip
    LoopMode mode = LoopMode::Loop;
};

// A marker crossed in the last update. Each playing state announces the markers of
// its leading clip (its clip, or the heaviest clip of its blend space, whose
// markers the others are synchronised to), so a blend of walk and run announces
// one footstep, not two. During a fade both states announce; `weight` (the
// state's share of the pose) lets the caller keep only the dominant one.
struct MotionEvent {
    std::uint32_t state = 0;
    const Clip* clip = nullptr;
    std::uint32_t marker = 0;  // index into clip->markers()
    float weight = 0.0f;
};

class StateMachine {
public:
    // Starts in the definition's default state at time 0, every parameter at its
    // default. `definition` must outlive the instance.
    explicit StateMachine(const StateMachineDefinition& definition);
    StateMachine(const StateMachine&) = default;
    StateMachine& operator=(const StateMachine&) = default;
    // A machine moved from keeps its definition() and refuses update() (NotReady),
    // forceState() and the parameter setters; it reports no samples, motion or events.
    StateMachine(StateMachine&& other) noexcept;
    StateMachine& operator=(StateMachine&& other) noexcept;
    ~StateMachine() = default;

    const StateMachineDefinition& definition() const noexcept { return *def_; }

    // Parameters, by index (see StateMachineDefinition::findParameter). Each changes
    // nothing and says why for an index out of range (OutOfRange), a parameter of
    // another type (WrongType) or a non-finite float (NotFinite).
    Status setFloat(std::uint32_t parameter, float value) noexcept;
    Status setBool(std::uint32_t parameter, bool value) noexcept;
    Status setTrigger(std::uint32_t parameter) noexcept;  // stays set until a transition consumes it
    Status resetTrigger(std::uint32_t parameter) noexcept;
    // The same by name (a hash lookup, NameIndex); an unknown name is UnknownName.
    Status setFloat(std::string_view parameter, float value) noexcept;
    Status setBool(std::string_view parameter, bool value) noexcept;
    Status setTrigger(std::string_view parameter) noexcept;
    float floatValue(std::uint32_t parameter) const noexcept;  // 0 when out of range
    bool boolValue(std::uint32_t parameter) const noexcept;    // bools and triggers

    // Binds the code predicate `index` of definition().predicates(). An unbound
    // predicate is false. Predicates run inside update() and must not throw.
    using Predicate = std::function<bool(const StateMachine&)>;
    bool setPredicate(std::uint32_t index, Predicate predicate);

    // Advances the playing state(s) by `elapsed` seconds (finite, >= 0, and a step
    // that keeps each playing state's times finite at its speed; otherwise a failed
    // Status and nothing changes), runs the fade countdown on the same unscaled
    // seconds, then tries the transitions. Fills samples(), motion() and events():
    // each event carries its state's share of the pose the update leaves.
    Status update(double elapsed) noexcept;

    // Switches to `state` at once (no fade, at its start: the end of a one-shot of
    // negative speed), dropping any fade. Returns false
    // for an unknown state. Announces nothing.
    bool forceState(std::uint32_t state) noexcept;

    std::uint32_t currentState() const noexcept { return slots_[0].state; }
    std::optional<std::uint32_t> targetState() const noexcept;
    bool transitioning() const noexcept { return fading_; }
    // The destination's share of the pose (eased, overshooting curves clamped), in
    // [0, 1]; 0 when not fading.
    float blendFactor() const noexcept;
    // Clip time of the current / target state in seconds (for a blend space: its
    // phase times its cycle length), and normalised time: how many lengths of the
    // motion it has played since it was entered (it passes 1 on a loop).
    double currentTime() const noexcept { return timeOf(slots_[0]); }
    double currentNormalizedTime() const noexcept { return slots_[0].normalized; }
    double targetTime() const noexcept { return fading_ ? timeOf(slots_[1]) : 0.0; }
    double targetNormalizedTime() const noexcept { return fading_ ? slots_[1].normalized : 0.0; }
    // The index of the transition fading now, if any.
    std::optional<std::uint32_t> activeTransition() const noexcept;

    // The clips to pose after the last update, the transitions it fired taken: the
    // state entered by a cut, at its start. Their steps are their motion in the update.
    std::span<const MotionSample> samples() const noexcept { return {samples_.data(), sampleCount_}; }
    // The motion the last update played, for root motion: the clips as they stood
    // before a transition fired in it, each with its step over the update and its
    // share then. The same as samples() when no transition fired; a cut's source
    // moved the character up to the cut, and a fade interrupted mid-way still shared
    // the update with the state it dropped. Empty before the first update and after
    // forceState().
    std::span<const MotionSample> motion() const noexcept {
        return motionApart_ ? std::span<const MotionSample>(motion_.data(), motionCount_) : samples();
    }
    std::span<const MotionEvent> events() const noexcept { return {events_.data(), eventCount_}; }

    // A few lines for a debug overlay or log: states, times, fade, parameters.
    std::string describe() const;

private:
    Status checkParameter(std::uint32_t parameter, ParameterType type) const noexcept;
    struct Slot {
        std::uint32_t state = 0;
        Player player;
        std::uint32_t blend = 0;  // index into blendPlayers_ while the state is a blend space
        double normalized = 0.0;
        PlaybackStep step;
    };
    // `other`: the slot that may hold the same blend state (its player is left alone).
    // `synced`: `offset` is a place on the clip's timeline (syncedOffset), not one
    // measured along the way the state plays.
    void enter(Slot& slot, std::uint32_t state, double offset, const Slot* other, bool synced = false) noexcept;
    // The normalised start of `state` matching `source`'s marker phase, if both have markers to match.
    std::optional<double> syncedOffset(const Slot& source, std::uint32_t state) const noexcept;
    void advance(Slot& slot, double elapsed) noexcept;
    // Whether `elapsed` at the slot's speed moves its clip time and normalised time
    // to finite values (update refuses the step otherwise, changing nothing).
    bool stepsFinitely(const Slot& slot, double elapsed) const noexcept;
    double speedOf(std::uint32_t state) const noexcept;
    double timeOf(const Slot& slot) const noexcept;
    bool satisfied(std::uint32_t transition, const Slot& source, double previousNormalized) const noexcept;
    // The first satisfied candidate transition of `source`'s state, or -1.
    std::int32_t choose(const Slot& source, double previousNormalized) const noexcept;
    void fire(std::uint32_t transition) noexcept;
    void collectEvents(const Slot& slot, float weight) noexcept;
    // The playing clips, their weights and steps, into `out`.
    void publish(std::vector<MotionSample>& out, std::size_t& count) const noexcept;
    // Leaves a machine moved from as StateMachine(StateMachine&&) says.
    void becomeMovedFrom() noexcept;

    const StateMachineDefinition* def_;
    bool movedFrom_ = false;
    std::vector<float> values_;  // per parameter: float value, or 0/1
    std::vector<Predicate> predicates_;
    std::vector<BlendSpacePlayer> blendPlayers_;  // two per blend space state (both slots may hold it)
    Slot slots_[2];                               // [0] current (fading out while fading), [1] target
    bool fading_ = false;
    std::uint32_t transition_ = 0;
    double fadeRemaining_ = 0.0;
    std::vector<MotionSample> samples_;
    std::size_t sampleCount_ = 0;
    std::vector<MotionSample> motion_;  // motion() when a transition fired, else samples_ serve
    std::size_t motionCount_ = 0;
    bool motionApart_ = true;  // before the first update motion() is empty
    std::vector<MotionEvent> events_;
    std::size_t eventCount_ = 0;
    std::vector<std::uint32_t> crossed_;  // markersCrossed scratch
};

}  // namespace kinema
