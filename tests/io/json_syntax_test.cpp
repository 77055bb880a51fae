// The JSON syntax error locator: hand-checked positions, valid documents, and
// agreement with simdjson (the parser of kinema's JSON readers) on which texts are JSON.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_syntax.hpp"

namespace {

using kinema::json::findJsonSyntaxError;
using kinema::json::JsonSyntaxError;

struct Expected {
    std::string text;
    std::size_t byteOffset;
    std::size_t line;
    std::size_t column;
    std::string whatContains;
};

void expectError(const Expected& e, std::size_t maxDepth = 1024) {
    SCOPED_TRACE(e.text);
    const auto error = findJsonSyntaxError(e.text, maxDepth);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->byteOffset, e.byteOffset);
    EXPECT_EQ(error->line, e.line);
    EXPECT_EQ(error->column, e.column);
    EXPECT_NE(error->what.find(e.whatContains), std::string::npos) << error->what;
}

bool simdjsonAccepts(std::string_view text) {
    simdjson::dom::parser parser;
    const simdjson::padded_string padded(text);
    return !parser.parse(padded).error();
}

TEST(JsonSyntax, MissingCommaBetweenMembers) {
    expectError({R"({"a": 1 "b": 2})", 8, 1, 9, "expected ',' or '}' after an object member, found '\"'"});
}

TEST(JsonSyntax, TrailingComma) {
    expectError({"[1, 2,]", 6, 1, 7, "trailing comma"});
    expectError({R"({"a": 1,})", 8, 1, 9, "trailing comma"});
}

TEST(JsonSyntax, UnterminatedStringAtTheEnd) {
    expectError({R"({"name": "abc)", 13, 1, 14, "unterminated string (it opens at line 1, column 10)"});
    expectError({R"(["a\)", 4, 1, 5, "unterminated string"});
}

TEST(JsonSyntax, BadEscape) {
    expectError({R"(["a\qb"])", 3, 1, 4, "invalid escape '\\q'"});
    expectError({R"(["\u12G4"])", 2, 1, 3, "four hex digits"});
}

TEST(JsonSyntax, LeadingZero) {
    expectError({"[01]", 2, 1, 3, "leading zero"});
    expectError({"-007", 2, 1, 3, "leading zero"});
}

TEST(JsonSyntax, MalformedNumbers) {
    expectError({"[1.]", 3, 1, 4, "expected a digit after the decimal point"});
    expectError({"[1e+]", 4, 1, 5, "expected a digit after the exponent mark"});
    expectError({"[-]", 2, 1, 3, "expected a digit after '-'"});
    expectError({"[+1]", 1, 1, 2, "expected a value, found '+'"});
    expectError({"[.5]", 1, 1, 2, "expected a value, found '.'"});
}

TEST(JsonSyntax, ControlCharacterInString) {
    expectError({"[\"a\tb\"]", 3, 1, 4, "control character 0x09"});
    expectError({std::string("[\"a\0\"]", 6), 3, 1, 4, "control character 0x00"});
}

TEST(JsonSyntax, InvalidUtf8InAString) {
    expectError({"[\"a\xC0\x80\"]", 3, 1, 4, "overlong"});      // U+0000 in two bytes
    expectError({"[\"\xED\xA0\x80\"]", 2, 1, 3, "surrogate"});  // U+D800
    expectError({"[\"\xF4\x90\x80\x80\"]", 2, 1, 3, "above U+10FFFF"});
    expectError({"[\"\xE2\x82\"]", 2, 1, 3, "cut short"});
    expectError({"[\"\xF5\x80\x80\x80\"]", 2, 1, 3, "never occur"});
}

TEST(JsonSyntax, InvalidUtf8OutsideAString) {
    expectError({"[1, \xFF]", 4, 1, 5, "invalid UTF-8"});
    expectError({"[1]\x80", 3, 1, 4, "continuation byte"});
    // Valid UTF-8 that is no JSON token.
    expectError({"[1, \xC3\xA9]", 4, 1, 5, "expected a value, found U+00E9"});
}

TEST(JsonSyntax, ErrorOnLineThreeAfterAMultiByteCharacter) {
    // Line 3 starts at byte 29; its 'ü' is two bytes, so the second ',' at byte 14 of
    // the line is its 14th code point.
    const std::string text =
        "{\n"
        "  \"name\": \"h\xC3\xA9llo w\xC3\xB6rld\",\n"
        "  \"\xC3\xBC\": [1, 2,, 3]\n"
        "}\n";
    expectError({text, 43, 3, 14, "expected a value, found ','"});
}

TEST(JsonSyntax, LineBreaksCrLfAndLoneCr) {
    expectError({"{\r\n\"a\" 1}", 7, 2, 5, "expected ':'"});
    expectError({"[\r1\r\n,\n\n]", 8, 5, 1, "trailing comma"});
}

TEST(JsonSyntax, ContentAfterTheValue) {
    expectError({R"({"a":1} x)", 8, 1, 9, "unexpected content after the JSON value, found 'x'"});
    expectError({"1 2", 2, 1, 3, "unexpected content after the JSON value"});
    expectError({std::string("{}\0", 3), 2, 1, 3, "found byte 0x00"});
    expectError({"[]]", 2, 1, 3, "unexpected content"});
}

TEST(JsonSyntax, TooDeepNesting) {
    // Document level 1, each '[' one more: the fourth '[' is level 5.
    expectError({"[[[[1]]]]", 3, 1, 4, "nested deeper than 4 levels"}, 4);
    // An empty container opens no level.
    EXPECT_FALSE(findJsonSyntaxError("[[[[]]]]", 4).has_value());
    EXPECT_FALSE(findJsonSyntaxError("[[[{ }]]]", 4).has_value());
    // The default limit: 1023 nested non-empty containers pass, the 1024th does not.
    const std::string ok = std::string(1023, '[') + "1" + std::string(1023, ']');
    EXPECT_FALSE(findJsonSyntaxError(ok).has_value());
    std::string deep;
    for (int i = 0; i < 1024; ++i) {
        deep += i % 2 == 0 ? "[" : "{\"k\":";
    }
    deep += "0";
    for (int i = 1023; i >= 0; --i) {
        deep += i % 2 == 0 ? "]" : "}";
    }
    // The 1024th container follows 512 "[" and 511 "{\"k\":".
    expectError({deep, 512 + 511 * 5, 1, 512 + 511 * 5 + 1, "nested deeper than 1024 levels"});
    // simdjson counts the same way.
    EXPECT_TRUE(simdjsonAccepts(ok));
    EXPECT_FALSE(simdjsonAccepts(deep));
    EXPECT_TRUE(simdjsonAccepts(std::string(1024, '[') + std::string(1024, ']')));
    EXPECT_FALSE(simdjsonAccepts(std::string(1025, '[') + std::string(1025, ']')));
    EXPECT_FALSE(findJsonSyntaxError(std::string(1024, '[') + std::string(1024, ']')).has_value());
    expectError({std::string(1025, '[') + std::string(1025, ']'), 1023, 1, 1024, "nested deeper"});
}

TEST(JsonSyntax, Literals) {
    expectError({"[tru]", 4, 1, 5, "expected the literal 'true', found ']'"});
    expectError({"nul", 3, 1, 4, "unexpected end of input: expected the literal 'null'"});
    expectError({"[True]", 1, 1, 2, "expected a value, found 'T'"});
    expectError({"[truex]", 5, 1, 6, "expected ',' or ']'"});
}

TEST(JsonSyntax, SurrogateEscapesMustPair) {
    expectError({R"(["\uD800x"])", 2, 1, 3, "high surrogate escape \\uD800 is not followed"});
    expectError({R"(["\uD800\u0041"])", 2, 1, 3, "not followed by a low surrogate"});
    expectError({R"(["a\udc00"])", 3, 1, 4, "low surrogate escape \\udc00 has no high surrogate"});
    expectError({R"(["\uD800)", 8, 1, 9, "unterminated string"});
}

TEST(JsonSyntax, EmptyAndWhitespaceOnly) {
    expectError({"", 0, 1, 1, "empty"});
    expectError({" \n ", 3, 2, 2, "only whitespace"});
    expectError({"\f{}", 0, 1, 1, "expected a value, found byte 0x0C"});
}

TEST(JsonSyntax, ByteOrderMarkIsRefused) {
    expectError({"\xEF\xBB\xBF{}", 0, 1, 1, "byte order mark"});
    EXPECT_FALSE(simdjsonAccepts("\xEF\xBB\xBF{}"));
}

TEST(JsonSyntax, UnexpectedEnd) {
    expectError({"[1, 2", 5, 1, 6, "unexpected end of input: expected ',' or ']' after an array element"});
    expectError({R"({"a")", 4, 1, 5, "unexpected end of input: expected ':'"});
    expectError({R"({"a":)", 5, 1, 6, "unexpected end of input: expected a value"});
    expectError({"{", 1, 1, 2, "unexpected end of input: expected an object member name"});
}

TEST(JsonSyntax, ObjectStructure) {
    expectError({"{1:2}", 1, 1, 2, "expected an object member name"});
    expectError({R"({"a" 1})", 5, 1, 6, "expected ':'"});
    expectError({R"({"a":1])", 6, 1, 7, "expected ',' or '}'"});
    expectError({"[1}", 2, 1, 3, "expected ',' or ']'"});
}

TEST(JsonSyntax, NumbersTheParserCannotRepresent) {
    expectError({"[18446744073709551616]", 1, 1, 2,
                 "does not fit in 64 bits (written with a fraction or an exponent, as 18446744073709551616.0, it "
                 "reads as a double)"});
    expectError({"-9223372036854775809", 0, 1, 1, "does not fit in 64 bits"});
    expectError({"[1e309]", 1, 1, 2, "too large for a double"});
    expectError({"[-1.7976931348623159e308]", 1, 1, 2, "too large for a double"});
}

TEST(JsonSyntax, ValidDocuments) {
    const std::vector<std::string> valid = {
        "{}",
        "[]",
        " \t\r\n[ ] \n",
        "0",
        "-0",
        "1e-7",
        "1E+2",
        "-0.0e-0",
        "\"\"",
        "true",
        "null",
        R"({"a":{"b":[1,2,{"c":[[],{}]}],"d":"e"},"f":[true,false,null]})",
        R"(["\u00e9\u20AC\ud83d\ude00\u0000\"\\\/\b\f\n\r\t"])",
        "[\"h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF \x7F\"]",
        R"({"": 0, "k" : [ 1 , -2.5e+10 , 3.25E-3 ] })",
        "18446744073709551615",
        "-9223372036854775808",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1e-400",
        "0e999999999999999999999",
        "0.00000000000000000000000000000000000000001e330",
        "100000000000000000000.0",
        "18446744073709551616.0",  // the form the too-large integer's message suggests
    };
    for (const std::string& text : valid) {
        SCOPED_TRACE(text);
        const auto error = findJsonSyntaxError(text);
        EXPECT_FALSE(error.has_value()) << error->what << " at byte " << error->byteOffset;
        EXPECT_TRUE(simdjsonAccepts(text));
    }
}

// The double limit: 2^1024 - 2^970 rounds to infinity, one less does not.
TEST(JsonSyntax, DoubleOverflowBoundaryAgreesWithSimdjson) {
    const std::string half =
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587"
        "207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711"
        "531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093"
        "042880177904174497792";
    const std::string below = half.substr(0, half.size() - 1) + "1";
    for (const std::string& text : {half + ".0", below + ".0", half + ".0e0", "0." + half + "e309",
                                    "0." + below + "e309", below + ".99999e0", half.substr(0, 20) + "e289"}) {
        SCOPED_TRACE(text);
        EXPECT_EQ(findJsonSyntaxError(text).has_value(), !simdjsonAccepts(text));
    }
    EXPECT_TRUE(findJsonSyntaxError(half + ".0").has_value());
    EXPECT_FALSE(findJsonSyntaxError(below + ".0").has_value());
}

// --- differential test against simdjson ---------------------------------------------

// splitmix64: the same sequence on every platform, unlike the std distributions.
class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
    bool chance(std::size_t percent) { return below(100) < percent; }

private:
    std::uint64_t state_;
};

void appendWhitespace(Random& random, std::string& out) {
    static constexpr std::string_view kSpace[] = {"", "", "", " ", "\n", "\t", "\r\n", "  "};
    out += kSpace[random.below(std::size(kSpace))];
}

void appendString(Random& random, std::string& out) {
    static constexpr std::string_view kPieces[] = {"a",
                                                   "glTF",
                                                   " ",
                                                   "\\\"",
                                                   "\\\\",
                                                   "\\/",
                                                   "\\n",
                                                   "\\t",
                                                   "\\u0041",
                                                   "\\u00e9",
                                                   "\\uD83D\\uDE00",
                                                   "\xC3\xA9",
                                                   "\xE2\x82\xAC",
                                                   "\xF0\x9F\x98\x80",
                                                   "\xF4\x8F\xBF\xBF",
                                                   "1",
                                                   "e",
                                                   "-",
                                                   "{",
                                                   "]"};
    out += '"';
    for (std::size_t n = random.below(5); n > 0; --n) {
        out += kPieces[random.below(std::size(kPieces))];
    }
    out += '"';
}

void appendNumber(Random& random, std::string& out) {
    static constexpr std::string_view kNumbers[] = {"0",
                                                    "-0",
                                                    "1",
                                                    "42",
                                                    "-17",
                                                    "3.5",
                                                    "0.25",
                                                    "1e10",
                                                    "1E+2",
                                                    "1e-7",
                                                    "-2.5e-3",
                                                    "1e308",
                                                    "9223372036854775807",
                                                    "18446744073709551615",
                                                    "-9223372036854775808",
                                                    "123456789012345678",
                                                    "0.1",
                                                    "6.02214076e23",
                                                    "1.7976931348623157e308",
                                                    "5e-324"};
    out += kNumbers[random.below(std::size(kNumbers))];
}

// A random valid JSON text: nested arrays and objects, strings, numbers, literals.
void appendValue(Random& random, std::string& out, int depth) {
    const std::size_t kind = random.below(depth > 4 ? 5 : 8);
    appendWhitespace(random, out);
    switch (kind) {
        case 0: appendNumber(random, out); break;
        case 1: appendString(random, out); break;
        case 2: out += "true"; break;
        case 3: out += random.chance(50) ? "false" : "null"; break;
        case 4: appendNumber(random, out); break;
        case 5:
        case 6: {
            out += '[';
            const std::size_t n = random.below(4);
            for (std::size_t i = 0; i < n; ++i) {
                if (i > 0) {
                    out += ',';
                }
                appendValue(random, out, depth + 1);
            }
            appendWhitespace(random, out);
            out += ']';
            break;
        }
        default: {
            out += '{';
            const std::size_t n = random.below(4);
            for (std::size_t i = 0; i < n; ++i) {
                if (i > 0) {
                    out += ',';
                }
                appendWhitespace(random, out);
                appendString(random, out);
                appendWhitespace(random, out);
                out += ':';
                appendValue(random, out, depth + 1);
            }
            appendWhitespace(random, out);
            out += '}';
            break;
        }
    }
    appendWhitespace(random, out);
}

std::string escaped(std::string_view text) {
    std::string out;
    for (const char c : text) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && b < 0x7F && b != '\\') {
            out += c;
        } else {
            constexpr char kHex[] = "0123456789ABCDEF";
            out += "\\x";
            out += kHex[b >> 4];
            out += kHex[b & 15];
        }
    }
    return out;
}

TEST(JsonSyntax, AgreesWithSimdjsonOnMutatedDocuments) {
    std::vector<std::string> seeds = {
        R"({"asset":{"version":"2.0"},"nodes":[{"name":"root","children":[1]},{"translation":[0,1.5,-2e-3]}]})",
        R"([1,-0,0.5,1e-7,1E+2,-12.75e10,true,false,null,"",{}])",
        R"({"s":"\u00e9\uD83D\uDE00\"\\\/\b\f\n\r\t","t":"h)"
        "\xC3\xA9"
        R"(llo"})",
        "[[[[[]]]],{\"a\":{\"b\":{\"c\":[]}}}]",
        "  \"just a string\"  ",
        "18446744073709551615",
        "-9223372036854775808",
        "[1.7976931348623157e308, 5e-324, 0.0]",
        "{\"a\" : [ 1 , 2 ] ,\r\n \"b\" : { } }",
        "[\"\xF0\x9F\x98\x80\xE2\x82\xAC\xF4\x8F\xBF\xBF\"]",
    };
    Random random(20240611);
    for (int i = 0; i < 40; ++i) {
        std::string text;
        appendValue(random, text, 0);
        seeds.push_back(text);
    }
    for (const std::string& seed : seeds) {
        ASSERT_TRUE(simdjsonAccepts(seed)) << escaped(seed);
        ASSERT_FALSE(findJsonSyntaxError(seed).has_value()) << escaped(seed);
    }

    static constexpr unsigned char kInteresting[] = {'"',  ',',  '}',  ']',  '{',  '[',  ':',  '\\', 0x00, 0x1F,
                                                     0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5,
                                                     0xFF, '0',  '1',  '9',  'e',  'E',  '.',  '-',  '+',  ' ',
                                                     '\t', '\n', '\r', 'u',  'D',  'n',  't',  'x',  '/',  0x7F};
    constexpr int kDocuments = 6000;
    int rejected = 0;
    for (int n = 0; n < kDocuments; ++n) {
        std::string text = seeds[random.below(seeds.size())];
        for (std::size_t edits = 1 + random.below(3); edits > 0; --edits) {
            const auto byte = static_cast<char>(random.chance(90) ? kInteresting[random.below(std::size(kInteresting))]
                                                                  : random.below(256));
            const std::size_t where = random.below(text.size() + 1);
            switch (random.below(3)) {
                case 0: text.insert(text.begin() + static_cast<std::ptrdiff_t>(where), byte); break;
                case 1:
                    if (where < text.size()) {
                        text.erase(where, 1);
                    }
                    break;
                default:
                    if (where < text.size()) {
                        text[where] = byte;
                    }
                    break;
            }
        }
        const auto error = findJsonSyntaxError(text);
        const bool accepted = simdjsonAccepts(text);
        ASSERT_EQ(error.has_value(), !accepted)
            << "text: " << escaped(text) << "\nlocator: " << (error ? error->what : std::string("valid"));
        if (error) {
            ++rejected;
            ASSERT_LE(error->byteOffset, text.size());
            ASSERT_GE(error->line, 1u);
            ASSERT_GE(error->column, 1u);
            ASSERT_LE(error->column, error->byteOffset + 1);
            ASSERT_FALSE(error->what.empty());
            // Everything before the fault is a valid beginning: cut there, the text
            // either is JSON or fails exactly at its end.
            const auto prefixError = findJsonSyntaxError(std::string_view(text).substr(0, error->byteOffset));
            if (prefixError) {
                ASSERT_EQ(prefixError->byteOffset, error->byteOffset)
                    << "text: " << escaped(text) << "\nfault: " << error->what << "\nprefix: " << prefixError->what;
            }
        }
    }
    // Both verdicts occur often, so the test exercises both sides.
    EXPECT_GT(rejected, kDocuments / 4);
    EXPECT_LT(rejected, kDocuments - kDocuments / 20);
    RecordProperty("rejected", rejected);
}

}  // namespace
