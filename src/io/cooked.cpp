#include "kinema/io/cooked.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include <simdjson.h>

#include "kinema/core/counted.hpp"
#include "kinema/io/gltf.hpp"

// Layout (docs/COOKED.md): a 48-byte header, then sections, each a 16-byte section
// header {tag, 0, body length} and its body. Every integer and float is
// little-endian; a string is a u32 byte count and its bytes; an array is its
// elements back to back, its count written before it.

namespace kinema {
namespace {

constexpr std::array<char, 8> kMagic{'K', 'N', 'M', 'C', 'O', 'O', 'K', '\0'};
constexpr std::uint32_t kByteOrderMark = 0x0A0B0C0Du;
constexpr std::size_t kHeaderBytes = 48;
constexpr std::size_t kSectionHeaderBytes = 16;
constexpr std::uint32_t kSectionCount = 6;
// No name in a model is longer; a longer one is damage, not data.
constexpr std::uint32_t kMaxString = 1u << 16;

constexpr std::uint32_t tag(char a, char b, char c, char d) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(a)) |
        static_cast<std::uint32_t>(static_cast<unsigned char>(b)) << 8 |
        static_cast<std::uint32_t>(static_cast<unsigned char>(c)) << 16 |
        static_cast<std::uint32_t>(static_cast<unsigned char>(d)) << 24;
}
constexpr std::uint32_t kSkeletonTag = tag('S', 'K', 'E', 'L');
constexpr std::uint32_t kLayoutTag = tag('N', 'O', 'D', 'E');
constexpr std::uint32_t kSkinsTag = tag('S', 'K', 'I', 'N');
constexpr std::uint32_t kClipsTag = tag('C', 'L', 'I', 'P');
constexpr std::uint32_t kStateMachinesTag = tag('S', 'T', 'A', 'T');
constexpr std::uint32_t kDrawingTag = tag('M', 'E', 'S', 'H');

std::string tagName(std::uint32_t t) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        const auto c = static_cast<char>((t >> (8 * i)) & 0xffu);
        s += c >= 0x20 && c < 0x7f ? c : '?';
    }
    return s;
}

// How a clip's joint names are stored.
enum class ClipNames : std::uint8_t { None = 0, Skeleton = 1, Own = 2 };
// How a clip's joint tracks are stored: in its track list, or compressed after it.
enum class ClipEncoding : std::uint8_t { Exact = 0, Compressed = 1 };

// ---------------------------------------------------------------------------
// Writing.

class ByteWriter {
public:
    std::vector<std::byte>& bytes() noexcept { return out_; }

    template <class T>
    void scalar(T value) {
        static_assert(sizeof(T) <= 8);
        std::array<std::byte, sizeof(T)> raw;
        std::memcpy(raw.data(), &value, sizeof(T));
        if constexpr (std::endian::native == std::endian::big) std::reverse(raw.begin(), raw.end());
        out_.insert(out_.end(), raw.begin(), raw.end());
    }
    template <class T>
    void array(std::span<const T> values) {
        if constexpr (std::endian::native == std::endian::little) {
            const auto* p = reinterpret_cast<const std::byte*>(values.data());
            out_.insert(out_.end(), p, p + values.size_bytes());
        } else {
            for (const T& v : values) scalar(v);
        }
    }
    void count(std::size_t n) { scalar(static_cast<std::uint32_t>(n)); }
    void string(std::string_view s) {
        count(s.size());
        const auto* p = reinterpret_cast<const std::byte*>(s.data());
        out_.insert(out_.end(), p, p + s.size());
    }
    // Starts a section; finish it with endSection(the returned mark).
    std::size_t beginSection(std::uint32_t sectionTag) {
        scalar(sectionTag);
        scalar(std::uint32_t{0});
        const std::size_t mark = out_.size();
        scalar(std::uint64_t{0});
        return mark;
    }
    void endSection(std::size_t mark) {
        const std::uint64_t length = out_.size() - mark - 8;
        patch(mark, length);
    }
    void patch(std::size_t at, std::uint64_t value) {
        for (std::size_t i = 0; i < 8; ++i) out_[at + i] = static_cast<std::byte>((value >> (8 * i)) & 0xffu);
    }

private:
    std::vector<std::byte> out_;
};

void writeTransforms(ByteWriter& w, std::span<const Transform> rest) {
    for (const Transform& t : rest) {
        const float v[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                             t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
        w.array(std::span<const float>(v));
    }
}

void writeTrack(ByteWriter& w, const Track& t) {
    w.scalar(t.target);
    w.scalar(static_cast<std::uint8_t>(t.path));
    w.scalar(static_cast<std::uint8_t>(t.interpolation));
    w.scalar(std::uint16_t{0});
    w.scalar(t.width);
    w.scalar(t.weightOffset);
    w.count(t.times.size());
    w.count(t.values.size());
    w.array(std::span<const float>(t.times));
    w.array(std::span<const float>(t.values));
}

void writeCompressed(ByteWriter& w, const CompressedClip& c) {
    w.scalar(c.sampleRate);
    w.scalar(c.samples);
    w.scalar(c.duration);
    w.scalar(c.segmentKeys);
    w.scalar(c.error.max);
    w.scalar(c.error.p99);
    w.scalar(c.error.worstJoint);
    w.scalar(c.error.worstTime);
    w.scalar(c.error.measurements);
    w.count(c.tracks.size());
    for (const CompressedTrack& t : c.tracks) {
        w.scalar(t.target);
        w.scalar(static_cast<std::uint8_t>(t.path));
        w.scalar(static_cast<std::uint8_t>(t.form));
        w.scalar(t.stride);
        w.scalar(t.dropped);
        switch (t.form) {
            case TrackForm::Default: break;
            case TrackForm::Constant: w.array(std::span<const float>(t.constant)); break;
            case TrackForm::Quantized:
                w.array(std::span<const float>(t.minimum));
                w.array(std::span<const float>(t.extent));
                w.count(t.times.size());
                w.array(std::span<const float>(t.times));
                w.count(t.segments.size());
                // One segment spans the track's range: only its width is stored.
                for (const QuantizedSegment& s : t.segments) {
                    w.scalar(s.bits);
                    if (t.segments.size() == 1) continue;
                    for (std::size_t k = 0; k < 3; ++k) {
                        w.scalar(s.low[k]);
                        w.scalar(s.span[k]);
                    }
                }
                w.count(t.packed.size());
                w.array(std::span<const std::uint8_t>(t.packed));
                break;
            case TrackForm::Exact: writeTrack(w, t.exact); break;
        }
    }
}

void writeClip(ByteWriter& w, const Clip& clip, std::span<const std::string> skeletonNames,
               const CompressedClip* compressed) {
    w.string(clip.name());
    w.scalar(clip.length());
    const auto names = clip.jointNames();
    if (names.empty()) {
        w.scalar(static_cast<std::uint8_t>(ClipNames::None));
    } else if (std::equal(names.begin(), names.end(), skeletonNames.begin(), skeletonNames.end())) {
        w.scalar(static_cast<std::uint8_t>(ClipNames::Skeleton));
    } else {
        w.scalar(static_cast<std::uint8_t>(ClipNames::Own));
        w.count(names.size());
        for (const std::string& n : names) w.string(n);
    }
    // Compressed: the track list holds the morph weight tracks, the joint tracks follow compressed.
    std::vector<const Track*> tracks;
    for (const Track& t : clip.tracks()) {
        if (compressed == nullptr || t.path == TrackPath::Weights) tracks.push_back(&t);
    }
    w.count(tracks.size());
    for (const Track* t : tracks) writeTrack(w, *t);
    w.count(clip.markers().size());
    for (const Marker& m : clip.markers()) {
        w.string(m.name);
        w.scalar(m.time);
    }
    w.count(clip.curves().size());
    for (const CurveTrack& c : clip.curves()) {
        w.string(c.name);
        w.scalar(static_cast<std::uint8_t>(c.interpolation));
        w.count(c.times.size());
        w.array(std::span<const float>(c.times));
        w.array(std::span<const float>(c.values));
    }
    w.scalar(static_cast<std::uint8_t>(compressed != nullptr ? ClipEncoding::Compressed : ClipEncoding::Exact));
    if (compressed != nullptr) writeCompressed(w, *compressed);
}

void writeStateMachine(ByteWriter& w, const CookedStateMachine& machine) {
    const StateMachineDesc& d = machine.desc;
    w.string(machine.name);
    w.string(d.defaultState);
    w.count(d.parameters.size());
    for (const ParameterDesc& p : d.parameters) {
        w.string(p.name);
        w.scalar(static_cast<std::uint8_t>(p.type));
        w.scalar(p.defaultValue);
    }
    w.count(d.states.size());
    for (const StateDesc& st : d.states) {
        w.string(st.name);
        w.string(st.clip.value_or(""));  // a state without a blend space has a clip, "" included
        w.scalar(st.speed);
        w.string(st.speedParameter);
        w.scalar(static_cast<std::uint8_t>(st.mode));
        w.scalar(static_cast<std::uint8_t>(st.blendSpace ? 1 : 0));
        if (!st.blendSpace) continue;
        const BlendSpaceDesc& b = *st.blendSpace;
        w.scalar(b.dimensions);
        w.string(b.xParameter);
        w.string(b.yParameter);
        w.scalar(static_cast<std::uint8_t>(b.sync));
        w.count(b.clips.size());
        for (const BlendSpaceClipDesc& c : b.clips) {
            w.string(c.clip);
            w.scalar(c.x);
            w.scalar(c.y);
        }
    }
    w.count(d.transitions.size());
    for (const TransitionDesc& t : d.transitions) {
        w.string(t.from);
        w.string(t.to);
        w.scalar(t.duration);
        w.scalar(static_cast<std::uint8_t>(t.easing));
        w.scalar(static_cast<std::uint8_t>(t.exitTime ? 1 : 0));
        w.scalar(t.exitTime.value_or(0.0f));
        w.scalar(t.offset);
        w.scalar(static_cast<std::uint8_t>(t.syncMarkers ? 1 : 0));
        w.scalar(static_cast<std::uint8_t>(t.interruption));
        w.scalar(static_cast<std::uint8_t>(t.canTransitionToSelf ? 1 : 0));
        w.string(t.predicate);
        w.count(t.conditions.size());
        for (const ConditionDesc& c : t.conditions) {
            w.string(c.parameter);
            w.scalar(static_cast<std::uint8_t>(c.op));
            w.scalar(c.value);
        }
    }
}

// What draws the model: meshes and their instances, materials, textures, images
// (decoded RGBA8 pixels when the model holds them), scenes and cameras.
template <class T, std::size_t N>
void writeArrays(ByteWriter& w, const std::vector<std::array<T, N>>& values) {
    w.array(std::span<const T>(values.empty() ? nullptr : values.front().data(), values.size() * N));
}

void writeVec3s(ByteWriter& w, const std::vector<Vec3>& values) {
    static_assert(sizeof(Vec3) == 3 * sizeof(float));
    w.array(std::span<const float>(values.empty() ? nullptr : &values.front().x, values.size() * 3));
}

void writeDrawing(ByteWriter& w, const Model& model) {
    w.count(model.meshes.size());
    for (const Mesh& mesh : model.meshes) {
        w.string(mesh.name);
        w.scalar(mesh.targetCount);
        w.count(mesh.weights.size());
        w.array(std::span<const float>(mesh.weights));
        w.count(mesh.targetNames.size());
        for (const std::string& n : mesh.targetNames) w.string(n);
        w.count(mesh.primitives.size());
        for (const MeshPrimitive& p : mesh.primitives) {
            const std::size_t n = p.vertexCount();
            w.scalar(static_cast<std::uint8_t>(p.mode));
            w.scalar(static_cast<std::uint8_t>(!p.normals.empty()));
            w.scalar(static_cast<std::uint8_t>(!p.texcoords.empty()));
            w.scalar(static_cast<std::uint8_t>(!p.colors.empty()));
            w.scalar(p.material);
            w.count(n);
            writeVec3s(w, p.positions);
            writeVec3s(w, p.normals);
            writeArrays(w, p.texcoords);
            writeArrays(w, p.colors);
            w.scalar(p.influencesPerVertex);
            w.array(std::span<const std::uint16_t>(p.joints));
            w.array(std::span<const float>(p.weights));
            w.count(p.indices.size());
            w.array(std::span<const std::uint32_t>(p.indices));
            for (const MorphTarget& t : p.targets) {
                w.scalar(static_cast<std::uint8_t>(!t.positions.empty()));
                w.scalar(static_cast<std::uint8_t>(!t.normals.empty()));
                writeVec3s(w, t.positions);
                writeVec3s(w, t.normals);
            }
        }
    }
    w.count(model.meshInstances.size());
    for (const MeshInstance& mi : model.meshInstances) {
        w.scalar(mi.joint);
        w.scalar(mi.mesh);
        w.scalar(mi.skin);
        w.scalar(mi.weightOffset);
    }
    w.count(model.materials.size());
    for (const Material& m : model.materials) {
        w.string(m.name);
        w.array(std::span<const float>(m.baseColorFactor));
        w.scalar(static_cast<std::uint8_t>(m.baseColorTexture.has_value()));
        w.scalar(m.baseColorTexture ? m.baseColorTexture->texture : 0u);
        w.scalar(m.baseColorTexture ? m.baseColorTexture->texCoord : 0u);
        w.scalar(static_cast<std::uint8_t>(m.alphaMode));
        w.scalar(m.alphaCutoff);
        w.scalar(static_cast<std::uint8_t>(m.doubleSided));
    }
    w.count(model.textures.size());
    for (const Texture& t : model.textures) {
        w.scalar(t.image);
        w.scalar(t.sampler);
        for (const auto v : {static_cast<std::uint8_t>(t.magFilter), static_cast<std::uint8_t>(t.minFilter),
                             static_cast<std::uint8_t>(t.mipmapFilter), static_cast<std::uint8_t>(t.wrapS),
                             static_cast<std::uint8_t>(t.wrapT)}) {
            w.scalar(v);
        }
    }
    w.count(model.images.size());
    const bool decoded = !model.decodedImages.empty();
    w.scalar(static_cast<std::uint8_t>(decoded));
    for (std::size_t i = 0; i < model.images.size(); ++i) {
        w.string(model.images[i].name);
        w.string(model.images[i].mimeType);
        if (!decoded) continue;
        const ImageRGBA8& image = model.decodedImages[i];
        w.scalar(image.width);
        w.scalar(image.height);
        w.array(std::span<const std::uint8_t>(image.pixels));
    }
    w.count(model.scenes.size());
    for (const SceneRoots& scene : model.scenes) {
        w.string(scene.name);
        w.count(scene.roots.size());
        w.array(std::span<const std::uint32_t>(scene.roots));
    }
    w.scalar(model.defaultScene);
    w.count(model.cameras.size());
    for (const Camera& c : model.cameras) {
        w.string(c.name);
        w.scalar(static_cast<std::uint8_t>(c.projection));
        w.scalar(static_cast<std::uint8_t>(c.aspectRatio.has_value()));
        w.scalar(static_cast<std::uint8_t>(c.zfar.has_value()));
        const float v[7] = {c.yfov, c.aspectRatio.value_or(0.0f), c.xmag, c.ymag, c.znear, c.zfar.value_or(0.0f), 0.0f};
        w.array(std::span<const float>(v, 6));
    }
    w.count(model.cameraInstances.size());
    for (const CameraInstance& ci : model.cameraInstances) {
        w.scalar(ci.joint);
        w.scalar(ci.camera);
    }
}

std::uint64_t fnv1a(std::span<const std::byte> bytes, std::uint64_t h = 0xcbf29ce484222325ull) noexcept {
    for (const std::byte b : bytes) {
        h ^= static_cast<std::uint64_t>(b);
        h *= 0x100000001b3ull;
    }
    return h;
}

// The checksum covers the whole file but its own field (bytes 32..39): the header's
// source hash included, so no flipped bit anywhere reads as a valid file.
std::uint64_t checksumOf(std::span<const std::byte> file) noexcept {
    return fnv1a(file.subspan(40), fnv1a(file.first(32)));
}

// ---------------------------------------------------------------------------
// Reading.

// A cursor over [begin, end) of the file that checks every read against the bytes
// left. A failed read records the offset and why; the caller adds what it was reading.
class ByteReader {
public:
    ByteReader(std::span<const std::byte> file, std::size_t begin, std::size_t end) noexcept
        : file_(file), pos_(begin), end_(end) {}

    std::size_t offset() const noexcept { return pos_; }
    std::size_t left() const noexcept { return end_ - pos_; }
    std::size_t failedAt() const noexcept { return failedAt_; }
    const std::string& why() const noexcept { return why_; }

    template <class T>
    bool scalar(T& out) {
        if (!need(sizeof(T), 1)) return false;
        std::array<std::byte, sizeof(T)> raw;
        std::memcpy(raw.data(), file_.data() + pos_, sizeof(T));
        if constexpr (std::endian::native == std::endian::big) std::reverse(raw.begin(), raw.end());
        std::memcpy(&out, raw.data(), sizeof(T));
        pos_ += sizeof(T);
        return true;
    }
    // `count` elements, checked against the bytes left before anything is allocated.
    template <class T>
    bool array(std::vector<T>& out, std::size_t count) {
        if (!need(sizeof(T), count)) return false;
        out.resize(count);
        if constexpr (std::endian::native == std::endian::little) {
            if (count != 0) std::memcpy(out.data(), file_.data() + pos_, count * sizeof(T));
            pos_ += count * sizeof(T);
        } else {
            for (T& v : out) (void)scalar(v);
        }
        return true;
    }
    bool string(std::string& out) {
        std::uint32_t n = 0;
        const std::size_t at = pos_;
        if (!scalar(n)) return false;
        if (n > kMaxString) {
            failedAt_ = at;
            why_ = "a name of " + std::to_string(n) + " bytes (at most " + std::to_string(kMaxString) + ")";
            return false;
        }
        if (!need(1, n)) return false;
        const char* text = reinterpret_cast<const char*>(file_.data() + pos_);
        // Names are UTF-8, as in glTF: they reach JSON output and logs as they are.
        if (!simdjson::validate_utf8(text, n)) {
            failedAt_ = pos_;
            why_ = "a name that is not UTF-8";
            return false;
        }
        out.assign(text, n);
        pos_ += n;
        return true;
    }
    // A count that is then read as `count` items of at least `minBytes` each.
    bool count(std::uint32_t& out, std::size_t minBytes) {
        const std::size_t at = pos_;
        if (!scalar(out)) return false;
        if (static_cast<std::uint64_t>(out) * minBytes > left()) {
            failedAt_ = at;
            why_ = "a count of " + std::to_string(out) + " needs at least " +
                counted(static_cast<std::uint64_t>(out) * minBytes, "byte") + ", " + leftText();
            return false;
        }
        return true;
    }

private:
    // "1 is left", "5 are left".
    std::string leftText() const { return std::to_string(left()) + (left() == 1 ? " is left" : " are left"); }

    bool need(std::size_t size, std::size_t count) {
        if (count > left() / size) {
            failedAt_ = pos_;
            why_ = "needs " + counted(static_cast<std::uint64_t>(count) * size, "byte") + ", " + leftText();
            return false;
        }
        return true;
    }

    std::span<const std::byte> file_;
    std::size_t pos_;
    std::size_t end_;
    std::size_t failedAt_ = 0;
    std::string why_;
};

struct Header {
    std::uint64_t size = 0;
    std::uint64_t sourceHash = 0;
    std::uint64_t checksum = 0;
    std::uint32_t sections = 0;
};

Fault atByte(const std::string& source, std::size_t offset, std::string what) {
    return {source + "@byte " + std::to_string(offset), std::move(what)};
}

Fault readFault(const std::string& source, const ByteReader& r, const std::string& reading) {
    return atByte(source, r.failedAt(), reading + ": " + r.why());
}

Result<Header> readHeader(std::span<const std::byte> bytes, const std::string& source) {
    if (bytes.size() < kMagic.size() || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0) {
        return atByte(source, 0, "not a kinema cooked file (no \"KNMCOOK\" magic)");
    }
    if (bytes.size() < kHeaderBytes) {
        return atByte(source, bytes.size(),
                      "truncated: the header needs " + counted(kHeaderBytes, "byte") + ", the file has " +
                          std::to_string(bytes.size()));
    }
    ByteReader r(bytes, kMagic.size(), kHeaderBytes);
    std::uint32_t order = 0, version = 0, reserved = 0;
    Header h;
    (void)r.scalar(order);
    if (order != kByteOrderMark) {
        if (order == 0x0D0C0B0Au) {  // the mark's bytes reversed
            return atByte(source, 8, "written in big-endian byte order; cooked files are little-endian");
        }
        return atByte(source, 8, "byte order mark damaged");
    }
    (void)r.scalar(version);
    if (version != kCookedVersion) {
        return atByte(source, 12,
                      "format version " + std::to_string(version) + "; this build reads version " +
                          std::to_string(kCookedVersion) + " (cook the source again)");
    }
    (void)r.scalar(h.size);
    (void)r.scalar(h.sourceHash);
    (void)r.scalar(h.checksum);
    (void)r.scalar(h.sections);
    (void)r.scalar(reserved);
    if (h.size != bytes.size()) {
        return atByte(source, 16,
                      "the header says " + counted(h.size, "byte") + ", the file has " + std::to_string(bytes.size()) +
                          (h.size > bytes.size() ? " (truncated)" : ""));
    }
    if (h.sections != kSectionCount) {
        return atByte(source, 40,
                      std::to_string(h.sections) + " sections; version " + std::to_string(kCookedVersion) +
                          " files have " + std::to_string(kSectionCount));
    }
    if (reserved != 0) return atByte(source, 44, "reserved header field is not 0");
    return h;
}

Result<Skeleton> readSkeleton(ByteReader& r, const std::string& source) {
    std::uint32_t n = 0;
    if (!r.count(n, 4 + 4 + 40)) return readFault(source, r, "skeleton joint count");
    std::vector<JointDesc> joints(n);
    for (std::uint32_t j = 0; j < n; ++j) {
        if (!r.string(joints[j].name)) return readFault(source, r, "skeleton joint " + std::to_string(j) + " name");
    }
    std::vector<std::int32_t> parents;
    std::vector<float> rest;
    if (!r.array(parents, n)) return readFault(source, r, "skeleton parents");
    if (!r.array(rest, std::size_t{n} * 10)) return readFault(source, r, "skeleton rest pose");
    for (std::uint32_t j = 0; j < n; ++j) {
        const float* v = rest.data() + std::size_t{j} * 10;
        joints[j].parent = parents[j];
        joints[j].rest = {{v[0], v[1], v[2]}, {v[3], v[4], v[5], v[6]}, {v[7], v[8], v[9]}};
    }
    auto skeleton = Skeleton::create(std::move(joints));
    if (!skeleton) {
        std::vector<Fault> faults(skeleton.faults().begin(), skeleton.faults().end());
        for (Fault& f : faults) f.where = source + "#skeleton/" + f.where;
        return faults;
    }
    return std::move(skeleton).value();
}

bool readLayout(ByteReader& r, const std::string& source, Model& model, std::vector<Fault>& faults) {
    const std::size_t joints = model.skeleton.jointCount();
    std::uint32_t nodes = 0, weights = 0;
    if (!r.count(nodes, 4) || !r.array(model.jointOfNode, nodes) || !r.array(model.nodeOfJoint, joints) ||
        !r.array(model.weightOffsetOfJoint, joints)) {
        faults.push_back(readFault(source, r, "node layout"));
        return false;
    }
    if (!r.count(weights, 4) || !r.array(model.restWeights, weights)) {
        faults.push_back(readFault(source, r, "rest morph weights"));
        return false;
    }
    return true;
}

bool readSkins(ByteReader& r, const std::string& source, Model& model, std::vector<Fault>& faults) {
    std::uint32_t n = 0;
    if (!r.count(n, 4 + 4 + 8 + 4)) {
        faults.push_back(readFault(source, r, "skin count"));
        return false;
    }
    model.skins.resize(n);
    for (std::uint32_t k = 0; k < n; ++k) {
        Skin& skin = model.skins[k];
        std::uint32_t joints = 0;
        std::vector<float> matrices;
        if (!r.string(skin.name) || !r.scalar(skin.root)) {
            faults.push_back(readFault(source, r, "skin " + std::to_string(k)));
            return false;
        }
        const std::size_t fingerprintAt = r.offset();
        if (!r.scalar(skin.skeleton) || !r.count(joints, 4 + 64) || !r.array(skin.joints, joints) ||
            !r.array(matrices, std::size_t{joints} * 16)) {
            faults.push_back(readFault(source, r, "skin " + std::to_string(k)));
            return false;
        }
        // The skeleton section came first: a skin names it by its fingerprint (or 0).
        if (skin.skeleton != 0 && skin.skeleton != model.skeleton.fingerprint()) {
            faults.push_back(
                atByte(source, fingerprintAt,
                       "skin " + std::to_string(k) + ": its skeleton fingerprint is not the file's skeleton's"));
            return false;
        }
        skin.inverseBindMatrices.resize(joints);
        for (std::uint32_t j = 0; j < joints; ++j) {
            std::copy_n(matrices.data() + std::size_t{j} * 16, 16, skin.inverseBindMatrices[j].m.begin());
        }
    }
    return true;
}

// One track record; `at` names it in faults.
bool readTrack(ByteReader& r, const std::string& source, const std::string& at, Track& track,
               std::vector<Fault>& faults) {
    std::uint8_t path = 0, interpolation = 0;
    std::uint16_t reserved = 0;
    std::uint32_t keys = 0, values = 0;
    const std::size_t trackAt = r.offset();
    if (!r.scalar(track.target) || !r.scalar(path) || !r.scalar(interpolation) || !r.scalar(reserved) ||
        !r.scalar(track.width) || !r.scalar(track.weightOffset) || !r.scalar(keys) || !r.scalar(values) ||
        !r.array(track.times, keys) || !r.array(track.values, values)) {
        faults.push_back(readFault(source, r, at));
        return false;
    }
    if (path > static_cast<std::uint8_t>(TrackPath::Weights) ||
        interpolation > static_cast<std::uint8_t>(Interpolation::CubicSpline) || reserved != 0) {
        faults.push_back(atByte(source, trackAt + 4, at + ": unknown path or interpolation, or reserved bits set"));
        return false;
    }
    track.path = static_cast<TrackPath>(path);
    track.interpolation = static_cast<Interpolation>(interpolation);
    return true;
}

// A clip's compressed joint tracks; their values are checked by decompressClip.
bool readCompressed(ByteReader& r, const std::string& source, const std::string& at, CompressedClip& c,
                    std::vector<Fault>& faults) {
    const auto failed = [&](const std::string& what) {
        faults.push_back(readFault(source, r, at + " " + what));
        return false;
    };
    std::uint32_t count = 0;
    if (!r.scalar(c.sampleRate) || !r.scalar(c.samples) || !r.scalar(c.duration) || !r.scalar(c.segmentKeys) ||
        !r.scalar(c.error.max) || !r.scalar(c.error.p99) || !r.scalar(c.error.worstJoint) ||
        !r.scalar(c.error.worstTime) || !r.scalar(c.error.measurements)) {
        return failed("compressed clip header");
    }
    if (!r.count(count, 8)) return failed("compressed track count");
    c.tracks.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        CompressedTrack& t = c.tracks[i];
        const std::string track = "compressed track " + std::to_string(i);
        std::uint8_t path = 0, form = 0;
        const std::size_t trackAt = r.offset();
        if (!r.scalar(t.target) || !r.scalar(path) || !r.scalar(form) || !r.scalar(t.stride) || !r.scalar(t.dropped))
            return failed(track);
        if (path > static_cast<std::uint8_t>(TrackPath::Scale) || form > static_cast<std::uint8_t>(TrackForm::Exact)) {
            faults.push_back(atByte(source, trackAt + 4, at + " " + track + ": unknown path or form"));
            return false;
        }
        t.path = static_cast<TrackPath>(path);
        t.form = static_cast<TrackForm>(form);
        std::uint32_t n = 0;
        switch (t.form) {
            case TrackForm::Default: break;
            case TrackForm::Constant:
                if (!r.array(t.constant, 3)) return failed(track);
                break;
            case TrackForm::Quantized:
                if (!r.array(t.minimum, 3) || !r.array(t.extent, 3) || !r.count(n, 4) || !r.array(t.times, n) ||
                    !r.count(n, 1)) {
                    return failed(track);
                }
                t.segments.assign(n, QuantizedSegment{0, {0, 0, 0}, {255, 255, 255}});
                for (QuantizedSegment& s : t.segments) {
                    bool read = r.scalar(s.bits);
                    for (std::size_t k = 0; k < 3 && n > 1; ++k)
                        read = read && r.scalar(s.low[k]) && r.scalar(s.span[k]);
                    if (!read) return failed(track);
                }
                if (!r.count(n, 1) || !r.array(t.packed, n)) return failed(track);
                break;
            case TrackForm::Exact:
                if (!readTrack(r, source, at + " " + track, t.exact, faults)) return false;
                break;
        }
    }
    return true;
}

// One clip, validated as Clip::create and its with* steps validate clips built in code.
bool readClip(ByteReader& r, const std::string& source, std::size_t index,
              const std::shared_ptr<const std::vector<std::string>>& skeletonNames, CookedModel& cooked,
              std::vector<Fault>& faults) {
    const std::string at = "clip " + std::to_string(index);
    const auto failed = [&](const std::string& what) {
        faults.push_back(readFault(source, r, at + " " + what));
        return false;
    };
    std::string name;
    float length = 0.0f;
    std::uint8_t naming = 0;
    if (!r.string(name) || !r.scalar(length)) return failed("name and length");
    const std::size_t namingAt = r.offset();
    if (!r.scalar(naming)) return failed("joint names");
    std::shared_ptr<const std::vector<std::string>> names;
    if (naming == static_cast<std::uint8_t>(ClipNames::Skeleton)) {
        names = skeletonNames;
    } else if (naming == static_cast<std::uint8_t>(ClipNames::Own)) {
        std::uint32_t n = 0;
        if (!r.count(n, 4)) return failed("joint name count");
        auto own = std::make_shared<std::vector<std::string>>(n);
        for (std::string& s : *own) {
            if (!r.string(s)) return failed("joint names");
        }
        names = std::move(own);
    } else if (naming != static_cast<std::uint8_t>(ClipNames::None)) {
        faults.push_back(atByte(source, namingAt, at + " joint names: unknown kind " + std::to_string(naming)));
        return false;
    }
    std::uint32_t count = 0;
    if (!r.count(count, 24)) return failed("track count");
    std::vector<Track> tracks(count);
    for (std::uint32_t t = 0; t < count; ++t) {
        if (!readTrack(r, source, at + " track " + std::to_string(t), tracks[t], faults)) return false;
    }
    if (!r.count(count, 8)) return failed("marker count");
    std::vector<Marker> markers(count);
    for (std::uint32_t m = 0; m < count; ++m) {
        if (!r.string(markers[m].name) || !r.scalar(markers[m].time)) return failed("marker " + std::to_string(m));
    }
    if (!r.count(count, 9)) return failed("curve count");
    std::vector<CurveTrack> curves(count);
    for (std::uint32_t c = 0; c < count; ++c) {
        CurveTrack& curve = curves[c];
        std::uint8_t interpolation = 0;
        std::uint32_t keys = 0;
        const std::size_t curveAt = r.offset();
        if (!r.string(curve.name) || !r.scalar(interpolation) || !r.scalar(keys) || !r.array(curve.times, keys) ||
            !r.array(curve.values, keys)) {
            return failed("curve " + std::to_string(c));
        }
        if (interpolation > static_cast<std::uint8_t>(Interpolation::CubicSpline)) {
            faults.push_back(atByte(source, curveAt, at + " curve " + std::to_string(c) + ": unknown interpolation"));
            return false;
        }
        curve.interpolation = static_cast<Interpolation>(interpolation);
    }
    const std::size_t encodingAt = r.offset();
    std::uint8_t encoding = 0;
    if (!r.scalar(encoding)) return failed("encoding");
    CompressedClip compressed;
    if (encoding == static_cast<std::uint8_t>(ClipEncoding::Compressed)) {
        if (!readCompressed(r, source, at, compressed, faults)) return false;
        for (std::size_t t = 0; t < tracks.size(); ++t) {
            if (tracks[t].path != TrackPath::Weights) {
                faults.push_back(
                    atByte(source, encodingAt,
                           at + " track " + std::to_string(t) + ": a joint track in the list of a compressed clip"));
                return false;
            }
        }
    } else if (encoding != static_cast<std::uint8_t>(ClipEncoding::Exact)) {
        faults.push_back(atByte(source, encodingAt, at + " encoding: unknown kind " + std::to_string(encoding)));
        return false;
    }
    const std::string where = source + "#clips/" + std::to_string(index) + "/";
    const auto located = [&](const auto& result) {
        for (const Fault& f : result.faults()) faults.push_back({where + f.where, f.what});
        return false;
    };
    auto clip = Clip::create(std::move(name), std::move(tracks), std::move(markers), std::move(names));
    if (!clip) return located(clip);
    if (!curves.empty()) {
        auto withCurves = clip->withCurves(std::move(curves));
        if (!withCurves) return located(withCurves);
        clip = std::move(withCurves);
    }
    if (length != 0.0f) {
        auto withLength = clip->withLength(length);
        if (!withLength) return located(withLength);
        clip = std::move(withLength);
    }
    if (!compressed.tracks.empty()) {
        // The clip so far holds the name, markers, curves, length and morph weights.
        auto rebuilt = decompressClip(compressed, *clip);
        if (!rebuilt) return located(rebuilt);
        clip = std::move(rebuilt);
    }
    cooked.model.clips.push_back(std::move(clip).value());
    cooked.compressedClips.push_back(std::move(compressed));
    return true;
}

bool readClips(ByteReader& r, const std::string& source, CookedModel& cooked, std::vector<Fault>& faults) {
    Model& model = cooked.model;
    std::uint32_t n = 0;
    if (!r.count(n, 4 + 4 + 1 + 12)) {
        faults.push_back(readFault(source, r, "clip count"));
        return false;
    }
    const auto names = model.skeleton.names();
    const auto skeletonNames = std::make_shared<const std::vector<std::string>>(names.begin(), names.end());
    model.clips.reserve(n);
    cooked.compressedClips.reserve(n);
    for (std::uint32_t c = 0; c < n; ++c) {
        if (!readClip(r, source, c, skeletonNames, cooked, faults)) return false;
    }
    return true;
}

// A one-byte enumerator no greater than `last`.
template <class E>
bool readEnum(ByteReader& r, E& out, E last) {
    std::uint8_t v = 0;
    if (!r.scalar(v)) return false;
    if (v > static_cast<std::uint8_t>(last)) return false;
    out = static_cast<E>(v);
    return true;
}

bool readFlag(ByteReader& r, bool& out) {
    std::uint8_t v = 0;
    if (!r.scalar(v) || v > 1) return false;
    out = v != 0;
    return true;
}

// One state machine; enumerators out of range and flags other than 0 or 1 are
// faults at their byte. Its names and values are checked against the model's
// clips by the caller.
bool readStateMachine(ByteReader& r, const std::string& source, const std::string& at, CookedStateMachine& m,
                      std::vector<Fault>& faults) {
    const auto failed = [&](const std::string& what) {
        if (r.why().empty()) {
            faults.push_back(atByte(source, r.offset() - 1, at + " " + what + ": a value out of range"));
        } else {
            faults.push_back(readFault(source, r, at + " " + what));
        }
        return false;
    };
    StateMachineDesc& d = m.desc;
    std::uint32_t n = 0;
    if (!r.string(m.name) || !r.string(d.defaultState)) return failed("name");
    if (!r.count(n, 9)) return failed("parameter count");
    d.parameters.resize(n);
    for (ParameterDesc& p : d.parameters) {
        if (!r.string(p.name) || !readEnum(r, p.type, ParameterType::Trigger) || !r.scalar(p.defaultValue))
            return failed("parameter");
    }
    if (!r.count(n, 18)) return failed("state count");
    d.states.resize(n);
    for (StateDesc& st : d.states) {
        bool blend = false;
        std::string clip;
        if (!r.string(st.name) || !r.string(clip) || !r.scalar(st.speed) || !r.string(st.speedParameter) ||
            !readEnum(r, st.mode, LoopMode::PingPong) || !readFlag(r, blend)) {
            return failed("state");
        }
        if (!blend || !clip.empty()) st.clip = std::move(clip);
        if (!blend) continue;
        BlendSpaceDesc& b = st.blendSpace.emplace();
        std::uint32_t clips = 0;
        if (!r.scalar(b.dimensions) || !r.string(b.xParameter) || !r.string(b.yParameter) ||
            !readEnum(r, b.sync, BlendSync::Markers) || !r.count(clips, 12)) {
            return failed("blend space");
        }
        b.clips.resize(clips);
        for (BlendSpaceClipDesc& c : b.clips) {
            if (!r.string(c.clip) || !r.scalar(c.x) || !r.scalar(c.y)) return failed("blend space clip");
        }
    }
    if (!r.count(n, 28)) return failed("transition count");
    d.transitions.resize(n);
    for (TransitionDesc& t : d.transitions) {
        bool hasExit = false;
        float exitTime = 0.0f;
        std::uint32_t conditions = 0;
        if (!r.string(t.from) || !r.string(t.to) || !r.scalar(t.duration) ||
            !readEnum(r, t.easing, static_cast<Easing>(kEasingCount - 1)) || !readFlag(r, hasExit) ||
            !r.scalar(exitTime) || !r.scalar(t.offset) || !readFlag(r, t.syncMarkers) ||
            !readEnum(r, t.interruption, Interruption::DestinationThenSource) || !readFlag(r, t.canTransitionToSelf) ||
            !r.string(t.predicate) || !r.count(conditions, 9)) {
            return failed("transition");
        }
        if (hasExit) t.exitTime = exitTime;
        t.conditions.resize(conditions);
        for (ConditionDesc& c : t.conditions) {
            if (!r.string(c.parameter) || !readEnum(r, c.op, ConditionOp::IsFalse) || !r.scalar(c.value))
                return failed("condition");
        }
    }
    return true;
}

bool readStateMachines(ByteReader& r, const std::string& source, CookedModel& cooked, std::vector<Fault>& faults) {
    std::uint32_t n = 0;
    if (!r.count(n, 20)) {
        faults.push_back(readFault(source, r, "state machine count"));
        return false;
    }
    cooked.stateMachines.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!readStateMachine(r, source, "state machine " + std::to_string(i), cooked.stateMachines[i], faults))
            return false;
    }
    return true;
}

// Floats `count` x N into `out` (arrays of N), after the count is checked.
template <class T, std::size_t N>
bool readArrays(ByteReader& r, std::vector<std::array<T, N>>& out, std::size_t count) {
    std::vector<T> flat;
    if (!r.array(flat, count * N)) return false;
    out.resize(count);
    if (count != 0) std::memcpy(out.data(), flat.data(), flat.size() * sizeof(T));
    return true;
}

bool readVec3s(ByteReader& r, std::vector<Vec3>& out, std::size_t count) {
    std::vector<float> flat;
    if (!r.array(flat, count * 3)) return false;
    out.resize(count);
    for (std::size_t i = 0; i < count; ++i) out[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
    return true;
}

bool allFinite(std::span<const float> values) {
    return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
}

// The drawing section. Counts and enumerators are checked here, indices between the
// parts by findModelFaults; floats must be finite, as glTF accessors' are.
bool readDrawing(ByteReader& r, const std::string& source, Model& model, std::vector<Fault>& faults) {
    const auto failed = [&](const std::string& what) {
        if (r.why().empty()) {
            faults.push_back(atByte(source, r.offset() - 1, what + ": a value out of range"));
        } else {
            faults.push_back(readFault(source, r, what));
        }
        return false;
    };
    const auto notFinite = [&](const std::string& where) {
        faults.push_back({source + "#" + where, "a value that is not finite"});
        return false;
    };
    std::uint32_t n = 0;
    if (!r.count(n, 20)) return failed("mesh count");
    model.meshes.resize(n);
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        Mesh& mesh = model.meshes[m];
        const std::string at = "mesh " + std::to_string(m);
        std::uint32_t count = 0;
        if (!r.string(mesh.name)) return failed(at);
        const std::size_t targetCountAt = r.offset();
        if (!r.scalar(mesh.targetCount) || !r.count(count, 4) || !r.array(mesh.weights, count) || !r.count(count, 4)) {
            return failed(at);
        }
        mesh.targetNames.resize(count);
        for (std::string& name : mesh.targetNames) {
            if (!r.string(name)) return failed(at + " target names");
        }
        if (!allFinite(mesh.weights)) return notFinite("meshes/" + std::to_string(m) + "/weights");
        if (!r.count(count, 24)) return failed(at + " primitive count");
        // Every primitive carries one record per morph target: the count bounds them.
        if (static_cast<std::uint64_t>(mesh.targetCount) * 2 * count > r.left()) {
            faults.push_back(atByte(source, targetCountAt,
                                    at + " target count: " + std::to_string(mesh.targetCount) + " morph targets for " +
                                        counted(count, "primitive") + " need more bytes than the file has left"));
            return false;
        }
        mesh.primitives.resize(count);
        for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
            MeshPrimitive& prim = mesh.primitives[p];
            const std::string pat = at + " primitive " + std::to_string(p);
            bool normals = false, texcoords = false, colors = false;
            std::uint32_t vertices = 0, indices = 0;
            if (!readEnum(r, prim.mode, PrimitiveMode::TriangleFan) || !readFlag(r, normals) ||
                !readFlag(r, texcoords) || !readFlag(r, colors) || !r.scalar(prim.material) || !r.count(vertices, 12)) {
                return failed(pat);
            }
            if (!readVec3s(r, prim.positions, vertices) || !readVec3s(r, prim.normals, normals ? vertices : 0) ||
                !readArrays(r, prim.texcoords, texcoords ? vertices : 0) ||
                !readArrays(r, prim.colors, colors ? vertices : 0)) {
                return failed(pat + " vertices");
            }
            const std::size_t influencesAt = r.offset();
            if (!r.scalar(prim.influencesPerVertex)) return failed(pat + " vertices");
            const std::uint64_t influences = static_cast<std::uint64_t>(vertices) * prim.influencesPerVertex;
            if (influences * 6 > r.left()) {
                faults.push_back(atByte(source, influencesAt,
                                        pat + " influences: " + std::to_string(prim.influencesPerVertex) +
                                            " per vertex for " + counted(vertices, "vertex", "vertices") +
                                            " need more bytes than the file has left"));
                return false;
            }
            if (!r.array(prim.joints, static_cast<std::size_t>(influences)) ||
                !r.array(prim.weights, static_cast<std::size_t>(influences)) || !r.count(indices, 4) ||
                !r.array(prim.indices, indices)) {
                return failed(pat + " influences and indices");
            }
            prim.targets.resize(mesh.targetCount);
            for (MorphTarget& t : prim.targets) {
                bool positions = false, targetNormals = false;
                if (!readFlag(r, positions) || !readFlag(r, targetNormals) ||
                    !readVec3s(r, t.positions, positions ? vertices : 0) ||
                    !readVec3s(r, t.normals, targetNormals ? vertices : 0)) {
                    return failed(pat + " morph target");
                }
            }
            const std::string where = "meshes/" + std::to_string(m) + "/primitives/" + std::to_string(p);
            const auto floats = [](const auto& v) {
                return std::span<const float>(v.empty() ? nullptr : reinterpret_cast<const float*>(v.data()),
                                              v.size() * sizeof(v[0]) / sizeof(float));
            };
            bool finite = allFinite(floats(prim.positions)) && allFinite(floats(prim.normals)) &&
                allFinite(floats(prim.texcoords)) && allFinite(floats(prim.colors)) && allFinite(prim.weights);
            for (const MorphTarget& t : prim.targets)
                finite = finite && allFinite(floats(t.positions)) && allFinite(floats(t.normals));
            if (!finite) return notFinite(where);
            if (std::any_of(prim.weights.begin(), prim.weights.end(), [](float w) { return w < 0.0f; })) {
                faults.push_back({source + "#" + where + "/weights", "a negative weight"});
                return false;
            }
        }
    }
    if (!r.count(n, 16)) return failed("mesh instance count");
    model.meshInstances.resize(n);
    for (MeshInstance& mi : model.meshInstances) {
        if (!r.scalar(mi.joint) || !r.scalar(mi.mesh) || !r.scalar(mi.skin) || !r.scalar(mi.weightOffset))
            return failed("mesh instance");
    }
    if (!r.count(n, 35)) return failed("material count");
    model.materials.resize(n);
    for (std::size_t i = 0; i < model.materials.size(); ++i) {
        Material& m = model.materials[i];
        bool textured = false;
        TextureRef ref;
        if (!r.string(m.name)) return failed("material");
        for (float& f : m.baseColorFactor) {
            if (!r.scalar(f)) return failed("material");
        }
        if (!readFlag(r, textured) || !r.scalar(ref.texture) || !r.scalar(ref.texCoord) ||
            !readEnum(r, m.alphaMode, MaterialAlpha::Blend) || !r.scalar(m.alphaCutoff) ||
            !readFlag(r, m.doubleSided)) {
            return failed("material " + std::to_string(i));
        }
        if (textured) m.baseColorTexture = ref;
        if (!allFinite(m.baseColorFactor) || !std::isfinite(m.alphaCutoff) || m.alphaCutoff < 0.0f)
            return notFinite("materials/" + std::to_string(i));
    }
    if (!r.count(n, 13)) return failed("texture count");
    model.textures.resize(n);
    for (Texture& t : model.textures) {
        if (!r.scalar(t.image) || !r.scalar(t.sampler) || !readEnum(r, t.magFilter, SamplerFilter::Linear) ||
            !readEnum(r, t.minFilter, SamplerFilter::Linear) || !readEnum(r, t.mipmapFilter, SamplerMipmap::Linear) ||
            !readEnum(r, t.wrapS, SamplerWrap::ClampToEdge) || !readEnum(r, t.wrapT, SamplerWrap::ClampToEdge)) {
            return failed("texture");
        }
    }
    bool decoded = false;
    if (!r.count(n, 8) || !readFlag(r, decoded)) return failed("image count");
    model.images.resize(n);
    if (decoded) model.decodedImages.resize(n);
    for (std::size_t i = 0; i < model.images.size(); ++i) {
        if (!r.string(model.images[i].name) || !r.string(model.images[i].mimeType)) return failed("image");
        if (!decoded) continue;
        ImageRGBA8& image = model.decodedImages[i];
        if (!r.scalar(image.width) || !r.scalar(image.height)) return failed("image size");
        const std::uint64_t bytes = std::uint64_t{image.width} * image.height * 4;
        if (bytes > r.left() || !r.array(image.pixels, static_cast<std::size_t>(bytes)))
            return failed("image " + std::to_string(i) + " pixels");
    }
    if (!r.count(n, 8)) return failed("scene count");
    model.scenes.resize(n);
    for (SceneRoots& scene : model.scenes) {
        std::uint32_t roots = 0;
        if (!r.string(scene.name) || !r.count(roots, 4) || !r.array(scene.roots, roots)) return failed("scene");
    }
    if (!r.scalar(model.defaultScene)) return failed("default scene");
    if (!r.count(n, 31)) return failed("camera count");
    model.cameras.resize(n);
    for (std::size_t i = 0; i < model.cameras.size(); ++i) {
        Camera& c = model.cameras[i];
        bool aspect = false, far = false;
        std::vector<float> v;
        if (!r.string(c.name) || !readEnum(r, c.projection, CameraProjection::Orthographic) || !readFlag(r, aspect) ||
            !readFlag(r, far) || !r.array(v, 6)) {
            return failed("camera " + std::to_string(i));
        }
        if (!allFinite(v)) return notFinite("cameras/" + std::to_string(i));
        c.yfov = v[0];
        if (aspect) c.aspectRatio = v[1];
        c.xmag = v[2];
        c.ymag = v[3];
        c.znear = v[4];
        if (far) c.zfar = v[5];
    }
    if (!r.count(n, 8)) return failed("camera instance count");
    model.cameraInstances.resize(n);
    for (CameraInstance& ci : model.cameraInstances) {
        if (!r.scalar(ci.joint) || !r.scalar(ci.camera)) return failed("camera instance");
    }
    return true;
}

// Each state machine against the model's clips, as one loaded from JSON is checked.
void checkStateMachines(const CookedModel& cooked, const std::string& source, std::vector<Fault>& faults) {
    const ClipLookup lookup = clipsByName(cooked.model.clips);
    for (std::size_t i = 0; i < cooked.stateMachines.size(); ++i) {
        auto definition = StateMachineDefinition::create(cooked.stateMachines[i].desc, lookup);
        if (definition) continue;
        for (const Fault& f : definition.faults())
            faults.push_back({source + "#stateMachines/" + std::to_string(i) + f.where, f.what});
    }
}

}  // namespace

std::uint64_t sourceHash(std::span<const std::byte> bytes) noexcept { return fnv1a(bytes); }

bool looksCooked(std::span<const std::byte> bytes) noexcept {
    return bytes.size() >= kMagic.size() && std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) == 0;
}

std::vector<std::byte> cookModel(const Model& model, std::uint64_t sourceHashValue) {
    CookedModel cooked;
    cooked.model = model;
    return cookModel(cooked, sourceHashValue);
}

std::vector<std::byte> cookModel(const CookedModel& cooked, std::uint64_t sourceHashValue) {
    const Model& model = cooked.model;
    const std::span<const CompressedClip> compressed = cooked.compressedClips;
    ByteWriter w;
    for (const char c : kMagic) w.scalar(c);
    w.scalar(kByteOrderMark);
    w.scalar(kCookedVersion);
    w.scalar(std::uint64_t{0});  // size, patched below
    w.scalar(sourceHashValue);
    w.scalar(std::uint64_t{0});  // checksum, patched below
    w.scalar(kSectionCount);
    w.scalar(std::uint32_t{0});

    const Skeleton& skeleton = model.skeleton;
    std::size_t mark = w.beginSection(kSkeletonTag);
    w.count(skeleton.jointCount());
    for (const std::string& name : skeleton.names()) w.string(name);
    w.array(skeleton.parents());
    writeTransforms(w, skeleton.restPose());
    w.endSection(mark);

    mark = w.beginSection(kLayoutTag);
    w.count(model.jointOfNode.size());
    w.array(std::span<const std::uint32_t>(model.jointOfNode));
    w.array(std::span<const std::uint32_t>(model.nodeOfJoint));
    w.array(std::span<const std::int32_t>(model.weightOffsetOfJoint));
    w.count(model.restWeights.size());
    w.array(std::span<const float>(model.restWeights));
    w.endSection(mark);

    mark = w.beginSection(kSkinsTag);
    w.count(model.skins.size());
    for (const Skin& skin : model.skins) {
        w.string(skin.name);
        w.scalar(skin.root);
        w.scalar(skin.skeleton);
        w.count(skin.joints.size());
        w.array(std::span<const std::uint32_t>(skin.joints));
        for (const Mat4& m : skin.inverseBindMatrices) w.array(std::span<const float>(m.m));
    }
    w.endSection(mark);

    mark = w.beginSection(kClipsTag);
    w.count(model.clips.size());
    for (std::size_t c = 0; c < model.clips.size(); ++c) {
        const bool packed = c < compressed.size() && !compressed[c].tracks.empty();
        writeClip(w, model.clips[c], skeleton.names(), packed ? &compressed[c] : nullptr);
    }
    w.endSection(mark);

    mark = w.beginSection(kStateMachinesTag);
    w.count(cooked.stateMachines.size());
    for (const CookedStateMachine& m : cooked.stateMachines) writeStateMachine(w, m);
    w.endSection(mark);

    mark = w.beginSection(kDrawingTag);
    writeDrawing(w, model);
    w.endSection(mark);

    std::vector<std::byte>& out = w.bytes();
    w.patch(16, out.size());
    w.patch(32, checksumOf(out));
    return std::move(out);
}

Result<std::uint64_t> cookedSourceHash(std::span<const std::byte> bytes, std::string source) {
    auto header = readHeader(bytes, source);
    if (!header) return std::vector<Fault>(header.faults().begin(), header.faults().end());
    return header->sourceHash;
}

Result<Model> readCookedModel(std::span<const std::byte> bytes, std::string source) {
    auto cooked = readCooked(bytes, std::move(source));
    if (!cooked) return std::vector<Fault>(cooked.faults().begin(), cooked.faults().end());
    return std::move(cooked->model);
}

Result<CookedModel> readCooked(std::span<const std::byte> bytes, std::string source) {
    auto header = readHeader(bytes, source);
    if (!header) return std::vector<Fault>(header.faults().begin(), header.faults().end());
    if (checksumOf(bytes) != header->checksum) {
        return atByte(source, 32, "checksum mismatch: the file is damaged (cook the source again)");
    }
    CookedModel cooked;
    Model& model = cooked.model;
    model.source = source;
    std::vector<Fault> faults;
    const std::uint32_t order[] = {kSkeletonTag, kLayoutTag, kSkinsTag, kClipsTag, kStateMachinesTag, kDrawingTag};
    std::size_t pos = kHeaderBytes;
    for (const std::uint32_t expected : order) {
        ByteReader sectionHeader(bytes, pos, bytes.size());
        std::uint32_t sectionTag = 0, reserved = 0;
        std::uint64_t length = 0;
        if (!sectionHeader.scalar(sectionTag) || !sectionHeader.scalar(reserved) || !sectionHeader.scalar(length)) {
            return readFault(source, sectionHeader, "section " + tagName(expected) + " header");
        }
        if (sectionTag != expected) {
            return atByte(source, pos, "section " + tagName(sectionTag) + " where " + tagName(expected) + " belongs");
        }
        if (reserved != 0) return atByte(source, pos + 4, "section " + tagName(expected) + ": reserved field not 0");
        const std::size_t body = pos + kSectionHeaderBytes;
        if (length > bytes.size() - body) {
            return atByte(source, pos + 8,
                          "section " + tagName(expected) + " of " + std::to_string(length) +
                              " bytes runs past the end (" + std::to_string(bytes.size() - body) + " left)");
        }
        const std::size_t end = body + static_cast<std::size_t>(length);
        ByteReader r(bytes, body, end);
        bool ok = true;
        if (expected == kSkeletonTag) {
            auto skeleton = readSkeleton(r, source);
            if (!skeleton) return std::vector<Fault>(skeleton.faults().begin(), skeleton.faults().end());
            model.skeleton = std::move(skeleton).value();
        } else if (expected == kLayoutTag) {
            ok = readLayout(r, source, model, faults);
        } else if (expected == kSkinsTag) {
            ok = readSkins(r, source, model, faults);
        } else if (expected == kClipsTag) {
            ok = readClips(r, source, cooked, faults);
        } else if (expected == kStateMachinesTag) {
            ok = readStateMachines(r, source, cooked, faults);
        } else {
            ok = readDrawing(r, source, model, faults);
        }
        if (!ok) return faults;
        if (r.left() != 0) {
            return atByte(source, r.offset(),
                          "section " + tagName(expected) + " has " + counted(r.left(), "byte") + " past its data");
        }
        pos = end;
    }
    if (pos != bytes.size()) return atByte(source, pos, counted(bytes.size() - pos, "byte") + " past the last section");
    faults = findModelFaults(model);
    if (!faults.empty()) {
        for (Fault& f : faults) f.where = source + "#" + f.where;
        return faults;
    }
    checkStateMachines(cooked, source, faults);
    if (!faults.empty()) return faults;
    return cooked;
}

Result<CookedModel> readCookedFile(const std::filesystem::path& path) {
    auto bytes = readFileBytes(path);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    return readCooked(**bytes, path.string());
}

Result<Model> readCookedModelFile(const std::filesystem::path& path) {
    auto bytes = readFileBytes(path);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    return readCookedModel(**bytes, path.string());
}

Result<bool> sourceChanged(const std::filesystem::path& cooked, const std::filesystem::path& source) {
    auto cookedBytes = readFileBytes(cooked);
    if (!cookedBytes) return std::vector<Fault>(cookedBytes.faults().begin(), cookedBytes.faults().end());
    auto recorded = cookedSourceHash(**cookedBytes, cooked.string());
    if (!recorded) return std::vector<Fault>(recorded.faults().begin(), recorded.faults().end());
    auto sourceBytes = readFileBytes(source);
    if (!sourceBytes) return std::vector<Fault>(sourceBytes.faults().begin(), sourceBytes.faults().end());
    return *recorded == 0 || *recorded != sourceHash(**sourceBytes);
}

}  // namespace kinema
