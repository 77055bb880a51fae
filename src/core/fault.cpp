#include "kinema/core/result.hpp"

#include <array>
#include <charconv>

namespace kinema {

namespace {

template <class T>
std::string shortest(T value) {
    std::array<char, 40> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), value);
    return std::string(buf.data(), r.ptr);
}

}  // namespace

std::string exactNumber(float value) { return shortest(value); }
std::string exactNumber(double value) { return shortest(value); }

std::string describe(const Fault& fault) {
    if (fault.where.empty()) return fault.what;
    return fault.where + ": " + fault.what;
}

std::string describe(std::span<const Fault> faults) {
    std::string text;
    for (const Fault& f : faults) {
        if (!text.empty()) text += '\n';
        text += describe(f);
    }
    return text;
}

}  // namespace kinema
