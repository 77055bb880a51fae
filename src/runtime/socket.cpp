#include "kinema/runtime/socket.hpp"

namespace kinema {
namespace {

constexpr std::uint8_t kNoPose = 1;
constexpr std::uint8_t kEmptySkeleton = 2;
constexpr std::uint8_t kUnknownBone = 4;
constexpr std::uint8_t kWrongSize = 8;

}  // namespace

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
    } else {
        out.matrix = mulAffine(model[static_cast<std::size_t>(bone)], offsetMatrix_);
        out.trs = decompose(out.matrix);
    }
    latches_ = static_cast<std::uint8_t>(latches_ & ongoing);
    return result;
}

}  // namespace kinema
