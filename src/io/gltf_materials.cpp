// Images (located now, decoded last or on demand), samplers, textures and materials.
#include "gltf_importer.hpp"

#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "container.hpp"
#include "kinema/io/image.hpp"

namespace kinema::gltf_import {

namespace {

// glTF sampler codes (OpenGL's enum values).
constexpr std::uint64_t kNearest = 9728;
constexpr std::uint64_t kLinear = 9729;
constexpr std::uint64_t kNearestMipmapNearest = 9984;
constexpr std::uint64_t kLinearMipmapLinear = 9987;
constexpr std::uint64_t kRepeat = 10497;
constexpr std::uint64_t kClampToEdge = 33071;
constexpr std::uint64_t kMirroredRepeat = 33648;

}  // namespace

// An image file is checked now, under the same rules as buffers, and read only
// when decoded. A resolver cannot be called later (the Model keeps no callback),
// so with one the bytes are fetched now and kept as a model buffer.
void Importer::locateImage(std::size_t index, std::string_view uri, const Pointer& at, ImageSource& img) {
    if (opt_.resolver) {
        ResourceBytes bytes = fetchResource(uri, budgetLeft(), at, at);
        if (!bytes) return;
        if (!charge(bytes->size(), at, "image " + std::to_string(index))) return;
        img.buffer = static_cast<std::int32_t>(model_.buffers.size());
        img.byteOffset = 0;
        img.byteLength = bytes->size();
        model_.buffers.push_back(std::move(bytes));
        return;
    }
    bool ok = false;
    const gltf::UriPath path = checkedUri(uri, at, ok);
    if (!ok) return;
    std::string error;
    gltf::ResourceLocation location = locate(path, error);
    if (!error.empty()) {
        fault(at, error);
        return;
    }
    // The image is opened later, when it is decoded, maybe after the process has
    // changed its working folder: a relative location is made absolute now.
    std::error_code ec;
    if (!location.folder.empty()) {
        const std::filesystem::path folder = std::filesystem::absolute(location.folder, ec);
        if (!ec) location.folder = folder.lexically_normal().string();
    } else if (std::filesystem::path(location.path).is_relative()) {
        const std::filesystem::path file = std::filesystem::absolute(location.path, ec);
        if (!ec) location.path = file.lexically_normal().string();
    }
    img.folder = std::move(location.folder);
    img.path = std::move(location.path);
}

void Importer::readImagesTexturesMaterials() {
    model_.images.resize(table("images", sizeof(ImageSource)));
    if (stopped_) return;  // out of budget
    forEachObject("images", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        ImageSource& img = model_.images[i];
        readName(o, at, img.name);
        std::string_view mimeType;
        if (getString(o, "mimeType", at, mimeType, false)) img.mimeType = mimeType;
        std::string_view uri;
        const bool hasUri = getString(o, "uri", at, uri, false);
        const std::int32_t view = getIndex(o, "bufferView", at, views_.size(), "bufferView", false);
        if (hasUri == (member(o, "bufferView").has_value())) {
            fault(at, "an image has exactly one of uri and bufferView");
            return;
        }
        if (hasUri) {
            img.uri = uri;
            if (!gltf::isDataUri(uri)) locateImage(i, uri, at / "uri", img);
        } else if (view >= 0 && views_[static_cast<std::size_t>(view)].ok) {
            const View& v = views_[static_cast<std::size_t>(view)];
            const Buffer& b = buffers_[v.buffer];
            img.buffer = b.modelBuffer;
            img.byteOffset = static_cast<std::size_t>(v.bytes.data() - b.owner->data());
            img.byteLength = v.bytes.size();
            if (img.mimeType.empty()) fault(at / "mimeType", "required when the image is in a bufferView");
        }
    });
    // Samplers are resolved into the textures that use them (model.hpp).
    std::vector<Texture> samplers(table("samplers", sizeof(Texture)));
    if (stopped_) return;  // out of budget
    forEachObject("samplers", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        Texture& s = samplers[i];
        // A code outside glTF's list is a warning for the Khronos validator (the
        // schema leaves room for new values), so the file is valid: both modes keep
        // glTF's default for it and say so.
        auto unknown = [&](std::string_view key, std::uint64_t code, const char* valid, const char* fallback) {
            std::string what = std::to_string(code);
            what.append(" is not one of ").append(valid).append("; ").append(fallback);
            warn(at / key, std::move(what));
        };
        std::uint64_t code = 0;
        if (getUint(o, "magFilter", at, code, false)) {
            if (code == kNearest || code == kLinear) {
                s.magFilter = code == kNearest ? SamplerFilter::Nearest : SamplerFilter::Linear;
            } else {
                unknown("magFilter", code, "9728 (NEAREST), 9729 (LINEAR)", "LINEAR is used");
            }
        }
        if (getUint(o, "minFilter", at, code, false)) {
            if (code == kNearest || code == kLinear) {
                s.minFilter = code == kNearest ? SamplerFilter::Nearest : SamplerFilter::Linear;
            } else if (code >= kNearestMipmapNearest && code <= kLinearMipmapLinear) {
                // 9984 NEAREST_MIPMAP_NEAREST, 9985 LINEAR_MIPMAP_NEAREST,
                // 9986 NEAREST_MIPMAP_LINEAR, 9987 LINEAR_MIPMAP_LINEAR.
                const std::uint64_t k = code - kNearestMipmapNearest;
                s.minFilter = (k & 1) != 0 ? SamplerFilter::Linear : SamplerFilter::Nearest;
                s.mipmapFilter = (k & 2) != 0 ? SamplerMipmap::Linear : SamplerMipmap::Nearest;
            } else {
                unknown("minFilter", code, "9728 (NEAREST), 9729 (LINEAR), 9984..9987 (*_MIPMAP_*)", "LINEAR is used");
            }
        }
        for (const auto& [key, wrap] : {std::pair<std::string_view, SamplerWrap*>{"wrapS", &s.wrapS},
                                        std::pair<std::string_view, SamplerWrap*>{"wrapT", &s.wrapT}}) {
            if (!getUint(o, key, at, code, false)) continue;
            if (code == kRepeat) {
                *wrap = SamplerWrap::Repeat;
            } else if (code == kMirroredRepeat) {
                *wrap = SamplerWrap::MirroredRepeat;
            } else if (code == kClampToEdge) {
                *wrap = SamplerWrap::ClampToEdge;
            } else {
                unknown(key, code, "33071 (CLAMP_TO_EDGE), 33648 (MIRRORED_REPEAT), 10497 (REPEAT)", "REPEAT is used");
            }
        }
    });
    model_.textures.resize(table("textures", sizeof(Texture)));
    if (stopped_) return;  // out of budget
    forEachObject("textures", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        Texture& t = model_.textures[i];
        const std::int32_t sampler = getIndex(o, "sampler", at, samplers.size(), "sampler", false);
        if (sampler >= 0) t = samplers[static_cast<std::size_t>(sampler)];
        t.sampler = sampler;
        t.image = getIndex(o, "source", at, model_.images.size(), "image", false);
    });
    model_.materials.resize(table("materials", sizeof(Material)));
    if (stopped_) return;  // out of budget
    forEachObject("materials", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        readMaterial(o, at, model_.materials[i]);
    });
}

void Importer::readMaterial(const dom::object& o, const Pointer& at, Material& m) {
    enum { kName, kPbr, kAlphaMode, kAlphaCutoff, kDoubleSided };
    static constexpr std::array<std::string_view, 5> kKeys{"name", "pbrMetallicRoughness", "alphaMode", "alphaCutoff",
                                                           "doubleSided"};
    const Members<5> f(o, kKeys);
    std::string_view name;
    if (getString(f[kName], "name", at, name, false)) m.name = name;
    std::string_view mode;
    if (getString(f[kAlphaMode], "alphaMode", at, mode, false)) {
        if (mode == "OPAQUE") {
            m.alphaMode = MaterialAlpha::Opaque;
        } else if (mode == "MASK") {
            m.alphaMode = MaterialAlpha::Mask;
        } else if (mode == "BLEND") {
            m.alphaMode = MaterialAlpha::Blend;
        } else {
            // A warning for the Khronos validator (the schema admits other strings):
            // both modes draw it opaque, glTF's default, and say so.
            std::string what = inQuotes(mode);
            what.append(" is not one of 'OPAQUE', 'MASK', 'BLEND'; 'OPAQUE' is used");
            warn(at / "alphaMode", std::move(what));
        }
    }
    // glTF ignores the cutoff outside MASK; it is kept as written either way.
    float cutoff = m.alphaCutoff;
    if (getFloat(f[kAlphaCutoff], "alphaCutoff", at, cutoff, false)) {
        if (cutoff < 0.0f) {
            fault(at / "alphaCutoff", exactNumber(cutoff) + " is negative; alphaCutoff must be >= 0");
        } else {
            m.alphaCutoff = cutoff;
        }
    }
    getBool(f[kDoubleSided], "doubleSided", at, m.doubleSided);
    dom::object pbr;
    if (!getObject(f[kPbr], "pbrMetallicRoughness", at, pbr, false)) return;
    const Pointer pat = at / "pbrMetallicRoughness";
    getFloats(pbr, "baseColorFactor", pat, m.baseColorFactor.data(), 4);
    dom::object tex;
    if (getObject(pbr, "baseColorTexture", pat, tex, false)) {
        const Pointer tat = pat / "baseColorTexture";
        const std::int32_t t = getIndex(tex, "index", tat, model_.textures.size(), "texture", true);
        std::uint64_t texCoord = 0;
        getUint(tex, "texCoord", tat, texCoord, false);
        if (t >= 0)
            m.baseColorTexture = TextureRef{static_cast<std::uint32_t>(t),
                                            static_cast<std::uint32_t>(std::min<std::uint64_t>(texCoord, 0xFFFF))};
    }
}

// Last, when everything else is valid: decoding costs far more than checking.
// Each image gets what is left of the memory budget.
void Importer::decodeImages() {
    model_.decodedImages.reserve(model_.images.size());
    for (std::size_t i = 0; i < model_.images.size(); ++i) {
        auto image = decodeImage(model_, i, ImageLimits{opt_.maxImagePixels, budgetLeft()});
        if (!image) {
            for (const Fault& f : image.faults()) faults_.push_back(f);
            continue;
        }
        if (!charge(image->pixels.size(), Pointer{} / "images" / i, "image " + std::to_string(i))) continue;
        model_.decodedImages.push_back(std::move(*image));
    }
}

}  // namespace kinema::gltf_import
