#include "kinema/core/status.hpp"

namespace kinema {

std::string_view toString(StatusCode code) noexcept {
    switch (code) {
        case StatusCode::Ok: return "ok";
        case StatusCode::NotFinite: return "not finite";
        case StatusCode::OutOfRange: return "out of range";
        case StatusCode::WrongCount: return "wrong count";
        case StatusCode::Missing: return "missing";
        case StatusCode::ForeignInput: return "foreign input";
        case StatusCode::UnknownName: return "unknown name";
        case StatusCode::WrongType: return "wrong type";
        case StatusCode::NotReady: return "not ready";
    }
    return "unknown status";
}

std::string Status::message() const {
    if (ok()) return {};
    std::string text;
    const auto place = [&](const char* label, std::int64_t value) {
        if (value < 0) return;
        if (!text.empty()) text.append(", ");
        text.append(label).append(std::to_string(value));
    };
    place("instance ", instance);
    place("layer ", layer);
    place("index ", index);
    if (!text.empty()) text.append(": ");
    text.append(what != nullptr && *what != '\0' ? what : toString(code));
    return text;
}

}  // namespace kinema
