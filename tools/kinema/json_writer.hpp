// A small streaming JSON writer for the command-line tool. Numbers are written
// as the shortest decimal that reads back to the same float (std::to_chars), so
// output can be compared number for number with any other implementation.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kinema::cli {

class JsonWriter {
public:
    explicit JsonWriter(std::string& out, bool pretty = false) : out_(out), pretty_(pretty) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view k);

    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(float f);
    JsonWriter& value(double d);
    JsonWriter& value(std::int64_t i);
    JsonWriter& value(std::uint64_t u);
    JsonWriter& value(int i) { return value(static_cast<std::int64_t>(i)); }
    JsonWriter& value(unsigned u) { return value(static_cast<std::uint64_t>(u)); }
    JsonWriter& value(bool b);
    JsonWriter& null();
    JsonWriter& floats(std::span<const float> values);

private:
    void separate();
    void writeString(std::string_view s);
    void newline();

    std::string& out_;
    bool pretty_;
    std::vector<bool> hasItems_;  // per open container
    bool afterKey_ = false;
};

// Shortest round-trip decimal for a float ("0.1", "2", "1e-07"); "null" when not finite.
std::string formatFloat(float f);

}  // namespace kinema::cli
