#include "json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace kinema::cli {

std::string formatFloat(float f) {
    if (!std::isfinite(f)) return "null";
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, f);
    return std::string(buf, r.ptr);
}

void JsonWriter::newline() {
    if (!pretty_) return;
    out_ += '\n';
    out_.append(hasItems_.size() * 2, ' ');
}

void JsonWriter::separate() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!hasItems_.empty()) {
        if (hasItems_.back()) out_ += ',';
        hasItems_.back() = true;
        newline();
    }
}

JsonWriter& JsonWriter::beginObject() {
    separate();
    out_ += '{';
    hasItems_.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    const bool had = hasItems_.back();
    hasItems_.pop_back();
    if (had) newline();
    out_ += '}';
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    separate();
    out_ += '[';
    hasItems_.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    const bool had = hasItems_.back();
    hasItems_.pop_back();
    if (had) newline();
    out_ += ']';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
    separate();
    writeString(k);
    out_ += pretty_ ? ": " : ":";
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
    separate();
    writeString(s);
    return *this;
}

namespace {

// The length of the well-formed UTF-8 sequence starting at s[i] (1 to 4), or 0 when
// the bytes there are not one (a stray continuation byte, a truncated or overlong
// sequence, a surrogate, a code point past U+10FFFF).
std::size_t utf8Sequence(std::string_view s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    const unsigned lead = byte(0);
    const auto tail = [&](std::size_t k) { return (byte(k) & 0xC0u) == 0x80u; };
    if (lead < 0x80u) return 1;
    if (lead >= 0xC2u && lead <= 0xDFu) return tail(1) ? 2 : 0;
    if (lead >= 0xE0u && lead <= 0xEFu) {
        const unsigned second = byte(1);
        const bool ok = tail(1) && tail(2) && !(lead == 0xE0u && second < 0xA0u) && !(lead == 0xEDu && second >= 0xA0u);
        return ok ? 3 : 0;
    }
    if (lead >= 0xF0u && lead <= 0xF4u) {
        const unsigned second = byte(1);
        const bool ok =
            tail(1) && tail(2) && tail(3) && !(lead == 0xF0u && second < 0x90u) && !(lead == 0xF4u && second >= 0x90u);
        return ok ? 4 : 0;
    }
    return 0;
}

}  // namespace

void JsonWriter::writeString(std::string_view s) {
    out_ += '"';
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (static_cast<unsigned char>(c) >= 0x80u) {
            // JSON is UTF-8: a name or path that is not (a cooked file's bytes, a file
            // name) is written with U+FFFD in place of each byte that is not, so the
            // output stays readable by any parser.
            const std::size_t n = utf8Sequence(s, i);
            if (n == 0) {
                out_ += "\\ufffd";
            } else {
                out_.append(s.substr(i, n));
                i += n - 1;
            }
            continue;
        }
        switch (c) {
            case '"': out_ += "\\\""; break;
            case '\\': out_ += "\\\\"; break;
            case '\n': out_ += "\\n"; break;
            case '\r': out_ += "\\r"; break;
            case '\t': out_ += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                    out_ += buf;
                } else {
                    out_ += c;
                }
        }
    }
    out_ += '"';
}

JsonWriter& JsonWriter::value(float f) {
    separate();
    out_ += formatFloat(f);
    return *this;
}

JsonWriter& JsonWriter::value(double d) {
    separate();
    if (!std::isfinite(d)) {
        out_ += "null";
        return *this;
    }
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);
    out_.append(buf, r.ptr);
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t i) {
    separate();
    out_ += std::to_string(i);
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t u) {
    separate();
    out_ += std::to_string(u);
    return *this;
}

JsonWriter& JsonWriter::value(bool b) {
    separate();
    out_ += b ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null() {
    separate();
    out_ += "null";
    return *this;
}

JsonWriter& JsonWriter::floats(std::span<const float> values) {
    beginArray();
    for (const float f : values) value(f);
    return endArray();
}

}  // namespace kinema::cli
