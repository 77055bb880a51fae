// State machines in cooked files: every field of a description reads back equal to
// the one written (parameters of each type, a clip state, a 1D blend space synced by
// markers, transitions with conditions, easing, exit time, offset, interruption, a
// predicate); cooking what was read gives the same bytes; a machine that names a clip
// the model lacks is refused at its JSON pointer; damaged bytes are refused at their
// byte; and a machine read from a cooked file drives a StateMachine.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cooked_fixtures.hpp"
#include "kinema/io/cooked.hpp"
#include "kinema/io/state_machine_json.hpp"
#include "kinema/play/state_machine.hpp"
#include "support/track_builder.hpp"

namespace kinema {
namespace {

using namespace test;  // the byte helpers of cooked_fixtures.hpp

const std::string kSource = "machine.kinc";

constexpr const char* kMachine = R"({
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
    {"from": "jump", "to": "idle", "duration": 0, "exitTime": 0.9, "offset": 0.25, "syncMarkers": true}
  ],
  "defaultState": "move"
})";

Clip lineClip(const char* name, float seconds) {
    auto clip = Clip::create(name, {test::makeTrack(0, TrackPath::Translation, {0.0f, seconds}, {0, 0, 0, 1, 0, 0})},
                             {{"footL", 0.0f}, {"footR", 0.5f * seconds}});
    EXPECT_TRUE(clip.ok()) << clip.message();
    return std::move(clip).value();
}

CookedModel makeCooked() {
    CookedModel c;
    c.model.skeleton = Skeleton::create({{"root", kNoParent, {}}}).value();
    c.model.nodeOfJoint = {0};
    c.model.jointOfNode = {0};
    c.model.weightOffsetOfJoint = {-1};
    for (const auto& [name, seconds] : {std::pair{"idle", 2.0f}, {"walk", 1.0f}, {"run", 0.6f}, {"jump", 0.8f}})
        c.model.clips.push_back(lineClip(name, seconds));
    auto desc = parseStateMachineJson(kMachine, "locomotion.json");
    EXPECT_TRUE(desc.ok()) << desc.message();
    c.stateMachines.push_back({"locomotion", std::move(desc).value()});
    return c;
}

class CookedStateMachines : public ::testing::Test {
protected:
    void SetUp() override {
        cooked = makeCooked();
        bytes = cookModel(cooked, 7);
    }
    CookedModel cooked;
    Bytes bytes;
};

TEST_F(CookedStateMachines, EveryFieldReadsBackAndCooksToTheSameBytes) {
    auto read = readCooked(bytes, kSource);
    ASSERT_TRUE(read.ok()) << read.message();
    ASSERT_EQ(read->stateMachines.size(), 1u);
    EXPECT_EQ(read->stateMachines[0].name, "locomotion");
    EXPECT_EQ(read->stateMachines[0].desc, cooked.stateMachines[0].desc);
    EXPECT_TRUE(read->stateMachines[0].desc.transitions[2].syncMarkers);
    EXPECT_EQ(read->stateMachines[0].desc.transitions[2].exitTime, 0.9f);
    EXPECT_FALSE(read->stateMachines[0].desc.transitions[0].exitTime.has_value());
    EXPECT_EQ(cookModel(*read, 7), bytes);
    // A state playing an unnamed clip ("") reads back with it.
    CookedModel unnamed = cooked;
    unnamed.model.clips.push_back(lineClip("", 1.0f));
    unnamed.stateMachines[0].desc.states[0].clip = "";
    auto back = readCooked(cookModel(unnamed, 7), kSource);
    ASSERT_TRUE(back.ok()) << back.message();
    EXPECT_EQ(back->stateMachines[0].desc, unnamed.stateMachines[0].desc);
    // A model alone cooks with no state machines, and reads back so.
    auto alone = readCooked(cookModel(cooked.model), kSource);
    ASSERT_TRUE(alone.ok()) << alone.message();
    EXPECT_TRUE(alone->stateMachines.empty());
}

TEST_F(CookedStateMachines, AMachineFromTheFileDrivesTheModelsClips) {
    auto read = readCooked(bytes, kSource);
    ASSERT_TRUE(read.ok()) << read.message();
    const auto lookup = [&](std::string_view name) -> const Clip* {
        for (const Clip& c : read->model.clips) {
            if (c.name() == name) return &c;
        }
        return nullptr;
    };
    auto definition = StateMachineDefinition::create(read->stateMachines[0].desc, lookup);
    ASSERT_TRUE(definition.ok()) << definition.message();
    StateMachine machine(*definition);
    // "move" at speed 0.5 plays walk alone (the space starts at 1.5); at 3, walk and run.
    ASSERT_TRUE(machine.update(0.05));
    ASSERT_EQ(machine.samples().size(), 1u);
    EXPECT_EQ(machine.samples()[0].clip, lookup("walk"));
    ASSERT_TRUE(machine.setFloat("speed", 3.0f));
    ASSERT_TRUE(machine.update(0.05));
    ASSERT_EQ(machine.samples().size(), 2u);
    EXPECT_EQ(machine.samples()[1].clip, lookup("run"));
    // The jump transition waits for its code predicate as well as the trigger.
    ASSERT_TRUE(machine.setPredicate(0, [](const StateMachine&) { return true; }));
    ASSERT_TRUE(machine.setTrigger("jump"));
    ASSERT_TRUE(machine.update(0.05));  // the transition starts at the end of this update
    ASSERT_TRUE(machine.update(0.05));
    ASSERT_EQ(machine.samples().size(), 3u);  // walk and run fading out, the jump in
    EXPECT_EQ(machine.samples()[2].clip, lookup("jump"));
}

// With KINEMA_WRITE_COOKED_SEEDS naming a folder, the fixture's file joins the
// cooked fuzzer's seed corpus (fuzz/cooked_corpus).
TEST_F(CookedStateMachines, WriteTheFuzzerSeedWhenAsked) {
    const char* folder = std::getenv("KINEMA_WRITE_COOKED_SEEDS");
    if (folder == nullptr || *folder == '\0') GTEST_SKIP() << "KINEMA_WRITE_COOKED_SEEDS names no folder";
    std::filesystem::create_directories(folder);
    EXPECT_LT(bytes.size(), 4096u);
    std::ofstream out(std::filesystem::path(folder) / "machine.kinc", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good());
}

TEST_F(CookedStateMachines, AMachineNamingAMissingClipIsRefused) {
    CookedModel other = cooked;
    other.stateMachines[0].desc.states[2].clip = "leap";
    auto read = readCooked(cookModel(other), kSource);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.faults().front().where, kSource + "#stateMachines/0/states/2/clip") << read.message();
}

// A cooked trigger holding a default (JSON has no way to give one) is refused as
// the definition refuses it, not ignored.
TEST_F(CookedStateMachines, ATriggerWithADefaultIsRefused) {
    CookedModel other = cooked;
    std::size_t trigger = other.stateMachines[0].desc.parameters.size();
    for (std::size_t i = 0; i < trigger; ++i) {
        if (other.stateMachines[0].desc.parameters[i].type == ParameterType::Trigger) trigger = i;
    }
    ASSERT_LT(trigger, other.stateMachines[0].desc.parameters.size());
    other.stateMachines[0].desc.parameters[trigger].defaultValue = 1.0f;
    auto read = readCooked(cookModel(other), kSource);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.faults().front().where,
              kSource + "#stateMachines/0/parameters/" + std::to_string(trigger) + "/default")
        << read.message();
}

TEST_F(CookedStateMachines, DamagedBytesAreRefusedAtTheirByte) {
    expectEveryCutAndFlipRefused(bytes, kSource);
    // Behind a valid checksum: the parameter type byte of "speed" (the section body's
    // count, the machine's name and default state, the parameter count, then the
    // parameter's name) out of range.
    const std::size_t stat = bytes.size() - [&] {
        // The STAT section is last: find its header by its tag from the end.
        for (std::size_t at = bytes.size() - 16;; --at) {
            if (getU32(bytes, at) == 0x54415453u) return bytes.size() - at;  // "STAT"
        }
    }();
    const std::size_t type = stat + 16 + 4 + (4 + 10) + (4 + 4) + 4 + (4 + 5);
    Bytes b = bytes;
    ASSERT_EQ(std::to_integer<int>(b[type]), 0);  // float
    b[type] = std::byte{7};
    reseal(b);
    auto read = readCooked(b, kSource);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.faults().front().where, kSource + "@byte " + std::to_string(type)) << read.message();
    EXPECT_NE(read.message().find("out of range"), std::string::npos) << read.message();
}

}  // namespace
}  // namespace kinema
