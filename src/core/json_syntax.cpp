#include "json_syntax.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace kinema::json {

namespace {

// 2^1024 - 2^970, halfway between the largest double and 2^1024. A decimal number
// of at least this magnitude rounds to infinity (the tie goes to the even
// significand, which is 2^1024), and simdjson's parser refuses infinities.
constexpr std::string_view kDoubleOverflowDigits =
    "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587"
    "207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711"
    "531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093"
    "042880177904174497792";
constexpr std::string_view kUint64MaxDigits = "18446744073709551615";
constexpr std::string_view kInt64MinMagnitudeDigits = "9223372036854775808";

bool isWhitespace(unsigned char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool isDigit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }
bool isHexDigit(unsigned char c) noexcept { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
unsigned hexValue(unsigned char c) noexcept { return isDigit(c) ? c - '0' : (c | 0x20u) - 'a' + 10; }

std::string hexByte(unsigned char c) {
    constexpr char kHex[] = "0123456789ABCDEF";
    return std::string("0x") + kHex[c >> 4] + kHex[c & 15];
}

std::string codePointName(char32_t cp) {
    constexpr char kHex[] = "0123456789ABCDEF";
    std::string digits;
    for (int shift = cp > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4) {
        digits += kHex[(cp >> shift) & 15];
    }
    return "U+" + digits;
}

struct Utf8Sequence {
    std::size_t length = 0;  // 0 when the bytes at `at` are not UTF-8
    char32_t codePoint = 0;
    const char* problem = nullptr;  // why not, when length is 0
};

// RFC 3629: the shortest form of a code point up to U+10FFFF that is no surrogate.
Utf8Sequence readUtf8(std::string_view text, std::size_t at) noexcept {
    const auto lead = static_cast<unsigned char>(text[at]);
    if (lead < 0x80) {
        return {1, lead, nullptr};
    }
    if (lead < 0xC0) {
        return {0, 0, "invalid UTF-8: a continuation byte without a lead byte"};
    }
    if (lead < 0xC2) {
        return {0, 0, "invalid UTF-8: an overlong encoding"};
    }
    if (lead > 0xF4) {
        return {0, 0, "invalid UTF-8: bytes 0xF5 to 0xFF never occur in UTF-8"};
    }
    const std::size_t length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    char32_t cp = lead & (0x7Fu >> length);
    for (std::size_t i = 1; i < length; ++i) {
        if (at + i >= text.size() || (static_cast<unsigned char>(text[at + i]) & 0xC0) != 0x80) {
            return {0, 0, "invalid UTF-8: a multi-byte sequence cut short"};
        }
        cp = (cp << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3Fu);
    }
    if ((length == 3 && cp < 0x800) || (length == 4 && cp < 0x10000)) {
        return {0, 0, "invalid UTF-8: an overlong encoding"};
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) {
        return {0, 0, "invalid UTF-8: an encoded surrogate (U+D800 to U+DFFF)"};
    }
    if (cp > 0x10FFFF) {
        return {0, 0, "invalid UTF-8: a code point above U+10FFFF"};
    }
    return {length, cp, nullptr};
}

// Compares two runs of decimal digits of the same length as numbers.
int compareDigits(std::string_view digits, std::string_view limit) noexcept {
    return digits.compare(limit) < 0 ? -1 : digits == limit ? 0 : 1;
}

// Whether the number text[start, end) (already known to match the grammar) is
// outside what simdjson's parser represents: an integer beyond 64 bits, or a
// value that becomes infinite as a double. Underflow to zero is fine.
bool numberOutOfRange(std::string_view number) noexcept {
    std::size_t at = 0;
    const bool negative = number[0] == '-';
    at += negative ? 1 : 0;
    const std::size_t intStart = at;
    while (at < number.size() && isDigit(static_cast<unsigned char>(number[at]))) {
        ++at;
    }
    const std::size_t intEnd = at;
    if (intEnd == number.size()) {
        const std::string_view digits = number.substr(intStart, intEnd - intStart);
        const std::string_view limit = negative ? kInt64MinMagnitudeDigits : kUint64MaxDigits;
        return digits.size() > limit.size() || (digits.size() == limit.size() && compareDigits(digits, limit) > 0);
    }
    std::size_t fracStart = intEnd;
    std::size_t fracEnd = intEnd;
    if (number[at] == '.') {
        fracStart = ++at;
        while (at < number.size() && isDigit(static_cast<unsigned char>(number[at]))) {
            ++at;
        }
        fracEnd = at;
    }
    // The exponent saturates far beyond any double's range, and far below the
    // overflow of the position arithmetic for any text that fits in memory.
    constexpr std::int64_t kExponentCap = std::int64_t{1} << 40;
    std::int64_t exponent = 0;
    if (at < number.size()) {  // 'e' or 'E'
        ++at;
        const bool negativeExponent = number[at] == '-';
        if (number[at] == '-' || number[at] == '+') {
            ++at;
        }
        for (; at < number.size(); ++at) {
            exponent = std::min(kExponentCap, exponent * 10 + (number[at] - '0'));
        }
        exponent = negativeExponent ? -exponent : exponent;
    }
    // The value is 0.d1d2d3... * 10^scale with d1 its first non-zero digit.
    std::int64_t scale = 0;
    std::size_t first = intStart;
    while (first < intEnd && number[first] == '0') {
        ++first;
    }
    if (first < intEnd) {
        scale = static_cast<std::int64_t>(intEnd - first);
    } else {
        first = fracStart;
        while (first < fracEnd && number[first] == '0') {
            ++first;
        }
        if (first == fracEnd) {
            return false;  // zero
        }
        scale = -static_cast<std::int64_t>(first - fracStart);
    }
    scale += exponent;
    const auto limitScale = static_cast<std::int64_t>(kDoubleOverflowDigits.size());
    if (scale != limitScale) {
        return scale > limitScale;
    }
    // Same magnitude as the limit: compare digit by digit, the '.' skipped.
    std::size_t limitAt = 0;
    for (std::size_t i = first; i < fracEnd && limitAt < kDoubleOverflowDigits.size(); ++i) {
        if (i == intEnd) {
            continue;
        }
        if (number[i] != kDoubleOverflowDigits[limitAt]) {
            return number[i] > kDoubleOverflowDigits[limitAt];
        }
        ++limitAt;
    }
    // Equal so far: the number is at least the limit unless the limit has a
    // non-zero digit left.
    return kDoubleOverflowDigits.find_first_not_of('0', limitAt) == std::string_view::npos;
}

class Scanner {
public:
    Scanner(std::string_view text, std::size_t maxDepth) : text_(text), maxDepth_(maxDepth) {}

    std::optional<JsonSyntaxError> run();

private:
    enum class Want { Value, Key, Colon, Next };

    unsigned char at(std::size_t i) const noexcept { return static_cast<unsigned char>(text_[i]); }
    bool atEnd() const noexcept { return pos_ == text_.size(); }
    void skipWhitespace() noexcept {
        while (!atEnd() && isWhitespace(at(pos_))) {
            ++pos_;
        }
    }

    bool fail(std::size_t offset, std::string what) {
        error_.byteOffset = offset;
        error_.what = std::move(what);
        return false;
    }
    // "<expectation>, found <the byte at pos_>", or the UTF-8 fault when the byte
    // starts no UTF-8 sequence.
    bool failFound(std::string_view expectation);
    bool failAtEnd(std::string_view expectation) {
        return fail(text_.size(), "unexpected end of input: " + std::string(expectation));
    }

    bool scanValue();
    bool openContainer(bool isObject);
    bool scanString();
    bool scanEscape(std::size_t stringStart);
    bool readHex4(std::size_t from, std::size_t stringStart, char32_t& value);
    bool scanNumber();
    bool scanLiteral(std::string_view word);
    bool failUnterminated(std::size_t stringStart);
    // A value is complete: the document, or the next ',' or closing bracket.
    void valueDone() noexcept {
        done_ = depth_ == 0;
        want_ = Want::Next;
    }

    bool topIsObject() const noexcept { return (kinds_[(depth_ - 1) / 64] >> ((depth_ - 1) % 64)) & 1u; }
    void push(bool isObject) {
        if (depth_ / 64 == kinds_.size()) {
            kinds_.push_back(0);
        }
        const std::uint64_t bit = std::uint64_t{1} << (depth_ % 64);
        kinds_[depth_ / 64] = isObject ? kinds_[depth_ / 64] | bit : kinds_[depth_ / 64] & ~bit;
        ++depth_;
    }

    std::string_view text_;
    std::size_t maxDepth_;
    std::size_t pos_ = 0;
    std::size_t depth_ = 0;             // open non-empty arrays and objects
    std::vector<std::uint64_t> kinds_;  // one bit per open container: 1 = object
    Want want_ = Want::Value;
    bool afterComma_ = false;
    bool done_ = false;
    JsonSyntaxError error_;
};

std::pair<std::size_t, std::size_t> lineAndColumn(std::string_view text, std::size_t offset) noexcept {
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n' || (c == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) {  // a continuation byte adds no code point
            ++column;
        }
    }
    return {line, column};
}

bool Scanner::failFound(std::string_view expectation) {
    const unsigned char c = at(pos_);
    if (c >= 0x80) {
        const Utf8Sequence seq = readUtf8(text_, pos_);
        if (seq.length == 0) {
            return fail(pos_, seq.problem);
        }
        if (pos_ == 0 && seq.codePoint == 0xFEFF) {
            return fail(pos_, "a UTF-8 byte order mark, which may not precede JSON text");
        }
        return fail(pos_, std::string(expectation) + ", found " + codePointName(seq.codePoint));
    }
    if (c < 0x20 || c == 0x7F) {
        return fail(pos_, std::string(expectation) + ", found byte " + hexByte(c));
    }
    return fail(pos_, std::string(expectation) + ", found '" + static_cast<char>(c) + "'");
}

std::optional<JsonSyntaxError> Scanner::run() {
    bool ok = true;
    skipWhitespace();
    if (atEnd()) {
        ok = fail(pos_, text_.empty() ? "the document is empty" : "the document holds only whitespace, no JSON value");
    }
    while (ok) {
        skipWhitespace();
        if (done_) {
            if (atEnd()) {
                return std::nullopt;
            }
            ok = failFound("unexpected content after the JSON value");
            break;
        }
        if (atEnd()) {
            switch (want_) {
                case Want::Value: ok = failAtEnd("expected a value"); break;
                case Want::Key: ok = failAtEnd("expected an object member name"); break;
                case Want::Colon: ok = failAtEnd("expected ':' after an object member name"); break;
                case Want::Next:
                    ok = failAtEnd(topIsObject() ? "expected ',' or '}' after an object member"
                                                 : "expected ',' or ']' after an array element");
                    break;
            }
            break;
        }
        const unsigned char c = at(pos_);
        const bool closer = c == ']' || c == '}';
        switch (want_) {
            case Want::Value:
                if (afterComma_ && closer) {
                    ok = fail(pos_,
                              std::string("trailing comma: expected a value after ',', found '") +
                                  static_cast<char>(c) + "'");
                } else {
                    ok = scanValue();
                }
                break;
            case Want::Key:
                if (c == '"') {
                    ok = scanString();
                    want_ = Want::Colon;
                } else if (afterComma_ && closer) {
                    ok = fail(pos_,
                              std::string("trailing comma: expected an object member after ',', found '") +
                                  static_cast<char>(c) + "'");
                } else {
                    ok = failFound("expected an object member name (a string in double quotes)");
                }
                break;
            case Want::Colon:
                if (c == ':') {
                    ++pos_;
                    want_ = Want::Value;
                } else {
                    ok = failFound("expected ':' after an object member name");
                }
                break;
            case Want::Next: {
                const bool object = topIsObject();
                if (c == ',') {
                    ++pos_;
                    want_ = object ? Want::Key : Want::Value;
                    afterComma_ = true;
                    continue;
                }
                if (c == (object ? '}' : ']')) {
                    ++pos_;
                    --depth_;
                    valueDone();
                } else {
                    ok = failFound(object ? "expected ',' or '}' after an object member"
                                          : "expected ',' or ']' after an array element");
                }
                break;
            }
        }
        afterComma_ = false;
    }
    const auto [line, column] = lineAndColumn(text_, error_.byteOffset);
    error_.line = line;
    error_.column = column;
    return std::move(error_);
}

bool Scanner::scanValue() {
    switch (at(pos_)) {
        case '{': return openContainer(true);
        case '[': return openContainer(false);
        case '"':
            if (!scanString()) {
                return false;
            }
            valueDone();
            return true;
        case 't': return scanLiteral("true");
        case 'f': return scanLiteral("false");
        case 'n': return scanLiteral("null");
        default:
            if (at(pos_) == '-' || isDigit(at(pos_))) {
                return scanNumber();
            }
            return failFound("expected a value");
    }
}

bool Scanner::openContainer(bool isObject) {
    const std::size_t bracket = pos_++;
    skipWhitespace();
    // An empty [] or {} is a plain value to simdjson's parser: it opens no level.
    if (!atEnd() && at(pos_) == (isObject ? '}' : ']')) {
        ++pos_;
        valueDone();
        return true;
    }
    // The document is one level, so depth_ + 2 is this container's level.
    if (depth_ + 2 > maxDepth_) {
        return fail(bracket,
                    "arrays and objects nested deeper than " + std::to_string(maxDepth_) +
                        " levels (the document is one level, each non-empty array or object one more)");
    }
    push(isObject);
    want_ = isObject ? Want::Key : Want::Value;
    return true;
}

bool Scanner::failUnterminated(std::size_t stringStart) {
    const auto [line, column] = lineAndColumn(text_, stringStart);
    return fail(
        text_.size(),
        "unterminated string (it opens at line " + std::to_string(line) + ", column " + std::to_string(column) + ")");
}

bool Scanner::scanString() {
    const std::size_t start = pos_++;
    while (!atEnd()) {
        const unsigned char c = at(pos_);
        if (c == '"') {
            ++pos_;
            return true;
        }
        if (c == '\\') {
            if (!scanEscape(start)) {
                return false;
            }
        } else if (c < 0x20) {
            return fail(pos_, "control character " + hexByte(c) + " in a string (it must be written as an escape)");
        } else if (c < 0x80) {
            ++pos_;
        } else {
            const Utf8Sequence seq = readUtf8(text_, pos_);
            if (seq.length == 0) {
                return fail(pos_, seq.problem);
            }
            pos_ += seq.length;
        }
    }
    return failUnterminated(start);
}

// Four hex digits at `from`; false with the fault set when they are cut short by the
// end of the text or are not hex.
bool Scanner::readHex4(std::size_t from, std::size_t stringStart, char32_t& value) {
    value = 0;
    for (std::size_t i = from; i < from + 4; ++i) {
        if (i >= text_.size()) {
            return failUnterminated(stringStart);
        }
        if (!isHexDigit(at(i))) {
            return fail(from - 2, "invalid \\u escape: it needs four hex digits");
        }
        value = (value << 4) | hexValue(at(i));
    }
    return true;
}

bool Scanner::scanEscape(std::size_t stringStart) {
    const std::size_t escape = pos_;
    if (escape + 1 >= text_.size()) {
        return failUnterminated(stringStart);
    }
    const unsigned char c = at(escape + 1);
    switch (c) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't': pos_ += 2; return true;
        case 'u': break;
        default: {
            const std::string shown = c >= 0x20 && c < 0x7F ? "'\\" + std::string(1, static_cast<char>(c)) + "'"
                                                            : "'\\' before byte " + hexByte(c);
            return fail(escape,
                        "invalid escape " + shown + " in a string (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
        }
    }
    char32_t unit = 0;
    if (!readHex4(escape + 2, stringStart, unit)) {
        return false;
    }
    pos_ = escape + 6;
    const std::string written(text_.substr(escape, 6));
    if (unit >= 0xDC00 && unit <= 0xDFFF) {
        return fail(escape, "the low surrogate escape " + written + " has no high surrogate escape before it");
    }
    if (unit < 0xD800 || unit > 0xDBFF) {
        return true;
    }
    // A high surrogate: simdjson's parser accepts it only as the first half of a
    // pair written as two adjacent escapes.
    const std::string lone = "the high surrogate escape " + written + " is not followed by a low surrogate escape";
    if (pos_ >= text_.size() || (at(pos_) == '\\' && pos_ + 1 >= text_.size())) {
        return failUnterminated(stringStart);
    }
    if (at(pos_) != '\\' || at(pos_ + 1) != 'u') {
        return fail(escape, lone);
    }
    char32_t low = 0;
    if (!readHex4(pos_ + 2, stringStart, low)) {
        return false;
    }
    if (low < 0xDC00 || low > 0xDFFF) {
        return fail(escape, lone);
    }
    pos_ += 6;
    return true;
}

bool Scanner::scanNumber() {
    const std::size_t start = pos_;
    const auto digitsFrom = [&](std::string_view after) {
        if (atEnd()) {
            return failAtEnd("expected a digit after " + std::string(after));
        }
        if (!isDigit(at(pos_))) {
            return failFound("expected a digit after " + std::string(after));
        }
        while (!atEnd() && isDigit(at(pos_))) {
            ++pos_;
        }
        return true;
    };
    if (at(pos_) == '-') {
        ++pos_;
        if (atEnd()) {
            return failAtEnd("expected a digit after '-'");
        }
    }
    if (at(pos_) == '0') {
        ++pos_;
        if (!atEnd() && isDigit(at(pos_))) {
            return fail(pos_, "a number may not have a leading zero");
        }
    } else if (!digitsFrom("'-'")) {
        return false;
    }
    if (!atEnd() && at(pos_) == '.') {
        ++pos_;
        if (!digitsFrom("the decimal point")) {
            return false;
        }
    }
    if (!atEnd() && (at(pos_) == 'e' || at(pos_) == 'E')) {
        ++pos_;
        if (!atEnd() && (at(pos_) == '+' || at(pos_) == '-')) {
            ++pos_;
        }
        if (!digitsFrom("the exponent mark")) {
            return false;
        }
    }
    const std::string_view number = text_.substr(start, pos_ - start);
    if (numberOutOfRange(number)) {
        const bool integer = number.find_first_of(".eE") == std::string_view::npos;
        return fail(start,
                    integer ? "the integer " + std::string(number) +
                            " does not fit in 64 bits (written with a fraction or an exponent, as " +
                            std::string(number) + ".0, it reads as a double)"
                            : "the number " + std::string(number) + " is too large for a double");
    }
    valueDone();
    return true;
}

bool Scanner::scanLiteral(std::string_view word) {
    for (std::size_t i = 0; i < word.size(); ++i, ++pos_) {
        if (atEnd()) {
            return failAtEnd("expected the literal '" + std::string(word) + "'");
        }
        if (at(pos_) != static_cast<unsigned char>(word[i])) {
            return failFound("expected the literal '" + std::string(word) + "'");
        }
    }
    valueDone();
    return true;
}

}  // namespace

std::optional<JsonSyntaxError> findJsonSyntaxError(std::string_view text, std::size_t maxDepth) {
    return Scanner(text, maxDepth).run();
}

}  // namespace kinema::json
