#include "kinema/runtime/socket.hpp"

#include <cmath>
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
    const Quat& q = offset.rotation;
    const float q2 = dot(q, q);
    if (!isFinite(offset)) {
        offsetStatus_ = Status::failure(StatusCode::NotFinite, "socket: the offset holds a value that is not finite");
    } else if (!(q2 > 0.0f) || !std::isfinite(q2)) {
        offsetStatus_ = Status::failure(StatusCode::OutOfRange, "socket: the offset's rotation is zero");
    } else {
        offsetStatus_ = Status::success();
        offset_.rotation = normalize(q);
    }
    offsetMatrix_ = offsetStatus_ ? toMatrix(offset_) : Mat4{};
}

std::int32_t Socket::resolve(const Skeleton& skeleton) {
    if (resolvedValid_ && resolvedFor_ == skeleton.fingerprint()) return index_;
    ++lookups_;
    const auto found = skeleton.findJoint(bone_);
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
    // A latch opens again once its fault is gone, so the next occurrence is news.
    std::uint8_t ongoing = 0;
    SocketReport result{Status::success(), false};
    // An empty skeleton first: its pose is empty too, and "no pose" would hide why.
    if (skeleton.jointCount() == 0) {
        ongoing = kEmptySkeleton;
        result = report(Status::failure(StatusCode::NotReady, "socket: the skeleton has no joints"), kEmptySkeleton);
    } else if (model.empty()) {
        ongoing = kNoPose;
        result = report(Status::failure(StatusCode::Missing, "socket: no pose to place it from"), kNoPose);
    } else if (model.size() != skeleton.jointCount()) {
        ongoing = kWrongSize;
        result = report(Status::failure(StatusCode::WrongCount, "socket: pose and skeleton differ in joint count"),
                        kWrongSize);
    } else if (const std::int32_t bone = resolve(skeleton); bone < 0) {
        ongoing = kUnknownBone;
        result = report(Status::failure(StatusCode::UnknownName, "socket: the skeleton has no bone of that name"),
                        kUnknownBone);
    } else if (!offsetStatus_) {
        ongoing = offsetStatus_.code == StatusCode::NotFinite ? kOffsetNotFinite : kOffsetZeroRotation;
        result = report(offsetStatus_, ongoing);
    } else if (!isFinite(model[static_cast<std::size_t>(bone)])) {
        ongoing = kBadBone;
        result = report(
            Status::failure(StatusCode::NotFinite, "socket: the bone's model matrix is not finite").withIndex(bone),
            kBadBone);
    } else if (const Mat4 held = mulAffine(model[static_cast<std::size_t>(bone)], offsetMatrix_); !isFinite(held)) {
        ongoing = kOverflow;
        result = report(
            Status::failure(StatusCode::NotFinite, "socket: the bone's model matrix times the offset overflows a float")
                .withIndex(bone),
            kOverflow);
    } else {
        out.matrix = held;
        out.trs = decompose(held);
    }
    latches_ = static_cast<std::uint8_t>(latches_ & ongoing);
    return result;
}

}  // namespace kinema
