#include "kinema/core/result.hpp"

namespace kinema {

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
