// kinema/core: a name as a message quotes it: between marks, on one line.
#pragma once

#include <string>
#include <string_view>

namespace kinema {

// `text` between two `mark`s ('walk', or "walk" with mark '"'), its control
// characters written as escapes (\n, \r, \t, \xNN): a name read from a file may hold
// any byte, and a fault must stay one line that names no other place.
std::string inQuotes(std::string_view text, char mark = '\'');

}  // namespace kinema
