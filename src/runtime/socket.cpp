#include "kinema/runtime/socket.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <utility>

namespace kinema {
namespace {

constexpr std::uint8_t kNoPose = 1;
constexpr std::uint8_t kEmptySkeleton = 2;
constexpr std::uint8_t kUnknownBone = 4;
constexpr std::uint8_t kWrongSize = 8;
constexpr std::uint8_t kOffsetNotFinite = 16;
constexpr std::uint8_t kOffsetZeroRotation = 32;
constexpr std::uint8_t kBadBone = 64;
constexpr std::uint8_t kOverflow = 128;

}  // namespace

void Socket::setBone(std::string bone) {
    if (bone == bone_) return;
    bone_ = std::move(bone);
    resolvedValid_ = false;
    latches_ = static_cast<std::uint8_t>(latches_ & ~kUnknownBone);
}

void Socket::setOffset(const Transform& offset) noexcept {
    offset_ = offset;
    const StatusCode before = offsetStatus_.code;
    // Normalised in double: a rotation of length 1e-30 or 3e38 has a direction.
    const std::optional<Quat> unit = tryNormalize(offset.rotation);
    if (!isFinite(offset)) {
        offsetStatus_ = Status::failure(StatusCode::NotFinite, "socket: the offset holds a value that is not finite");
    } else if (!unit) {
        offsetStatus_ = Status::failure(StatusCode::OutOfRange, "socket: the offset's rotation is zero");
    } else {
        offsetStatus_ = Status::success();
        offset_.rotation = *unit;
    }
    offsetMatrix_ = offsetStatus_ ? toMatrix(offset_) : Mat4{};
    // An offset whose fault is another kind than the last one's is a new occurrence;
    // the same bad offset set again is not.
    if (offsetStatus_.code != before)
        latches_ = static_cast<std::uint8_t>(latches_ & ~(kOffsetNotFinite | kOffsetZeroRotation));
}

std::int32_t Socket::resolve(const Skeleton& skeleton) {
    if (resolvedValid_ && resolvedFor_ == skeleton.fingerprint()) return index_;
    ++lookups_;
    // No name is no bone, though a skeleton may have joints without names.
    const auto found = bone_.empty() ? std::nullopt : skeleton.findJoint(bone_);
    index_ = found ? static_cast<std::int32_t>(*found) : -1;
    resolvedFor_ = skeleton.fingerprint();
    resolvedValid_ = true;
    return index_;
}

SocketReport Socket::report(Status status, std::uint8_t latch) {
    const bool fresh = (latches_ & latch) == 0;
    latches_ = static_cast<std::uint8_t>(latches_ | latch);
    return {status, fresh};
}

SocketReport Socket::place(const Skeleton& skeleton, std::span<const Mat4> model, SocketPlacement& out) {
    // Each kind's latch opens again once its check runs and passes, so the next
    // occurrence is news; a check that an earlier fault kept from running leaves its
    // latch as it was (a bone still missing behind a missing pose is not news).
    std::uint8_t checked = 0;
    const auto passed = [&](std::uint8_t kinds) { checked = static_cast<std::uint8_t>(checked | kinds); };
    const auto fault = [&](Status status, std::uint8_t kind) {
        const SocketReport r = report(status, kind);
        latches_ = static_cast<std::uint8_t>((latches_ & ~checked) | kind);
        return r;
    };
    // An empty skeleton first: its pose is empty too, and "no pose" would hide why.
    if (skeleton.jointCount() == 0)
        return fault(Status::failure(StatusCode::NotReady, "socket: the skeleton has no joints"), kEmptySkeleton);
    passed(kEmptySkeleton);
    if (model.empty()) return fault(Status::failure(StatusCode::Missing, "socket: no pose to place it from"), kNoPose);
    passed(kNoPose);
    if (model.size() != skeleton.jointCount()) {
        return fault(Status::failure(StatusCode::WrongCount, "socket: pose and skeleton differ in joint count"),
                     kWrongSize);
    }
    passed(kWrongSize);
    const std::int32_t bone = resolve(skeleton);
    if (bone_.empty()) return fault(Status::failure(StatusCode::Missing, "socket: it names no bone"), kUnknownBone);
    if (bone < 0) {
        return fault(Status::failure(StatusCode::UnknownName, "socket: the skeleton has no bone of that name"),
                     kUnknownBone);
    }
    passed(kUnknownBone);
    if (!offsetStatus_) {
        return fault(offsetStatus_,
                     offsetStatus_.code == StatusCode::NotFinite ? kOffsetNotFinite : kOffsetZeroRotation);
    }
    passed(kOffsetNotFinite | kOffsetZeroRotation);
    const Mat4& hand = model[static_cast<std::size_t>(bone)];
    if (!isFinite(hand)) {
        return fault(
            Status::failure(StatusCode::NotFinite, "socket: the bone's model matrix is not finite").withIndex(bone),
            kBadBone);
    }
    passed(kBadBone);
    const Mat4 held = mulAffine(hand, offsetMatrix_);
    if (!isFinite(held)) {
        return fault(
            Status::failure(StatusCode::NotFinite, "socket: the bone's model matrix times the offset overflows a float")
                .withIndex(bone),
            kOverflow);
    }
    out.matrix = held;
    out.trs = decompose(held);
    latches_ = 0;  // every check ran and passed
    return {Status::success(), false};
}

}  // namespace kinema
