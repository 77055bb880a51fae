// Internal to kinema (not installed): where a JSON text stops being JSON.
//
// The JSON readers (the glTF importer, the state machine's JSON form) parse with
// simdjson's dom::parser, whose verdict says that a document is malformed but not
// where. findJsonSyntaxError is run after such a refusal to point at the first
// fault: it enforces exactly what that parser enforces, so the two agree on which
// texts are JSON.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kinema::json {

struct JsonSyntaxError {
    std::size_t byteOffset = 0;  // offset of the offending byte in `text` (text.size() for an unexpected end)
    std::size_t line = 1;        // 1-based; LF, CR LF and a lone CR end a line
    std::size_t column = 1;      // 1-based, counted in Unicode code points of the line up to the offending byte
    std::string what;            // plain words: "expected ',' or '}' after an object member", ...
};

// The first place where `text` stops being one RFC 8259 JSON value, optionally
// surrounded by whitespace (space, tab, LF, CR); nullopt when it is valid JSON.
//
// Beyond the grammar it refuses what simdjson's parser refuses:
//  - invalid UTF-8 anywhere (overlong forms, encoded surrogates, code points above
//    U+10FFFF, truncated sequences, stray continuation bytes), a UTF-8 byte order mark;
//  - a \u escape of a surrogate that is not a high surrogate immediately followed by a
//    \u escape of a low surrogate;
//  - an integer (no fraction, no exponent) outside [-2^63, 2^64 - 1], and a number
//    that rounds to infinity as a double (reported at the number's first byte);
//  - nesting deeper than maxDepth levels, reported at the bracket that exceeds it.
//    The document counts as one level and each non-empty array or object as one
//    more; an empty [] or {} opens no level. With the default 1024 that is the
//    limit of simdjson's dom::parser (at most 1023 nested non-empty containers).
//
// Iterative and linear in text.size(); besides the message it allocates one bit per
// open container.
std::optional<JsonSyntaxError> findJsonSyntaxError(std::string_view text, std::size_t maxDepth = 1024);

}  // namespace kinema::json
