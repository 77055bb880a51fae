// The JSON form of a tween: a hand-written document read field by field, the round
// trip (tween -> text -> the same tween, every bit), and fail-closed reading with
// every fault at its JSON pointer.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kinema/io/tween_json.hpp"

namespace {

using namespace kinema;

std::uint32_t bits(float f) {
    std::uint32_t u = 0;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

std::uint64_t bits(double d) {
    std::uint64_t u = 0;
    std::memcpy(&u, &d, sizeof u);
    return u;
}

void expectSameBits(Vec3 a, Vec3 b) {
    EXPECT_EQ(bits(a.x), bits(b.x));
    EXPECT_EQ(bits(a.y), bits(b.y));
    EXPECT_EQ(bits(a.z), bits(b.z));
}

void expectSameBits(Quat a, Quat b) {
    EXPECT_EQ(bits(a.x), bits(b.x));
    EXPECT_EQ(bits(a.y), bits(b.y));
    EXPECT_EQ(bits(a.z), bits(b.z));
    EXPECT_EQ(bits(a.w), bits(b.w));
}

template <class T>
void expectSameTrack(const TweenTrack<T>& a, const TweenTrack<T>& b) {
    EXPECT_EQ(a.easing(), b.easing());
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(bits(a.keys()[i].time), bits(b.keys()[i].time)) << i;
        expectSameBits(a.keys()[i].value, b.keys()[i].value);
    }
}

void expectSameTween(const Tween& a, const Tween& b) {
    ASSERT_EQ(a.length().has_value(), b.length().has_value());
    if (a.length()) {
        EXPECT_EQ(bits(*a.length()), bits(*b.length()));
    }
    expectSameTrack(a.position, b.position);
    expectSameTrack(a.rotation, b.rotation);
    expectSameTrack(a.scale, b.scale);
}

Tween roundTrip(const Tween& t) {
    const std::string text = toJson(t);
    auto back = parseTweenJson(text, "written");
    EXPECT_TRUE(back.ok()) << back.message() << "\n" << text;
    if (!back) return {};
    return std::move(back).value();
}

constexpr const char* kDocument = R"({
  "length": 2.5,
  "position": {
    "easing": "outBack",
    "keys": [
      {"time": 0, "value": [0, 0, 0]},
      {"time": 1.25, "value": [0, 2, -0.5]}
    ]
  },
  "rotation": {
    "keys": [
      {"time": 0, "value": [0, 0, 0, 1]},
      {"time": 2, "value": [0, 0, 2, 0]}
    ]
  },
  "scale": {"easing": "inOutSine", "keys": []}
})";

TEST(TweenJson, ReadsEveryField) {
    auto parsed = parseTweenJson(kDocument, "t.json");
    ASSERT_TRUE(parsed.ok()) << parsed.message();
    const Tween& t = *parsed;
    EXPECT_EQ(t.length(), 2.5);
    EXPECT_EQ(t.position.easing(), Easing::OutBack);
    ASSERT_EQ(t.position.size(), 2u);
    EXPECT_EQ(t.position.keys()[1].time, 1.25);
    EXPECT_EQ(t.position.keys()[1].value, (Vec3{0.0f, 2.0f, -0.5f}));
    EXPECT_EQ(t.rotation.easing(), Easing::Linear);  // the default
    ASSERT_EQ(t.rotation.size(), 2u);
    EXPECT_EQ(t.rotation.keys()[1].value, (Quat{0.0f, 0.0f, 1.0f, 0.0f}));  // normalised
    EXPECT_EQ(t.scale.easing(), Easing::InOutSine);
    EXPECT_TRUE(t.scale.empty());
    EXPECT_EQ(t.duration(), 2.5);
}

TEST(TweenJson, AnEmptyObjectIsAnEmptyTween) {
    auto parsed = parseTweenJson("{}");
    ASSERT_TRUE(parsed.ok()) << parsed.message();
    EXPECT_EQ(*parsed, Tween{});
    EXPECT_EQ(toJson(Tween{}), "{}\n");
}

TEST(TweenJson, RoundTripsBitForBit) {
    Tween t;
    ASSERT_TRUE(t.setLength(2.5).ok());
    t.position.setEasing(Easing::InOutBack);
    ASSERT_TRUE(t.position.insert(0.0, Vec3{0.1f, -0.0f, 1.0f / 3.0f}).ok());
    ASSERT_TRUE(t.position.insert(0.1, Vec3{std::numeric_limits<float>::max(), 1e-45f, -1e-38f}).ok());
    ASSERT_TRUE(t.position.insert(1.0 / 3.0, Vec3{16777216.0f, 123456789012.0f, -7.0f}).ok());
    // A time whose shortest text in plain form would be a 22-digit integer.
    ASSERT_TRUE(t.position.insert(1.2345678901234567e21, Vec3{1, 2, 3}).ok());
    t.rotation.setEasing(Easing::OutBack);
    ASSERT_TRUE(t.rotation.insert(0.0, Quat{}).ok());
    ASSERT_TRUE(t.rotation.insert(1e-300, Quat{0.1f, 0.2f, 0.3f, 0.9f}).ok());  // normalised on insert
    ASSERT_TRUE(t.rotation.insert(0.7, Quat{-0.0f, 0.6f, 0.0f, -0.8f}).ok());
    t.scale.setEasing(Easing::InBack);
    ASSERT_TRUE(t.scale.insert(0.5, Vec3{1.1f, 0.9f, 1e10f}).ok());
    const Tween back = roundTrip(t);
    expectSameTween(back, t);
    EXPECT_EQ(back, t);
    // The text is stable: writing the read tween gives the same text.
    EXPECT_EQ(toJson(back), toJson(t));
}

TEST(TweenJson, EasingWithoutKeysAndLengthZeroSurvive) {
    Tween t;
    ASSERT_TRUE(t.setLength(0.0).ok());
    t.scale.setEasing(Easing::OutElastic);
    const Tween back = roundTrip(t);
    expectSameTween(back, t);
    EXPECT_EQ(back.scale.easing(), Easing::OutElastic);
}

TEST(TweenJson, EveryEasingNameRoundTrips) {
    for (const Easing e : allEasings()) {
        Tween t;
        t.rotation.setEasing(e);
        ASSERT_TRUE(t.rotation.insert(0.25, Quat{0, 0, 0, 1}).ok());
        const Tween back = roundTrip(t);
        EXPECT_EQ(back.rotation.easing(), e) << toString(e);
    }
}

TEST(TweenJson, RandomValuesRoundTripBitForBit) {
    std::mt19937_64 rng(12345);
    auto anyFloat = [&] {
        for (;;) {
            const auto u = static_cast<std::uint32_t>(rng());
            float f = 0.0f;
            std::memcpy(&f, &u, sizeof f);
            if (std::isfinite(f)) return f;
        }
    };
    auto anyTime = [&] {
        for (;;) {
            const std::uint64_t u = rng() & 0x7fffffffffffffffu;  // >= 0
            double d = 0.0;
            std::memcpy(&d, &u, sizeof d);
            if (std::isfinite(d)) return d;
        }
    };
    for (int round = 0; round < 50; ++round) {
        Tween t;
        for (int k = 0; k < 20; ++k) {
            ASSERT_TRUE(t.position.insert(anyTime(), Vec3{anyFloat(), anyFloat(), anyFloat()}).ok());
            ASSERT_TRUE(t.scale.insert(anyTime(), Vec3{anyFloat(), anyFloat(), anyFloat()}).ok());
            const Quat q{anyFloat(), anyFloat(), anyFloat(), anyFloat()};
            ASSERT_TRUE(t.rotation.insert(anyTime(), q).ok());
        }
        ASSERT_TRUE(t.setLength(anyTime()).ok());
        expectSameTween(roundTrip(t), t);
    }
}

TEST(TweenJson, LoadsAFileAndSaysWhyAMissingOneCannotBeRead) {
    const std::string path = ::testing::TempDir() + "kinema_tween.json";
    {
        std::ofstream out(path);
        out << kDocument;
    }
    auto loaded = loadTweenFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.message();
    EXPECT_EQ(loaded->position.size(), 2u);
    std::remove(path.c_str());
    auto missing = loadTweenFile(path);
    ASSERT_FALSE(missing.ok());
    ASSERT_EQ(missing.faults().size(), 1u);
    EXPECT_EQ(missing.faults()[0].where, path);
    EXPECT_NE(missing.faults()[0].what.find("no such file"), std::string::npos) << missing.message();
}

TEST(TweenJson, FaultsOfAFileNameTheFile) {
    const std::string path = ::testing::TempDir() + "kinema_bad_tween.json";
    {
        std::ofstream out(path);
        out << R"({"scale": {"keys": [{"time": -1, "value": [1, 1, 1]}]}})";
    }
    auto loaded = loadTweenFile(path);
    std::remove(path.c_str());
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.faults()[0].where, path + "#/scale/keys/0/time");
}

struct BadDocument {
    const char* text;
    std::vector<std::string> places;
};

class TweenJsonRejects : public ::testing::TestWithParam<BadDocument> {};

TEST_P(TweenJsonRejects, EveryFaultAtItsPointer) {
    auto parsed = parseTweenJson(GetParam().text, "f.json");
    ASSERT_FALSE(parsed.ok());
    std::vector<std::string> places;
    for (const Fault& f : parsed.faults()) places.push_back(f.where);
    EXPECT_EQ(places, GetParam().places) << parsed.message();
}

INSTANTIATE_TEST_SUITE_P(
    Documents, TweenJsonRejects,
    ::testing::Values(
        // Not an object, or not JSON: the root, or the byte (line, column) where the
        // text stops being JSON (after the 13 bytes of {"position":).
        BadDocument{"[]", {"f.json#"}}, BadDocument{"", {"f.json@byte 0 (line 1, column 1)"}},
        BadDocument{"{\"position\": ", {"f.json@byte 13 (line 1, column 14)"}},
        // Wrong types.
        BadDocument{R"({"length": "long"})", {"f.json#/length"}},
        BadDocument{R"({"length": -0.5})", {"f.json#/length"}},
        BadDocument{R"({"position": [0, 0, 0]})", {"f.json#/position"}},
        BadDocument{R"({"position": {"easing": 3, "keys": []}})", {"f.json#/position/easing"}},
        BadDocument{R"({"position": {"keys": {}}})", {"f.json#/position/keys"}},
        BadDocument{R"({"position": {"keys": [7]}})", {"f.json#/position/keys/0"}},
        BadDocument{R"({"position": {"keys": [{"time": "0", "value": [0, 0, 0]}]}})", {"f.json#/position/keys/0/time"}},
        BadDocument{R"({"position": {"keys": [{"time": 0, "value": {"x": 0}}]}})", {"f.json#/position/keys/0/value"}},
        BadDocument{R"({"position": {"keys": [{"time": 0, "value": [0, true, 0]}]}})",
                    {"f.json#/position/keys/0/value/1"}},
        // Missing parts.
        BadDocument{R"({"position": {"easing": "linear"}})", {"f.json#/position/keys"}},
        BadDocument{R"({"position": {"keys": [{"value": [0, 0, 0]}]}})", {"f.json#/position/keys/0/time"}},
        BadDocument{R"({"scale": {"keys": [{"time": 0}]}})", {"f.json#/scale/keys/0/value"}},
        // Wrong lengths: 3 numbers for position and scale, 4 for rotation.
        BadDocument{R"({"position": {"keys": [{"time": 0, "value": [0, 0]}]}})", {"f.json#/position/keys/0/value"}},
        BadDocument{R"({"rotation": {"keys": [{"time": 0, "value": [0, 0, 1]}]}})", {"f.json#/rotation/keys/0/value"}},
        BadDocument{R"({"scale": {"keys": [{"time": 0, "value": [1, 1, 1, 1]}]}})", {"f.json#/scale/keys/0/value"}},
        // Numbers: beyond the float range, negative times.
        BadDocument{R"({"scale": {"keys": [{"time": 0, "value": [1, 1e39, 1]}]}})", {"f.json#/scale/keys/0/value/1"}},
        BadDocument{R"({"scale": {"keys": [{"time": -1e-9, "value": [1, 1, 1]}]}})", {"f.json#/scale/keys/0/time"}},
        // A zero quaternion; the third key of a rotation track.
        BadDocument{
            R"({"rotation": {"keys": [{"time": 0, "value": [0, 0, 0, 1]}, {"time": 1, "value": [0, 0, 1, 0]}, {"time": 2, "value": [0, 0, 0, 0]}]}})",
            {"f.json#/rotation/keys/2/value"}},
        // Key order is checked, not repaired: a repeated time, a time before an earlier one.
        BadDocument{
            R"({"position": {"keys": [{"time": 0, "value": [0, 0, 0]}, {"time": 1, "value": [0, 0, 0]}, {"time": 1, "value": [1, 0, 0]}]}})",
            {"f.json#/position/keys/2/time"}},
        BadDocument{
            R"({"position": {"keys": [{"time": 0, "value": [0, 0, 0]}, {"time": 2, "value": [0, 0, 0]}, {"time": 1, "value": [1, 0, 0]}]}})",
            {"f.json#/position/keys/2/time"}},
        // Unknown keys, at every level, escaped as JSON pointers.
        BadDocument{R"({"scal": {"keys": []}})", {"f.json#/scal"}},
        BadDocument{R"({"position": {"eazing": "linear", "keys": []}})", {"f.json#/position/eazing"}},
        BadDocument{R"({"position": {"keys": [{"time": 0, "value": [0, 0, 0], "ease": 1}]}})",
                    {"f.json#/position/keys/0/ease"}},
        BadDocument{R"({"a/b~c": 1})", {"f.json#/a~1b~0c"}},
        // Duplicate keys: once per key, however often it repeats.
        BadDocument{R"({"length": 1, "length": 2})", {"f.json#/length"}},
        BadDocument{R"({"scale": {"keys": []}, "scale": {"keys": []}, "scale": {"keys": []}})", {"f.json#/scale"}},
        BadDocument{R"({"position": {"keys": [{"time": 0, "time": 1, "value": [0, 0, 0]}]}})",
                    {"f.json#/position/keys/0/time"}},
        // Unknown easing.
        BadDocument{R"({"rotation": {"easing": "wobble", "keys": []}})", {"f.json#/rotation/easing"}},
        // Every fault of a document at once.
        BadDocument{
            R"({"length": -1, "position": {"easing": "fast", "keys": [{"time": 1, "value": [0, 0, 1e40]}, {"time": 0.5, "value": [0, 0, 0]}]}, "rotation": {"keys": [{"time": 0, "value": [0, 0, 0, 0]}]}})",
            {"f.json#/length", "f.json#/position/easing", "f.json#/position/keys/0/value/2",
             "f.json#/position/keys/1/time", "f.json#/rotation/keys/0/value"}}));

TEST(TweenJson, AnUnknownEasingListsValidNames) {
    auto parsed = parseTweenJson(R"({"position": {"easing": "wobble", "keys": []}})", "f.json");
    ASSERT_FALSE(parsed.ok());
    ASSERT_EQ(parsed.faults().size(), 1u);
    const std::string& what = parsed.faults()[0].what;
    EXPECT_EQ(what.rfind("unknown easing 'wobble'", 0), 0u) << what;
    for (const char* name : {"linear", "inQuad", "outBack", "outElastic", "31 in all"}) {
        EXPECT_NE(what.find(name), std::string::npos) << name << " in " << what;
    }
    // A name in the wrong case is pointed at its right spelling.
    auto cased = parseTweenJson(R"({"position": {"easing": "InOutQuad", "keys": []}})", "f.json");
    ASSERT_FALSE(cased.ok());
    EXPECT_NE(cased.faults()[0].what.find("'inOutQuad'"), std::string::npos) << cased.message();
}

TEST(TweenJson, ADuplicateKeyIsAFaultEvenWhenBothValuesAreValid) {
    auto parsed = parseTweenJson(R"({"position": {"easing": "linear", "easing": "linear", "keys": []}})", "f.json");
    ASSERT_FALSE(parsed.ok());
    ASSERT_EQ(parsed.faults().size(), 1u) << parsed.message();
    EXPECT_EQ(parsed.faults()[0].where, "f.json#/position/easing");
    EXPECT_EQ(parsed.faults()[0].what, "duplicate key (keys must be unique)");
}

TEST(TweenJson, UnsortedKeysAreRefusedNotSorted) {
    auto parsed = parseTweenJson(
        R"({"scale": {"keys": [{"time": 1, "value": [1, 1, 1]}, {"time": 0.5, "value": [2, 2, 2]}]}})", "f.json");
    ASSERT_FALSE(parsed.ok());
    ASSERT_EQ(parsed.faults().size(), 1u);
    EXPECT_EQ(parsed.faults()[0].where, "f.json#/scale/keys/1/time");
    EXPECT_EQ(parsed.faults()[0].what,
              "keys must be in strictly increasing time order: 0.5 is not after the earlier key at 1");
}

TEST(TweenJson, AnEmptyViewIsASyntaxErrorAtByteZero) {
    auto parsed = parseTweenJson(std::string_view{}, "f.json");
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.faults()[0].where, "f.json@byte 0 (line 1, column 1)");
}

TEST(TweenJson, TheFuzzSeedsAreWhatTheirNamesSay) {
    // tests/io/<this file> -> <repository>/fuzz/tween_corpus: full.json and
    // minimal.json read; the others hold faults for the fuzzer to start from.
    const auto dir =
        std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "fuzz" / "tween_corpus";
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) GTEST_SKIP() << dir << " not found";
    int seeds = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        auto tween = loadTweenFile(entry.path().string());
        EXPECT_EQ(tween.ok(), name == "full.json" || name == "minimal.json") << name << ": " << tween.message();
        ++seeds;
    }
    EXPECT_GE(seeds, 4);
}

TEST(TweenJson, ASyntaxErrorNamesItsByteLineAndColumn) {
    // Line 1 "{" is byte 0, its LF byte 1. Line 2, bytes 2..15, is `  "length": 1,`
    // (14 bytes), its LF byte 16. Line 3 starts at byte 17 with the '}' that may not
    // follow a ',': byte 17, line 3, column 1.
    const std::string text = "{\n  \"length\": 1,\n}";
    ASSERT_EQ(text[17], '}');
    auto parsed = parseTweenJson(text, "f.json");
    ASSERT_FALSE(parsed.ok());
    ASSERT_EQ(parsed.faults().size(), 1u) << parsed.message();
    EXPECT_EQ(parsed.faults()[0].where, "f.json@byte 17 (line 3, column 1)");
    EXPECT_EQ(parsed.faults()[0].what,
              "JSON syntax error: trailing comma: expected an object member after ',', found '}'");
    // Without a source the location is the same.
    auto bare = parseTweenJson(text);
    ASSERT_FALSE(bare.ok());
    EXPECT_EQ(bare.faults()[0].where, "@byte 17 (line 3, column 1)");
}

}  // namespace
