// `kinema demo` as a user runs it: the humanoid's log, and its JSON summary parsed
// independently with simdjson and checked against what the script implies: feet on
// the ground with foot IK (and well off it without), the prop on its socket, the root
// travelling the scripted distance, footsteps alternating, every state visited.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli_process.hpp"

namespace {

using DemoRun = kinema::test::CliRun;

// A --gif run loads a Vulkan driver (kDriverProcess).
DemoRun runDemo(const std::string& args) { return kinema::test::runCli(kinema::test::kDriverProcess, "demo " + args); }

// The default run's JSON, made once for the tests that read it.
class DemoJson : public testing::Test {
protected:
    static void SetUpTestSuite() { run_ = new DemoRun(runDemo("--json")); }
    static void TearDownTestSuite() {
        delete run_;
        run_ = nullptr;
    }
    void SetUp() override {
        ASSERT_EQ(run_->exitCode, 0) << run_->err << run_->out;
        ASSERT_FALSE(parser_.parse(run_->out).get(doc_)) << run_->out;
    }
    double number(const char* key) const {
        double v = std::nan("");
        EXPECT_FALSE(doc_[key].get_double().get(v)) << key;
        return v;
    }

    static DemoRun* run_;
    simdjson::dom::parser parser_;
    simdjson::dom::element doc_;
};
DemoRun* DemoJson::run_ = nullptr;

}  // namespace

TEST_F(DemoJson, FootIkPutsPlantedAnklesOnTheGround) {
    double with = -1.0, without = -1.0;
    ASSERT_FALSE(doc_["footGroundErrorMm"]["withIk"].get_double().get(with));
    ASSERT_FALSE(doc_["footGroundErrorMm"]["withoutIk"].get_double().get(without));
    EXPECT_GE(with, 0.0);
    EXPECT_LT(with, 1.0);
    // The clips stand on flat ground; the relief is a few centimetres.
    EXPECT_GT(without, 10.0);
    EXPECT_LT(without, 200.0);
    EXPECT_GT(number("plantedFootSamples"), 100.0);
    bool pass = false;
    ASSERT_FALSE(doc_["pass"].get_bool().get(pass));
    EXPECT_TRUE(pass);
}

TEST_F(DemoJson, PlantedFeetStayPutAndThePropStaysInTheHand) {
    EXPECT_LT(number("footSlideMm"), 0.1);
    EXPECT_GE(number("socketDrift"), 0.0);
    EXPECT_LT(number("socketDrift"), 1e-4);
}

// The root travels forward (+Z) as far as the scripted speeds carry it: their
// integral, less or more half of each change of speed over its crossfade (at most
// 0.4 s), since a fade blends the two clips' deltas.
TEST_F(DemoJson, RootMotionCoversTheScriptedDistance) {
    simdjson::dom::array script;
    ASSERT_FALSE(doc_["script"].get_array().get(script));
    const double seconds = number("seconds");
    std::vector<std::pair<double, double>> keys;
    for (simdjson::dom::element k : script) keys.emplace_back(double(k["from"]), double(k["speed"]));
    ASSERT_GE(keys.size(), 3u);
    double integral = 0.0, changes = 0.0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const double end = i + 1 < keys.size() ? std::min(keys[i + 1].first, seconds) : seconds;
        integral += keys[i].second * std::max(0.0, end - keys[i].first);
        if (i > 0 && keys[i].first < seconds) changes += std::abs(keys[i].second - keys[i - 1].second);
    }
    simdjson::dom::array root;
    ASSERT_FALSE(doc_["rootMotion"].get_array().get(root));
    ASSERT_EQ(root.size(), 3u);
    const double x = double(root.at(0)), y = double(root.at(1)), z = double(root.at(2));
    EXPECT_NEAR(x, 0.0, 1e-3);
    EXPECT_EQ(y, 0.0);  // the vertical bob stays in the pose
    EXPECT_GT(integral, 5.0);
    EXPECT_NEAR(z, integral, 0.5 * 0.4 * changes + 0.05) << "integral of the script " << integral;
    EXPECT_NEAR(number("rootMotionDistance"), std::hypot(x, y, z), 1e-4);
}

TEST_F(DemoJson, FootstepsAlternateAndEveryStateIsVisited) {
    simdjson::dom::array events, states;
    ASSERT_FALSE(doc_["events"].get_array().get(events));
    ASSERT_FALSE(doc_["states"].get_array().get(states));
    std::string previous;
    double last = -1.0;
    std::size_t steps = 0;
    for (simdjson::dom::element e : events) {
        const std::string name{std::string_view(e["name"])};
        const std::string state{std::string_view(e["state"])};
        const double time = double(e["time"]);
        EXPECT_TRUE(name == "footstep_l" || name == "footstep_r") << name;
        EXPECT_NE(name, previous) << "at " << time;
        EXPECT_TRUE(state == "walk" || state == "run") << state;
        EXPECT_GT(time, last);
        previous = name;
        last = time;
        ++steps;
    }
    EXPECT_GE(steps, 10u);
    std::vector<std::string> visited;
    for (simdjson::dom::element s : states) visited.emplace_back(std::string_view(s["state"]));
    EXPECT_EQ(visited, (std::vector<std::string>{"idle", "walk", "run", "walk", "idle"}));
}

TEST(DemoCli, IsDeterministic) {
    const DemoRun a = runDemo("--json --seconds 3");
    const DemoRun b = runDemo("--json --seconds 3");
    ASSERT_EQ(a.exitCode, 0) << a.err;
    EXPECT_EQ(a.out, b.out);
}

// --seconds -0 is 0 seconds, and the JSON says 0 (not -0); a run shorter than half a
// tick plays none.
TEST(DemoCli, MinusZeroSecondsIsZero) {
    const DemoRun r = runDemo("--json --seconds -0");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("\"seconds\": 0,"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"ticks\": 0,"), std::string::npos) << r.out;
}

TEST(DemoCli, LogShowsStatesFootstepsAndFeet) {
    const DemoRun r = runDemo("");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("rig: 21 joints: hips spine chest neck head"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("evaluated 480 ticks twice"), std::string::npos) << r.out;
    // The script: walk from 1 s, run from 3 s, walk from 5 s, stop at 6.5 s.
    for (const char* line : {"1.000  fade idle -> walk over 0.3 s", "3.000  fade walk -> run over 0.25 s",
                             "5.000  fade run -> walk over 0.25 s", "6.500  fade walk -> idle over 0.4 s",
                             "1.300  state walk", "3.250  state run", "5.250  state walk", "6.900  state idle"}) {
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
    }
    EXPECT_NE(r.out.find("4 fades, "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("footstep_l      (walk)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("footstep_r      (run)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" in the air"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("root motion travelled"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("planted ankles off the ground: at most 0.0"), std::string::npos) << r.out;
}

// A footstep and the foot's plant fall on one tick: where a pose is printed at a
// footstep's time, that foot is planted, not in the air.
TEST(DemoCli, AFootstepsFootIsPlantedOnItsTick) {
    const DemoRun r = runDemo("--step 0.05");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::vector<std::string> lines;
    for (std::size_t from = 0; from < r.out.size();) {
        const std::size_t end = r.out.find('\n', from);
        lines.push_back(r.out.substr(from, end - from));
        if (end == std::string::npos) break;
        from = end + 1;
    }
    int checked = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t step = lines[i].find("footstep_");
        if (step == std::string::npos) continue;
        const std::string time = lines[i].substr(0, step);
        const char foot = lines[i][step + 9] == 'l' ? 'L' : 'R';
        for (std::size_t k = i + 1; k < lines.size() && lines[k].rfind(time, 0) == 0; ++k) {
            if (lines[k].find("pose") == std::string::npos) continue;
            EXPECT_EQ(lines[k].find(std::string(1, foot) + " in the air"), std::string::npos) << lines[k];
            ++checked;
        }
    }
    EXPECT_GE(checked, 10) << r.out;
}

TEST(DemoCli, BadArgumentsAreRefusedBeforeRunning) {
    const std::pair<const char*, const char*> refused[] = {
        {"--seconds -1", "--seconds"},
        {"--seconds -0.5 --json", "--seconds"},
        {"--step 0 --json", "--step"},
        {"--gif out.png", "must end in .gif"},
        {"--gif /nonexistent-folder/out.gif", "--gif"},
        // A folder no file can be made in, whatever its permission bits say (even to a superuser).
        {"--gif /proc/kinema-demo.gif", "--gif"},
        {"--seconds 0.01 --gif demo-short.gif", "too short for one frame"},
        {"--gpu lavapipe", "--gpu requires --gif"},  // a device for nothing to draw: a mistake, not ignored
        // Every frame is held until the GIF is written: 6000 frames of 480x360 are 4 GB.
        {"--seconds 200 --gif demo-long.gif", "6000 frames of 480x360, more than 2 GiB"},
    };
    for (const auto& [args, says] : refused) {
        const DemoRun r = runDemo(args);
        EXPECT_EQ(r.exitCode, 2) << args;
        EXPECT_NE(r.err.find(says), std::string::npos) << args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    }
    EXPECT_EQ(runDemo("--gif out.png").exitCode, 2);
}

// --json and --gif together: the GIF is written and the JSON says so, nothing else on stdout.
TEST(DemoCli, JsonAndGifTogether) {
    // The extension in any case, as render takes it.
    const std::string gif = testing::TempDir() + "kinema_demo_json_" + std::to_string(::getpid()) + ".GIF";
    const DemoRun r = runDemo("--seconds 0.5 --json --gif '" + gif + "' --gpu lavapipe");
    if (r.exitCode == 1 && r.err.find("without the Vulkan renderer") != std::string::npos)
        GTEST_SKIP() << "this kinema has no renderer";
    ASSERT_EQ(r.exitCode, 0) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(r.out).get(doc)) << r.out;
    std::string_view line;
    ASSERT_FALSE(doc["gif"].get_string().get(line)) << r.out;
    EXPECT_NE(line.find("15 frames"), std::string_view::npos) << line;
    std::ifstream written(gif, std::ios::binary);
    std::string magic(6, '\0');
    written.read(magic.data(), 6);
    EXPECT_EQ(magic, "GIF89a");
    std::remove(gif.c_str());
}
