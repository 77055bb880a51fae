// kinema/runtime: a socket: something a bone holds (a sword in a hand, a hat on a
// head), placed every frame at the bone's model matrix times an offset.
//
// A socket names its bone; the index is looked up once and remembered against the
// pairing (the skeleton's fingerprint and the name), a name the skeleton lacks too,
// and looked up again only when either changes. Placing it reads a pose's model
// matrices: no hierarchy walk, no allocation.
//
// What can go wrong (no pose, an empty skeleton, a bone the skeleton lacks) is
// returned every frame as a Status, and each kind also on a latch of its own:
// `fresh` is true only on the frame a fault begins, so a caller that logs fresh
// faults names each occurrence once, never once a frame, and one fault never
// silences another. A fault ends when its check runs and passes (a bone still
// missing behind a missing pose is the same occurrence), or when the bone's name,
// or the kind of the offset's fault, changes.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "kinema/asset/skeleton.hpp"
#include "kinema/core/status.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/transform.hpp"

namespace kinema {

struct SocketPlacement {
    Mat4 matrix;  // model[bone] * offset: the held thing's model matrix
    // `matrix` as TRS (decompose()): exact for translation, rotation and scale
    // along the bone's axes, of any finite size; a mirrored axis comes back as a
    // negative scale.x, a collapsed axis as a zero scale with its direction rebuilt
    // from the others; under shear (a bone turned inside a parent scaled unevenly)
    // the rotation nearest the axes' directions; never NaN.
    Transform trs;
};

// A fault of place(): the Status, and whether this frame is the first of its run.
struct SocketReport {
    Status status;
    bool fresh = false;
};

class Socket {
public:
    Socket() = default;
    explicit Socket(std::string bone, const Transform& offset = {}) : bone_(std::move(bone)) { setOffset(offset); }

    const std::string& bone() const noexcept { return bone_; }
    // Another name is looked up on the next resolve(), and its fault, if any, is a new
    // occurrence; the same name changes nothing.
    void setBone(std::string bone);
    // The held thing in the bone's frame, as given (its rotation normalised) and as
    // the matrix placement uses. An offset holding a value that is not finite, or a
    // zero rotation (a rotation of any other length is normalised, in double), is
    // kept but refused by place() until a good one is set.
    const Transform& offset() const noexcept { return offset_; }
    const Mat4& offsetMatrix() const noexcept { return offsetMatrix_; }
    void setOffset(const Transform& offset) noexcept;

    // The bone's joint index in `skeleton`, or -1 when it has no joint of that name
    // (or the socket names none: an empty name never means an unnamed joint).
    // Looked up only when the skeleton (by fingerprint) or the name changed since the
    // last call.
    std::int32_t resolve(const Skeleton& skeleton);

    // Places the socket from `model`, the pose's model matrices (one per joint of
    // `skeleton`). Faults, out left untouched: Missing (no pose: `model` empty; or
    // the socket names no bone), NotReady (an empty skeleton), UnknownName (the bone
    // is not in the skeleton: bone() names it), WrongCount (`model` and the skeleton differ in size),
    // NotFinite (the offset, or the bone's model matrix, holds a value that is not
    // finite, or their product overflows; index: the bone), OutOfRange (the offset's
    // rotation is zero).
    SocketReport place(const Skeleton& skeleton, std::span<const Mat4> model, SocketPlacement& out);

    // How many times a lookup has run (a test of the memo, and a diagnostic).
    std::uint64_t lookups() const noexcept { return lookups_; }

private:
    SocketReport report(Status status, std::uint8_t latch);

    std::string bone_;
    Transform offset_;
    Mat4 offsetMatrix_;
    std::uint64_t resolvedFor_ = 0;  // the fingerprint of the skeleton index_ was looked up in
    bool resolvedValid_ = false;     // whether a lookup has been made for the current name
    std::int32_t index_ = -1;
    std::uint64_t lookups_ = 0;
    std::uint8_t latches_ = 0;  // one bit per fault kind that is ongoing
    Status offsetStatus_{};     // setOffset's verdict on the offset
};

}  // namespace kinema
