// The demo's character, built entirely in code: a 21-joint humanoid (hips, spine,
// chest, neck, head; shoulder, upper arm, forearm, hand and thigh, shin, foot, toe on
// each side), three looping clips generated procedurally (idle; walk and run, whose
// hips travel forward along +Z while a planted foot stays put, with footstep
// markers at each touchdown), two skinned meshes with a skin each over the one
// skeleton (the body, and clothes: a tunic and trousers) and a rigid prop for the
// right hand. Also the uneven ground it walks on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"
#include "kinema/math/transform.hpp"

namespace kinema::cli {

// The ground's height (metres, +Y up) at world (x, z): a few centimetres of smooth relief.
float groundHeight(float x, float z) noexcept;

enum class Side : std::uint8_t { Left, Right };

// How a clip places its feet. The left foot touches down at phase 0 and stays
// planted for `duty` of the cycle; the right foot does the same half a cycle later.
struct Gait {
    float period = 1.0f;  // seconds of one cycle (the clip's duration)
    float duty = 1.0f;    // fraction of the cycle a foot is planted; 1: always (standing)
    float speed = 0.0f;   // metres per second the hips travel along +Z
};

// Whether the clip has the foot planted at clip time `time` (seconds).
bool footPlanted(const Gait& gait, double time, Side side) noexcept;

// The foot IK weight a clip asks for at clip time `time` (seconds): 1 while the
// foot is planted, easing to 0 over the first fifth of the swing and back to 1 over
// its last fifth. Every clip carries it as the user curves kFootIkCurves.
float footIkWeight(const Gait& gait, double time, Side side) noexcept;

// The user curves holding each foot's IK weight, by Side.
inline const std::string kFootIkCurves[2] = {"footIkLeft", "footIkRight"};

struct Humanoid {
    // The skeleton; clips idle, walk and run; skins "body" (every joint) and
    // "clothes" (the joints the clothes follow); meshes "body" and "clothes", each
    // skinned by the skin of the same index.
    Model model;
    std::vector<Gait> gaits;  // one per model.clips
    MeshPrimitive prop;       // a stick held in the right hand, in its own space (unskinned)
    Transform propOffset;     // the prop in the right hand's frame
    std::uint32_t hips = 0, neck = 0, head = 0, rightHand = 0;
    std::uint32_t thigh[2]{}, shin[2]{}, foot[2]{};  // by Side
    float ankleHeight = 0.0f;                        // metres a planted ankle stands above the ground
};

// Fails only if the generated motion were out of the legs' reach, or the model
// inconsistent (findModelFaults): a fault in this file, not in the user's input.
Result<Humanoid> buildHumanoid();

}  // namespace kinema::cli
