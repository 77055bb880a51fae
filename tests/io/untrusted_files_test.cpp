// Files from untrusted sources: a glTF file may name only files inside its own
// folder, only regular files are read (without blocking), only the bytes a buffer
// declares are read, everything one import holds fits its memory budget, and
// messages print the file's numbers exactly. Every fixture is made here, in a
// temporary folder: the secret files, the links, the FIFO and the sparse file.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"
#include "support/png_writer.hpp"

namespace kinema::test {
namespace {

namespace fs = std::filesystem;

// A model folder `dir/model` holding the rig's buffer as rig.bin, and a secret file
// beside the folder (dir/secret.bin) that no URI may reach by default.
struct Sandbox {
    TempDir root;
    fs::path model = root.path() / "model";
    fs::path secret = root.path() / "secret.bin";
    Rig rig = makeRig();

    Sandbox() {
        fs::create_directories(model);
        writeFile(model / "rig.bin", rig.w.bin());
        writeFile(secret, rig.w.bin());  // a valid buffer: only the path decides
    }
    // The rig's .gltf with buffer 0 at `uri`, written as model/rig.gltf.
    fs::path gltfWithBufferUri(const std::string& uri) {
        rig.w.json()["buffers"][0]["uri"] = uri;
        const fs::path file = model / "rig.gltf";
        writeFile(file, rig.w.gltf());
        return file;
    }
};

long maxResidentKiB() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// ---- resource resolution: refused before anything is opened ---------------------------

TEST(UntrustedFiles, ParentFolderTraversalIsRefused) {
    Sandbox s;
    const auto r = importGltfFile(s.gltfWithBufferUri("../secret.bin"));
    ASSERT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri"));
    EXPECT_NE(r.faults()[0].what.find("'..' leads outside the file's folder"), std::string::npos) << faultList(r);
}

TEST(UntrustedFiles, DeepTraversalToTheSystemIsRefusedWithoutRevealingWhetherItExists) {
    Sandbox s;
    const auto exists = importGltfFile(s.gltfWithBufferUri("../../../../../../../../etc/passwd"));
    const auto missing = importGltfFile(s.gltfWithBufferUri("../../../../../../../../etc/no-such-file-here"));
    ASSERT_TRUE(faultAt(exists, "rig.gltf#/buffers/0/uri"));
    ASSERT_TRUE(faultAt(missing, "rig.gltf#/buffers/0/uri"));
    EXPECT_EQ(exists.faults()[0].what, missing.faults()[0].what);
}

TEST(UntrustedFiles, AbsolutePathIsRefused) {
    Sandbox s;
    for (const std::string& uri : {s.secret.string(), std::string("/etc/passwd"), std::string("//host/share/x.bin"),
                                   std::string("/dev/stdin")}) {
        const auto r = importGltfFile(s.gltfWithBufferUri(uri));
        ASSERT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri")) << uri;
        EXPECT_NE(r.faults()[0].what.find("absolute path"), std::string::npos) << uri << faultList(r);
    }
}

TEST(UntrustedFiles, PercentEncodedTraversalIsRefused) {
    Sandbox s;
    for (const char* uri : {"%2e%2e/secret.bin", "%2E%2E%2Fsecret.bin", ".%2e/secret.bin", "%2e%2e%2fsecret.bin",
                            "sub/%2e%2e/%2e%2e/secret.bin"}) {
        const auto r = importGltfFile(s.gltfWithBufferUri(uri));
        ASSERT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri")) << uri;
        EXPECT_NE(r.faults()[0].what.find("outside the file's folder"), std::string::npos) << uri << faultList(r);
    }
    // Climbing inside the folder and back is fine: it never leaves.
    fs::create_directories(s.model / "sub");
    EXPECT_TRUE(imported(importGltfFile(s.gltfWithBufferUri("sub/%2e%2e/rig.bin"))));
}

TEST(UntrustedFiles, EncodedNulIsRefusedInsteadOfCuttingThePath) {
    Sandbox s;
    // "rig.bin" exists: a NUL that cut the path would read it.
    const auto r = importGltfFile(s.gltfWithBufferUri("rig.bin%00.png"));
    ASSERT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri"));
    EXPECT_NE(r.faults()[0].what.find("NUL"), std::string::npos) << faultList(r);
}

TEST(UntrustedFiles, SchemesOtherThanDataAreRefused) {
    Sandbox s;
    for (const char* uri : {"file:///etc/passwd", "http://example.com/rig.bin", "C:/rig.bin", "ftp:rig.bin"}) {
        const auto r = importGltfFile(s.gltfWithBufferUri(uri));
        ASSERT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri")) << uri;
        EXPECT_NE(r.faults()[0].what.find("scheme"), std::string::npos) << uri << faultList(r);
    }
}

TEST(UntrustedFiles, MalformedUrisAreRefused) {
    Sandbox s;
    for (const char* uri : {"rig%2.bin", "rig%zz.bin", "sub\\rig.bin", "rig.bin?x=1", "rig.bin#frag", "."}) {
        EXPECT_TRUE(faultAt(importGltfFile(s.gltfWithBufferUri(uri)), "rig.gltf#/buffers/0/uri")) << uri;
    }
}

TEST(UntrustedFiles, SymbolicLinkLeavingTheFolderIsRefused) {
    Sandbox s;
    fs::create_symlink(s.secret, s.model / "link.bin");
    fs::create_directory_symlink(s.root.path(), s.model / "up");
    fs::create_symlink("../secret.bin", s.model / "relative-link.bin");
    for (const char* uri : {"link.bin", "up/secret.bin", "relative-link.bin"}) {
        const auto r = importGltfFile(s.gltfWithBufferUri(uri));
        ASSERT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri")) << uri;
        EXPECT_NE(r.faults()[0].what.find("symbolic link"), std::string::npos) << uri << faultList(r);
    }
}

TEST(UntrustedFiles, SymbolicLinkStayingInsideTheFolderIsFollowed) {
    Sandbox s;
    fs::create_directories(s.model / "data");
    writeFile(s.model / "data" / "real.bin", s.rig.w.bin());
    fs::create_symlink("data/real.bin", s.model / "alias.bin");
    EXPECT_TRUE(imported(importGltfFile(s.gltfWithBufferUri("alias.bin"))));
}

TEST(UntrustedFiles, AnAbsoluteLinkThatStaysInsideIsFollowed) {
    Sandbox s;
    fs::create_symlink(s.model / "rig.bin", s.model / "absolute-alias.bin");
    EXPECT_TRUE(imported(importGltfFile(s.gltfWithBufferUri("absolute-alias.bin"))));
}

TEST(UntrustedFiles, LinksOutAreFollowedOnlyWhereTheOptionsAllow) {
    Sandbox s;
    fs::create_directories(s.root.path() / "shared");
    writeFile(s.root.path() / "shared" / "rig.bin", s.rig.w.bin());
    fs::create_symlink(s.root.path() / "shared" / "rig.bin", s.model / "to-shared.bin");
    fs::create_symlink(s.secret, s.model / "to-secret.bin");
    ImportOptions shared;
    shared.allowedFolders = {s.root.path() / "shared"};
    EXPECT_TRUE(imported(importGltfFile(s.gltfWithBufferUri("to-shared.bin"), shared)));
    EXPECT_TRUE(faultAt(importGltfFile(s.gltfWithBufferUri("to-secret.bin"), shared), "rig.gltf#/buffers/0/uri"));
    ImportOptions any;
    any.allowExternalPaths = true;
    EXPECT_TRUE(imported(importGltfFile(s.gltfWithBufferUri("to-secret.bin"), any)));
}

TEST(UntrustedFiles, TheFilesOwnTextCannotControlTheTerminal) {
    Rig rig = makeRig();
    rig.w.json()["asset"]["version"] = "\x1b[2J\rfake.gltf: valid";
    const auto r = importGltf(rig.w.gltfSource("esc.gltf"));
    ASSERT_TRUE(faultAt(r, "esc.gltf#/asset/version"));
    EXPECT_EQ(r.faults()[0].what, "glTF version \\x1b[2J\\x0dfake.gltf: valid is not 2.x");
    Sandbox s;
    EXPECT_NE(importGltfFile(s.gltfWithBufferUri("a%1b[2J.bin")).faults()[0].what.find("control character"),
              std::string::npos);
}

TEST(UntrustedFiles, DuplicateKeysAreRefusedStrictlyAndTheFirstIsUsedLeniently) {
    // Written by hand: the writer's JSON cannot hold a key twice.
    const std::string text = R"({"asset":{"version":"2.0"},"nodes":[{"name":"first","name":"second"}],)"
                             R"("scenes":[{"nodes":[0]}],"scenes":[]})";
    const auto strict = importGltf(makeSource(text, "dup.gltf"));
    EXPECT_TRUE(faultAt(strict, "dup.gltf#/nodes/0/name"));
    EXPECT_TRUE(faultAt(strict, "dup.gltf#/scenes"));
    ImportOptions options;
    options.conformance = Conformance::Lenient;
    const auto lenient = importGltf(makeSource(text, "dup.gltf"), options);
    ASSERT_TRUE(imported(lenient));
    EXPECT_EQ(lenient.warnings().size(), 2u);
    EXPECT_EQ(lenient->skeleton.name(0), "first");
    EXPECT_EQ(lenient->scenes.size(), 1u);
}

TEST(UntrustedFiles, ARepairableFaultDoesNotHideTheOthers) {
    Rig rig = makeRig();
    rig.w.json()["nodes"][0]["rotation"] = Json::numbers(std::vector<double>{0, 0, 0, 2});
    rig.w.json()["skins"][0]["joints"].push(99);
    const auto r = importGltf(rig.w.gltfSource("both.gltf"));
    EXPECT_TRUE(faultAt(r, "both.gltf#/nodes/0/rotation"));
    EXPECT_TRUE(faultAt(r, "both.gltf#/skins/0/joints/2"));
}

TEST(UntrustedFiles, AllowedFoldersAndAnyPathAreExplicit) {
    Sandbox s;
    const fs::path file = s.gltfWithBufferUri("../secret.bin");
    ImportOptions options;
    options.allowedFolders = {s.root.path()};
    EXPECT_TRUE(imported(importGltfFile(file, options)));
    ImportOptions elsewhere;
    elsewhere.allowedFolders = {s.model / "nothing-here"};
    EXPECT_TRUE(faultAt(importGltfFile(file, elsewhere), "rig.gltf#/buffers/0/uri"));
    ImportOptions any;
    any.allowExternalPaths = true;
    EXPECT_TRUE(imported(importGltfFile(file, any)));
    EXPECT_TRUE(imported(importGltfFile(s.gltfWithBufferUri(s.secret.string()), any)));
}

TEST(UntrustedFiles, ImageUrisFollowTheSameRules) {
    Sandbox s;
    s.rig.w.json()["images"].push(Json::object());
    s.rig.w.json()["images"][0]["uri"] = "../secret.png";
    s.rig.w.json()["images"].push(Json::object());
    s.rig.w.json()["images"][1]["uri"] = "textures/skin%20tone.png";
    const auto r = importGltfFile(s.gltfWithBufferUri("rig.bin"));
    ASSERT_TRUE(faultAt(r, "rig.gltf#/images/0/uri"));
    s.rig.w.json()["images"][0]["uri"] = "textures/../face.png";
    const auto ok = importGltfFile(s.gltfWithBufferUri("rig.bin"));
    ASSERT_TRUE(imported(ok));
    EXPECT_EQ(ok->images[0].path, "face.png");
    EXPECT_EQ(ok->images[1].path, "textures/skin tone.png");
    EXPECT_EQ(fs::path(ok->images[1].folder), s.model);
}

// ---- opening: only regular files, never blocking ----------------------------------------

TEST(UntrustedFiles, FifoAsBufferIsRefusedWithoutBlocking) {
    Sandbox s;
    ASSERT_EQ(::mkfifo((s.model / "pipe.bin").c_str(), 0600), 0);
    // No writer ever opens the FIFO: a blocking open would hang here.
    const auto r = importGltfFile(s.gltfWithBufferUri("pipe.bin"));
    ASSERT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri"));
    EXPECT_NE(r.faults()[0].what.find("FIFO"), std::string::npos) << faultList(r);
}

TEST(UntrustedFiles, FifoAsTheFileItselfIsRefusedWithoutBlocking) {
    TempDir dir;
    const fs::path fifo = dir.path() / "model.gltf";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto r = importGltfFile(fifo);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.faults()[0].where, fifo.string());
    EXPECT_NE(r.faults()[0].what.find("FIFO"), std::string::npos) << faultList(r);
}

TEST(UntrustedFiles, AFileLargerThanTheBudgetIsNotRead) {
    TempDir dir;
    const fs::path file = dir.path() / "huge.gltf";
    writeFile(file, std::string("{}"));
    ASSERT_EQ(::truncate(file.c_str(), off_t{8} << 30), 0);
    const long before = maxResidentKiB();
    const auto r = importGltfFile(file);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.faults()[0].what, "the file has 8589934592 bytes, more than the memory budget of 1073741824 bytes");
    EXPECT_LT(maxResidentKiB() - before, 64 * 1024);
}

TEST(UntrustedFiles, FolderAsBufferIsRefused) {
    Sandbox s;
    fs::create_directories(s.model / "folder.bin");
    const auto r = importGltfFile(s.gltfWithBufferUri("folder.bin"));
    ASSERT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri"));
    EXPECT_NE(r.faults()[0].what.find("folder"), std::string::npos) << faultList(r);
}

TEST(UntrustedFiles, OnlyTheDeclaredBytesOfAHugeSparseFileAreRead) {
    Sandbox s;
    // rig.bin grows to 4 GiB of holes after its real bytes; the buffer still declares
    // only the rig's bytes, so only those are read.
    const fs::path bin = s.model / "rig.bin";
    ASSERT_EQ(::truncate(bin.c_str(), off_t{4} << 30), 0);
    const long before = maxResidentKiB();
    const auto start = std::chrono::steady_clock::now();
    const auto r = importGltfFile(s.gltfWithBufferUri("rig.bin"));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(imported(r));
    EXPECT_LT(seconds, 0.5);
    EXPECT_LT(maxResidentKiB() - before, 64 * 1024) << "KiB of resident memory added";
}

TEST(UntrustedFiles, ABufferDeclaringMoreThanTheBudgetIsRefusedBeforeReading) {
    Sandbox s;
    const fs::path bin = s.model / "rig.bin";
    ASSERT_EQ(::truncate(bin.c_str(), off_t{64} << 30), 0);
    s.rig.w.json()["buffers"][0]["byteLength"] = std::uint64_t{64} << 30;
    const long before = maxResidentKiB();
    const auto r = importGltfFile(s.gltfWithBufferUri("rig.bin"));
    ASSERT_TRUE(faultAt(r, "rig.gltf#/buffers/0/byteLength"));
    EXPECT_NE(
        r.faults()[0].what.find("buffer 0 needs 68719476736 bytes; the import's memory budget of 1073741824 bytes"),
        std::string::npos)
        << faultList(r);
    EXPECT_LT(maxResidentKiB() - before, 64 * 1024);
}

TEST(UntrustedFiles, AFileShorterThanItsBufferIsAFault) {
    Sandbox s;
    s.rig.w.json()["buffers"][0]["byteLength"] = s.rig.w.bin().size() + 1;
    const auto r = importGltfFile(s.gltfWithBufferUri("rig.bin"));
    ASSERT_TRUE(faultAt(r, "rig.gltf#/buffers/0/byteLength"));
    EXPECT_EQ(r.faults()[0].what,
              "declares " + std::to_string(s.rig.w.bin().size() + 1) + " bytes, the file has " +
                  std::to_string(s.rig.w.bin().size()));
}

// ---- a resolver provided by the engine ---------------------------------------------------

TEST(UntrustedFiles, ResolverReceivesTheCheckedPathAndTheDeclaredLength) {
    const Rig rig = makeRig();
    Rig named = makeRig();
    named.w.json()["buffers"][0]["uri"] = "blobs/./x/../rig%20data.bin";
    std::vector<ResourceRequest> seen;
    std::vector<std::string> paths;
    ImportOptions options;
    options.resolver = [&](const ResourceRequest& request) -> Result<ResourceBytes> {
        seen.push_back(request);
        paths.emplace_back(request.path);
        return std::make_shared<const std::vector<std::byte>>(rig.w.bin());
    };
    const auto r = importGltf(makeSource(named.w.gltf(), "vfs.gltf"), options);
    ASSERT_TRUE(imported(r));
    ASSERT_EQ(paths.size(), 1u);
    EXPECT_EQ(paths[0], "blobs/rig data.bin");
    EXPECT_EQ(seen[0].bytesWanted, rig.w.bin().size());
}

TEST(UntrustedFiles, ResolverIsNotAskedForPathsThatLeave) {
    Rig rig = makeRig();
    rig.w.json()["buffers"][0]["uri"] = "../../rig.bin";
    int calls = 0;
    ImportOptions options;
    options.resolver = [&](const ResourceRequest&) -> Result<ResourceBytes> {
        ++calls;
        return Fault{"", "unexpected"};
    };
    EXPECT_TRUE(faultAt(importGltf(makeSource(rig.w.gltf(), "vfs.gltf"), options), "vfs.gltf#/buffers/0/uri"));
    EXPECT_EQ(calls, 0);
}

TEST(UntrustedFiles, ResolverFaultsAndOutOfMemoryBecomeFaults) {
    Rig rig = makeRig();
    rig.w.json()["buffers"][0]["uri"] = "rig.bin";
    ImportOptions options;
    options.resolver = [](const ResourceRequest&) -> Result<ResourceBytes> { return Fault{"", "not in the archive"}; };
    const auto missing = importGltf(makeSource(rig.w.gltf(), "vfs.gltf"), options);
    ASSERT_TRUE(faultAt(missing, "vfs.gltf#/buffers/0/uri"));
    EXPECT_EQ(missing.faults()[0].what, "not in the archive");
    // Allocation failure anywhere in import is a fault, never an exception.
    options.resolver = [](const ResourceRequest&) -> Result<ResourceBytes> { throw std::bad_alloc(); };
    const auto oom = importGltf(makeSource(rig.w.gltf(), "vfs.gltf"), options);
    ASSERT_FALSE(oom.ok());
    EXPECT_EQ(oom.faults()[0].where, "vfs.gltf");
    EXPECT_NE(oom.faults()[0].what.find("out of memory"), std::string::npos) << faultList(oom);
}

TEST(UntrustedFiles, ManyNodesSharingAManyTargetMeshStayWithinTheBudget) {
    // A mesh with 1000 morph targets (all the same accessor) drawn by 2000 nodes: each
    // node's weights, 8 MB in all, are charged, though the file stays small.
    GltfWriter w;
    const auto pos = w.addFloats("VEC3", {0, 0, 0});
    const auto delta = w.addFloats("VEC3", {0, 1, 0});
    PrimitiveSpec prim{.attributes = {{"POSITION", pos}}};
    prim.targets.assign(1000, Attributes{{"POSITION", delta}});
    w.addMesh({prim});
    for (int i = 0; i < 2000; ++i) w.addNode({.mesh = 0});
    ImportOptions options;
    options.memoryBudget = std::size_t{4} << 20;
    const auto r = importGltf(w.glbSource("shared.glb"), options);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(cleanOutcome(r, "shared.glb"));
    EXPECT_NE(r.faults()[0].what.find("memory budget"), std::string::npos) << faultList(r);
    options.memoryBudget = std::size_t{64} << 20;
    EXPECT_TRUE(imported(importGltf(w.glbSource("shared.glb"), options)));
}

// ---- images decoded during import ------------------------------------------------------

// The rig with one embedded image (a bufferView) holding `image`.
Rig rigWithImage(const Bytes& image) {
    Rig rig = makeRig();
    const auto view = rig.w.addBufferView(std::as_bytes(std::span(image)));
    auto& img = rig.w.json()["images"].push(Json::object());
    img["bufferView"] = view;
    img["mimeType"] = "image/png";
    return rig;
}

TEST(UntrustedFiles, DecodedImagesAreChargedToTheBudget) {
    Bytes rows;
    for (int y = 0; y < 2; ++y) rows.insert(rows.end(), {0, 10, 20, 30, 255, 40, 50, 60, 255});
    const Rig rig = rigWithImage(png(2, 2, 6, zlibStored(rows)));
    ImportOptions options;
    options.decodeImages = true;
    const auto r = importGltf(rig.w.glbSource("img.glb"), options);
    ASSERT_TRUE(imported(r));
    ASSERT_EQ(r->decodedImages.size(), 1u);
    EXPECT_EQ(r->decodedImages[0].pixels,
              (std::vector<std::uint8_t>{10, 20, 30, 255, 40, 50, 60, 255, 10, 20, 30, 255, 40, 50, 60, 255}));
    // Without decodeImages nothing is decoded.
    EXPECT_TRUE(importGltf(rig.w.glbSource("img.glb"))->decodedImages.empty());
}

TEST(UntrustedFiles, AnImageDeclaringTooManyPixelsIsRefusedAtImport) {
    // A 20000 x 20000 header over a few bytes of data.
    const Rig rig = rigWithImage(png(20000, 20000, 6, zlibStored(Bytes(16, 0))));
    ImportOptions options;
    options.decodeImages = true;
    const long before = maxResidentKiB();
    const auto r = importGltf(rig.w.glbSource("bomb.glb"), options);
    ASSERT_TRUE(faultAt(r, "bomb.glb#/images/0"));
    EXPECT_NE(r.faults()[0].what.find("20000 x 20000 = 400000000 pixels"), std::string::npos) << faultList(r);
    EXPECT_LT(maxResidentKiB() - before, 64 * 1024);
}

TEST(UntrustedFiles, AnImageInflatingPastTheBudgetIsRefusedAtImport) {
    // 1 x 1 pixel whose compressed data inflates to 64 MiB; the import may hold 16 MiB.
    const Rig rig = rigWithImage(png(1, 1, 6, zlibBomb(Bytes{0, 1, 2, 3, 255}, std::size_t{64} << 20)));
    ImportOptions options;
    options.decodeImages = true;
    options.memoryBudget = std::size_t{16} << 20;
    const long before = maxResidentKiB();
    const auto r = importGltf(rig.w.glbSource("inflate.glb"), options);
    ASSERT_TRUE(faultAt(r, "inflate.glb#/images/0"));
    EXPECT_LT(maxResidentKiB() - before, 40 * 1024);
}

// ---- locations and numbers -----------------------------------------------------------------

TEST(UntrustedFiles, JsonSyntaxErrorsCarryByteLineAndColumn) {
    const std::string text =
        "{\"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [{\"name\": \"\xC3\xA9t\xC3\xA9\"} {}]\n}";
    const auto r = importGltf(makeSource(text, "broken.gltf"));
    ASSERT_FALSE(r.ok());
    // Line 2 is `  "nodes": [{"name": "été"} {}]`; the stray '{' is its 29th character
    // (31st byte: each 'é' takes two), at byte 31 + 29 of the text.
    EXPECT_EQ(r.faults()[0].where, "broken.gltf@byte 60 (line 2, column 29)") << faultList(r);
}

TEST(UntrustedFiles, JsonSyntaxErrorInAGlbIsLocatedInTheFile) {
    std::vector<std::byte> glb = makeGlb("{\"asset\":{\"version\":\"2.0\"},}   ", std::nullopt);
    const auto r = importGltf(makeSource(glb, "broken.glb"));
    ASSERT_FALSE(r.ok());
    // The JSON chunk starts after the 12-byte header and the 8-byte chunk header; the
    // '}' after the trailing comma is at offset 27 of the chunk.
    EXPECT_EQ(r.faults()[0].where, "broken.glb@byte 47 (line 1, column 28)") << faultList(r);
}

TEST(UntrustedFiles, ABrokenGlbMagicIsReportedAsSuch) {
    Rig rig = makeRig();
    std::vector<std::byte> glb = rig.w.glb();
    glb[3] = std::byte{'f'};  // "glTF" -> "glTf"
    const auto r = importGltf(makeSource(glb, "rig.glb"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(describe(r.faults()[0]),
              "rig.glb@byte 0: bad magic: a GLB file starts with 'glTF', this one with 'glTf'");
}

TEST(UntrustedFiles, NumbersInMessagesArePrintedExactly) {
    Rig rig = makeRig();
    rig.w.json()["accessors"][0]["count"] = std::uint64_t{18446744073709551615u};
    const auto count = importGltf(rig.w.gltfSource("rig.gltf"));
    ASSERT_TRUE(faultAt(count, "rig.gltf#/accessors/0/count"));
    EXPECT_NE(count.faults()[0].what.find("18446744073709551615"), std::string::npos) << faultList(count);

    Rig view = makeRig();
    view.w.json()["bufferViews"][0]["byteOffset"] = std::uint64_t{18446744073709551608u};
    const auto offset = importGltf(view.w.gltfSource("rig.gltf"));
    ASSERT_TRUE(faultAt(offset, "rig.gltf#/bufferViews/0"));
    EXPECT_NE(offset.faults()[0].what.find("byteOffset 18446744073709551608 + byteLength 48"), std::string::npos)
        << faultList(offset);
}

}  // namespace
}  // namespace kinema::test
