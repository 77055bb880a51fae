#include "kinema/core/quoted.hpp"

namespace kinema {

std::string inQuotes(std::string_view text, char mark) {
    std::string out;  // appended, not concatenated: g++ 12 warns falsely (-Wrestrict) on "'" + s
    out.reserve(text.size() + 2);
    out += mark;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u != 0x7f) {
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else {
            constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[u >> 4];
            out += kHex[u & 0xf];
        }
    }
    out += mark;
    return out;
}

}  // namespace kinema
