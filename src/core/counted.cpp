#include "kinema/core/counted.hpp"

namespace kinema {

std::string counted(std::size_t count, std::string_view singular, std::string_view plural) {
    std::string out = std::to_string(count);
    out += ' ';
    if (count == 1)
        out += singular;
    else if (plural.empty())
        (out += singular) += 's';
    else
        out += plural;
    return out;
}

}  // namespace kinema
