// Names quoted for messages: between their marks, control characters escaped so that
// a fault built around a name from a file stays one line.
#include <gtest/gtest.h>

#include <string>

#include "kinema/core/quoted.hpp"

namespace {

using kinema::appendPointerToken;
using kinema::inQuotes;

TEST(Quoted, PlainTextIsOnlyMarked) {
    EXPECT_EQ(inQuotes("walk"), "'walk'");
    EXPECT_EQ(inQuotes("walk", '"'), "\"walk\"");
    EXPECT_EQ(inQuotes(""), "''");
    EXPECT_EQ(inQuotes("caf\xc3\xa9 \\ 'x'"), "'caf\xc3\xa9 \\ 'x''");  // UTF-8, backslashes and marks kept
}

TEST(Quoted, ControlCharactersAreEscapes) {
    EXPECT_EQ(inQuotes("a\nb\rc\td"), "'a\\nb\\rc\\td'");
    EXPECT_EQ(inQuotes(std::string("x\0y", 3)), "'x\\x00y'");
    EXPECT_EQ(inQuotes("\x1b[31m\x7f"), "'\\x1b[31m\\x7f'");
    EXPECT_EQ(inQuotes("Nope\n  other.json#/clips/X: injected").find('\n'), std::string::npos);
}

// A key inside a JSON pointer: RFC 6901's two escapes, and control characters as
// inQuotes writes them, so a fault's place stays one line too.
TEST(Quoted, PointerTokensEscapeTheirSeparatorsAndControlCharacters) {
    std::string out = "#/states/0/";
    appendPointerToken(out, "a/b~c");
    EXPECT_EQ(out, "#/states/0/a~1b~0c");
    out.clear();
    appendPointerToken(out, "bad\nkey\x1b[2J/~");
    EXPECT_EQ(out, "bad\\nkey\\x1b[2J~1~0");
    out.clear();
    appendPointerToken(out, std::string("\x00/", 2));
    EXPECT_EQ(out, "\\x00~1");
}

}  // namespace
