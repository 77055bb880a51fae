#include "support/spec_fixtures.hpp"

#include <cmath>
#include <limits>
#include <string_view>
#include <utility>

namespace kinema::test {

namespace {

constexpr std::uint32_t kArrayBuffer = 34962;         // bufferView.target for vertex attributes
constexpr std::uint32_t kElementArrayBuffer = 34963;  // bufferView.target for indices

void setViewTarget(GltfWriter& w, std::uint32_t accessor, std::uint32_t target) {
    const auto view = static_cast<std::size_t>(w.json()["accessors"][accessor]["bufferView"].number());
    w.json()["bufferViews"][view]["target"] = target;
}

std::string samplerPointer(std::uint32_t sampler, std::string_view member) {
    return "/animations/0/samplers/" + std::to_string(sampler) + "/" + std::string(member);
}

// The validator locates problems with a sampler's accessors at the channel that uses it.
std::string channelSamplerPointer(std::uint32_t channel) {
    return "/animations/0/channels/" + std::to_string(channel) + "/sampler";
}

// ... and problems with vertex data at the attribute that names the accessor.
std::string attributePointer(std::string_view semantic) {
    return "/meshes/0/primitives/0/attributes/" + std::string(semantic);
}

std::string accessorPointer(std::uint32_t accessor) { return "/accessors/" + std::to_string(accessor); }

// The base model's accessor indices (buildSpecBase adds them in a fixed order).
const SpecBaseIds& baseIds() {
    static const SpecBaseIds ids = buildSpecBase().ids;
    return ids;
}

// A JSON document cut off after "[0, 1," on its fourth line (LF line ends). Counted by hand:
//   line 1  "{"                                          1 byte  + LF ->  2
//   line 2  "  \"asset\": {\"version\": \"2.0\"},"        30 bytes + LF -> 31
//   line 3  "  \"nodes\": ["                             12 bytes + LF -> 13
//   line 4  "    {\"name\": \"root\", \"translation\": [0, 1,"   42 bytes
// The text ends at byte 88 (0-based offset of the first missing byte), which is line 4,
// column 43 (1-based, counted in bytes).
constexpr std::string_view kTruncatedJson =
    "{\n"
    "  \"asset\": {\"version\": \"2.0\"},\n"
    "  \"nodes\": [\n"
    "    {\"name\": \"root\", \"translation\": [0, 1,";

}  // namespace

SpecBaseData specBaseData() {
    SpecBaseData d;
    // A 1 x 2 quad in the xy plane, facing +z.
    d.positions = {0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 2, 0};
    d.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    // Joint slots with zero weight use joint 0 (any other index would be a validator warning).
    d.joints = {0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    d.weights = {0.5, 0.5, 0, 0, 0.25, 0.75, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    d.indices = {0, 1, 2, 0, 2, 3};
    d.target = {0, 0, 0.5, 0, 0, 0.5, 0, 0, 0, 0, 0, 0};
    // jointA (node 1) sits at (0, 1, 0); jointB (node 2) at (0, 2, 0), turned by its rest
    // rotation (0.5, 0.5, 0.5, 0.5): 120 degrees about (1, 1, 1), which maps x -> y -> z -> x.
    // The inverse bind matrices undo those world transforms (column-major): for jointB the
    // transposed rotation and R^T * (0, -2, 0) = (-2, 0, 0).
    d.inverseBindMatrices = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0,  -1, 0, 1,  //
                             0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0,  0, 1};
    d.jointBRotation = {0.5, 0.5, 0.5, 0.5};
    d.times = {0, 0.5, 1};
    // Unit quaternions about +z (0.6^2 + 0.8^2 = 1).
    d.rotations = {0, 0, 0, 1, 0, 0, 0.6, 0.8, 0, 0, 0.8, 0.6};
    d.translations = {.componentType = kFloat, .type = "VEC3", .values = {0, 1, 0, 0, 1.5, 0, 0, 1, 0}};
    d.scales = {.componentType = kFloat, .type = "VEC3", .values = {1, 1, 1, 1.5, 1.5, 1.5, 1, 1, 1}};
    d.morphWeights = {0, 1, 0};
    return d;
}

SpecBase buildSpecBase(const SpecBaseData& d) {
    SpecBase base;
    GltfWriter& w = base.w;
    SpecBaseIds& ids = base.ids;

    ids.positions = w.addAccessor({.componentType = kFloat, .type = "VEC3", .values = d.positions});
    ids.normals = w.addAccessor({.componentType = kFloat, .type = "VEC3", .values = d.normals});
    ids.joints = w.addAccessor({.componentType = kUnsignedByte, .type = "VEC4", .values = d.joints});
    ids.weights = w.addAccessor({.componentType = kFloat, .type = "VEC4", .values = d.weights});
    ids.indices = w.addAccessor({.componentType = kUnsignedShort, .type = "SCALAR", .values = d.indices});
    ids.target = w.addAccessor({.componentType = kFloat, .type = "VEC3", .values = d.target});
    for (const std::uint32_t a : {ids.positions, ids.normals, ids.joints, ids.weights, ids.target}) {
        setViewTarget(w, a, kArrayBuffer);
    }
    setViewTarget(w, ids.indices, kElementArrayBuffer);

    ids.inverseBindMatrices = w.addAccessor(
        {.componentType = kFloat, .type = "MAT4", .values = d.inverseBindMatrices, .byteStride = d.inverseBindStride});

    for (std::uint32_t s = 0; s < 4; ++s) {
        ids.inputs[s] = w.addAccessor({.componentType = kFloat,
                                       .type = "SCALAR",
                                       .values = d.times,
                                       .byteStride = s == SpecBaseIds::rotationSampler ? d.inputStride : 0});
    }
    ids.outputs[SpecBaseIds::rotationSampler] =
        w.addAccessor({.componentType = kFloat, .type = "VEC4", .values = d.rotations});
    ids.outputs[SpecBaseIds::translationSampler] = w.addAccessor(d.translations);
    ids.outputs[SpecBaseIds::scaleSampler] = w.addAccessor(d.scales);
    ids.outputs[SpecBaseIds::weightsSampler] =
        w.addAccessor({.componentType = kFloat, .type = "SCALAR", .values = d.morphWeights});

    w.addMesh({{.attributes = {{"POSITION", ids.positions},
                               {"NORMAL", ids.normals},
                               {"JOINTS_0", ids.joints},
                               {"WEIGHTS_0", ids.weights}},
                .indices = ids.indices,
                .targets = {{{"POSITION", ids.target}}}}});
    w.addSkin({1, 2}, ids.inverseBindMatrices, 0u);

    ids.root = w.addNode({.name = "root", .children = {1}});
    ids.jointA = w.addNode({.name = "jointA", .translation = std::array<double, 3>{0, 1, 0}, .children = {2}});
    ids.jointB =
        w.addNode({.name = "jointB", .translation = std::array<double, 3>{0, 1, 0}, .rotation = d.jointBRotation});
    // A skinned mesh's node is a root without a transform of its own (glTF ignores it).
    ids.body = w.addNode({.name = "body", .mesh = 0, .skin = 0});
    w.addScene({ids.root, ids.body});

    w.addAnimation({{.input = ids.inputs[0], .output = ids.outputs[0]},
                    {.input = ids.inputs[1], .output = ids.outputs[1]},
                    {.input = ids.inputs[2], .output = ids.outputs[2], .interpolation = "STEP"},
                    {.input = ids.inputs[3], .output = ids.outputs[3]}},
                   {{.sampler = SpecBaseIds::rotationSampler, .node = ids.jointA, .path = "rotation"},
                    {.sampler = SpecBaseIds::translationSampler, .node = ids.jointB, .path = "translation"},
                    {.sampler = SpecBaseIds::scaleSampler, .node = ids.jointB, .path = "scale"},
                    {.sampler = SpecBaseIds::weightsSampler, .node = ids.body, .path = "weights"}},
                   "spec");
    return base;
}

std::string SpecFixture::fileName() const { return name + (container == SpecContainer::Glb ? ".glb" : ".gltf"); }

std::string SpecFixture::location() const {
    if (!pointer.empty() && pointer.front() == '@') return fileName() + pointer;
    return fileName() + "#" + pointer;
}

std::vector<std::byte> SpecFixture::bytes() const {
    if (rawBytes) return rawBytes();
    SpecBaseData data = specBaseData();
    if (edit) edit(data);
    SpecBase base = buildSpecBase(data);
    if (damage) damage(base.w, base.ids);
    if (container == SpecContainer::Glb) return base.w.glb();
    return toBytes(base.w.gltf());
}

GltfSource SpecFixture::source() const { return makeSource(bytes(), fileName()); }

void PrintTo(const SpecFixture& fixture, std::ostream* out) { *out << fixture.fileName(); }

std::vector<SpecFixture> specFixtures() {
    const SpecBaseIds& ids = baseIds();
    using S = SpecBaseIds;
    std::vector<SpecFixture> list;

    list.push_back({.name = "base"});

    // ---- animation sampler output formats -------------------------------------------
    // KHR_mesh_quantization (in extensionsUsed and extensionsRequired, as it demands)
    // quantizes mesh attributes only; translation and scale keys stay float in glTF 2.0
    // (only rotation and weights outputs may be normalized integers). In the base, channel
    // C uses sampler C.
    const auto requireQuantization = [](GltfWriter& w, const SpecBaseIds&) {
        w.useExtension("KHR_mesh_quantization", true);
    };
    list.push_back({.name = "translation-output-unsigned-byte-normalized",
                    .validatorCode = "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
                    .validatorPointer = channelSamplerPointer(1),
                    .pointer = samplerPointer(S::translationSampler, "output"),
                    .edit =
                        [](SpecBaseData& d) {
                            d.translations = {.componentType = kUnsignedByte,
                                              .type = "VEC3",
                                              .values = {0, 255, 0, 0, 128, 0, 0, 255, 0},
                                              .normalized = true};
                        },
                    .damage = requireQuantization});
    list.push_back({.name = "scale-output-short-normalized",
                    .validatorCode = "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
                    .validatorPointer = channelSamplerPointer(2),
                    .pointer = samplerPointer(S::scaleSampler, "output"),
                    .edit =
                        [](SpecBaseData& d) {
                            d.scales = {.componentType = kShort,
                                        .type = "VEC3",
                                        .values = {32767, 32767, 32767, 16384, 16384, 16384, 32767, 32767, 32767},
                                        .normalized = true};
                        },
                    .damage = requireQuantization});
    list.push_back({.name = "scale-output-short",
                    .validatorCode = "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
                    .validatorPointer = channelSamplerPointer(2),
                    .pointer = samplerPointer(S::scaleSampler, "output"),
                    .edit =
                        [](SpecBaseData& d) {
                            d.scales = {.componentType = kShort, .type = "VEC3", .values = {1, 1, 1, 2, 2, 2, 1, 1, 1}};
                        },
                    .damage = requireQuantization});

    // ---- rotation keys: unit quaternions (validator tolerance |length - 1| <= 0.00769) ----
    const std::string rotationKeys = accessorPointer(ids.outputs[S::rotationSampler]);
    const auto scaleKey1 = [](double length) {
        return [length](SpecBaseData& d) {
            for (std::size_t c = 4; c < 8; ++c) d.rotations[c] *= length;
        };
    };
    list.push_back({.name = "rotation-key-length-2",
                    .validatorCode = "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
                    .validatorPointer = channelSamplerPointer(0),
                    .pointer = rotationKeys,
                    .recoverable = true,
                    .repair = "normali",
                    .edit = scaleKey1(2.0)});
    list.push_back({.name = "rotation-key-length-1p005", .edit = scaleKey1(1.005)});
    list.push_back({.name = "rotation-key-length-1p01",
                    .validatorCode = "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
                    .validatorPointer = channelSamplerPointer(0),
                    .pointer = rotationKeys,
                    .recoverable = true,
                    .repair = "normali",
                    .edit = scaleKey1(1.01)});

    // ---- animation input bounds ---------------------------------------------------------
    const std::uint32_t input = ids.inputs[S::rotationSampler];
    list.push_back({.name = "input-without-min-max",
                    .validatorCode = "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS",
                    .validatorPointer = samplerPointer(S::rotationSampler, "input"),
                    .pointer = accessorPointer(input),
                    .recoverable = true,
                    .repair = "min",
                    .damage = [input](GltfWriter& w, const SpecBaseIds&) {
                        w.json()["accessors"][input].erase("min");
                        w.json()["accessors"][input].erase("max");
                    }});
    // Declared bounds wider than the keys: the declared value is wrong, yet no key lies outside it.
    list.push_back(
        {.name = "input-wrong-min",
         .validatorCode = "ACCESSOR_MIN_MISMATCH",
         .validatorPointer = accessorPointer(input) + "/min/0",
         .pointer = accessorPointer(input) + "/min/0",
         .recoverable = true,
         .repair = "min",
         .damage = [input](GltfWriter& w, const SpecBaseIds&) { w.json()["accessors"][input]["min"][0] = -0.25; }});
    list.push_back(
        {.name = "input-wrong-max",
         .validatorCode = "ACCESSOR_MAX_MISMATCH",
         .validatorPointer = accessorPointer(input) + "/max/0",
         .pointer = accessorPointer(input) + "/max/0",
         .recoverable = true,
         .repair = "max",
         .damage = [input](GltfWriter& w, const SpecBaseIds&) { w.json()["accessors"][input]["max"][0] = 2.0; }});

    // ---- byteStride where glTF forbids it ------------------------------------------------
    list.push_back({.name = "input-byte-stride",
                    .validatorCode = "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE",
                    .validatorPointer = samplerPointer(S::rotationSampler, "input"),
                    .pointer = samplerPointer(S::rotationSampler, "input"),
                    .edit = [](SpecBaseData& d) { d.inputStride = 8; }});
    list.push_back({.name = "output-byte-stride",
                    .validatorCode = "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE",
                    .validatorPointer = samplerPointer(S::translationSampler, "output"),
                    .pointer = samplerPointer(S::translationSampler, "output"),
                    .edit = [](SpecBaseData& d) { d.translations.byteStride = 16; }});
    list.push_back({.name = "inverse-bind-matrices-byte-stride",
                    .validatorCode = "SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE",
                    .validatorPointer = "/skins/0/inverseBindMatrices",
                    .pointer = "/skins/0/inverseBindMatrices",
                    .edit = [](SpecBaseData& d) { d.inverseBindStride = 80; }});

    // ---- skin weights and joints -----------------------------------------------------------
    const std::string weights = accessorPointer(ids.weights);
    list.push_back({.name = "weights-sum-half",
                    .validatorCode = "ACCESSOR_WEIGHTS_NON_NORMALIZED",
                    .validatorPointer = attributePointer("WEIGHTS_0"),
                    .pointer = weights,
                    .recoverable = true,
                    .repair = "normali",
                    .edit = [](SpecBaseData& d) { d.weights[8] = 0.5; }});
    // 0.5 + (0.5 - 2^-23) = 1 - 2^-23 (about 1.19e-7 short of 1), exact in float32: inside the
    // validator's tolerance for two non-zero weights.
    list.push_back({.name = "weights-sum-within-tolerance",
                    .edit = [](SpecBaseData& d) { d.weights[1] = static_cast<double>(0.5f - std::ldexp(1.0f, -23)); }});
    // Joint 1 twice in vertex 0 (weights 0.5 + 0.5 still sum to 1). The validator leaves a
    // repeated joint's weight out of its sum, so it also reports the weights (sum 0.5).
    list.push_back({.name = "joint-listed-twice",
                    .validatorCode = "ACCESSOR_JOINTS_INDEX_DUPLICATE",
                    .validatorPointer = attributePointer("JOINTS_0"),
                    .validatorAlso = {"ACCESSOR_WEIGHTS_NON_NORMALIZED"},
                    .pointer = accessorPointer(ids.joints),
                    .edit = [](SpecBaseData& d) { d.joints[0] = 1; }});

    // ---- mesh attributes ---------------------------------------------------------------------
    const std::uint32_t positions = ids.positions;
    // The NaN replaces a z of 0; the written min/max (from the finite data) stay exact.
    list.push_back({.name = "position-nan",
                    .validatorCode = "ACCESSOR_INVALID_FLOAT",
                    .validatorPointer = accessorPointer(positions),
                    .pointer = accessorPointer(positions),
                    .damage = [positions](GltfWriter& w, const SpecBaseIds&) {
                        w.patchComponent(positions, 5, std::numeric_limits<double>::quiet_NaN());
                    }});
    list.push_back({.name = "normal-length-2",
                    .validatorCode = "ACCESSOR_VECTOR3_NON_UNIT",
                    .validatorPointer = attributePointer("NORMAL"),
                    .pointer = accessorPointer(ids.normals),
                    .recoverable = true,
                    .repair = "normali",
                    .edit = [](SpecBaseData& d) { d.normals[5] = 2; }});
    list.push_back({.name = "position-without-min-max",
                    .validatorCode = "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS",
                    .validatorPointer = attributePointer("POSITION"),
                    .pointer = accessorPointer(positions),
                    .recoverable = true,
                    .repair = "min",
                    .damage = [positions](GltfWriter& w, const SpecBaseIds&) {
                        w.json()["accessors"][positions].erase("min");
                        w.json()["accessors"][positions].erase("max");
                    }});
    list.push_back({.name = "position-wrong-max",
                    .validatorCode = "ACCESSOR_MAX_MISMATCH",
                    .validatorPointer = accessorPointer(positions) + "/max/1",
                    .pointer = accessorPointer(positions) + "/max/1",
                    .recoverable = true,
                    .repair = "max",
                    .damage = [positions](GltfWriter& w, const SpecBaseIds&) {
                        w.json()["accessors"][positions]["max"][1] = 3.0;
                    }});

    // ---- nodes -----------------------------------------------------------------------------------
    // (1, 1, 1, 1): twice the base rotation. Each component stays within the schema's
    // [-1, 1], so the only error is the length.
    list.push_back({.name = "node-rotation-length-2",
                    .validatorCode = "ROTATION_NON_UNIT",
                    .validatorPointer = "/nodes/" + std::to_string(ids.jointB) + "/rotation",
                    .pointer = "/nodes/" + std::to_string(ids.jointB) + "/rotation",
                    .recoverable = true,
                    .repair = "normali",
                    .edit = [](SpecBaseData& d) {
                        for (double& c : d.jointBRotation) c *= 2;
                    }});

    // A node matrix must decompose to TRS. A shear does not; nor, for the validator, does
    // a singular matrix (TRS could hold its zero scale, so a lenient import takes that).
    // An exporter's rounding (1e-6 of shear) is no shear.
    const auto matrixOfRoot = [](std::array<double, 16> m) {
        return
            [m](GltfWriter& w, const SpecBaseIds& base) { w.json()["nodes"][base.root]["matrix"] = Json::numbers(m); };
    };
    list.push_back({.name = "node-matrix-shear",
                    .validatorCode = "NODE_MATRIX_NON_TRS",
                    .validatorPointer = "/nodes/" + std::to_string(ids.root) + "/matrix",
                    .pointer = "/nodes/" + std::to_string(ids.root) + "/matrix",
                    .recoverable = true,
                    .repair = "nearest trs",
                    .damage = matrixOfRoot({1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})});
    list.push_back({.name = "node-matrix-singular",
                    .validatorCode = "NODE_MATRIX_NON_TRS",
                    .validatorPointer = "/nodes/" + std::to_string(ids.root) + "/matrix",
                    .pointer = "/nodes/" + std::to_string(ids.root) + "/matrix",
                    .recoverable = true,
                    .repair = "nearest trs",
                    .damage = matrixOfRoot({0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1})});
    list.push_back({.name = "node-matrix-rounded",
                    .damage = matrixOfRoot({0.8, 0.6, 0, 0, -0.6, 0.8 + 1e-6, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1})});

    // Every array of the schema holds at least one item; an optional one left empty is
    // ignored by a lenient import.
    list.push_back({.name = "node-children-empty",
                    .validatorCode = "EMPTY_ENTITY",
                    .validatorPointer = "/nodes/" + std::to_string(ids.body) + "/children",
                    .pointer = "/nodes/" + std::to_string(ids.body) + "/children",
                    .recoverable = true,
                    .repair = "ignored",
                    .damage = [](GltfWriter& w, const SpecBaseIds& base) {
                        w.json()["nodes"][base.body]["children"] = Json::array();
                    }});

    // What a file requires it must also list as used.
    list.push_back({.name = "extension-required-not-used",
                    .validatorCode = "UNUSED_EXTENSION_REQUIRED",
                    .validatorPointer = "/extensionsRequired/0",
                    .validatorAlso = {"UNSATISFIED_DEPENDENCY"},
                    .pointer = "/extensionsRequired/0",
                    .recoverable = true,
                    .repair = "taken as used",
                    .damage = [](GltfWriter& w, const SpecBaseIds&) {
                        w.json()["extensionsRequired"].push("KHR_mesh_quantization");
                    }});

    // A buffer's data URI says it holds bytes.
    list.push_back({.name = "buffer-data-uri-text",
                    .validatorCode = "BUFFER_DATA_URI_MIME_TYPE_INVALID",
                    .validatorPointer = "/buffers/0/uri",
                    .pointer = "/buffers/0/uri",
                    .recoverable = true,
                    .repair = "read as bytes",
                    .damage = [](GltfWriter& w, const SpecBaseIds&) {
                        w.json()["buffers"][0]["uri"] = "data:text/plain;base64," + base64(w.bin());
                    }});

    // Key times increase from 0, checked at the sampler that reads them.
    list.push_back({.name = "input-not-increasing",
                    .validatorCode = "ACCESSOR_ANIMATION_INPUT_NON_INCREASING",
                    .validatorPointer = "/animations/0/samplers/0/input",
                    .pointer = "/animations/0/samplers/0/input",
                    .edit = [](SpecBaseData& d) {
                        d.times = {0, 0.5, 0.5};
                    }});

    // The schema's unique items: a root listed twice in one scene, an extension named twice.
    list.push_back(
        {.name = "scene-root-listed-twice",
         .validatorCode = "DUPLICATE_ELEMENTS",
         .validatorPointer = "/scenes/0/nodes/1",
         .pointer = "/scenes/0/nodes/1",
         .damage = [](GltfWriter& w, const SpecBaseIds& base) { w.json()["scenes"][0]["nodes"][1] = base.root; }});
    list.push_back({.name = "extension-used-twice",
                    .validatorCode = "DUPLICATE_ELEMENTS",
                    .validatorPointer = "/extensionsUsed/1",
                    .pointer = "/extensionsUsed/1",
                    .damage = [](GltfWriter& w, const SpecBaseIds&) {
                        for (int twice = 0; twice < 2; ++twice)
                            w.json()["extensionsUsed"].push("KHR_texture_transform");
                    }});

    // ---- containers ------------------------------------------------------------------------------
    list.push_back({.name = "json-truncated",
                    .validatorCode = "INVALID_JSON",
                    .pointer = "@byte 88 (line 4, column 43)",
                    .rawBytes = [] { return toBytes(kTruncatedJson); }});
    list.push_back({.name = "glb-bad-magic",
                    .validatorCode = "GLB_INVALID_MAGIC",
                    .validatorPointer = "@0",
                    .pointer = "@byte 0",
                    .container = SpecContainer::Glb,
                    .rawBytes = [] {
                        std::vector<std::byte> bytes = buildSpecBase().w.glb();
                        bytes[3] = static_cast<std::byte>('f');  // "glTF" -> "glTf"
                        return bytes;
                    }});
    return list;
}

}  // namespace kinema::test
