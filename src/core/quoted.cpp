#include "kinema/core/quoted.hpp"

namespace kinema {

void appendOneLine(std::string& out, std::string_view text) {
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
}

void appendPointerToken(std::string& out, std::string_view key) {
    std::size_t from = 0;
    for (std::size_t i = 0; i <= key.size(); ++i) {
        if (i < key.size() && key[i] != '~' && key[i] != '/') continue;
        appendOneLine(out, key.substr(from, i - from));
        if (i < key.size()) out += key[i] == '~' ? "~0" : "~1";
        from = i + 1;
    }
}

std::string inQuotes(std::string_view text, char mark) {
    std::string out;  // appended, not concatenated: g++ 12 warns falsely (-Wrestrict) on "'" + s
    out.reserve(text.size() + 2);
    out += mark;
    appendOneLine(out, text);
    out += mark;
    return out;
}

}  // namespace kinema
