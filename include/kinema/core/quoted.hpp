// kinema/core: a name as a message quotes it: between marks, on one line.
#pragma once

#include <string>
#include <string_view>

namespace kinema {

// `text` between two `mark`s ('walk', or "walk" with mark '"'), its control
// characters written as escapes (\n, \r, \t, \xNN): a name read from a file may hold
// any byte, and a fault must stay one line that names no other place.
std::string inQuotes(std::string_view text, char mark = '\'');

// `text` appended to `out` with its control characters written as inQuotes writes
// them, and no marks: a name inside a longer place, such as a JSON pointer.
void appendOneLine(std::string& out, std::string_view text);

// `key` appended to `out` as a JSON pointer token (RFC 6901: ~ as ~0, / as ~1), its
// control characters escaped as by appendOneLine.
void appendPointerToken(std::string& out, std::string_view key);

}  // namespace kinema
