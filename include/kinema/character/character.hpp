// kinema/character: one animated character in a few lines.
//
// A convenience layer over the evaluation seam (runtime/instance.hpp) and the
// players of play/, for the common case of one model playing its own clips:
//
//   auto model = kinema::importGltfFile("CesiumMan.glb");
//   auto man = kinema::Character::create(*model);
//   (void)man->play("Walk");                       // clips by name, looping
//   while (running) {
//       (void)man->update(dt);                     // advance, evaluate, events
//       auto vertices = man->skinnedPositions(0);  // mesh instance 0, skinned on the CPU
//   }
//   (void)man->crossFade("Run", 0.3);              // over 0.3 s
//   (void)man->setSpeed(1.5);
//
// From a cooked file with compressed clips (io/cooked.hpp), playing from the
// compressed data:
//
//   auto cooked = kinema::readCookedFile("CesiumMan.kinc");
//   auto man = kinema::Character::create(cooked->model, {.compressedClips = cooked->compressedClips});
//
// The base layer plays one clip at a time and crossfades between clips (CrossFade).
// Up to two further layers play over it (override or additive, optionally masked),
// each with its own clip, loop mode, speed and a weight that can fade in or out over
// time. update() reports markers crossed, clips that looped and one-shots that
// finished. For crowds use PoseBatch: a Character is one instance.
//
// What touches the world: IK tasks solved on every update (setIk: feet on the
// ground, a head turned toward a target), root motion (the clips' travel as a
// delta per update while the pose plays in place), user curves blended with the
// pose, and sockets placed from model() (runtime/socket.hpp):
//
//   auto man = kinema::Character::create(*model, {.rootMotionJoint = "hips", .curves = names});
//   (void)man->setIk(tasks);                       // targets in the character's model space
//   (void)man->update(dt);
//   position = position + rotate(heading, man->rootMotion().translation);
//   heading = normalize(heading * man->rootMotion().rotation);
//   socket.place(man->modelData().skeleton, man->model(), placement);
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"
#include "kinema/core/status.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/math/vec3.hpp"
#include "kinema/play/cross_fade.hpp"
#include "kinema/play/player.hpp"
#include "kinema/play/root_motion.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "kinema/runtime/ik.hpp"
#include "kinema/runtime/instance.hpp"
#include "kinema/runtime/packed_clip.hpp"

namespace kinema {

struct CharacterEvent {
    enum class Kind : std::uint8_t {
        Marker,    // the head crossed a marker (`marker` names it)
        Looped,    // a looping (or ping-pong) head wrapped round
        Finished,  // a one-shot (Clamp) head reached its end
    };
    Kind kind = Kind::Marker;
    std::uint32_t layer = 0;    // 0: the base layer (during a fade, either clip of it)
    std::uint32_t clip = 0;     // index into Model::clips
    std::string_view marker{};  // Marker events: the marker's name
    friend bool operator==(const CharacterEvent&, const CharacterEvent&) = default;
};

struct CharacterOptions {
    SimdLevel simd = bestSimdLevel();
    // Empty, or per clip of the model its compressed form (CookedModel::compressedClips,
    // which must outlive nothing: the character keeps its own packed copy). A clip whose
    // entry holds tracks plays from the compressed integers (PackedClip::fromCompressed)
    // in a fraction of the memory; the model's clip is then the one they rebuild.
    std::span<const CompressedClip> compressedClips{};
    // Root motion: the joint whose travel moves the character (the hips, or the
    // armature's root), by name; empty: none. The parts `rootMotionMask` names (axes of
    // the joint's parent: under a Z-up armature the ground is x and y, and the heading
    // turns about z: set its `up`) are held in the
    // pose at their values at the start of the base layer's current clip (it plays in
    // place) and come back per update as rootMotion().
    std::string_view rootMotionJoint{};
    RootMotionMask rootMotionMask{};
    // The user curves to blend (CurveTrack::name; EvaluatorOptions::curves), read
    // back with curve().
    std::span<const std::string> curves{};
};

class Character {
public:
    // Layers over the base layer: the base may use two evaluation layers while it
    // crossfades, the rest are for these.
    static constexpr std::size_t kUpperLayers = kMaxLayers - 2;

    // The model (its skeleton, skins, meshes and clips) must outlive the character.
    // Faults as InstanceEvaluator::create, and compressed clips that do not fit the
    // model's ("compressedClips/2/...": a count other than the clips', or the faults
    // of PackedClip::fromCompressed).
    static Result<Character> create(const Model& model, CharacterOptions options = {});

    // Index of the first clip of that name in Model::clips.
    std::optional<std::uint32_t> findClip(std::string_view name) const noexcept;

    // Base layer. play() cuts to the clip from its start with the loop mode given, at
    // speed 1, also when it is the clip playing (a one-shot plays again); crossFade()
    // fades to it over `seconds` (the cases of CrossFade: the clip already playing is
    // left alone). Unknown clip names fail (UnknownName) and change nothing.
    Status play(std::string_view clip, LoopMode loop = LoopMode::Loop) noexcept;
    Status crossFade(std::string_view clip, double seconds, LoopMode loop = LoopMode::Loop) noexcept;
    // Speed of the base layer's current clip (negative plays backwards).
    Status setSpeed(double speed) noexcept;
    const Player& current() const noexcept;  // one without a clip on a character moved from

    // Upper layer `layer` (1..kUpperLayers) plays `clip` from its start, at weight 0
    // unless `weight` says otherwise; fadeLayer moves the weight to `target` over
    // `seconds` (0: at once). A mask, when given, must outlive its use. Upper layers
    // play over the base layer: while it plays nothing the character shows its rest
    // pose, and the upper layers' heads advance and report without posing it.
    // setLayerSpeed and fadeLayer on a layer that plays nothing are NotReady.
    Status playLayer(std::size_t layer, std::string_view clip, LoopMode loop = LoopMode::Loop,
                     LayerMode mode = LayerMode::Override, const JointMask* mask = nullptr,
                     float weight = 0.0f) noexcept;
    Status fadeLayer(std::size_t layer, float target, double seconds) noexcept;
    Status setLayerSpeed(std::size_t layer, double speed) noexcept;
    Status stopLayer(std::size_t layer) noexcept;
    float layerWeight(std::size_t layer) const noexcept;

    // Advances every head by `elapsed` seconds (finite, >= 0), runs the fades,
    // evaluates the pose, model matrices and palettes, and collects the events.
    // Allocates nothing after the first frames with a given set of clips.
    Status update(double elapsed) noexcept;

    // What the last update() crossed, base layer first, in the order the heads met it.
    std::span<const CharacterEvent> events() const noexcept {
        return model_ ? std::span<const CharacterEvent>(events_.data(), eventCount_)
                      : std::span<const CharacterEvent>{};
    }

    // The last update's local pose (with morph weights), model matrices and skin
    // `skin`'s palette (Model::skins order); before the first update, the rest pose's.
    const SoaPose& pose() const noexcept { return work_.pose; }
    std::span<const Mat4> model() const noexcept { return modelMatrices_; }
    std::span<const Mat4> palette(std::size_t skin = 0) const noexcept;

    // Mesh instance `instance` (Model::meshInstances) skinned with the last update's
    // palette, on the CPU: positions (and normals) of primitive `primitive`. Empty
    // when the instance has no skin or no such primitive. The buffers are made on
    // the first call for that primitive and reused.
    std::span<const Vec3> skinnedPositions(std::size_t instance, std::size_t primitive = 0);
    std::span<const Vec3> skinnedNormals(std::size_t instance, std::size_t primitive = 0);

    // IK tasks (runtime/ik.hpp) solved on every update from now on, in list order,
    // after the clips blend and before the matrices compose; empty: none. Copied: the
    // joint lists and limits a task points to must outlive their use. Targets and
    // poles are in the character's model space (the pose's, before any transform of
    // its own). Checked first (checkIkTasks: Status::index names the task); tasks that
    // fail are not taken and the ones set before stay.
    Status setIk(std::span<const IkTask> tasks);
    // The last update's outcome of each task: whether it reached, and the distance left.
    std::span<const IkOutcome> ikOutcomes() const noexcept {
        return model_ ? state_.ikOutcomes() : std::span<const IkOutcome>{};
    }

    // With a root motion joint: how far the last update moved the character, in its
    // own model space at the update's start (through the nodes above the root joint,
    // a Z-up armature say, as they stood). It is the blend of what each playing clip's
    // root did over its step (a crossfade's two clips and override layers by their
    // weights, exact across loops and backwards), taken about where the pose holds the
    // root. Apply it as position += rotate(heading, translation), heading = heading *
    // rotation. The identity without a joint.
    const Transform& rootMotion() const noexcept { return rootMotion_; }

    // The last update's blended value of user curve `name` (one of
    // CharacterOptions::curves); nullopt for a name not asked for.
    std::optional<float> curve(std::string_view name) const noexcept;

    // Not on a character moved from.
    const Model& modelData() const noexcept { return *model_; }

private:
    struct Upper {
        std::uint32_t clip = 0;
        bool active = false;
        Player player;
        PlaybackStep step;
        LayerMode mode = LayerMode::Override;
        const JointMask* mask = nullptr;
        double weight = 0.0, target = 0.0, rate = 0.0;  // rate: weight per second, 0 when not fading
    };
    struct Skinned {
        std::vector<Vec3> positions, normals;
        std::uint64_t frame = 0;  // the update() these were skinned for (0: never)
        bool withNormals = false;
    };

    Character() = default;
    std::uint32_t clipIndexOf(const Clip* clip) const noexcept;
    void report(std::uint32_t layer, std::uint32_t clip, LoopMode loop, const PlaybackStep& step,
                bool stopped) noexcept;
    // The request of this update: each layer's clip, time and weight, the steps the
    // heads took (root motion), the IK tasks and the root anchor; `motions` gets each
    // layer's root motion.
    void fill(const CrossFadeStep& baseStep, InstanceRequest& request,
              std::array<const RootMotion*, kMaxLayers>& motions) const noexcept;
    // A root motion delta in the root's parent's frame, seen from the model's origin.
    Transform inModelSpace(const Transform& delta) const noexcept;
    Skinned* skin(std::size_t instance, std::size_t primitive, bool normals);

    // The model; a character moved from holds none, and its calls refuse (NotReady)
    // or return nothing.
    class ModelLink {
    public:
        ModelLink() = default;
        explicit ModelLink(const Model* model) noexcept : model_(model) {}
        ModelLink(const ModelLink&) = default;
        ModelLink& operator=(const ModelLink&) = default;
        ModelLink(ModelLink&& other) noexcept : model_(std::exchange(other.model_, nullptr)) {}
        ModelLink& operator=(ModelLink&& other) noexcept {
            model_ = std::exchange(other.model_, nullptr);
            return *this;
        }
        ~ModelLink() = default;
        const Model* operator->() const noexcept { return model_; }
        const Model& operator*() const noexcept { return *model_; }
        explicit operator bool() const noexcept { return model_ != nullptr; }

    private:
        const Model* model_ = nullptr;
    };
    ModelLink model_;
    std::vector<PackedClip> packed_;
    InstanceEvaluator evaluator_;
    InstanceState state_;
    WorkPoses work_;
    std::vector<Mat4> modelMatrices_;
    std::vector<Mat4> palettes_;
    CrossFade base_;
    CrossFadeStep baseStep_;
    std::array<Upper, kUpperLayers> upper_{};
    std::vector<CharacterEvent> events_;
    std::size_t eventCount_ = 0;
    std::vector<std::uint32_t> crossed_;
    std::vector<std::vector<Skinned>> skinned_;  // per mesh instance, per primitive
    std::uint64_t frame_ = 1;                    // counts update(), so skinning is redone once per frame
    std::vector<IkTask> ik_;
    std::optional<std::uint32_t> rootJoint_;
    std::vector<RootMotion> rootMotions_;  // per clip of the model, with a root motion joint
    Transform rootMotion_;
};

}  // namespace kinema
