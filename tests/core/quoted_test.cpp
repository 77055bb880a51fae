// Names quoted for messages: between their marks, control characters escaped so that
// a fault built around a name from a file stays one line.
#include <gtest/gtest.h>

#include <string>

#include "kinema/core/quoted.hpp"

namespace {

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

}  // namespace
