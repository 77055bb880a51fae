#include "arguments.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <system_error>

namespace kinema::cli {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

namespace {

std::string shortest(double value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", value);
    return buf;
}

}  // namespace

std::optional<double> parseNumber(std::string_view text) {
    const std::string item(trimmed(text));
    if (item.empty()) return std::nullopt;
    // Decimal only: strtod would also read hexadecimal ("0x10" as 16), which no one
    // means by a time or a size. "inf" and "nan" read, for the callers to refuse by name.
    const bool decimal = std::all_of(item.begin(), item.end(), [](char c) {
        return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    });
    std::string word = item.substr(item.front() == '+' || item.front() == '-' ? 1 : 0);
    std::transform(word.begin(), word.end(), word.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!decimal && word != "inf" && word != "infinity" && word != "nan") return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(item.c_str(), &end);
    if (end != item.c_str() + item.size()) return std::nullopt;
    return value;
}

namespace {

// "to", not a dash: "[1e-06 - 1e+06]" reads as a negative bound.
std::string decimalBounds(double lo, double hi) { return "[" + shortest(lo) + " to " + shortest(hi) + "]"; }
std::string wholeBounds(std::uint64_t lo, std::uint64_t hi) { return std::to_string(lo) + ".." + std::to_string(hi); }

}  // namespace

CLI::Validator finiteIn(double lo, double hi) {
    const std::string bounds = decimalBounds(lo, hi);
    return CLI::Validator(
        [lo, hi, bounds](std::string& input) -> std::string {
            const std::optional<double> value = parseNumber(input);
            if (!value) return "'" + input + "' is not a number";
            if (!std::isfinite(*value)) return "'" + input + "' is not a finite number (wanted: " + bounds + ")";
            if (*value < lo || *value > hi) return "'" + input + "' is outside " + bounds;
            input = std::string(trimmed(input));
            return {};
        },
        "");
}

CLI::Validator wholeIn(std::uint64_t lo, std::uint64_t hi) {
    const std::string bounds = wholeBounds(lo, hi);
    return CLI::Validator(
        [lo, hi, bounds](std::string& input) -> std::string {
            const std::string_view text = trimmed(input);
            std::uint64_t value = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value < lo || value > hi) {
                return "'" + input + "' is not a whole number in " + bounds;
            }
            input = std::string(text);
            return {};
        },
        "");
}

CLI::Validator powerOfTwoIn(std::uint32_t low, std::uint32_t high, bool zeroAllowed) {
    return CLI::Validator(
        [=](std::string& input) -> std::string {
            const std::string_view text = trimmed(input);
            std::uint32_t v = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (text.empty() || error != std::errc{} || end != text.data() + text.size() || (v == 0 && !zeroAllowed) ||
                (v != 0 && (v < low || v > high || (v & (v - 1)) != 0))) {
                return "'" + input + "' is not " + std::string(zeroAllowed ? "0 or " : "") + "a power of two from " +
                    std::to_string(low) + " to " + std::to_string(high);
            }
            input = std::string(text);
            return {};
        },
        "");
}

CLI::Option* decimalIn(CLI::Option* option, double lo, double hi) {
    return option->transform(finiteIn(lo, hi))->type_name("FLOAT in " + decimalBounds(lo, hi));
}

CLI::Option* wholeNumberIn(CLI::Option* option, std::uint64_t lo, std::uint64_t hi) {
    return option->transform(wholeIn(lo, hi))->type_name("INT in " + wholeBounds(lo, hi));
}

CLI::Validator sizeIn(std::uint64_t lo, std::uint64_t hi, std::string unit) {
    const std::string bounds = std::to_string(lo) + ".." + std::to_string(hi);
    return CLI::Validator(
        [lo, hi, bounds, unit](std::string& input) -> std::string {
            const std::string_view text = trimmed(input);
            std::uint64_t count = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
            const auto refused = [&] {
                return "'" + input + "' is not a whole number of " + unit + " in " + bounds +
                    " with an optional unit K, M, G, T, P or E (powers of 1024)";
            };
            if (text.empty() || error != std::errc{} || end == text.data()) return refused();
            std::string suffix(end, text.data() + text.size());
            std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if (suffix.size() >= 2 && suffix.substr(suffix.size() - 2) == "ib") {
                suffix.resize(suffix.size() - 2);
            } else if (!suffix.empty() && suffix.back() == 'b') {
                suffix.pop_back();
            }
            static constexpr std::string_view kUnits = "kmgtpe";
            unsigned shift = 0;
            if (suffix.size() == 1 && kUnits.find(suffix[0]) != std::string_view::npos) {
                shift = 10u * static_cast<unsigned>(kUnits.find(suffix[0]) + 1);
            } else if (!suffix.empty()) {
                return refused();
            }
            if (shift > 0 && count > (hi >> shift)) return refused();
            const std::uint64_t value = count << shift;
            if (value < lo || value > hi) return refused();
            input = std::to_string(value);
            return {};
        },
        "");
}

CLI::Validator existingFolder() {
    return CLI::Validator(
        [](std::string& input) -> std::string {
            if (input.empty()) return "must not be empty";
            std::error_code error;
            const std::filesystem::file_status status = std::filesystem::status(input, error);
            if (!std::filesystem::exists(status)) return "'" + input + "': no such folder";
            if (!std::filesystem::is_directory(status)) return "'" + input + "' is not a folder";
            return {};
        },
        "");
}

int usageFailure(std::string_view command) {
    std::cerr << "Run 'kinema " << command << " --help' for its options.\n";
    return 2;
}

CLI::Validator notEmpty() {
    return CLI::Validator([](std::string& input) -> std::string { return input.empty() ? "must not be empty" : ""; },
                          "");
}

std::optional<std::vector<std::string_view>> splitList(std::string_view list, std::string_view example,
                                                       std::string& error) {
    std::vector<std::string_view> items;
    std::size_t item = 1;
    for (std::size_t start = 0;; ++item) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string_view text = trimmed(list.substr(start, comma - start));
        if (text.empty()) {
            error = "item " + std::to_string(item) + " of '" + std::string(list) +
                "' is empty (give a comma-separated list, e.g. " + std::string(example) + ")";
            return std::nullopt;
        }
        items.push_back(text);
        if (comma == list.size()) break;
        start = comma + 1;
    }
    return items;
}

std::optional<std::vector<double>> parseTimes(std::string_view list, std::string& error) {
    const auto items = splitList(list, "0,0.5,1.25", error);
    if (!items) return std::nullopt;
    std::vector<double> times;
    for (const std::string_view text : *items) {
        const std::optional<double> value = parseNumber(text);
        if (!value) {
            error = "'" + std::string(text) + "' is not a number";
            return std::nullopt;
        }
        if (!std::isfinite(*value)) {
            error = "'" + std::string(text) + "' is not a finite number";
            return std::nullopt;
        }
        times.push_back(*value);
    }
    return times;
}

}  // namespace kinema::cli
