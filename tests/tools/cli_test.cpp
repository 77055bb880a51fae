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

#include "cli_process.hpp"
#include "kinema/core/version.hpp"
#include "support/assets.hpp"

namespace {

using kinema::test::CliRun;

CliRun runKinema(const std::string& args) { return kinema::test::runCli("", args); }

using kinema::test::quoted;

std::string writeTemp(const std::string& name, const std::string& content) {
    const std::string path = testing::TempDir() + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

}  // namespace

// Results that cannot be written are a failure, said on stderr: a device that takes
// no bytes (/dev/full) loses every line the command prints.
TEST(Cli, OutputThatCannotBeWrittenFailsTheCommand) {
    if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "this system has no /dev/full";
    for (const char* command : {"demo", "demo --json", "--help", "info --help", "--version"}) {
        const CliRun r = runKinema(std::string(command) + " >/dev/full");
        EXPECT_EQ(r.exitCode, 1) << command;
        EXPECT_TRUE(kinema::test::contains(r.err, "standard output could not be written")) << command << ": " << r.err;
    }
    EXPECT_EQ(runKinema("demo >/dev/null").exitCode, 0);
}

TEST(Cli, HelpListsEveryCommand) {
    const CliRun r = runKinema("--help");
    EXPECT_EQ(r.exitCode, 0);
    for (const char* cmd : {"info", "validate", "sample", "demo", "render", "view", "bench"})
        EXPECT_NE(r.out.find(cmd), std::string::npos) << cmd;
}

TEST(Cli, EveryCommandHasHelp) {
    for (const char* cmd : {"info", "validate", "sample", "demo", "render", "view", "bench"}) {
        const CliRun r = runKinema(std::string(cmd) + " --help");
        EXPECT_EQ(r.exitCode, 0) << cmd;
        EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd;
    }
}

// A number's range is named once, as a type: "FLOAT in [0 to 3600]", not
// "FLOAT:FLOAT in [0 to 3600]".
TEST(Cli, NumberOptionsNameTheirRangeOnce) {
    const CliRun help = runKinema("demo --help");
    EXPECT_TRUE(kinema::test::contains(help.out, "--seconds FLOAT in [0 to 3600]")) << help.out;
    EXPECT_TRUE(kinema::test::contains(runKinema("render --help").out, "--frames INT in 1..100000"));
    EXPECT_FALSE(kinema::test::contains(help.out, "FLOAT:FLOAT"));
    const CliRun missing = runKinema("demo --seconds");
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_TRUE(kinema::test::contains(missing.err, "--seconds: 1 required FLOAT in [0 to 3600] missing"))
        << missing.err;
    // Counts take spaces around their digits, as decimals do: the file is what fails here.
    const CliRun spaced = runKinema("render /nonexistent.glb --frames ' 2 ' --out /tmp/unwritten.png");
    EXPECT_EQ(spaced.exitCode, 1) << spaced.err;
    EXPECT_TRUE(kinema::test::contains(spaced.err, "no such file")) << spaced.err;
}

TEST(Cli, UnknownCommandFailsOnStderr) {
    const CliRun r = runKinema("frobnicate");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("unknown command 'frobnicate'; commands: info, validate, sample, demo, render, view, bench"),
              std::string::npos)
        << r.err;
}

namespace {

// `kinema ARGS` is a usage error (exit 2) whose stderr holds `message`.
void expectUsageError(const std::string& args, const std::string& message) {
    const CliRun r = runKinema(args);
    EXPECT_EQ(r.exitCode, 2) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
}

}  // namespace

TEST(Cli, UnknownOptionOrNoCommandIsNamed) {
    expectUsageError("-x", "unknown option '-x'; commands: info, validate, sample, demo, render, view, bench");
    expectUsageError("--frobnicate", "--frobnicate");
    expectUsageError("", "a command is required; commands: info, validate, sample, demo, render, view, bench");
    // A command's option put before the command: named, with where it belongs.
    expectUsageError("--json info x.glb",
                     "kinema: option '--json' given before the command (options follow it); commands: info");
    EXPECT_EQ(runKinema("--version").exitCode, 0);
}

// A bad argument after the command: the command is named, then the first thing to fix.
TEST(Cli, ABadArgumentAfterTheCommandIsNamedWithTheCommand) {
    expectUsageError("info x.glb --jsn",
                     "kinema info: unknown option '--jsn'\nRun 'kinema info --help' for its options.");
    // The unknown option comes first, not the value after it.
    expectUsageError("sample x.glb --times 0 --tme 0.5", "kinema sample: unknown option '--tme'");
    expectUsageError("info x.glb y.glb", "kinema info: unexpected argument 'y.glb'");
    expectUsageError("info x.glb --memory-budget 0", "kinema info: --memory-budget: ");
    expectUsageError("info", "kinema info: FILE is required");
    // An option of one value given again.
    expectUsageError("sample x.glb --times 0 --times 1", "kinema sample: --times: given 2 times; give it once");
}

TEST(Cli, VersionIsTheProjectVersion) {
    // The number is written once, in CMake's project(VERSION); the tool and the library report it.
    const CliRun r = runKinema("--version");
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_EQ(r.out, std::string("kinema ") + KINEMA_PROJECT_VERSION + "\n");
    EXPECT_EQ(kinema::version(), KINEMA_PROJECT_VERSION);
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
    // The verdict is the one line on stdout; the faults go to stderr.
    EXPECT_EQ(r.out, path + ": invalid, 2 faults\n");
    EXPECT_NE(r.err.find("  two_faults.gltf#/nodes/0/children/0"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("  two_faults.gltf#/nodes/1/rotation"), std::string::npos) << r.err;
}

TEST(Cli, ValidateReportsUnreadableAndTruncatedFiles) {
    // A file that cannot be read is not "invalid": stderr says why, stdout stays empty.
    const CliRun missing = runKinema("validate /nonexistent/file.glb");
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_TRUE(missing.out.empty()) << missing.out;
    // The path is the fault's location, named once.
    EXPECT_EQ(missing.err, "/nonexistent/file.glb: cannot read: no such file\n");
    EXPECT_EQ(missing.err.find("invalid"), std::string::npos) << missing.err;
    const CliRun folder = runKinema("validate " + testing::TempDir());
    EXPECT_EQ(folder.exitCode, 1);
    EXPECT_EQ(folder.err, testing::TempDir() + ": cannot read: a folder, not a regular file\n");
    const std::string path = writeTemp("truncated.glb", std::string("glTF\x02\0\0\0\xff\0\0\0", 12));
    const CliRun r = runKinema("validate " + path);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.out, path + ": invalid, 1 fault\n");
    EXPECT_NE(r.err.find("truncated.glb@byte 8"), std::string::npos) << r.err;
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
    EXPECT_NE(refused.err.find("model.gltf#/buffers/0/uri: '..' leads outside the file's folder"), std::string::npos)
        << refused.err;
    EXPECT_EQ(runKinema("validate --allow-external-paths " + path).exitCode, 0);
    EXPECT_EQ(runKinema("validate --allow-folder " + testing::TempDir() + " " + path).exitCode, 0);
    // A folder that is not there allows nothing: a typo, refused.
    const CliRun typo = runKinema("validate --allow-folder /nonexistent-kinema-folder " + path);
    EXPECT_EQ(typo.exitCode, 2);
    EXPECT_NE(typo.err.find("--allow-folder: '/nonexistent-kinema-folder': no such folder"), std::string::npos)
        << typo.err;
    EXPECT_NE(typo.err.find("Run 'kinema validate --help' for its options."), std::string::npos) << typo.err;
    // An empty folder is no folder; a file is not one either.
    const CliRun empty = runKinema("validate --allow-folder '' " + path);
    EXPECT_EQ(empty.exitCode, 2);
    EXPECT_NE(empty.err.find("--allow-folder: must not be empty"), std::string::npos) << empty.err;
    const CliRun file = runKinema("validate --allow-folder " + outside + " " + path);
    EXPECT_EQ(file.exitCode, 2);
    EXPECT_NE(file.err.find("--allow-folder: '" + outside + "' is not a folder"), std::string::npos) << file.err;
    const CliRun absolute =
        runKinema("validate " + gltfWithBuffer("cli_abs_" + std::to_string(::getpid()), "/etc/passwd"));
    EXPECT_EQ(absolute.exitCode, 1);
    EXPECT_NE(absolute.err.find("absolute path"), std::string::npos) << absolute.err;
}

TEST(Cli, AFifoIsRefusedInsteadOfWaitedOn) {
    const std::string fifo = testing::TempDir() + "cli_fifo_" + std::to_string(::getpid()) + ".gltf";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const CliRun r = runKinema("validate " + fifo);
    std::remove(fifo.c_str());
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, fifo + ": cannot read: a FIFO, not a regular file\n");
}

TEST(Cli, MemoryBudgetTakesUnitsAndIsReportedWithNumbers) {
    const std::string path = writeTemp("cli_budget.gltf", R"({"asset":{"version":"2.0"},"nodes":[{}]})");
    const CliRun small = runKinema("validate --memory-budget 16 " + path);
    EXPECT_EQ(small.exitCode, 1);
    EXPECT_NE(small.err.find("the file has 40 bytes, more than the memory budget of 16 bytes"), std::string::npos)
        << small.err;
    EXPECT_EQ(runKinema("validate --memory-budget 1k " + path).exitCode, 0);
    EXPECT_NE(runKinema("validate --memory-budget lots " + path).exitCode, 0);
    EXPECT_NE(runKinema("validate --memory-budget -1 " + path).exitCode, 0);  // not "no limit"
    // Units are powers of 1024, their case and a trailing B or iB ignored: 1 KiB holds the file.
    for (const char* size : {"1K", "1kb", "1KiB", " 1k "}) {
        EXPECT_EQ(runKinema(std::string("validate --memory-budget '") + size + "' " + path).exitCode, 0) << size;
    }
    for (const char* size : {"nan", "inf", "0", "1.5", "0x10", "0x10M", "1.5G", "16E", "1kk", "k", "1Q"}) {
        for (const char* option : {"--memory-budget", "--max-image-pixels"}) {
            const CliRun r = runKinema(std::string("validate ") + option + " " + size + " " + path);
            EXPECT_EQ(r.exitCode, 2) << option << " " << size;
            EXPECT_NE(r.err.find(option), std::string::npos) << option << " " << size << ": " << r.err;
            EXPECT_TRUE(r.out.empty()) << r.out;
        }
    }
    // A file whose import needs more than the budget holds is not called invalid either:
    // it could not be checked.
    const CliRun parse = runKinema("validate --memory-budget 200 " + path);
    EXPECT_EQ(parse.exitCode, 1);
    EXPECT_TRUE(parse.out.empty()) << parse.out;
    EXPECT_NE(parse.err.find(": cannot check within --memory-budget: "), std::string::npos) << parse.err;
    EXPECT_NE(parse.err.find("parsing the JSON text needs"), std::string::npos) << parse.err;
    // Each option counts what it limits.
    EXPECT_NE(runKinema("validate --max-image-pixels 0 " + path).err.find("is not a whole number of pixels in 1.."),
              std::string::npos);
    EXPECT_NE(runKinema("validate --memory-budget 0 " + path).err.find("is not a whole number of bytes in 1.."),
              std::string::npos);
}

TEST(Cli, ImagePixelLimitOnlyWhereImagesAreDecoded) {
    // info and sample do not decode images: a limit they would never apply is refused.
    for (const char* command : {"info", "sample --times 0"}) {
        const CliRun r = runKinema(std::string(command) + " x.glb --max-image-pixels 1");
        EXPECT_EQ(r.exitCode, 2) << command;
        EXPECT_NE(r.err.find("--max-image-pixels"), std::string::npos) << r.err;
    }
    for (const char* command : {"validate", "cook"}) {
        const CliRun r = runKinema(std::string(command) + " --help");
        EXPECT_NE(r.out.find("--max-image-pixels"), std::string::npos) << command;
    }
}

TEST(Cli, LenientValidationListsEachRepair) {
    // A node rotation of length 2: an error for the specification, repairable.
    const std::string path =
        writeTemp("cli_rotation.gltf", R"({"asset":{"version":"2.0"},"nodes":[{"rotation":[0,0,0,2]}]})");
    const CliRun strict = runKinema("validate " + path);
    EXPECT_EQ(strict.exitCode, 1);
    EXPECT_NE(strict.err.find("cli_rotation.gltf#/nodes/0/rotation: rotation has length 2"), std::string::npos)
        << strict.err;
    const CliRun lenient = runKinema("validate --lenient " + path);
    EXPECT_EQ(lenient.exitCode, 0) << lenient.out << lenient.err;
    EXPECT_EQ(lenient.out, path + ": valid (1 node, 0 animations, 0 meshes, 0 skins), 1 warning\n");
    EXPECT_NE(lenient.err.find("  warning: cli_rotation.gltf#/nodes/0/rotation: rotation has length 2"),
              std::string::npos)
        << lenient.err;
    EXPECT_NE(lenient.err.find("renormalised"), std::string::npos) << lenient.err;
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
    EXPECT_NE(r.err.find("cli_syntax.gltf@byte 40 (line 2, column 13): JSON syntax error"), std::string::npos) << r.err;
}

// JSON output is UTF-8 whatever the input's bytes: a file name that is not UTF-8
// comes out with U+FFFD for each byte that is not, and the document parses.
TEST(Cli, JsonStaysUtf8ForAFileNameThatIsNot) {
    const std::string path =
        writeTemp("cli_name_\xff\xfe_\xc3\xa9.gltf", R"({"asset":{"version":"2.0"},"nodes":[{"name":"n"}]})");
    const CliRun r = runKinema("info " + kinema::test::quoted(path) + " --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(r.out).get(doc)) << r.out;  // simdjson checks the UTF-8
    const std::string_view file = doc["file"];
    EXPECT_NE(file.find("cli_name_\xef\xbf\xbd\xef\xbf\xbd_\xc3\xa9.gltf"), std::string_view::npos) << file;
    std::remove(path.c_str());
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
    for (std::size_t row = 0; row < 3; ++row) {
        double expected = double(w1.at(12 + row));
        for (std::size_t k = 0; k < 3; ++k) expected += double(w1.at(k * 4 + row)) * double(t2.at(k));
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
    // SimpleSkin's one animation has no name.
    EXPECT_NE(named.err.find("no animation is named 'nosuch'; the file has an unnamed one (index 0)"),
              std::string::npos)
        << named.err;
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

// Counts are whole numbers: a fraction, a sign or text is named as typed, with the range.
TEST(Cli, BenchCountsMustBeWholeNumbersInRange) {
    for (const auto& [args, message] :
         {std::pair{"--threads 1.5", "--threads: '1.5' is not a whole number in 0..1024"},
          std::pair{"--instances -3", "--instances: '-3' is not a whole number in 0..100000"},
          std::pair{"--repetitions 0", "--repetitions: '0' is not a whole number in 1..1000"}}) {
        const CliRun r = runKinema(std::string("bench --workload w1a ") + args);
        EXPECT_EQ(r.exitCode, 2) << args;
        EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
        EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
    }
}

// A --gpu that names no device is a usage error found before anything is timed:
// exit 2, no table on stdout. (A kinema built without the renderer has no GPU rows.)
TEST(Cli, BenchRefusesAnUnknownGpuBeforeTiming) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const std::string assets = std::filesystem::path(file).parent_path().parent_path().string();
    // Both runs load a Vulkan driver to look for the device (kDriverProcess).
    const auto runWithDriver = [](const std::string& args) {
        return kinema::test::runCli(kinema::test::kDriverProcess, args);
    };
    const CliRun r =
        runWithDriver("bench --workload render --gpu no-such-device --repetitions 1 --min-time 0 --assets " +
                      kinema::test::quoted(assets));
    if (r.exitCode == 0 && r.err.find("no-such-device") == std::string::npos)
        GTEST_SKIP() << "this kinema has no renderer";
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("kinema bench: --gpu: no Vulkan device named like"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("no Vulkan device named like \"no-such-device\""), std::string::npos) << r.err;

    // A device that exists but no CesiumMan to draw: the GPU rows are skipped, said so, exit 0.
    const CliRun noModel = runWithDriver(
        "bench --workload render --gpu lavapipe --repetitions 1 --min-time 0 --assets /nonexistent-kinema");
    EXPECT_EQ(noModel.exitCode, 0) << noModel.err;
    EXPECT_NE(noModel.err.find("skipping w2 and render's GPU rows: CesiumMan.glb not found"), std::string::npos)
        << noModel.err;
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
                            (simd == "avx512" &&
                             (kernels == "avx512 (local->model, palette: avx2)" ||
                              kernels == "avx512 (skinning; other passes: avx2)")))
                    << kernels;
            }
        }
    }
}

// --instances replaces every workload's count (1 included); --clip picks the W1
// definition and the JSON names it; w1f times 1 thread and then --threads; w1s has
// one row per stage.
TEST(Cli, BenchInstancesClipAndTheScalingAndStageWorkloads) {
    const CliRun r =
        runKinema("bench --workload w1f,w1s --instances 1 --clip wide --threads 2 --repetitions 1 --min-time 0 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(r.out).get(doc)) << r.out;
    std::vector<std::string> seen;
    for (simdjson::dom::element e : doc.get_array()) {
        std::string_view workload, pass, clip;
        ASSERT_FALSE(e["workload"].get_string().get(workload)) << r.out;
        ASSERT_FALSE(e["pass"].get_string().get(pass)) << r.out;
        ASSERT_FALSE(e["clip"].get_string().get(clip)) << r.out;
        EXPECT_EQ(clip, "wide");
        EXPECT_EQ(uint64_t(e["instances"]), 1u) << workload << " " << pass;
        seen.push_back(std::string(workload) + "/" + std::string(pass) + "/" + std::to_string(uint64_t(e["threads"])) +
                       "/" + std::to_string(uint64_t(e["joints"])));
    }
    const std::vector<std::string> expected{
        "w1f/sample+model/1/64",       "w1f/sample+model/2/64",  "w1s/sample only/1/64",   "w1s/local->model only/1/64",
        "w1s/blend only/1/64",         "w1f/sample+model/1/128", "w1f/sample+model/2/128", "w1s/sample only/1/128",
        "w1s/local->model only/1/128", "w1s/blend only/1/128"};
    EXPECT_EQ(seen, expected) << r.out;
}

// The compressed workload: per joint count an exact row and a compressed one, the
// compressed clip in fewer bytes a key, its scaling the ratio of the two rows' times.
TEST(Cli, BenchCompressedWorkloadPairsTheExactAndTheCompressedClip) {
    const CliRun r = runKinema("bench --workload compressed --repetitions 2 --min-time 0 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(r.out).get(doc)) << r.out;
    simdjson::dom::array rows = doc.get_array();
    ASSERT_EQ(rows.size(), 4u) << r.out;
    for (std::size_t i = 0; i < 4; i += 2) {
        const simdjson::dom::element exact = rows.at(i), small = rows.at(i + 1);
        EXPECT_EQ(std::string_view(exact["workload"]), "compressed");
        EXPECT_EQ(std::string_view(exact["pass"]), "sample+model, exact");
        EXPECT_EQ(std::string_view(small["pass"]), "sample+model, 0.01 cm");
        EXPECT_EQ(uint64_t(exact["joints"]), uint64_t(small["joints"]));
        EXPECT_LT(double(small["bytes_per_key"]), 0.6 * double(exact["bytes_per_key"])) << r.out;
        EXPECT_NEAR(double(small["scaling"]), double(small["ns_per_evaluation"]) / double(exact["ns_per_evaluation"]),
                    1e-9);
    }
}

// The render workload: one row for rigid nodes (per node) and one for skinned
// characters (per character joint), each with the instance count it was given.
TEST(Cli, BenchRenderWorkloadTimesBothScenes) {
    const CliRun r = runKinema("bench --workload render --instances 3 --repetitions 1 --min-time 0 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(r.out).get(doc)) << r.out;
    std::vector<std::string> seen;
    for (simdjson::dom::element e : doc.get_array()) {
        std::string_view workload, pass;
        ASSERT_FALSE(e["workload"].get_string().get(workload)) << r.out;
        ASSERT_FALSE(e["pass"].get_string().get(pass)) << r.out;
        EXPECT_GT(double(e["ns_per_joint"]), 0.0) << r.out;
        seen.push_back(std::string(workload) + "/" + std::string(pass) + "/" +
                       std::to_string(uint64_t(e["instances"])) + "/" + std::to_string(uint64_t(e["joints"])));
    }
    const std::vector<std::string> expected{"render/scene frame, rigid nodes/3/1",
                                            "render/scene frame, skinned characters/3/64"};
    EXPECT_EQ(seen, expected) << r.out;
}

TEST(Cli, BenchRejectsUnknownWorkload) {
    const CliRun r = runKinema("bench --workload w1a,nosuch --repetitions 1 --min-time 0");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("nosuch"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;  // rejected before anything runs
}

// An empty item in a workload list is refused, where it would have been dropped
// (and `--workload ,` taken the next argument for a workload); lists may repeat.
TEST(Cli, BenchRefusesEmptyWorkloadItemsAndTakesRepeatedLists) {
    for (const char* list : {"w1a,", ",", "w1a,,ik"}) {
        const CliRun r = runKinema(std::string("bench --workload ") + list + " --repetitions 1 --min-time 0");
        EXPECT_EQ(r.exitCode, 2) << list;
        EXPECT_NE(r.err.find("is empty (give a comma-separated list, e.g. w1a,ik)"), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    const CliRun both = runKinema("bench --workload w1a --workload compressed --repetitions 1 --min-time 0 --json");
    ASSERT_EQ(both.exitCode, 0) << both.err;
    EXPECT_NE(both.out.find("\"compressed\""), std::string::npos) << both.out;
    EXPECT_NE(both.out.find("\"w1a\""), std::string::npos) << both.out;
}

TEST(Cli, BenchRejectsUnknownSimdLevel) {
    const CliRun r = runKinema("bench --workload w1a --simd sse9 --repetitions 1 --min-time 0");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("sse9"), std::string::npos) << r.err;
}

TEST(Cli, BenchHelpNamesTheWorkloads) {
    const CliRun r = runKinema("bench --help");
    EXPECT_EQ(r.exitCode, 0);
    for (const char* text :
         {"--workload", "--threads", "--json", "--simd", "--uniform-kernels", "--repetitions", "--min-time", "--assets",
          "--instances", "--clip", "--gpu", "w1a", "w1f", "w1s", "ik", "w2", "render"}) {
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

// Every numeric option is a finite number within its range, or the command stops
// before doing anything, naming the option. (CLI11's own range check lets NaN through.)
TEST(Cli, NumericOptionsMustBeFiniteAndInRange) {
    const std::string model = writeTemp("cli_numbers.gltf", R"({"asset":{"version":"2.0"},"nodes":[{}]})");
    const std::pair<const char*, const char*> refused[] = {
        {"demo --seconds nan", "--seconds"},
        {"demo --seconds inf", "--seconds"},
        {"demo --seconds -1", "--seconds"},
        {"demo --seconds 3601", "--seconds"},
        {"demo --seconds 1e999", "--seconds"},
        {"demo --seconds six", "--seconds"},
        {"demo --step nan", "--step"},
        {"demo --step -nan", "--step"},
        {"demo --step 0", "--step"},
        {"demo --step inf", "--step"},
        {"bench --min-time nan", "--min-time"},
        {"bench --min-time -inf", "--min-time"},
        {"bench --min-time -0.5", "--min-time"},
        {"bench --min-time 601", "--min-time"},
        {"bench --repetitions nan", "--repetitions"},
        {"bench --repetitions 0", "--repetitions"},
        {"bench --repetitions 2.5", "--repetitions"},
        {"bench --threads nan", "--threads"},
        {"bench --threads -1", "--threads"},
        {"bench --threads 1025", "--threads"},
        {"bench --instances nan", "--instances"},
        {"bench --instances -1", "--instances"},
        {"bench --instances 1000001", "--instances"},
        {"bench --clip rough", "--clip"},
    };
    for (const auto& [args, option] : refused) {
        const CliRun r = runKinema(args);
        EXPECT_NE(r.exitCode, 0) << args;
        EXPECT_NE(r.err.find(option), std::string::npos) << args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;  // nothing ran
    }
    const CliRun nan = runKinema("demo --seconds nan");
    EXPECT_NE(nan.err.find("--seconds: 'nan' is not a finite number (wanted: [0 to 3600])"), std::string::npos)
        << nan.err;
    const CliRun tooLong = runKinema("demo --seconds 3601");
    EXPECT_NE(tooLong.err.find("--seconds: '3601' is outside [0 to 3600]"), std::string::npos) << tooLong.err;
    for (const char* times : {"nan", "inf", "0,-inf", "1e999"}) {
        const CliRun r = runKinema("sample --times " + std::string(times) + " " + model);
        EXPECT_EQ(r.exitCode, 2) << times;
        EXPECT_NE(r.err.find("--times: "), std::string::npos) << times << ": " << r.err;
        EXPECT_NE(r.err.find("is not a finite number"), std::string::npos) << times << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    // The bounds themselves are accepted.
    const CliRun zero = runKinema("demo --seconds 0 --step 10");
    EXPECT_EQ(zero.exitCode, 0) << zero.err;
    EXPECT_NE(zero.out.find("evaluated 0 ticks"), std::string::npos) << zero.out;
}

// Numbers are decimal (no hexadecimal, no space inside a count), an option's text is
// not empty, and an index past int64 is an index out of range, not a name.
TEST(Cli, NumbersAreDecimalAndTextOptionsAreNotEmpty) {
    const std::string model = writeTemp("cli_numbers.gltf", R"({"asset":{"version":"2.0"},"nodes":[{}]})");
    const std::vector<std::pair<std::string, std::string>> cases{
        {"sample --times 0x10 " + model, "--times: '0x10' is not a number"},
        {"demo --seconds 0x1", "--seconds: '0x1' is not a number"},
        {"bench --instances '1 2'", "--instances: '1 2' is not a whole number"},
        {"bench --instances 100001", "--instances: '100001' is not a whole number in 0..100000"},
        {"demo --gif ''", "--gif: must not be empty"},
        {"render " + model + " --out x.png --gpu ''", "--gpu: must not be empty"},
        {"bench --assets ''", "--assets: must not be empty"},
        {"sample " + model + " --animation 99999999999999999999 --times 0",
         "animation 99999999999999999999 is out of range"},
    };
    for (const auto& [args, expect] : cases) {
        const CliRun r = runKinema(args);
        EXPECT_EQ(r.exitCode, 2) << args << ": " << r.err;
        EXPECT_NE(r.err.find(expect), std::string::npos) << args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    }
    // A decimal number may have spaces around it, on either side, as a --times item may.
    for (const char* seconds : {"' 0.5'", "'0.5 '", "' 0.5 '"}) {
        const CliRun r = runKinema(std::string("demo --json --seconds ") + seconds);
        EXPECT_EQ(r.exitCode, 0) << seconds << ": " << r.err;
    }
}

// Every argument a command refuses after parsing exits 2 and says where to look, as
// the parser's own refusals do.
TEST(Cli, ArgumentsRefusedByTheCommandsSayWhereToLook) {
    const std::string model = writeTemp("cli_where.gltf", R"({"asset":{"version":"2.0"},"nodes":[{}]})");
    const std::string dir = testing::TempDir();
    const std::vector<std::pair<std::string, std::string>> cases{
        {"render " + model + " --size 10x --out " + dir + "w.png", "render"},
        {"render " + model + " --out " + dir + "w.jpg", "render"},
        {"render " + model + " --background zzzzzz --out " + dir + "w.png", "render"},
        {"demo --gif " + dir + "w.png", "demo"},
        {"demo --gif " + dir + "w.gif --seconds 0.01", "demo"},
        {"cook " + model + " --out ''", "cook"},
        {"bench --workload nope", "bench"},
        {"sample " + model + " --animation 3 --times 0", "sample"},
    };
    for (const auto& [args, command] : cases) {
        const CliRun r = runKinema(args);
        EXPECT_EQ(r.exitCode, 2) << args << ": " << r.err;
        EXPECT_NE(r.err.find("kinema " + command + ": "), std::string::npos) << args << ": " << r.err;
        EXPECT_NE(r.err.find("\nRun 'kinema " + command + " --help' for its options.\n"), std::string::npos)
            << args << ": " << r.err;
    }
}

// --times takes exactly one argument, a comma-separated list without empty items.
TEST(Cli, SampleTimesAreOneListWithoutEmptyItems) {
    const std::string model = writeTemp("cli_times.gltf", R"({"asset":{"version":"2.0"},"nodes":[{}]})");
    for (const char* times : {"''", "0,,1", "0,", ",1", "' '", "'0, ,1'"}) {
        const CliRun r = runKinema("sample --times " + std::string(times) + " " + model + " --json");
        EXPECT_EQ(r.exitCode, 2) << times;
        EXPECT_NE(r.err.find("kinema sample: --times: item "), std::string::npos) << times << ": " << r.err;
        EXPECT_NE(r.err.find("is empty"), std::string::npos) << times << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << times << ": " << r.out;
    }
    const CliRun middle = runKinema("sample --times 0,,1 " + model);
    EXPECT_NE(middle.err.find("item 2 of '0,,1' is empty"), std::string::npos) << middle.err;
    const CliRun word = runKinema("sample --times 0,soon " + model);
    EXPECT_EQ(word.exitCode, 2);
    EXPECT_NE(word.err.find("--times: 'soon' is not a number"), std::string::npos) << word.err;
    // As after every bad argument: where to look.
    EXPECT_NE(word.err.find("Run 'kinema sample --help' for its options."), std::string::npos) << word.err;

    // FILE after one time is the positional file, not a second time.
    const CliRun one = runKinema("sample --times 0.5 " + model + " --json");
    ASSERT_EQ(one.exitCode, 0) << one.err;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(one.out).get(doc)) << one.out;
    ASSERT_EQ(doc["samples"].get_array().size(), 1u);
    EXPECT_EQ(double(doc["samples"].at(0)["time"]), 0.5);
    // Spaces around the items are allowed; each item is one time, in order.
    const CliRun list = runKinema("sample --times '0.25, -1,+2' " + model + " --json");
    ASSERT_EQ(list.exitCode, 0) << list.err;
    simdjson::dom::parser listParser;
    ASSERT_FALSE(listParser.parse(list.out).get(doc)) << list.out;
    ASSERT_EQ(doc["samples"].get_array().size(), 3u);
    EXPECT_EQ(double(doc["samples"].at(0)["time"]), 0.25);
    EXPECT_EQ(double(doc["samples"].at(1)["time"]), -1.0);
    EXPECT_EQ(double(doc["samples"].at(2)["time"]), 2.0);
    // A second time given as its own argument is not swallowed: it is an unexpected argument.
    EXPECT_NE(runKinema("sample --times 0.5 1 " + model).exitCode, 0);
}

// The text form of sample lines its transforms up: the name column is as wide as
// the longest node name (here 30 characters, past the 20 it starts with).
TEST(Cli, SampleTextColumnsWidenForLongNodeNames) {
    const std::string path = writeTemp("cli_tooLongnames.gltf", R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],
      "nodes":[{"name":"a_node_name_of_thirty_letters_","children":[1]},{"name":"b","translation":[0,1,0]}]})");
    const CliRun run = runKinema("sample --times 0 " + path);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const std::size_t first = run.out.find("\n  node 0 a_node_name_of_thirty_letters_ T(0, 0, 0)");
    const std::size_t second = run.out.find("\n  node 1 b" + std::string(30, ' ') + "T(0, 1, 0)");
    EXPECT_NE(first, std::string::npos) << run.out;
    EXPECT_NE(second, std::string::npos) << run.out;
}

// A triangle whose one morph target lifts it by 1 in z, at default weight 0.5, on a
// node translated by 1 in z: its world-space vertices are at z = 1.5.
constexpr const char* kMorphedTriangle = R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"scene":0,
  "nodes":[{"name":"tri","mesh":0,"translation":[0,0,1]}],
  "meshes":[{"name":"morphed","primitives":[{"attributes":{"POSITION":0},"targets":[{"POSITION":1}]}],"weights":[0.5]}],
  "buffers":[{"byteLength":72,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/"}],
  "bufferViews":[{"buffer":0,"byteLength":72}],
  "accessors":[
    {"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
    {"bufferView":0,"byteOffset":36,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,1],"max":[0,0,1]}]})";

// The text form of sample shows each mesh node's morph weights, and with --skinned
// each primitive's world-space positions.
TEST(Cli, SampleTextShowsMorphWeightsAndSkinnedPositions) {
    const std::string path = writeTemp("cli_morphed.gltf", kMorphedTriangle);
    const CliRun plain = runKinema("sample --times 0 " + path);
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_NE(plain.out.find("t = 0 s (clip time 0 s)\n  node 0 tri "), std::string::npos) << plain.out;
    EXPECT_NE(plain.out.find("\n  mesh 0 'morphed' on node 0: morph weights (0.5)\n"), std::string::npos) << plain.out;
    EXPECT_EQ(plain.out.find("primitive"), std::string::npos) << plain.out;  // positions only with --skinned

    const CliRun skinned = runKinema("sample --times 0,1 --skinned " + path);
    ASSERT_EQ(skinned.exitCode, 0) << skinned.err;
    const std::string block =
        "  mesh 0 'morphed' on node 0: morph weights (0.5)\n"
        "    primitive 0: 3 vertex positions in world space\n"
        "      0 (0, 0, 1.5)\n"
        "      1 (1, 0, 1.5)\n"
        "      2 (0, 1, 1.5)\n";
    const std::size_t first = skinned.out.find(block);
    ASSERT_NE(first, std::string::npos) << skinned.out;
    EXPECT_NE(skinned.out.find(block, first + 1), std::string::npos) << skinned.out;  // at both times
    EXPECT_NE(skinned.out.find("t = 1 s"), std::string::npos) << skinned.out;

    // A mesh without morph targets says so.
    std::string unmorphedText = kMorphedTriangle;
    for (const std::string part : {R"(,"targets":[{"POSITION":1}])", R"(,"weights":[0.5])"}) {
        ASSERT_NE(unmorphedText.find(part), std::string::npos) << part;
        unmorphedText.erase(unmorphedText.find(part), part.size());
    }
    const std::string plainMesh = writeTemp("cli_unmorphed.gltf", unmorphedText);
    const CliRun unmorphed = runKinema("sample --times 0 " + plainMesh);
    ASSERT_EQ(unmorphed.exitCode, 0) << unmorphed.err;
    EXPECT_NE(unmorphed.out.find("  mesh 0 'morphed' on node 0: no morph targets\n"), std::string::npos)
        << unmorphed.out;
}

// Names from the file print on one line: a newline, a NUL or a terminal escape in a
// mesh's name comes out escaped, the name whole.
TEST(Cli, InfoPrintsNamesOnOneLine) {
    std::string text = kMorphedTriangle;
    const std::string plainName = R"("name":"morphed")";
    ASSERT_NE(text.find(plainName), std::string::npos);
    text.replace(text.find(plainName), plainName.size(), R"("name":"A\u001b[31mRED\nfake line\u0000tail")");
    const std::string path = writeTemp("cli_control_names.gltf", text);
    const CliRun info = runKinema("info " + path);
    ASSERT_EQ(info.exitCode, 0) << info.err;
    EXPECT_NE(info.out.find("#0 'A\\x1b[31mRED\\nfake line\\x00tail': 1 primitive"), std::string::npos) << info.out;
    EXPECT_EQ(info.out.find('\x1b'), std::string::npos) << info.out;
}

// Counts agree with their nouns: "1 node", "2 nodes", "1 mesh", "0 meshes".
TEST(Cli, TextOutputCountsAgreeWithTheirNouns) {
    const std::string path = writeTemp("cli_plural.gltf", kMorphedTriangle);
    const CliRun valid = runKinema("validate " + path);
    EXPECT_EQ(valid.exitCode, 0) << valid.err;
    EXPECT_EQ(valid.out, path + ": valid (1 node, 0 animations, 1 mesh, 0 skins)\n");
    const CliRun info = runKinema("info " + path);
    EXPECT_EQ(info.exitCode, 0) << info.err;
    EXPECT_NE(info.out.find("#0 'morphed': 1 primitive, 3 vertices, 0 indices, 1 morph target\n"), std::string::npos)
        << info.out;
    const CliRun demo = runKinema("demo --seconds 0.0166");
    EXPECT_EQ(demo.exitCode, 0) << demo.err;
    EXPECT_NE(demo.out.find("evaluated 1 tick twice"), std::string::npos) << demo.out;
    EXPECT_NE(demo.out.find("0 fades, 0 footsteps"), std::string::npos) << demo.out;
    EXPECT_NE(demo.out.find("rig: 21 joints:"), std::string::npos) << demo.out;
    EXPECT_NE(demo.out.find("3 states, 4 transitions on 'speed'"), std::string::npos) << demo.out;
    const CliRun bench = runKinema("bench --workload w1a --repetitions 1 --min-time 0");
    EXPECT_EQ(bench.exitCode, 0) << bench.err;
    EXPECT_NE(bench.out.find("median of 1 repetition of >= 0 s"), std::string::npos) << bench.out;
    const std::string animated = writeTemp("cli_plural_anim.gltf", R"({"asset":{"version":"2.0"},"nodes":[{}]})");
    const CliRun missing = runKinema("sample --animation 3 --times 0 " + animated);
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("animation 3 is out of range: the file has 0 animations"), std::string::npos)
        << missing.err;
    // A negative index is an index out of range too, not a name.
    const CliRun negative = runKinema("sample --animation -1 --times 0 " + animated);
    EXPECT_EQ(negative.exitCode, 2);
    EXPECT_NE(negative.err.find("animation -1 is out of range: the file has 0 animations"), std::string::npos)
        << negative.err;
}

// The tool includes only kinema's public headers, its own, and the shared workloads
// library's headers; nothing from bench/.
TEST(Cli, ToolIncludesNothingFromBench) {
    const std::filesystem::path tool = std::filesystem::path(KINEMA_SOURCE_DIR) / "tools" / "kinema";
    ASSERT_TRUE(std::filesystem::is_directory(tool)) << tool;
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(tool)) {
        const std::string name = entry.path().filename().string();
        std::ifstream in(entry.path());
        std::string line;
        if (name == "CMakeLists.txt") {
            while (std::getline(in, line)) EXPECT_EQ(line.find("/bench"), std::string::npos) << name << ": " << line;
            continue;
        }
        ++files;
        while (std::getline(in, line)) {
            if (!line.starts_with("#include \"")) continue;
            const std::string header = line.substr(10, line.find('"', 10) - 10);
            const bool ok = header.starts_with("kinema/") || header == "workloads.hpp" ||
                header == "scene_workloads.hpp" || header == "crowd_frame.hpp" ||
                std::filesystem::exists(tool / header);
            EXPECT_TRUE(ok) << name << ": " << line;
        }
    }
    EXPECT_GT(files, 5u);
}
