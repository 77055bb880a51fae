#include "kinema/core/result.hpp"

#include <array>
#include <charconv>
#include <utility>

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

void appendFault(std::vector<Fault>& faults, Fault fault, std::string_view source) {
    if (faults.size() < kMaxListedFaults) {
        faults.push_back(std::move(fault));
    } else if (faults.size() == kMaxListedFaults) {
        faults.push_back({std::string(source), "more faults not listed"});
    }
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
