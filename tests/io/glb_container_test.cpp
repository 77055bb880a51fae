// The GLB container under damage: every truncation, flipped bytes in the
// container and in the JSON, and header fields that lie. Expected byte offsets
// come from the GLB layout in the glTF 2.0 spec: a 12-byte header (magic,
// version, length), then chunks of (length, type, data) starting at byte 12.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::test {
namespace {

constexpr std::size_t kHeader = 12;
constexpr std::size_t kChunkHeader = 8;

std::vector<std::byte> prefix(const std::vector<std::byte>& bytes, std::size_t n) {
    return {bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)};
}

// Where the BIN chunk header starts in a GLB written by GltfWriter.
std::size_t binChunkAt(const std::vector<std::byte>& glb) { return kHeader + kChunkHeader + readU32(glb, kHeader); }

TEST(GlbContainer, RigLayoutIsJsonThenBin) {
    const auto glb = makeRig().w.glb();
    EXPECT_EQ(readU32(glb, 0), 0x46546C67u);
    EXPECT_EQ(readU32(glb, 4), 2u);
    EXPECT_EQ(readU32(glb, 8), glb.size());
    EXPECT_EQ(readU32(glb, 16), 0x4E4F534Au);
    EXPECT_EQ(readU32(glb, kHeader) % 4, 0u);
    const std::size_t bin = binChunkAt(glb);
    EXPECT_EQ(readU32(glb, bin + 4), 0x004E4942u);
    EXPECT_EQ(bin + kChunkHeader + readU32(glb, bin), glb.size());
}

TEST(GlbContainer, EveryTruncationIsRejectedAtTheRightByte) {
    // Length 0 is Hostile.EmptyInputIsRejected.
    const auto glb = makeRig().w.glb();
    for (std::size_t n = 1; n < glb.size(); ++n) {
        const auto r = importGltf(makeSource(prefix(glb, n), "t.glb"));
        ASSERT_FALSE(r.ok()) << "length " << n;
        const std::string& where = r.faults()[0].where;
        if (n < 4) {
            // Not even the magic; named .glb and not JSON: a broken magic.
            EXPECT_EQ(where, "t.glb@byte 0") << "length " << n;
        } else if (n < kHeader) {
            EXPECT_EQ(where, "t.glb@byte 0") << "length " << n;  // header incomplete
        } else {
            EXPECT_EQ(where, "t.glb@byte 8") << "length " << n;  // declared length > actual
        }
    }
}

TEST(GlbContainer, EveryTruncationWithAConsistentHeaderIsRejectedAtTheRightChunk) {
    // The header's length is patched to the truncated size, so the damage is in the chunks.
    const auto glb = makeRig().w.glb();
    const std::size_t bin = binChunkAt(glb);
    for (std::size_t n = kHeader; n < glb.size(); ++n) {
        auto bytes = prefix(glb, n);
        writeU32(bytes, 8, static_cast<std::uint32_t>(n));
        const auto r = importGltf(makeSource(bytes, "t.glb"));
        ASSERT_FALSE(r.ok()) << "length " << n;
        if (n == kHeader) {
            EXPECT_TRUE(faultAt(r, "t.glb@byte 12")) << "no chunk at all";
        } else if (n < bin) {
            EXPECT_TRUE(faultAt(r, "t.glb@byte 12")) << "length " << n;  // JSON chunk header or data cut
        } else if (n == bin) {
            // A complete JSON chunk and no BIN chunk: buffer 0 has no data.
            EXPECT_TRUE(faultAt(r, "t.glb#/buffers/0")) << "length " << n;
        } else {
            EXPECT_TRUE(faultAt(r, "t.glb@byte " + std::to_string(bin))) << "length " << n;  // BIN cut
        }
    }
}

TEST(GlbContainer, HeaderFieldsThatLie) {
    const auto good = makeRig().w.glb();
    const std::size_t bin = binChunkAt(good);
    {
        auto b = good;
        writeU32(b, 4, 1);
        EXPECT_TRUE(faultAt(importGltf(makeSource(b, "h.glb")), "h.glb@byte 4"));
    }
    {
        auto b = good;
        writeU32(b, 8, 11);
        EXPECT_TRUE(faultAt(importGltf(makeSource(b, "h.glb")), "h.glb@byte 8"));
    }
    {
        auto b = good;
        writeU32(b, 8, 0xFFFFFFFFu);
        EXPECT_TRUE(faultAt(importGltf(makeSource(b, "h.glb")), "h.glb@byte 8"));
    }
    {
        auto b = good;  // the first chunk is not JSON
        writeU32(b, 16, 0x004E4942u);
        EXPECT_TRUE(faultAt(importGltf(makeSource(b, "h.glb")), "h.glb@byte 16"));
    }
    {
        auto b = good;  // JSON chunk length runs past the file
        writeU32(b, kHeader, 0xFFFFFFF0u);
        EXPECT_TRUE(faultAt(importGltf(makeSource(b, "h.glb")), "h.glb@byte 12"));
    }
    {
        auto b = good;  // BIN chunk length runs past the file
        writeU32(b, bin, 0xFFFFFFFCu);
        EXPECT_TRUE(faultAt(importGltf(makeSource(b, "h.glb")), "h.glb@byte " + std::to_string(bin)));
    }
    {
        auto b = good;  // a second BIN chunk
        const std::size_t at = b.size();
        b.resize(at + kChunkHeader + 4);
        writeU32(b, at, 4);
        writeU32(b, at + 4, 0x004E4942u);
        writeU32(b, 8, static_cast<std::uint32_t>(b.size()));
        EXPECT_TRUE(faultAt(importGltf(makeSource(b, "h.glb")), "h.glb@byte " + std::to_string(at + 4)));
    }
    {
        auto b = good;  // a second JSON chunk
        const std::size_t at = b.size();
        b.resize(at + kChunkHeader + 4);
        writeU32(b, at, 4);
        writeU32(b, at + 4, 0x4E4F534Au);
        writeU32(b, 8, static_cast<std::uint32_t>(b.size()));
        EXPECT_TRUE(faultAt(importGltf(makeSource(b, "h.glb")), "h.glb@byte " + std::to_string(at + 4)));
    }
}

TEST(GlbContainer, EmptyJsonChunkIsRejected) {
    const auto r = importGltf(makeSource(makeGlb("", std::nullopt), "e.glb"));
    ASSERT_FALSE(r.ok());
    // An empty JSON chunk is a syntax error where its data would start: after the
    // 12-byte header and the 8-byte chunk header.
    EXPECT_EQ(r.faults()[0].where, "e.glb@byte 20 (line 1, column 1)");
}

TEST(GlbContainer, BufferLongerThanBinChunkIsRejected) {
    Rig rig = makeRig();
    rig.w.json()["buffers"][0]["byteLength"] = rig.w.bin().size() + 8;
    EXPECT_TRUE(faultAt(importGltf(rig.w.glbSource("b.glb")), "b.glb#/buffers/0/byteLength"));
}

// ---- flipped bytes: must import or fail cleanly, never crash ----------------------------

TEST(GlbContainer, FlippedBytesInGlbFailCleanly) {
    const auto glb = makeRig().w.glb();
    std::size_t rejected = 0;
    for (std::size_t i = 0; i < glb.size(); ++i) {
        for (const unsigned mask : {0xFFu, 0x01u, 0x80u}) {
            auto b = glb;
            b[i] ^= static_cast<std::byte>(mask);
            const auto r = importGltf(makeSource(b, "f.glb"));
            ASSERT_TRUE(cleanOutcome(r, "f.glb")) << "byte " << i << " ^ " << mask;
            rejected += !r.ok();
            if (i < 4 && mask == 0xFFu) {
                ASSERT_FALSE(r.ok());
                EXPECT_EQ(describe(r.faults()[0]).substr(0, 24), "f.glb@byte 0: bad magic:") << "broken magic";
            } else if (i >= 4 && i < 8) {
                ASSERT_FALSE(r.ok());
                EXPECT_EQ(r.faults()[0].where, "f.glb@byte 4") << "version byte " << i;
            }
        }
    }
    EXPECT_GT(rejected, glb.size());  // most flips break something
}

TEST(GlbContainer, FlippedBytesInJsonFailCleanly) {
    const std::string json = makeRig().w.gltf();
    for (std::size_t i = 0; i < json.size(); ++i) {
        for (const char c : {'\0', '0', '9', '-', '"', '}', ']', ',', 'e', '.'}) {
            if (json[i] == c) continue;
            std::string damaged = json;
            damaged[i] = c;
            const auto r = importGltf(makeSource(damaged, "f.gltf"));
            ASSERT_TRUE(cleanOutcome(r, "f.gltf")) << "byte " << i << " = '" << c << "'";
        }
    }
}

TEST(GlbContainer, RandomMutationsFailCleanly) {
    // Several bytes at once, deterministic: overwrite, insert or delete small runs.
    const Rig rig = makeRig();
    const std::vector<std::vector<std::byte>> seeds = {rig.w.glb(), toBytes(rig.w.gltf())};
    std::mt19937 rng(20240611);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(4);
    int runs = 0;
    for (; runs < 4000 && std::chrono::steady_clock::now() < deadline; ++runs) {
        std::vector<std::byte> b = seeds[static_cast<std::size_t>(runs) % seeds.size()];
        const int edits = 1 + static_cast<int>(rng() % 8);
        for (int e = 0; e < edits && !b.empty(); ++e) {
            const std::size_t at = rng() % b.size();
            switch (rng() % 4) {
                case 0: b[at] = static_cast<std::byte>(rng() & 0xFF); break;
                case 1:
                    b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::byte>(rng() & 0xFF));
                    break;
                case 2: b.erase(b.begin() + static_cast<std::ptrdiff_t>(at)); break;
                default: {  // a digit run that may turn a number huge
                    const char digits[] = "99999999999999999999";
                    const std::size_t n = 1 + rng() % 20;
                    for (std::size_t k = 0; k < n && at + k < b.size(); ++k)
                        b[at + k] = static_cast<std::byte>(digits[k]);
                }
            }
        }
        const auto r = importGltf(makeSource(b, "m.bin"));
        ASSERT_TRUE(cleanOutcome(r, "m.bin")) << "run " << runs;
    }
    EXPECT_GT(runs, 100);
}

}  // namespace
}  // namespace kinema::test
