// The kinema command as a user runs it: exit codes, stdout/stderr, and the
// documented JSON output of `kinema sample`, parsed independently with simdjson.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include "support/assets.hpp"

namespace {

struct CliRun {
    int exitCode = -1;
    std::string out;  // stdout
    std::string err;  // stderr
};

CliRun runKinema(const std::string& args) {
    // ctest runs test cases as parallel processes: each call needs its own file.
    static int calls = 0;
    const std::string errFile = testing::TempDir() + "kinema_cli_stderr_" + std::to_string(::getpid()) + "_" +
                                std::to_string(calls++) + ".txt";
    const std::string cmd = std::string(KINEMA_CLI_PATH) + " " + args + " 2>" + errFile;
    CliRun r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf{};
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int status = pclose(p);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream e(errFile);
    r.err.assign(std::istreambuf_iterator<char>(e), {});
    e.close();
    std::remove(errFile.c_str());
    return r;
}

std::string quoted(const std::filesystem::path& p) {
    std::string q(1, '\'');
    q.append(p.string());
    q.push_back('\'');
    return q;
}

std::string writeTemp(const std::string& name, const std::string& content) {
    const std::string path = testing::TempDir() + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

}  // namespace

TEST(Cli, HelpListsEveryCommand) {
    const CliRun r = runKinema("--help");
    EXPECT_EQ(r.exitCode, 0);
    for (const char* cmd : {"info", "validate", "sample", "demo", "bench"}) EXPECT_NE(r.out.find(cmd), std::string::npos) << cmd;
}

TEST(Cli, EveryCommandHasHelp) {
    for (const char* cmd : {"info", "validate", "sample", "demo", "bench"}) {
        const CliRun r = runKinema(std::string(cmd) + " --help");
        EXPECT_EQ(r.exitCode, 0) << cmd;
        EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd;
    }
}

TEST(Cli, UnknownCommandFailsOnStderr) {
    const CliRun r = runKinema("frobnicate");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_FALSE(r.err.empty());
}

TEST(Cli, DemoSwitchesStatesAndPrintsFootsteps) {
    const CliRun r = runKinema("demo");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("left foot"), std::string::npos);
    EXPECT_NE(r.out.find("evaluated 360 ticks"), std::string::npos) << r.out;
    // The script: walk from 1 s, run from 3 s, stop at 5 s (back through walk to idle).
    for (const char* line : {"1.000  fade idle -> walk over 0.3 s", "3.000  fade walk -> run over 0.25 s",
                             "5.000  fade run -> walk over 0.25 s", "fade walk -> idle over 0.4 s"}) {
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
    }
    EXPECT_NE(r.out.find("1.300  state walk"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("3.250  state run"), std::string::npos) << r.out;
    // Footsteps are printed from the state showing at least half the pose. Walk is
    // entered at 1.0 s and shows >= half from 1.15 s (eased fade of 0.3 s) to 3.125 s:
    // its markers at walk times 0.5, 1.0, 1.5, 2.0 fire near 1.5, 2.0, 2.5 and 3.0 s (4).
    // Run is entered at 3.0 s and shows >= half from 3.125 s to 5.125 s: its markers
    // every 0.3 s of run time fire near 3.3, 3.6, ..., 5.1 s (7). Walk again from 5.0 s
    // fades out at 5.25 s before it reaches its next marker at 0.5 s. 4 fades in all.
    EXPECT_NE(r.out.find("4 fades, 11 footsteps"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("footstep_left   (walk)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("footstep_right  (run)"), std::string::npos) << r.out;
}

TEST(Cli, ValidateAcceptsAValidFile) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const CliRun r = runKinema("validate " + quoted(file));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("valid"), std::string::npos);
}

TEST(Cli, ValidateListsEveryFaultWithItsLocation) {
    const std::string path = writeTemp("two_faults.gltf", R"({"asset":{"version":"2.0"},
        "nodes":[{"children":[5]},{"rotation":[0,0,0,0]}]})");
    const CliRun r = runKinema("validate " + path);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("two_faults.gltf#/nodes/0/children/0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("two_faults.gltf#/nodes/1/rotation"), std::string::npos) << r.out;
}

TEST(Cli, ValidateReportsUnreadableAndTruncatedFiles) {
    EXPECT_EQ(runKinema("validate /nonexistent/file.glb").exitCode, 1);
    const std::string path = writeTemp("truncated.glb", std::string("glTF\x02\0\0\0\xff\0\0\0", 12));
    const CliRun r = runKinema("validate " + path);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("truncated.glb@byte 8"), std::string::npos) << r.out;
}

// A .gltf in a fresh folder whose one buffer is `uri` (4 bytes), for the path rules.
std::string gltfWithBuffer(const std::string& folder, const std::string& uri) {
    const std::string dir = testing::TempDir() + folder;
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/model.gltf";
    std::ofstream(path, std::ios::binary)
        << R"({"asset":{"version":"2.0"},"buffers":[{"uri":")" + uri + R"(","byteLength":4}]})";
    return path;
}

TEST(Cli, ValidateRefusesUrisLeavingTheFolderUnlessAllowed) {
    const std::string outside = writeTemp("cli_outside.bin", "12345678");
    const std::string path = gltfWithBuffer("cli_paths_" + std::to_string(::getpid()), "../cli_outside.bin");
    const CliRun refused = runKinema("validate " + path);
    EXPECT_EQ(refused.exitCode, 1);
    EXPECT_NE(refused.out.find("model.gltf#/buffers/0/uri: '..' leads outside the file's folder"), std::string::npos)
        << refused.out;
    EXPECT_EQ(runKinema("validate --allow-external-paths " + path).exitCode, 0);
    EXPECT_EQ(runKinema("validate --allow-folder " + testing::TempDir() + " " + path).exitCode, 0);
    const CliRun absolute = runKinema("validate " + gltfWithBuffer("cli_abs_" + std::to_string(::getpid()), "/etc/passwd"));
    EXPECT_EQ(absolute.exitCode, 1);
    EXPECT_NE(absolute.out.find("absolute path"), std::string::npos) << absolute.out;
}

TEST(Cli, AFifoIsRefusedInsteadOfWaitedOn) {
    const std::string fifo = testing::TempDir() + "cli_fifo_" + std::to_string(::getpid()) + ".gltf";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const CliRun r = runKinema("validate " + fifo);
    std::remove(fifo.c_str());
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("is a FIFO, not a regular file"), std::string::npos) << r.out;
}

TEST(Cli, MemoryBudgetTakesUnitsAndIsReportedWithNumbers) {
    const std::string path = writeTemp("cli_budget.gltf", R"({"asset":{"version":"2.0"},"nodes":[{}]})");
    const CliRun small = runKinema("validate --memory-budget 16 " + path);
    EXPECT_EQ(small.exitCode, 1);
    EXPECT_NE(small.out.find("the file has 40 bytes, more than the memory budget of 16 bytes"), std::string::npos)
        << small.out;
    EXPECT_EQ(runKinema("validate --memory-budget 1k " + path).exitCode, 0);
    EXPECT_NE(runKinema("validate --memory-budget lots " + path).exitCode, 0);
    EXPECT_NE(runKinema("validate --memory-budget -1 " + path).exitCode, 0);  // not "no limit"
}

TEST(Cli, LenientValidationListsEachRepair) {
    // A node rotation of length 2: an error for the specification, repairable.
    const std::string path =
        writeTemp("cli_rotation.gltf", R"({"asset":{"version":"2.0"},"nodes":[{"rotation":[0,0,0,2]}]})");
    const CliRun strict = runKinema("validate " + path);
    EXPECT_EQ(strict.exitCode, 1);
    EXPECT_NE(strict.out.find("cli_rotation.gltf#/nodes/0/rotation: rotation has length 2"), std::string::npos)
        << strict.out;
    const CliRun lenient = runKinema("validate --lenient " + path);
    EXPECT_EQ(lenient.exitCode, 0) << lenient.out;
    EXPECT_NE(lenient.out.find("valid (1 nodes, 0 animations, 0 meshes, 0 skins), 1 warning"), std::string::npos)
        << lenient.out;
    EXPECT_NE(lenient.out.find("warning: cli_rotation.gltf#/nodes/0/rotation: rotation has length 2"), std::string::npos)
        << lenient.out;
    EXPECT_NE(lenient.out.find("renormalised"), std::string::npos) << lenient.out;
    // sample and info print the warnings on stderr and go on.
    const CliRun sampled = runKinema("sample --lenient --animation none --times 0 --json " + path);
    EXPECT_EQ(sampled.exitCode, 0) << sampled.err;
    EXPECT_NE(sampled.err.find("warning: cli_rotation.gltf#/nodes/0/rotation"), std::string::npos) << sampled.err;
    EXPECT_EQ(runKinema("info " + path).exitCode, 1);
    EXPECT_EQ(runKinema("info --lenient " + path).exitCode, 0);
}

TEST(Cli, JsonSyntaxErrorsNameLineAndColumn) {
    const std::string path = writeTemp("cli_syntax.gltf", "{\"asset\":{\"version\":\"2.0\"},\n\"nodes\":[{} {}]}");
    const CliRun r = runKinema("validate " + path);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("cli_syntax.gltf@byte 40 (line 2, column 13): JSON syntax error"), std::string::npos) << r.out;
}

TEST(Cli, InfoJsonDescribesCesiumMan) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const CliRun r = runKinema("info --json " + quoted(file));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(r.out).get(doc));
    EXPECT_EQ(doc["nodes"].get_array().size(), 22u);
    EXPECT_EQ(uint64_t(doc["skins"].at(0)["joints"]), 19u);
    EXPECT_EQ(doc["animations"].get_array().size(), 1u);
    EXPECT_EQ(uint64_t(doc["animations"].at(0)["channels"]), 57u);
    EXPECT_NEAR(double(doc["animations"].at(0)["duration"]), 2.0, 1e-6);
    EXPECT_EQ(uint64_t(doc["meshes"].at(0)["primitives"].at(0)["vertices"]), 3273u);
}

// SimpleSkin: node 1 rotates about Z per its animation; sample output must carry
// every node, the exact time, and world matrices that are parent * local.
TEST(Cli, SampleJsonHasTheDocumentedShape) {
    KINEMA_REQUIRE_ASSET(file, "SimpleSkin/SimpleSkin.gltf");
    const CliRun r = runKinema("sample " + quoted(file) + " --animation 0 --times 0,0.5,7 --skinned --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(r.out).get(doc)) << r.out;
    EXPECT_EQ(uint64_t(doc["animation"]["index"]), 0u);
    EXPECT_NEAR(double(doc["animation"]["duration"]), 5.5, 1e-6);
    auto samples = doc["samples"].get_array();
    ASSERT_EQ(samples.size(), 3u);
    EXPECT_EQ(double(samples.at(2)["time"]), 7.0);
    auto nodes = samples.at(1)["nodes"].get_array();
    ASSERT_EQ(nodes.size(), 3u);
    for (std::size_t n = 0; n < 3; ++n) {
        EXPECT_EQ(uint64_t(nodes.at(n)["index"]), n);
        EXPECT_EQ(nodes.at(n)["translation"].get_array().size(), 3u);
        EXPECT_EQ(nodes.at(n)["rotation"].get_array().size(), 4u);
        EXPECT_EQ(nodes.at(n)["scale"].get_array().size(), 3u);
        EXPECT_EQ(nodes.at(n)["world"].get_array().size(), 16u);
    }
    // Node 2 is the child of node 1: its world translation = world(1) * t(2).
    auto w1 = nodes.at(1)["world"].get_array();
    auto t2 = nodes.at(2)["translation"].get_array();
    auto w2 = nodes.at(2)["world"].get_array();
    for (int row = 0; row < 3; ++row) {
        double expected = double(w1.at(12 + row));
        for (int k = 0; k < 3; ++k) expected += double(w1.at(k * 4 + row)) * double(t2.at(k));
        EXPECT_NEAR(double(w2.at(12 + row)), expected, 1e-5);
    }
    auto meshes = samples.at(0)["meshes"].get_array();
    ASSERT_EQ(meshes.size(), 1u);
    EXPECT_EQ(meshes.at(0)["positions"].get_array().size(), 10u);
}

TEST(Cli, SampleRestPoseWithNone) {
    KINEMA_REQUIRE_ASSET(file, "SimpleSkin/SimpleSkin.gltf");
    const CliRun r = runKinema("sample " + quoted(file) + " --animation none --times 1 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(r.out).get(doc));
    EXPECT_TRUE(doc["animation"].is_null());
    // SimpleSkin node 2 rests at translation (0, 1, 0) with identity rotation.
    auto t = doc["samples"].at(0)["nodes"].at(2)["translation"].get_array();
    EXPECT_EQ(double(t.at(1)), 1.0);
}

TEST(Cli, SampleLoopsUnlessClamped) {
    KINEMA_REQUIRE_ASSET(file, "AnimatedTriangle/AnimatedTriangle.gltf");
    // AnimatedTriangle: 1 s rotation clip. t = 1.25 loops to 0.25 unless clamped to 1.
    const CliRun looped = runKinema("sample " + quoted(file) + " --times 0.25,1.25 --json");
    const CliRun clamped = runKinema("sample " + quoted(file) + " --times 1,1.25 --clamp --json");
    ASSERT_EQ(looped.exitCode, 0);
    ASSERT_EQ(clamped.exitCode, 0);
    simdjson::dom::parser p1, p2;
    simdjson::dom::element a, b;
    ASSERT_FALSE(p1.parse(looped.out).get(a));
    ASSERT_FALSE(p2.parse(clamped.out).get(b));
    auto rot = [](simdjson::dom::element doc, std::size_t s) {
        return doc["samples"].at(s)["nodes"].at(0)["rotation"];
    };
    for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(double(rot(a, 0).at(k)), double(rot(a, 1).at(k)));
        EXPECT_EQ(double(rot(b, 0).at(k)), double(rot(b, 1).at(k)));
    }
}

TEST(Cli, SampleRejectsMissingAnimation) {
    KINEMA_REQUIRE_ASSET(file, "SimpleSkin/SimpleSkin.gltf");
    const CliRun r = runKinema("sample " + quoted(file) + " --animation 7 --times 0 --json");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("animation 7"), std::string::npos);
    const CliRun named = runKinema("sample " + quoted(file) + " --animation nosuch --times 0 --json");
    EXPECT_NE(named.exitCode, 0);
    EXPECT_NE(named.err.find("nosuch"), std::string::npos);
}

// kinema bench, kept short: one workload, three repetitions of 10 ms.
TEST(Cli, BenchJsonHasTheRequiredKeys) {
    const CliRun r = runKinema("bench --workload w1a --repetitions 3 --min-time 0.01 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(r.out).get(doc)) << r.out;
    simdjson::dom::array rows;
    ASSERT_FALSE(doc.get_array().get(rows)) << r.out;
    ASSERT_EQ(rows.size(), 2u) << r.out;  // 64 and 128 joints
    std::size_t row = 0;
    for (simdjson::dom::element e : rows) {
        std::string_view workload;
        ASSERT_FALSE(e["workload"].get_string().get(workload)) << r.out;
        EXPECT_EQ(workload, "w1a");
        for (const char* key : {"joints", "instances", "threads", "ns_per_joint", "instances_per_s", "bytes_per_key"}) {
            double v = 0.0;
            ASSERT_FALSE(e[key].get_double().get(v)) << key << " in " << r.out;  // integers read as doubles too
            EXPECT_GT(v, 0.0) << key;
            EXPECT_TRUE(std::isfinite(v)) << key;
        }
        // The fastest of the three repetitions is at most their median.
        double fastest = 0.0, median = 0.0;
        ASSERT_FALSE(e["fastest_ns_per_joint"].get_double().get(fastest)) << r.out;
        ASSERT_FALSE(e["ns_per_joint"].get_double().get(median)) << r.out;
        EXPECT_GT(fastest, 0.0);
        EXPECT_LE(fastest, median);
        EXPECT_EQ(uint64_t(e["repetitions"]), 3u);
        EXPECT_EQ(uint64_t(e["joints"]), row == 0 ? 64u : 128u);
        EXPECT_EQ(uint64_t(e["instances"]), 256u);
        EXPECT_EQ(uint64_t(e["threads"]), 1u);
        ++row;
    }
}

// The JSON says which kernels ran: with --uniform-kernels the level's own (its
// name), else either that or, on a CPU where the mix differs, the mixed name.
TEST(Cli, BenchJsonNamesTheKernelsAndUniformKernelsAreTheLevelsOwn) {
    for (const bool uniform : {false, true}) {
        const CliRun r = runKinema(std::string("bench --workload w1a --repetitions 1 --min-time 0 --json") +
                                   (uniform ? " --uniform-kernels" : ""));
        ASSERT_EQ(r.exitCode, 0) << r.err;
        simdjson::dom::parser parser;
        simdjson::dom::element doc;
        ASSERT_FALSE(parser.parse(r.out).get(doc)) << r.out;
        for (simdjson::dom::element e : doc.get_array()) {
            std::string_view simd, kernels;
            ASSERT_FALSE(e["simd"].get_string().get(simd)) << r.out;
            ASSERT_FALSE(e["kernels"].get_string().get(kernels)) << r.out;
            if (uniform) {
                EXPECT_EQ(kernels, simd);
            } else {
                // The two mixes of simd.hpp's KernelMix (Zen 4; Ice Lake).
                EXPECT_TRUE(kernels == simd ||
                            (simd == "avx512" && (kernels == "avx512 (local->model, palette: avx2)" ||
                                                  kernels == "avx512 (skinning; other passes: avx2)")))
                    << kernels;
            }
        }
    }
}

TEST(Cli, BenchRejectsUnknownWorkload) {
    const CliRun r = runKinema("bench --workload w1a,nosuch --repetitions 1 --min-time 0");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("nosuch"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;  // rejected before anything runs
}

TEST(Cli, BenchRejectsUnknownSimdLevel) {
    const CliRun r = runKinema("bench --workload w1a --simd sse9 --repetitions 1 --min-time 0");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("sse9"), std::string::npos) << r.err;
}

TEST(Cli, BenchHelpNamesTheWorkloads) {
    const CliRun r = runKinema("bench --help");
    EXPECT_EQ(r.exitCode, 0);
    for (const char* text : {"--workload", "--threads", "--json", "--simd", "--uniform-kernels", "--repetitions",
                             "--min-time", "--assets", "w1a", "w2"}) {
        EXPECT_NE(r.out.find(text), std::string::npos) << text;
    }
}

// w2 without its model is skipped with a message, and the command still succeeds.
TEST(Cli, BenchSkipsW2WithoutAssets) {
    const CliRun r = runKinema("bench --workload w2 --assets /nonexistent/assets --repetitions 1 --min-time 0 --json");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("w2"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("/nonexistent/assets"), std::string::npos) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(r.out).get(doc)) << r.out;
    EXPECT_EQ(doc.get_array().size(), 0u);
}
