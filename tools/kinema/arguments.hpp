// Checking the commands' numeric arguments, and counting nouns in their text output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class Validator;
class Option;
}  // namespace CLI

namespace kinema::cli {

// `text` without the spaces and tabs around it: numbers may be written with them.
std::string_view trimmed(std::string_view text);

// `text` as a number (an optional sign, then a decimal literal with an optional
// exponent, "inf" or "nan"; no hexadecimal), spaces around it allowed and nothing
// else. Nullopt when it is not a number; the caller decides whether infinities and
// NaN are allowed (a literal too large for a double reads as one).
std::optional<double> parseNumber(std::string_view text);

// A check for a floating-point option: a finite number within [lo, hi], spaces around
// it allowed (as parseNumber reads it; the option then reads the number alone).
// CLI::Range alone lets "nan" through, since every comparison with NaN is false.
CLI::Validator finiteIn(double lo, double hi);

// A check for an integer option: decimal digits naming a whole number within [lo, hi]
// ("'1.5' is not a whole number in 1..1024", echoing what was typed), spaces around
// them allowed (the option then reads the digits alone), nothing else.
CLI::Validator wholeIn(std::uint64_t lo, std::uint64_t hi);

// A check for a count that must be a power of two within [low, high] (or 0, where
// `zeroAllowed`), read as wholeIn reads a count ("'12' is not 0 or a power of two
// from 2 to 256").
CLI::Validator powerOfTwoIn(std::uint32_t low, std::uint32_t high, bool zeroAllowed);

// `option` checked by finiteIn or wholeIn, its help and its "missing" message naming
// the range once ("FLOAT in [0 to 3600]", "INT in 1..1024"). Returns `option`.
CLI::Option* decimalIn(CLI::Option* option, double lo, double hi);
CLI::Option* wholeNumberIn(CLI::Option* option, std::uint64_t lo, std::uint64_t hi);

// A size in bytes (or a count of `unit`, "pixels"): decimal digits with an optional unit
// K, M, G, T, P or E (powers of 1024, case and a trailing "B" or "iB" ignored, "512M",
// "2GiB"), naming a whole number within [lo, hi]. Replaces the text with the number, for
// the option to read; refuses anything else ("0x10", "1.5G", "nan") with a message
// echoing it ("is not a whole number of bytes in ...").
CLI::Validator sizeIn(std::uint64_t lo, std::uint64_t hi, std::string unit = "bytes");

// A check for a folder option: not empty, and an existing folder ("'x': no such folder",
// "'x' is not a folder").
CLI::Validator existingFolder();

// The line after a refused argument that says where to look ("Run 'kinema render
// --help' for its options."), on stderr; returns 2, the exit code of every bad argument.
int usageFailure(std::string_view command);

// A check for a text option given a value: the value is not empty (an empty --gpu
// or --assets would otherwise quietly mean the default).
CLI::Validator notEmpty();

// One comma-separated list, none of its items empty (spaces around an item do not
// count). Nullopt with `error` set ("item 2 of 'w1a,' is empty (give a
// comma-separated list, e.g. EXAMPLE)") otherwise.
std::optional<std::vector<std::string_view>> splitList(std::string_view list, std::string_view example,
                                                       std::string& error);

// `--times`: one comma-separated list of finite numbers, none of its items empty.
// Nullopt with `error` set ("'nan' is not a finite number") otherwise.
std::optional<std::vector<double>> parseTimes(std::string_view list, std::string& error);

}  // namespace kinema::cli
