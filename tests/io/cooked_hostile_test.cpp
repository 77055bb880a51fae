// Hostile cooked files: a small model built in code, cooked, then truncated at every
// length, flipped at every bit, and damaged field by field with the checksum made
// to match again, so that the structure checks behind the checksum are reached.
// Every damaged file must be refused with a fault that names the byte (or the part
// of the model) at fault; nothing may crash or leak (the ASan build checks).
//
// The offsets are worked out here from the documented layout and the model's
// contents, and the checksum with a FNV-1a written here, not taken from the reader.
//
// With KINEMA_WRITE_COOKED_SEEDS naming a folder, CookedSeeds writes the fuzzer's
// seed corpus (fuzz/cooked_corpus) there.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/io/cooked.hpp"
#include "kinema/io/model_file.hpp"
#include "cooked_fixtures.hpp"
#include "support/track_builder.hpp"

namespace kinema {
namespace {

using namespace test;  // the byte helpers of cooked_fixtures.hpp

const std::string kSource = "hostile.kinc";

// --- The layout. ---------------------------------------------------------------------

constexpr std::size_t kHeaderBytes = 48;
constexpr std::size_t kSectionHeaderBytes = 16;

struct Section {
    std::size_t header = 0;  // offset of {tag, 0, length}
    std::size_t body = 0;
    std::size_t length = 0;
};

// The six sections, found by their length fields.
std::vector<Section> sections(const Bytes& b) {
    std::vector<Section> out;
    std::size_t pos = kHeaderBytes;
    for (int i = 0; i < 6; ++i) {
        Section s;
        s.header = pos;
        s.body = pos + kSectionHeaderBytes;
        s.length = static_cast<std::size_t>(getU64(b, pos + 8));
        out.push_back(s);
        pos = s.body + s.length;
    }
    return out;
}
enum SectionIndex : std::size_t { kSkel = 0, kNode = 1, kSkin = 2, kClip = 3, kStat = 4, kMesh = 5 };

std::uint32_t tagOf(const char (&s)[5]) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[0])) |
        static_cast<std::uint32_t>(static_cast<unsigned char>(s[1])) << 8 |
        static_cast<std::uint32_t>(static_cast<unsigned char>(s[2])) << 16 |
        static_cast<std::uint32_t>(static_cast<unsigned char>(s[3])) << 24;
}

// --- The model. ----------------------------------------------------------------------

// Three joints, one skin, two morph weights and three clips: one on the skeleton's
// names with every interpolation, markers, curves and a length, one with names of
// its own, one without names that animates the morph weights. -0, a denormal and a non-identity node order check that nothing
// is normalised on the way.
Model makeModel() {
    Model m;
    const float tiny = std::numeric_limits<float>::denorm_min();
    std::vector<JointDesc> joints(3);
    joints[0] = {"root", kNoParent, {{0.0f, 1.0f, -0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, {1.0f, 1.0f, 1.0f}}};
    joints[1] = {"spine", 0, {{0.0f, 0.5f, tiny}, {0.0f, 0.6f, 0.0f, 0.8f}, {1.0f, 1.0f, 1.0f}}};
    joints[2] = {"head", 1, {{0.0f, 0.25f, 0.1f}, {0.0f, 0.0f, 0.0f, 1.0f}, {1.5f, 1.5f, 1.5f}}};
    auto skeleton = Skeleton::create(std::move(joints));
    EXPECT_TRUE(skeleton.ok()) << skeleton.message();
    m.skeleton = std::move(skeleton).value();
    const auto skeletonNames =
        std::make_shared<const std::vector<std::string>>(m.skeleton.names().begin(), m.skeleton.names().end());

    std::vector<Track> tracks;
    tracks.push_back(test::makeTrack(0, TrackPath::Translation, {0.0f, 0.5f, 1.0f},
                                     {0.0f, 0.0f, 0.0f, 0.1f, -0.0f, 0.2f, tiny, 0.0f, 0.0f}));
    tracks.push_back(test::makeTrack(1, TrackPath::Rotation, {0.0f, 1.0f},
                                     {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.1f, 0.0f, 0.0f, 0.0f,  // key 0
                                      0.0f, 0.1f, 0.0f, 0.0f, 0.0f, 0.6f, 0.0f, 0.8f, 0.0f, 0.0f, 0.0f, 0.0f},
                                     Interpolation::CubicSpline));
    tracks.push_back(test::makeTrack(2, TrackPath::Scale, {0.0f, 0.25f}, {1, 1, 1, 2, 2, 2}, Interpolation::Step));
    auto walk = Clip::create("walk", std::move(tracks), {{"step", 0.5f}, {"start", 0.0f}}, skeletonNames);
    EXPECT_TRUE(walk.ok()) << walk.message();
    walk = walk->withCurves(
        {{"blink", {0.0f, 1.0f}, {0.0f, 1.0f}, Interpolation::Linear}, {"ik", {0.25f}, {0.5f}, Interpolation::Step}});
    EXPECT_TRUE(walk.ok()) << walk.message();
    walk = walk->withLength(2.0f);
    EXPECT_TRUE(walk.ok()) << walk.message();
    m.clips.push_back(std::move(walk).value());

    auto ownNames = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"root", "chest"});
    auto idle =
        Clip::create("idle", {test::makeTrack(1, TrackPath::Rotation, {0.0f}, {0.0f, 0.0f, 0.0f, 1.0f})}, {}, ownNames);
    EXPECT_TRUE(idle.ok()) << idle.message();
    m.clips.push_back(std::move(idle).value());
    Track weights;
    weights.target = 2;
    weights.path = TrackPath::Weights;
    weights.width = 2;
    weights.times = {0.0f, 0.5f};
    weights.values = {0.0f, 1.0f, 1.0f, 0.0f};
    auto pose = Clip::create(
        "pose", {test::makeTrack(2, TrackPath::Translation, {0.0f}, {0.0f, 0.3f, 0.0f}, Interpolation::Step), weights});
    EXPECT_TRUE(pose.ok()) << pose.message();
    m.clips.push_back(std::move(pose).value());

    Skin skin;
    skin.name = "body";
    skin.joints = {0, 1, 2};
    skin.inverseBindMatrices.resize(3);
    skin.inverseBindMatrices[1].m[13] = -1.0f;
    skin.inverseBindMatrices[2].m[13] = -1.25f;
    skin.inverseBindMatrices[2].m[12] = -0.1f;
    skin.root = 0;
    skin.skeleton = m.skeleton.fingerprint();
    m.skins.push_back(std::move(skin));

    // Node order differs from joint order, so that a swap of the two maps shows.
    m.nodeOfJoint = {2, 0, 1};
    m.jointOfNode = {1, 2, 0};
    // Two morph weights on the head. (A model without any reads back too: see
    // CookedEmptyArrays.)
    m.weightOffsetOfJoint = {-1, -1, 0};
    m.restWeights = {0.5f, 0.25f};

    // A skinned, morphed, textured triangle on the head, a scene and a camera.
    Mesh mesh;
    mesh.name = "face";
    mesh.targetCount = 2;
    mesh.weights = {0.5f, 0.25f};
    mesh.targetNames = {"smile", "blink"};
    MeshPrimitive prim;
    prim.positions = {{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 7.25f}};
    prim.normals = {{0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 1.0f}};
    prim.texcoords = {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}};
    prim.colors = {{1.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 1.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 1.0f, 1.0f}};
    prim.influencesPerVertex = 4;
    prim.joints = {0, 1, 2, 0, 1, 2, 0, 0, 2, 1, 0, 0};
    prim.weights = {0.5f, 0.5f, 0.0f, 0.0f, 0.25f, 0.75f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f};
    prim.indices = {0, 1, 2};
    prim.material = 0;
    prim.targets = {{{{0.0f, 0.1f, 0.0f}, {0.0f, 0.1f, 0.0f}, {0.0f, 0.0f, 0.0f}}, {}},
                    {{}, {{0.0f, 0.0f, 0.5f}, {0.0f, 0.0f, 0.5f}, {0.0f, 0.0f, 0.5f}}}};
    mesh.primitives.push_back(std::move(prim));
    m.meshes.push_back(std::move(mesh));
    m.meshInstances.push_back({2, 0, 0, 0});
    Material material;
    material.name = "skin";
    material.baseColorFactor = {0.8f, 0.7f, 0.6f, 1.0f};
    material.baseColorTexture = TextureRef{0, 0};
    material.alphaMode = MaterialAlpha::Mask;
    material.alphaCutoff = 0.25f;
    material.doubleSided = true;
    m.materials.push_back(material);
    Texture texture;
    texture.image = 0;
    texture.magFilter = SamplerFilter::Nearest;
    texture.wrapT = SamplerWrap::ClampToEdge;
    m.textures.push_back(texture);
    m.images.push_back(ImageSource{"checker", "image/png", {}, {}, {}, -1, 0, 0});
    m.decodedImages.push_back(ImageRGBA8{2, 1, {255, 0, 0, 255, 0, 255, 0, 255}});
    m.scenes.push_back(SceneRoots{"main", {0}});
    m.defaultScene = 0;
    Camera camera;
    camera.name = "eye";
    camera.yfov = 0.8f;
    camera.aspectRatio = 1.5f;
    camera.znear = 0.1f;
    camera.zfar = 100.0f;
    m.cameras.push_back(camera);
    m.cameraInstances.push_back({1, 0});
    return m;
}

// Offset of track `t` of clip 0 ("walk", named by the skeleton) in the cooked file,
// from the layout: clip count, name, length, naming byte, track count, then tracks
// of a 24-byte head and their times and values.
std::size_t walkTrackOffset(const Bytes& b, const Model& m, std::size_t t) {
    const Clip& walk = m.clips.at(0);
    std::size_t pos = sections(b)[kClip].body + 4 + 4 + walk.name().size() + 4 + 1 + 4;
    for (std::size_t i = 0; i < t; ++i)
        pos += 24 + 4 * (walk.tracks()[i].times.size() + walk.tracks()[i].values.size());
    return pos;
}

// --- Rejections. ---------------------------------------------------------------------

// Refused, with the first fault at exactly `where` and `what` in its message.
::testing::AssertionResult refused(const Bytes& bytes, const std::string& where, const std::string& what) {
    const auto read = readCookedModel(bytes, kSource);
    if (read.ok()) return ::testing::AssertionFailure() << "accepted; expected a fault at " << where;
    const Fault& f = read.faults().front();
    if (f.where != where || f.what.find(what) == std::string::npos) {
        return ::testing::AssertionFailure() << "expected \"" << where << ": ..." << what << "...\", got:\n"
                                             << read.message();
    }
    return ::testing::AssertionSuccess();
}

std::string atByte(std::size_t offset) { return kSource + "@byte " + std::to_string(offset); }

class CookedHostile : public ::testing::Test {
protected:
    void SetUp() override {
        model = makeModel();
        ASSERT_TRUE(findModelFaults(model).empty());
        bytes = cookModel(model, 0x1234'5678'9abc'def0ull);
        parts = sections(bytes);
    }
    Model model;
    Bytes bytes;
    std::vector<Section> parts;
};

TEST_F(CookedHostile, TheModelReadsBackBitForBitAndCooksToTheSameBytes) {
    ASSERT_TRUE(looksCooked(bytes));
    ASSERT_EQ(getU64(bytes, 16), bytes.size());
    ASSERT_EQ(getU64(bytes, 32), checksumOf(bytes));
    EXPECT_EQ(parts[kMesh].body + parts[kMesh].length, bytes.size());
    auto read = readCookedModel(bytes, kSource);
    ASSERT_TRUE(read.ok()) << read.message();
    EXPECT_EQ(read->source, kSource);
    EXPECT_TRUE(findModelFaults(*read).empty());
    test::expectSameModel(*read, model);
    EXPECT_EQ(cookModel(*read, 0x1234'5678'9abc'def0ull), bytes);
    auto hash = cookedSourceHash(bytes, kSource);
    ASSERT_TRUE(hash.ok()) << hash.message();
    EXPECT_EQ(*hash, 0x1234'5678'9abc'def0ull);
}

TEST_F(CookedHostile, EveryTruncationIsRefusedAtAByte) {
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        const Bytes cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
        const auto read = readCookedModel(cut, kSource);
        ASSERT_FALSE(read.ok()) << "a file cut to " << n << " bytes was accepted";
        const Fault& f = read.faults().front();
        ASSERT_NE(f.where.find("@byte"), std::string::npos) << n << ": " << read.message();
        // Before the magic is whole it is not a cooked file; then the header is
        // short; then the size field disagrees with the file.
        const std::size_t at = n < 8 ? 0 : n < kHeaderBytes ? n : 16;
        ASSERT_EQ(f.where, atByte(at)) << n << ": " << read.message();
        EXPECT_FALSE(cookedSourceHash(cut, kSource).ok()) << n;
    }
}

// Every bit of the file: the checksum covers all of it but its own field, which
// then no longer matches. (A FNV-1a step is a bijection of the state, so any one
// changed byte changes the sum.)
TEST_F(CookedHostile, EverySingleBitFlipIsRefused) {
    std::size_t refusedCount = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        for (int bit = 0; bit < 8; ++bit) {
            Bytes damaged = bytes;
            damaged[i] ^= static_cast<std::byte>(1u << bit);
            const auto read = readCookedModel(damaged, kSource);
            ASSERT_FALSE(read.ok()) << "byte " << i << " bit " << bit << " flipped was accepted";
            ASSERT_FALSE(read.faults().front().what.empty()) << "byte " << i << " bit " << bit;
            ASSERT_NE(read.faults().front().where.find("@byte"), std::string::npos) << read.message();
            ++refusedCount;
        }
    }
    EXPECT_EQ(refusedCount, bytes.size() * 8);
}

// The source hash (bytes 24..31) is covered by the checksum: a flipped bit there is
// damage, not a file cooked from another source.
TEST_F(CookedHostile, ASourceHashBitFlipIsDamage) {
    for (std::size_t i = 24; i < 32; ++i) {
        Bytes damaged = bytes;
        damaged[i] ^= std::byte{0x10};
        EXPECT_TRUE(refused(damaged, atByte(32), "checksum mismatch")) << i;
    }
}

TEST_F(CookedHostile, NotACookedFile) {
    EXPECT_TRUE(refused({}, atByte(0), "not a kinema cooked file"));
    // The first bytes of a .glb: "glTF", version 2, a length.
    Bytes glb(64, std::byte{0});
    const char head[] = "glTF\x02\x00\x00\x00\x40\x00\x00\x00";
    std::memcpy(glb.data(), head, 12);
    EXPECT_FALSE(looksCooked(glb));
    EXPECT_TRUE(refused(glb, atByte(0), "not a kinema cooked file"));
    const Bytes partOfTheMagic(bytes.begin(), bytes.begin() + 7);
    EXPECT_TRUE(refused(partOfTheMagic, atByte(0), "not a kinema cooked file"));
    auto hash = cookedSourceHash(glb, kSource);
    ASSERT_FALSE(hash.ok());
    EXPECT_NE(hash.message().find("not a kinema cooked file"), std::string::npos);
}

// A file named .kinc whose magic is damaged is read as a cooked file and told so,
// not handed to the glTF reader (a JSON syntax error at its first byte); another
// name with the same bytes still goes to glTF.
TEST_F(CookedHostile, ADamagedKincFileIsToldItsMagicIsWrong) {
    Bytes damaged = bytes;
    damaged[3] = std::byte{'X'};
    const auto shared = std::make_shared<const Bytes>(damaged);
    const auto cooked = loadModelBytes(shared, "dir/walk.KINC");
    ASSERT_FALSE(cooked.ok());
    EXPECT_EQ(cooked.faults().front().where, "walk.KINC@byte 0");
    EXPECT_NE(cooked.message().find("not a kinema cooked file"), std::string::npos) << cooked.message();
    const auto other = loadModelBytes(shared, "dir/walk.bin");
    ASSERT_FALSE(other.ok());
    EXPECT_EQ(other.message().find("not a kinema cooked file"), std::string::npos) << other.message();
}

// --- Header fields: each has its own check, made before the checksum's. -----------

TEST_F(CookedHostile, HeaderFields) {
    Bytes b = bytes;
    putU32(b, 12, 1);
    EXPECT_TRUE(refused(b, atByte(12), "format version 1; this build reads version 3"));
    putU32(b, 12, 4);
    EXPECT_TRUE(refused(b, atByte(12), "format version 4; this build reads version 3"));

    b = bytes;
    putU32(b, 8, 0x0D0C0B0Au);
    EXPECT_TRUE(refused(b, atByte(8), "big-endian"));
    putU32(b, 8, 0x0A0B0C0Eu);
    EXPECT_TRUE(refused(b, atByte(8), "byte order mark damaged"));

    b = bytes;
    putU64(b, 16, bytes.size() + 1);
    EXPECT_TRUE(refused(b, atByte(16),
                        "the header says " + std::to_string(bytes.size() + 1) + " bytes, the file has " +
                            std::to_string(bytes.size()) + " (truncated)"));
    putU64(b, 16, bytes.size() - 1);
    EXPECT_TRUE(refused(b, atByte(16), "the header says " + std::to_string(bytes.size() - 1) + " bytes"));
    putU64(b, 16, std::numeric_limits<std::uint64_t>::max());
    EXPECT_TRUE(refused(b, atByte(16), "the header says"));

    b = bytes;
    putU64(b, 32, getU64(b, 32) + 1);
    EXPECT_TRUE(refused(b, atByte(32), "checksum mismatch"));

    b = bytes;
    putU32(b, 40, 7);
    EXPECT_TRUE(refused(b, atByte(40), "7 sections; version 3 files have 6"));
    putU32(b, 40, 0);
    EXPECT_TRUE(refused(b, atByte(40), "0 sections"));

    b = bytes;
    putU32(b, 44, 1);
    EXPECT_TRUE(refused(b, atByte(44), "reserved header field is not 0"));
}

// --- Damage behind a matching checksum. ----------------------------------------------

TEST_F(CookedHostile, AHugeJointCount) {
    putU32(bytes, parts[kSkel].body, 0xFFFFFFFFu);
    reseal(bytes);
    EXPECT_TRUE(
        refused(bytes, atByte(parts[kSkel].body), "skeleton joint count: a count of 4294967295 needs at least"));
}

// Names are UTF-8, as in glTF: a byte that cannot start a UTF-8 sequence is refused
// where it lies (joint 0's name: after the joint count and the name's length).
TEST_F(CookedHostile, ANameThatIsNotUtf8) {
    const std::size_t name = parts[kSkel].body + 8;
    ASSERT_GT(getU32(bytes, parts[kSkel].body + 4), 0u);
    bytes[name] = std::byte{0xFF};
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, atByte(name), "skeleton joint 0 name: a name that is not UTF-8"));
}

TEST_F(CookedHostile, AHugeKeyCount) {
    const std::size_t t0 = walkTrackOffset(bytes, model, 0);
    ASSERT_EQ(getU32(bytes, t0 + 16), 3u);  // the layout as worked out here
    ASSERT_EQ(getU32(bytes, t0 + 20), 9u);
    putU32(bytes, t0 + 16, 0xFFFFFFFFu);
    reseal(bytes);
    // Reported where the times would start, after the two counts.
    EXPECT_TRUE(refused(bytes, atByte(t0 + 24), "clip 0 track 0: needs 17179869180 bytes"));

    // A value count that the bytes left cannot hold.
    bytes = cookModel(model);
    const std::size_t t2 = walkTrackOffset(bytes, model, 2);
    ASSERT_EQ(getU32(bytes, t2 + 20), 6u);
    putU32(bytes, t2 + 20, 0x40000000u);
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, atByte(t2 + 24 + 8), "clip 0 track 2: needs 4294967296 bytes"));
}

TEST_F(CookedHostile, OtherHugeCounts) {
    // The skin count, the track count of clip 0, the clip count.
    Bytes b = bytes;
    putU32(b, parts[kSkin].body, 0x7FFFFFFFu);
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(parts[kSkin].body), "skin count: a count of 2147483647"));

    b = bytes;
    const std::size_t trackCount = walkTrackOffset(b, model, 0) - 4;
    ASSERT_EQ(getU32(b, trackCount), 3u);
    putU32(b, trackCount, 0xFFFFFFF0u);
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(trackCount), "clip 0 track count: a count of 4294967280"));

    b = bytes;
    putU32(b, parts[kClip].body, 0xFFFFFFFFu);
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(parts[kClip].body), "clip count: a count of 4294967295"));

    b = bytes;
    putU32(b, parts[kNode].body, 0xFFFFFFFFu);
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(parts[kNode].body), "node layout: a count of 4294967295"));
}

TEST_F(CookedHostile, ASectionLengthPastTheEnd) {
    const std::size_t left = bytes.size() - parts[kSkin].body;
    putU64(bytes, parts[kSkin].header + 8, left + 1);
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, atByte(parts[kSkin].header + 8),
                        "section SKIN of " + std::to_string(left + 1) + " bytes runs past the end (" +
                            std::to_string(left) + " left)"));
    putU64(bytes, parts[kSkin].header + 8, std::numeric_limits<std::uint64_t>::max());
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, atByte(parts[kSkin].header + 8), "runs past the end"));
}

TEST_F(CookedHostile, ASectionLengthShorterThanItsData) {
    // The skeleton's last array, the rest pose (3 joints x 10 floats), loses 4 bytes.
    putU64(bytes, parts[kSkel].header + 8, parts[kSkel].length - 4);
    reseal(bytes);
    const std::size_t rest = parts[kSkel].body + 4 + (4 + 4) + (4 + 5) + (4 + 4) + 3 * 4;
    EXPECT_TRUE(refused(bytes, atByte(rest), "skeleton rest pose: needs 120 bytes, 116 are left"));
}

TEST_F(CookedHostile, ASectionLongerThanItsData) {
    // Four bytes more in NODE, the section length and the file size to match.
    bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(parts[kSkin].header), 4, std::byte{0});
    putU64(bytes, parts[kNode].header + 8, parts[kNode].length + 4);
    putU64(bytes, 16, bytes.size());
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, atByte(parts[kSkin].header), "section NODE has 4 bytes past its data"));
}

TEST_F(CookedHostile, AWrongSectionTag) {
    Bytes b = bytes;
    putU32(b, parts[kSkin].header, tagOf("SKIX"));
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(parts[kSkin].header), "section SKIX where SKIN belongs"));
    // The sections in another order.
    b = bytes;
    putU32(b, parts[kSkel].header, tagOf("CLIP"));
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(parts[kSkel].header), "section CLIP where SKEL belongs"));
    // Unprintable bytes are shown as '?'.
    b = bytes;
    putU32(b, parts[kClip].header, 0x00FF0A43u);
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(parts[kClip].header), "section C??? where CLIP belongs"));
}

TEST_F(CookedHostile, NonZeroReservedFields) {
    Bytes b = bytes;
    putU32(b, parts[kNode].header + 4, 1);
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(parts[kNode].header + 4), "section NODE: reserved field not 0"));
    // The 16 reserved bits of a track head.
    b = bytes;
    const std::size_t t1 = walkTrackOffset(b, model, 1);
    b[t1 + 7] = std::byte{0x80};
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(t1 + 4), "clip 0 track 1: unknown path or interpolation, or reserved bits set"));
}

// The drawing section: a position that is not finite, an index past the vertices, a
// texture that does not exist, an enumerator out of range, each behind a valid
// checksum. The fields are found by the values the fixture gives them.
std::size_t findF32(const Bytes& b, std::size_t from, float value) {
    for (std::size_t at = from; at + 4 <= b.size(); ++at) {
        if (getU32(b, at) == std::bit_cast<std::uint32_t>(value)) return at;
    }
    return 0;
}

TEST_F(CookedHostile, DamagedDrawingData) {
    const std::size_t z = findF32(bytes, parts[kMesh].body, 7.25f);  // vertex 2's z
    ASSERT_NE(z, 0u);
    Bytes b = bytes;
    putF32(b, z, std::numeric_limits<float>::quiet_NaN());
    reseal(b);
    EXPECT_TRUE(refused(b, kSource + "#meshes/0/primitives/0", "not finite"));

    // The index list {0, 1, 2} follows the 12 weights: 3 indices after its count.
    const std::size_t indices = findF32(bytes, z, 0.75f) + 4 * 7 + 4;
    ASSERT_EQ(getU32(bytes, indices - 4), 3u);
    b = bytes;
    putU32(b, indices + 8, 3);
    reseal(b);
    EXPECT_TRUE(refused(b, kSource + "#meshes/0/primitives/0/indices/2", "not below the vertex count"));

    // The material: name "skin", four floats, a flag, then the texture index.
    const std::size_t factor = findF32(bytes, indices, 0.8f);
    ASSERT_NE(factor, 0u);
    b = bytes;
    putU32(b, factor + 16 + 1, 5);
    reseal(b);
    EXPECT_TRUE(refused(b, kSource + "#materials/0/baseColorTexture", "no such texture"));
    b = bytes;
    b[factor + 16 + 1 + 8] = std::byte{3};  // alpha mode past Blend
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(factor + 16 + 1 + 8), "out of range"));
}

// Counts that promise more than the file holds are placed at the count's own first
// byte: the morph target count (after the mesh's name "face"), and the influences per
// vertex (before the 12 joint indices and 12 weights).
TEST_F(CookedHostile, CountsPastTheFileAreAtTheirFirstByte) {
    const std::size_t mesh = parts[kMesh].body + 4;  // after the mesh count
    ASSERT_EQ(getU32(bytes, mesh), 4u);              // "face"
    const std::size_t targets = mesh + 4 + 4;
    ASSERT_EQ(getU32(bytes, targets), 2u);
    Bytes b = bytes;
    putU32(b, targets, 0x40000000u);
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(targets), "mesh 0 target count: 1073741824 morph targets for 1 primitive"));

    const std::size_t z = findF32(bytes, parts[kMesh].body, 7.25f);
    const std::size_t weights = findF32(bytes, z, 0.75f) - 5 * 4;  // 0.75 is weight 5
    const std::size_t perVertex = weights - 12 * 2 - 4;
    ASSERT_EQ(getU32(bytes, perVertex), 4u);
    b = bytes;
    putU32(b, perVertex, 0x10000000u);
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(perVertex), "mesh 0 primitive 0 influences: 268435456 per vertex for 3 vertices"));
}

TEST_F(CookedHostile, TrailingBytesAfterTheLastSection) {
    const std::size_t end = bytes.size();
    bytes.resize(end + 5, std::byte{0x41});
    putU64(bytes, 16, bytes.size());
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, atByte(end), "5 bytes past the last section"));
    bytes.resize(end + 1);  // the count agrees with its noun
    putU64(bytes, 16, bytes.size());
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, atByte(end), "1 byte past the last section"));
}

TEST_F(CookedHostile, AnUnknownTrackPathOrInterpolation) {
    const std::size_t t0 = walkTrackOffset(bytes, model, 0);
    ASSERT_EQ(getU32(bytes, t0), 0u);
    ASSERT_EQ(std::to_integer<int>(bytes[t0 + 4]), static_cast<int>(TrackPath::Translation));
    Bytes b = bytes;
    b[t0 + 4] = std::byte{7};
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(t0 + 4), "clip 0 track 0: unknown path or interpolation"));
    b = bytes;
    b[t0 + 5] = std::byte{3};
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(t0 + 4), "clip 0 track 0: unknown path or interpolation"));
}

// A skin names its skeleton by fingerprint; one that is not the file's skeleton's is
// refused at its byte, not left for the character to refuse without a place.
TEST_F(CookedHostile, ASkinOfAnotherSkeleton) {
    const Skin& skin = model.skins.at(0);
    const std::size_t fingerprint = parts[kSkin].body + 4 + 4 + skin.name.size() + 4;
    ASSERT_EQ(getU64(bytes, fingerprint), model.skeleton.fingerprint());
    putU64(bytes, fingerprint, model.skeleton.fingerprint() ^ 1u);
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, atByte(fingerprint), "skin 0: its skeleton fingerprint is not the file's skeleton's"));
}

TEST_F(CookedHostile, ANaNKeyTime) {
    const std::size_t t0 = walkTrackOffset(bytes, model, 0);
    putF32(bytes, t0 + 24 + 4, std::numeric_limits<float>::quiet_NaN());
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, kSource + "#clips/0/tracks/0/times/1", "time is not finite"));
}

TEST_F(CookedHostile, ValidationFaultsOfTheModel) {
    // A marker before 0 (clip 0's first marker, "start", after the tracks).
    Bytes b = bytes;
    const std::size_t markers = walkTrackOffset(b, model, 3);
    ASSERT_EQ(getU32(b, markers), 2u);
    putF32(b, markers + 4 + 4 + 5, -1.0f);
    reseal(b);
    EXPECT_TRUE(refused(b, kSource + "#clips/0/markers/0", "marker time must be finite and >= 0"));

    // A length shorter than the last key.
    b = bytes;
    const std::size_t length = parts[kClip].body + 4 + 4 + 4;
    ASSERT_EQ(std::bit_cast<float>(getU32(b, length)), 2.0f);
    putF32(b, length, 0.5f);
    reseal(b);
    EXPECT_TRUE(refused(b, kSource + "#clips/0/length", "must be finite and at least the last key"));

    // A rotation of zero length in the rest pose of joint 1.
    b = bytes;
    const std::size_t rest = parts[kSkel].body + 4 + (4 + 4) + (4 + 5) + (4 + 4) + 3 * 4;
    for (std::size_t k = 0; k < 4; ++k) putF32(b, rest + 40 + 12 + 4 * k, 0.0f);
    reseal(b);
    EXPECT_TRUE(refused(b, kSource + "#skeleton/joints/1/rest/rotation", "zero or non-finite quaternion"));

    // A skin joint past the skeleton.
    b = bytes;
    const std::size_t skinJoints = parts[kSkin].body + 4 + 4 + 4 + 4 + 8 + 4;
    ASSERT_EQ(getU32(b, skinJoints + 8), 2u);
    putU32(b, skinJoints + 8, 3);
    reseal(b);
    EXPECT_TRUE(refused(b, kSource + "#skins/0/joints/2", "not a skeleton joint"));

    // Node maps that are not inverse of each other: jointOfNode[0] = 0.
    b = bytes;
    putU32(b, parts[kNode].body + 4, 0);
    reseal(b);
    EXPECT_TRUE(refused(b, kSource + "#nodeOfJoint/1", "maps are not inverse"));

    // A curve interpolated CUBICSPLINE (clip 0's first curve, after the markers).
    b = bytes;
    const std::size_t curves = markers + 4 + (4 + 5 + 4) + (4 + 4 + 4);
    ASSERT_EQ(getU32(b, curves), 2u);
    b[curves + 4 + 4 + 5] = std::byte{2};
    reseal(b);
    EXPECT_TRUE(refused(b, kSource + "#clips/0/curves/0", "a curve interpolates Step or Linear"));
    b[curves + 4 + 4 + 5] = std::byte{9};
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(curves + 4), "clip 0 curve 0: unknown interpolation"));

    // A naming kind that does not exist.
    b = bytes;
    const std::size_t naming = parts[kClip].body + 4 + 4 + 4 + 4;
    ASSERT_EQ(std::to_integer<int>(b[naming]), 1);
    b[naming] = std::byte{3};
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(naming), "clip 0 joint names: unknown kind 3"));
}

TEST_F(CookedHostile, AParentPointingForward) {
    const std::size_t parents = parts[kSkel].body + 4 + (4 + 4) + (4 + 5) + (4 + 4);
    ASSERT_EQ(static_cast<std::int32_t>(getU32(bytes, parents + 4)), 0);
    putU32(bytes, parents + 4, 2);
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, kSource + "#skeleton/joints/1/parent", "parent 2 is not an earlier joint"));
    putU32(bytes, parents + 4, 1);  // itself
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, kSource + "#skeleton/joints/1/parent", "parent 1 is not an earlier joint"));
    putU32(bytes, parents + 4, static_cast<std::uint32_t>(-2));
    reseal(bytes);
    EXPECT_TRUE(refused(bytes, kSource + "#skeleton/joints/1/parent", "parent -2 is not an earlier joint"));
}

TEST_F(CookedHostile, AHugeStringLength) {
    // The first joint name, the clip name, the skin name.
    for (const std::size_t at : {parts[kSkel].body + 4, parts[kClip].body + 4, parts[kSkin].body + 4}) {
        Bytes b = bytes;
        putU32(b, at, 0x7FFFFFFFu);
        reseal(b);
        EXPECT_TRUE(refused(b, atByte(at), "a name of 2147483647 bytes (at most 65536)"));
    }
    // A length within the limit but past the section.
    Bytes b = bytes;
    putU32(b, parts[kSkel].body + 4, 60000);
    reseal(b);
    EXPECT_TRUE(refused(b, atByte(parts[kSkel].body + 8), "skeleton joint 0 name: needs 60000 bytes"));
}

// --- Empty arrays. ----------------------------------------------------------------
//
// Valid models whose cooked form holds arrays of no elements: each must read back.
// One empty array per test, so that each shows on its own.

void expectReadsBack(const Model& m) {
    ASSERT_TRUE(findModelFaults(m).empty()) << describe(findModelFaults(m));
    const Bytes cooked = cookModel(m);
    auto read = readCookedModel(cooked, kSource);
    ASSERT_TRUE(read.ok()) << read.message();
    test::expectSameModel(*read, m);
    EXPECT_EQ(cookModel(*read), cooked);
}

Model makeOneJointModel() {
    Model m;
    auto skeleton = Skeleton::create({{"only", kNoParent, {}}});
    EXPECT_TRUE(skeleton.ok());
    m.skeleton = std::move(skeleton).value();
    m.nodeOfJoint = {0};
    m.jointOfNode = {0};
    m.weightOffsetOfJoint = {-1};
    return m;
}

TEST(CookedEmptyArrays, NoMorphWeights) { expectReadsBack(makeOneJointModel()); }

TEST(CookedEmptyArrays, NoJoints) {
    Model m;
    m.restWeights = {1.0f};
    expectReadsBack(m);
}

TEST(CookedEmptyArrays, ASkinWithoutJoints) {
    Model m = makeOneJointModel();
    m.restWeights = {1.0f};
    m.skins.push_back(Skin{"empty", {}, {}, -1, 0});
    expectReadsBack(m);
}

// --- Seeds for the fuzzer. ------------------------------------------------------------

// Two joints and two morph weights on the first, animated by a weights track.
Model makeMorphModel() {
    Model m;
    auto skeleton =
        Skeleton::create({{"mesh", kNoParent, {}}, {"tip", 0, {{0.0f, 1.0f, 0.0f}, {}, {1.0f, 1.0f, 1.0f}}}});
    EXPECT_TRUE(skeleton.ok());
    m.skeleton = std::move(skeleton).value();
    m.nodeOfJoint = {0, 1};
    m.jointOfNode = {0, 1};
    m.weightOffsetOfJoint = {0, -1};
    m.restWeights = {0.25f, 0.75f};
    Track weights;
    weights.target = 0;
    weights.path = TrackPath::Weights;
    weights.width = 2;
    weights.weightOffset = 0;
    weights.times = {0.0f, 0.5f};
    weights.values = {0.0f, 1.0f, 1.0f, 0.0f};
    auto clip = Clip::create("morph", {weights}, {{"half", 0.25f}});
    EXPECT_TRUE(clip.ok()) << clip.message();
    clip = clip->withCurves({{"blink", {0.0f}, {1.0f}, Interpolation::Step}});
    EXPECT_TRUE(clip.ok()) << clip.message();
    m.clips.push_back(std::move(clip).value());
    return m;
}

TEST(CookedSeeds, TheSeedModelsReadBack) {
    expectReadsBack(makeModel());
    expectReadsBack(makeMorphModel());
}

TEST(CookedSeeds, WriteTheFuzzerSeedsWhenAsked) {
    const char* folder = std::getenv("KINEMA_WRITE_COOKED_SEEDS");
    if (folder == nullptr || *folder == '\0') GTEST_SKIP() << "KINEMA_WRITE_COOKED_SEEDS names no folder";
    const Model models[] = {makeModel(), makeOneJointModel(), makeMorphModel()};
    const char* names[] = {"rig.kinc", "bare.kinc", "morph.kinc"};
    std::filesystem::create_directories(folder);
    for (std::size_t i = 0; i < std::size(models); ++i) {
        ASSERT_TRUE(findModelFaults(models[i]).empty()) << names[i];
        const Bytes cooked = cookModel(models[i]);
        EXPECT_LT(cooked.size(), 4096u) << names[i];
        std::ofstream out(std::filesystem::path(folder) / names[i], std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(cooked.data()), static_cast<std::streamsize>(cooked.size()));
        ASSERT_TRUE(out.good()) << names[i];
    }
}

}  // namespace
}  // namespace kinema
