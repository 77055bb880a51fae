#include "kinema/core/counted.hpp"

namespace kinema {

std::string counted(std::size_t count, std::string_view singular, std::string_view plural) {
    std::string out = std::to_string(count);
    out += ' ';
    if (count == 1) {
        out += singular;
    } else if (!plural.empty()) {
        out += plural;
    } else {
        // English's regular plural: "es" after a hissing sound ("meshes", "batches").
        const bool sibilant =
            singular.ends_with('s') || singular.ends_with('x') || singular.ends_with("sh") || singular.ends_with("ch");
        (out += singular) += sibilant ? "es" : "s";
    }
    return out;
}

}  // namespace kinema
