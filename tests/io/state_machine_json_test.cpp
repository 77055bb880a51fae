// The JSON form of a state machine: a hand-written document read field by field,
// the round trip (text -> description -> text -> the same description), and
// fail-closed reading with every fault at its JSON pointer.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/io/state_machine_json.hpp"
#include "play/fixtures.hpp"

namespace {

using namespace kinema;

using test::clipState;

Clip makeClip(const std::string& name, float seconds) {
    return test::lineClip(name, seconds, {{"footL", 0.0f}, {"footR", seconds / 2}});
}

constexpr const char* kDocument = R"({
  "parameters": [
    {"name": "speed", "type": "float", "default": 0.5},
    {"name": "armed", "type": "bool", "default": true},
    {"name": "jump", "type": "trigger"}
  ],
  "states": [
    {"name": "idle", "clip": "idle"},
    {"name": "move", "blendSpace": {"dimensions": 1, "x": "speed", "sync": "markers",
                                    "clips": [{"clip": "walk", "x": 1.5}, {"clip": "run", "x": 4}]},
     "speed": 1.25, "speedParameter": "speed"},
    {"name": "jump", "clip": "jump", "mode": "clamp"}
  ],
  "transitions": [
    {"from": "idle", "to": "move", "duration": 0.3, "easing": "inOutSine",
     "conditions": [{"parameter": "speed", "op": ">", "value": 0.1}, {"parameter": "armed", "op": "false"}],
     "interruption": "destination"},
    {"from": "*", "to": "jump", "duration": 0.1, "conditions": [{"parameter": "jump", "op": "true"}],
     "canTransitionToSelf": true, "predicate": "grounded"},
    {"from": "jump", "to": "idle", "duration": 0, "exitTime": 0.9, "offset": 0.25}
  ],
  "defaultState": "idle"
})";

TEST(StateMachineJson, ReadsEveryField) {
    auto parsed = parseStateMachineJson(kDocument);
    ASSERT_TRUE(parsed.ok()) << parsed.message();
    const StateMachineDesc& d = *parsed;
    ASSERT_EQ(d.parameters.size(), 3u);
    EXPECT_EQ(d.parameters[0], (ParameterDesc{"speed", ParameterType::Float, 0.5f}));
    EXPECT_EQ(d.parameters[1], (ParameterDesc{"armed", ParameterType::Bool, 1.0f}));
    EXPECT_EQ(d.parameters[2], (ParameterDesc{"jump", ParameterType::Trigger, 0.0f}));
    ASSERT_EQ(d.states.size(), 3u);
    EXPECT_EQ(d.states[0].clip, "idle");
    EXPECT_EQ(d.states[0].speed, 1.0f);
    EXPECT_EQ(d.states[0].mode, LoopMode::Loop);
    ASSERT_TRUE(d.states[1].blendSpace.has_value());
    const BlendSpaceDesc& b = *d.states[1].blendSpace;
    EXPECT_EQ(b.dimensions, 1u);
    EXPECT_EQ(b.xParameter, "speed");
    EXPECT_EQ(b.sync, BlendSync::Markers);
    ASSERT_EQ(b.clips.size(), 2u);
    EXPECT_EQ(b.clips[1], (BlendSpaceClipDesc{"run", 4.0f, 0.0f}));
    EXPECT_EQ(d.states[1].speed, 1.25f);
    EXPECT_EQ(d.states[1].speedParameter, "speed");
    EXPECT_EQ(d.states[2].mode, LoopMode::Clamp);
    ASSERT_EQ(d.transitions.size(), 3u);
    const TransitionDesc& t0 = d.transitions[0];
    EXPECT_EQ(t0.from, "idle");
    EXPECT_EQ(t0.duration, 0.3f);
    EXPECT_EQ(t0.easing, Easing::InOutSine);
    EXPECT_EQ(t0.interruption, Interruption::Destination);
    ASSERT_EQ(t0.conditions.size(), 2u);
    EXPECT_EQ(t0.conditions[0], (ConditionDesc{"speed", ConditionOp::Greater, 0.1f}));
    EXPECT_EQ(t0.conditions[1], (ConditionDesc{"armed", ConditionOp::IsFalse, 0.0f}));
    EXPECT_FALSE(t0.exitTime.has_value());
    EXPECT_TRUE(d.transitions[1].canTransitionToSelf);
    EXPECT_EQ(d.transitions[1].predicate, "grounded");
    EXPECT_EQ(d.transitions[2].exitTime, 0.9f);
    EXPECT_EQ(d.transitions[2].offset, 0.25f);
    EXPECT_EQ(d.transitions[2].duration, 0.0f);
    EXPECT_EQ(d.defaultState, "idle");
}

TEST(StateMachineJson, RoundTripsThroughText) {
    auto parsed = parseStateMachineJson(kDocument);
    ASSERT_TRUE(parsed.ok()) << parsed.message();
    const std::string text = toJson(*parsed);
    auto again = parseStateMachineJson(text);
    ASSERT_TRUE(again.ok()) << again.message() << "\n" << text;
    EXPECT_EQ(*again, *parsed);
    EXPECT_EQ(toJson(*again), text);
}

TEST(StateMachineJson, FloatsSurviveTheRoundTripBitForBit) {
    StateMachineDesc d;
    d.states = {clipState("a", "idle")};
    // -0 as well ("-0" would read back as the integer 0), and integers past 15 digits.
    for (const float v : {0.1f, 1.0f / 3.0f, 3.4028235e38f, 1.17549435e-38f, 1e-45f, -0.0f, 1.2345679e17f}) {
        d.states[0].speed = v;
        auto back = parseStateMachineJson(toJson(d));
        ASSERT_TRUE(back.ok()) << back.message();
        EXPECT_EQ(std::memcmp(&back->states[0].speed, &v, sizeof v), 0) << v;
    }
}

TEST(StateMachineJson, NamesAreEscaped) {
    StateMachineDesc d;
    d.states = {clipState("a \"quoted\" \\ name\n", "idle")};
    auto back = parseStateMachineJson(toJson(d));
    ASSERT_TRUE(back.ok()) << back.message();
    EXPECT_EQ(back->states[0].name, d.states[0].name);
}

// The example of docs/STATE-MACHINES.md, as a reader copies it: the first JSON block
// under "The JSON form", loaded against clips of the names it plays.
TEST(StateMachineJson, TheDocumentationsExampleLoads) {
    std::ifstream in(std::string(KINEMA_SOURCE_DIR) + "/docs/STATE-MACHINES.md");
    ASSERT_TRUE(in) << "docs/STATE-MACHINES.md not found";
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t section = page.find("## The JSON form");
    ASSERT_NE(section, std::string::npos);
    const std::size_t open = page.find("```json\n", section);
    ASSERT_NE(open, std::string::npos);
    const std::size_t begin = open + 8, end = page.find("```", begin);
    ASSERT_NE(end, std::string::npos);
    const Clip idle = makeClip("idle", 2.0f), walk = makeClip("walk", 1.0f), run = makeClip("run", 0.6f),
               jump = makeClip("jump", 1.0f);
    const Clip clips[] = {idle, walk, run, jump};
    auto def = loadStateMachineJson(page.substr(begin, end - begin), clipsByName(clips), "STATE-MACHINES.md");
    ASSERT_TRUE(def.ok()) << def.message();
    EXPECT_EQ(def->stateCount(), 3u);
    StateMachine sm(*def);
    EXPECT_TRUE(sm.setFloat("speed", 2.0f).ok());
    ASSERT_TRUE(sm.update(0.1).ok());
    EXPECT_EQ(*sm.targetState(), *def->findState("move"));
}

TEST(StateMachineJson, LoadsIntoARunnableDefinition) {
    const Clip idle = makeClip("idle", 2.0f), walk = makeClip("walk", 1.0f), run = makeClip("run", 0.6f),
               jump = makeClip("jump", 1.0f);
    const ClipLookup lookup = [&](std::string_view n) -> const Clip* {
        for (const Clip* c : {&idle, &walk, &run, &jump}) {
            if (c->name() == n) return c;
        }
        return nullptr;
    };
    auto def = loadStateMachineJson(kDocument, lookup, "locomotion.json");
    ASSERT_TRUE(def.ok()) << def.message();
    EXPECT_EQ(def->stateCount(), 3u);
    StateMachine sm(*def);
    EXPECT_TRUE(sm.setBool("armed", false).ok());
    ASSERT_TRUE(sm.update(0.1).ok());
    EXPECT_EQ(*sm.targetState(), *def->findState("move"));  // speed 0.5 > 0.1 and not armed
}

// glTF animations are often unnamed: "clip": "" names that clip (absent names none).
TEST(StateMachineJson, AnEmptyClipNameNamesTheUnnamedClip) {
    const Clip unnamed = makeClip("", 1.0f);
    const ClipLookup lookup = [&](std::string_view n) -> const Clip* { return n.empty() ? &unnamed : nullptr; };
    const auto desc = parseStateMachineJson(R"({"states": [{"name": "a", "clip": ""}], "defaultState": "a"})");
    ASSERT_TRUE(desc.ok()) << desc.message();
    ASSERT_TRUE(desc->states[0].clip.has_value());
    EXPECT_EQ(*desc->states[0].clip, "");
    EXPECT_EQ(parseStateMachineJson(toJson(*desc)).value(), *desc);  // written back with its "clip"
    auto def = StateMachineDefinition::create(*desc, lookup);
    ASSERT_TRUE(def.ok()) << def.message();
    EXPECT_EQ(def->clips()[0], &unnamed);
    const auto none = loadStateMachineJson(R"({"states": [{"name": "a"}], "defaultState": "a"})", lookup, "m.json");
    EXPECT_EQ(none.message(), "m.json#/states/0: a state plays exactly one clip or one blend space");
}

TEST(StateMachineJson, NameFaultsCarryTheSourceAndPointer) {
    const ClipLookup none = [](std::string_view) -> const Clip* { return nullptr; };
    auto def = loadStateMachineJson(kDocument, none, "locomotion.json");
    ASSERT_FALSE(def.ok());
    EXPECT_EQ(def.faults()[0].where, "locomotion.json#/states/0/clip");
}

TEST(StateMachineJson, LoadsFromAFileAndNamesAMissingOne) {
    const std::string path = ::testing::TempDir() + "kinema_sm.json";
    {
        std::ofstream out(path);
        out << R"({"states": [{"name": "a", "clip": "x"}]})";
    }
    const Clip x = makeClip("x", 1.0f);
    auto def = loadStateMachineFile(path, [&](std::string_view) { return &x; });
    ASSERT_TRUE(def.ok()) << def.message();
    std::remove(path.c_str());
    auto missing = loadStateMachineFile(path, [&](std::string_view) { return &x; });
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.faults()[0].where, path);
}

// Only a regular file is read: a FIFO no one writes is refused at once (a blocking
// read would hang here), a folder is named as one.
TEST(StateMachineJson, AFifoOrAFolderIsRefusedWithoutBlocking) {
    const std::string fifo = ::testing::TempDir() + "kinema_sm_fifo.json";
    std::remove(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const Clip x = makeClip("x", 1.0f);
    auto piped = loadStateMachineFile(fifo, [&](std::string_view) { return &x; });
    std::remove(fifo.c_str());
    ASSERT_FALSE(piped.ok());
    EXPECT_NE(piped.faults()[0].what.find("FIFO"), std::string::npos) << piped.message();
    auto folder = loadStateMachineFile(::testing::TempDir(), [&](std::string_view) { return &x; });
    ASSERT_FALSE(folder.ok());
    EXPECT_NE(folder.faults()[0].what.find("folder"), std::string::npos) << folder.message();
}

struct BadDocument {
    const char* text;
    std::vector<std::string> places;
};

class StateMachineJsonRejects : public ::testing::TestWithParam<BadDocument> {};

TEST_P(StateMachineJsonRejects, EveryFaultAtItsPointer) {
    auto parsed = parseStateMachineJson(GetParam().text, "f.json");
    ASSERT_FALSE(parsed.ok());
    std::vector<std::string> places;
    for (const Fault& f : parsed.faults()) places.push_back(f.where);
    EXPECT_EQ(places, GetParam().places) << parsed.message();
}

INSTANTIATE_TEST_SUITE_P(
    Documents, StateMachineJsonRejects,
    ::testing::Values(
        // Syntax errors: the byte, line and column of the first one. The empty text
        // fails at byte 0; the cut one at its end, after the 12 bytes of {"states": [.
        BadDocument{"", {"f.json@byte 0 (line 1, column 1)"}},
        BadDocument{"{\"states\": [", {"f.json@byte 12 (line 1, column 13)"}}, BadDocument{"[]", {"f.json#"}},
        BadDocument{"{}", {"f.json#/states"}}, BadDocument{R"({"states": {}})", {"f.json#/states"}},
        BadDocument{R"({"states": [1]})", {"f.json#/states/0"}},
        BadDocument{R"({"states": [{"name": "a", "clip": "x", "sped": 2}]})", {"f.json#/states/0/sped"}},
        BadDocument{R"({"states": [{"name": 3, "clip": "x"}]})", {"f.json#/states/0/name"}},
        BadDocument{R"({"states": [{"name": "a", "clip": "x", "speed": 1e39}]})", {"f.json#/states/0/speed"}},
        BadDocument{R"({"states": [{"name": "a", "clip": "x", "speed": "fast"}]})", {"f.json#/states/0/speed"}},
        BadDocument{R"({"states": [{"name": "a", "clip": "x", "mode": "once"}]})", {"f.json#/states/0/mode"}},
        BadDocument{R"({"states": [{"name": "a", "blendSpace": []}]})", {"f.json#/states/0/blendSpace"}},
        BadDocument{R"({"states": [{"name": "a", "blendSpace": {"dimensions": 3, "x": "s", "clips": []}}]})",
                    {"f.json#/states/0/blendSpace/dimensions"}},
        // Not 1 as written, though a float would round it to 1.
        BadDocument{R"({"states": [{"name": "a", "blendSpace": {"dimensions": 1.00000001, "x": "s", "clips": []}}]})",
                    {"f.json#/states/0/blendSpace/dimensions"}},
        BadDocument{
            R"({"states": [{"name": "a", "blendSpace": {"dimensions": 2, "x": "s", "clips": [{"clip": "w", "x": 1}]}}]})",
            {"f.json#/states/0/blendSpace/y", "f.json#/states/0/blendSpace/clips/0/y"}},
        // A bad count is the one fault: no guess about a y beside it.
        BadDocument{R"({"states": [{"name": "a", "blendSpace": {"dimensions": 3, "x": "s", "y": "t",
                                                           "clips": [{"clip": "w", "x": 1, "y": 2}]}}]})",
                    {"f.json#/states/0/blendSpace/dimensions"}},
        // A y where "dimensions": 2 is missing would be ignored.
        BadDocument{
            R"({"states": [{"name": "a", "blendSpace": {"x": "s", "y": "t", "clips": [{"clip": "w", "x": 1, "y": 2}]}}]})",
            {"f.json#/states/0/blendSpace/y", "f.json#/states/0/blendSpace/clips/0/y"}},
        // An empty name would read as the key left out.
        BadDocument{R"({"states": [{"name": "a", "clip": "x", "speedParameter": ""}], "defaultState": ""})",
                    {"f.json#/states/0/speedParameter", "f.json#/defaultState"}},
        BadDocument{
            R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "*", "to": "a", "predicate": ""}]})",
            {"f.json#/transitions/0/predicate"}},
        BadDocument{R"({"parameters": [{"name": "p"}], "states": [{"name": "a", "clip": "x"}]})",
                    {"f.json#/parameters/0/type"}},
        BadDocument{R"({"parameters": [{"name": "p", "type": "int"}], "states": [{"name": "a", "clip": "x"}]})",
                    {"f.json#/parameters/0/type"}},
        BadDocument{
            R"({"parameters": [{"name": "p", "type": "bool", "default": 1}], "states": [{"name": "a", "clip": "x"}]})",
            {"f.json#/parameters/0/default"}},
        BadDocument{
            R"({"parameters": [{"name": "p", "type": "trigger", "default": true}], "states": [{"name": "a", "clip": "x"}]})",
            {"f.json#/parameters/0/default"}},
        BadDocument{R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"to": "a", "easing": "wobble"}]})",
                    {"f.json#/transitions/0/from", "f.json#/transitions/0/easing"}},
        BadDocument{
            R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "a", "to": "a", "conditions": [{"parameter": "p", "op": ">>"}]}]})",
            {"f.json#/transitions/0/conditions/0/op"}},
        BadDocument{
            R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "a", "to": "a", "conditions": [{"parameter": "p", "op": "<"}]}]})",
            {"f.json#/transitions/0/conditions/0/value"}},
        BadDocument{
            R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "a", "to": "a", "conditions": [{"parameter": "p", "op": "true", "value": 1}]}]})",
            {"f.json#/transitions/0/conditions/0/value"}},
        BadDocument{
            R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "a", "to": "a", "canTransitionToSelf": 1}]})",
            {"f.json#/transitions/0/canTransitionToSelf"}},
        BadDocument{R"({"states": [{"name": "a", "clip": "x"}], "a/b~c": 1})", {"f.json#/a~1b~0c"}},
        // Control characters in a key are escaped in its pointer: the fault stays one line.
        BadDocument{R"({"states": [{"name": "a", "clip": "x", "bad\nkey\u001b[2J": 1}]})",
                    {"f.json#/states/0/bad\\nkey\\x1b[2J"}},
        // A duplicate key, in any object the document holds, is a fault at its pointer,
        // once per key however often it repeats; unknown keys stay one fault each.
        BadDocument{R"({"states": [{"name": "a", "clip": "x"}], "states": []})", {"f.json#/states"}},
        BadDocument{R"({"states": [{"name": "a", "clip": "x", "clip": "y"}]})", {"f.json#/states/0/clip"}},
        BadDocument{R"({"states": [{"name": "a", "name": "b", "clip": "x", "name": "c"}]})", {"f.json#/states/0/name"}},
        BadDocument{R"({"states": [{"name": "a", "clip": "x", "sped": 1, "sped": 2}]})",
                    {"f.json#/states/0/sped", "f.json#/states/0/sped"}},
        BadDocument{
            R"({"parameters": [{"name": "p", "type": "float", "default": 1, "default": 2}], "states": [{"name": "a", "clip": "x"}]})",
            {"f.json#/parameters/0/default"}},
        BadDocument{
            R"({"states": [{"name": "a", "blendSpace": {"x": "s", "sync": "markers", "sync": "markers", "clips": [{"clip": "w", "x": 1, "x": 2}]}}]})",
            {"f.json#/states/0/blendSpace/sync", "f.json#/states/0/blendSpace/clips/0/x"}},
        BadDocument{
            R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "a", "to": "a", "to": "a", "conditions": [{"parameter": "p", "op": "true", "op": "false"}]}]})",
            {"f.json#/transitions/0/to", "f.json#/transitions/0/conditions/0/op"}},
        // An unknown or missing operator is one fault: whether `value` belongs is not
        // judged without a known operator.
        BadDocument{
            R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "a", "to": "a", "conditions": [{"parameter": "p", "op": ">>", "value": 1}]}]})",
            {"f.json#/transitions/0/conditions/0/op"}},
        BadDocument{
            R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "a", "to": "a", "conditions": [{"parameter": "p", "op": "=>", "value": "x"}]}]})",
            {"f.json#/transitions/0/conditions/0/op"}},
        BadDocument{
            R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "a", "to": "a", "conditions": [{"parameter": "p", "value": 1}]}]})",
            {"f.json#/transitions/0/conditions/0/op"}}));

TEST(StateMachineJson, ADuplicateKeyIsAFaultEvenWhenBothValuesAreValid) {
    // Either "clip" alone would load; two make the text ambiguous (readers differ on
    // which one counts), so the document is refused, whatever the values.
    auto parsed = parseStateMachineJson(R"({"states": [{"name": "a", "clip": "x", "clip": "x"}]})", "f.json");
    ASSERT_FALSE(parsed.ok());
    ASSERT_EQ(parsed.faults().size(), 1u) << parsed.message();
    EXPECT_EQ(parsed.faults()[0].where, "f.json#/states/0/clip");
    EXPECT_EQ(parsed.faults()[0].what, "duplicate key (keys must be unique)");
}

TEST(StateMachineJson, ASyntaxErrorNamesItsByteLineAndColumn) {
    // Line 1 "{" is byte 0, its LF byte 1. Line 2 is bytes 2..14 and its LF byte 15.
    // Line 3 starts at byte 16: 4 spaces, {"name": "é", "clip": "x", then the '}'
    // that may not follow a ','. Before it on line 3: 30 code points, 31 bytes (é is
    // two), so the '}' is byte 16 + 31 = 47, column 31.
    const std::string text = "{\n  \"states\": [\n    {\"name\": \"\xC3\xA9\", \"clip\": \"x\",}\n  ]\n}";
    ASSERT_EQ(text[47], '}');
    auto parsed = parseStateMachineJson(text, "f.json");
    ASSERT_FALSE(parsed.ok());
    ASSERT_EQ(parsed.faults().size(), 1u) << parsed.message();
    EXPECT_EQ(parsed.faults()[0].where, "f.json@byte 47 (line 3, column 31)");
    EXPECT_EQ(parsed.faults()[0].what,
              "JSON syntax error: trailing comma: expected an object member after ',', found '}'");

    // The loader reports the same location, without a source as well.
    const ClipLookup none = [](std::string_view) -> const Clip* { return nullptr; };
    auto loaded = loadStateMachineJson(text, none);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.faults()[0].where, "@byte 47 (line 3, column 31)");
}

TEST(StateMachineJson, AnUnknownOperatorIsOneFault) {
    // A value is given, as a comparison would need; the unknown operator alone is reported.
    auto parsed = parseStateMachineJson(
        R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "a", "to": "a", "conditions": [{"parameter": "p", "op": ">>", "value": 1}]}]})",
        "f.json");
    ASSERT_FALSE(parsed.ok());
    ASSERT_EQ(parsed.faults().size(), 1u) << parsed.message();
    EXPECT_EQ(parsed.faults()[0].where, "f.json#/transitions/0/conditions/0/op");
    EXPECT_EQ(parsed.faults()[0].what, "unknown operator '>>'");
}

TEST(StateMachineJson, AnEasingSpelledInAnotherCaseGetsItsRightSpelling) {
    auto parsed = parseStateMachineJson(
        R"({"states": [{"name": "a", "clip": "x"}], "transitions": [{"from": "a", "to": "a", "easing": "InOutSine"}]})",
        "f.json");
    ASSERT_FALSE(parsed.ok());
    ASSERT_EQ(parsed.faults().size(), 1u) << parsed.message();
    EXPECT_EQ(parsed.faults()[0].where, "f.json#/transitions/0/easing");
    const std::string& what = parsed.faults()[0].what;
    EXPECT_EQ(what.rfind("unknown easing 'InOutSine' (names are case-sensitive: 'inOutSine'); valid names include", 0),
              0u)
        << what;
}

}  // namespace
