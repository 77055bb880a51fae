// kinema: every public header at once, for programs that would rather not pick.
// Each module's own headers (kinema/<module>/...) stay the lighter choice: a translation
// unit that only samples clips needs kinema/runtime/sample.hpp, not the whole library.
// The Vulkan renderer is not here: it is the optional kinema::gpu target, whose headers
// (kinema/gpu/...) are included on their own.
#pragma once

// core: Result and Fault, how every module reports errors
#include "kinema/core/counted.hpp"
#include "kinema/core/name_index.hpp"
#include "kinema/core/quoted.hpp"
#include "kinema/core/result.hpp"
#include "kinema/core/status.hpp"
#include "kinema/core/typed_id.hpp"
#include "kinema/core/version.hpp"

// math: vectors, quaternions, matrices, transforms
#include "kinema/math/finite.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/math/vec3.hpp"

// asset: skeletons, clips, easing curves, models, retargeting
#include "kinema/asset/clip.hpp"
#include "kinema/asset/easing.hpp"
#include "kinema/asset/model.hpp"
#include "kinema/asset/retarget.hpp"
#include "kinema/asset/skeleton.hpp"

// render: what is drawn as plain data (no graphics API), its validation and preparation plan, cameras
#include "kinema/render/camera.hpp"
#include "kinema/render/catalogue.hpp"
#include "kinema/render/descriptions.hpp"
#include "kinema/render/ids.hpp"
#include "kinema/render/overlay.hpp"
#include "kinema/render/preparation.hpp"
#include "kinema/render/validation.hpp"

// runtime: sampling, blending, composition, palettes, skinning (one instance; SIMD kernels)
#include "kinema/runtime/bone_adjust.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "kinema/runtime/clip_error.hpp"
#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/external_pose.hpp"
#include "kinema/runtime/ik.hpp"
#include "kinema/runtime/instance.hpp"
#include "kinema/runtime/joint_mask.hpp"
#include "kinema/runtime/marker_sweep.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/simd.hpp"
#include "kinema/runtime/skinning.hpp"
#include "kinema/runtime/socket.hpp"
#include "kinema/runtime/soa_pose.hpp"

// io: glTF import, images, the asset cache
#include "kinema/io/asset_cache.hpp"
#include "kinema/io/cooked.hpp"
#include "kinema/io/curve_json.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/io/image_write.hpp"
#include "kinema/io/image.hpp"
#include "kinema/io/joint_map_json.hpp"
#include "kinema/io/marker_json.hpp"
#include "kinema/io/model_file.hpp"
#include "kinema/io/state_machine_json.hpp"
#include "kinema/io/tween_json.hpp"

// play: players, crossfades, blend spaces, state machines, layer stacks
#include "kinema/play/blend_space.hpp"
#include "kinema/play/cross_fade.hpp"
#include "kinema/play/external_pose.hpp"
#include "kinema/play/fixed_tick.hpp"
#include "kinema/play/layer_stack.hpp"
#include "kinema/play/motion_layers.hpp"
#include "kinema/play/player.hpp"
#include "kinema/play/root_motion.hpp"
#include "kinema/play/state_machine.hpp"

// batch: many instances in parallel
#include "kinema/batch/pose_batch.hpp"

// character: one character in a few lines
#include "kinema/character/character.hpp"

// scene: nodes with one role, animator bindings, tweens, world transforms, draw list, posed vertices
#include "kinema/scene/model_scene.hpp"
#include "kinema/scene/posed_vertices.hpp"
#include "kinema/scene/scene.hpp"
#include "kinema/scene/skeleton_overlay.hpp"
#include "kinema/scene/tween.hpp"
