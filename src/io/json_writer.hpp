// Internal to kinema (not installed): numbers written into JSON so that they read
// back to the same bits.
#pragma once

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

namespace kinema::json {

// The shortest decimal that reads back to the same bits. Two plain forms would not:
// "-0" reads as the integer 0, and an integer form longer than an int64 does not
// read at all; both are written in exponent form instead.
template <class F>
void appendNumber(std::string& out, F v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    const std::string_view plain(buf, static_cast<std::size_t>(r.ptr - buf));
    const bool integer = plain.find_first_of(".e") == std::string_view::npos;
    if (integer && ((v == 0 && std::signbit(v)) || plain.size() > 15)) {
        r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    }
    out.append(buf, r.ptr);
}

}  // namespace kinema::json
