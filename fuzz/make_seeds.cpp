// Writes the fuzzer's seed corpus: a few tiny valid glTF files, each reaching a
// different part of the importer (GLB and .gltf, quantized and sparse accessors,
// skins, morph targets, every interpolation). Every seed must import cleanly,
// otherwise this program fails.
//   kinema_fuzz_seeds <output folder>
#include <cstdio>
#include <filesystem>
#include <span>
#include <fstream>
#include <string>
#include <vector>

#include "kinema/io/gltf.hpp"
#include "support/gltf_writer.hpp"
#include "support/png_writer.hpp"

namespace {

using namespace kinema::test;

GltfWriter minimal() {
    GltfWriter w;
    w.addScene({w.addNode({.name = "only"})});
    return w;
}

GltfWriter triangle() {
    GltfWriter w;
    const auto pos = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 0, 1, 0});
    const auto uv = w.addAccessor(
        {.componentType = kUnsignedShort, .type = "VEC2", .values = {0, 0, 65535, 0, 0, 65535}, .normalized = true});
    const auto idx = w.addAccessor({.componentType = kUnsignedByte, .type = "SCALAR", .values = {0, 1, 2}});
    const auto mesh = w.addMesh({{.attributes = {{"POSITION", pos}, {"TEXCOORD_0", uv}}, .indices = idx, .mode = 4}});
    auto& image = w.json()["images"].push(kinema::test::Json::object());
    image["bufferView"] = 0;
    image["mimeType"] = "image/png";
    w.json()["textures"].push(kinema::test::Json::object())["source"] = 0;
    w.json()["materials"].push(kinema::test::Json::object())["pbrMetallicRoughness"]["baseColorTexture"]["index"] = 0;
    w.json()["meshes"][0]["primitives"][0]["material"] = 0;
    const auto child = w.addNode({.name = "tri", .mesh = mesh});
    w.addScene({w.addNode({.name = "root",
                           .matrix = std::array<double, 16>{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1},
                           .children = {child}})});
    return w;
}

GltfWriter animated() {
    GltfWriter w;
    const auto node = w.addNode({.name = "mover", .rotation = std::array<double, 4>{0, 0, 0, 1}});
    const auto t = w.addFloats("SCALAR", {0, 0.5f, 1});
    const auto move = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 1, 1, 0});
    const auto turn = w.addAccessor({.componentType = kShort,
                                     .type = "VEC4",
                                     .values = {0, 0, 0, 32767, 0, 23170, 0, 23170, 0, 32767, 0, 0},
                                     .normalized = true});
    const auto grow =
        w.addFloats("VEC3", {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2, 0, 0, 0, 0, 0, 0, 3, 3, 3, 0, 0, 0});
    w.addAnimation({{.input = t, .output = move},
                    {.input = t, .output = turn, .interpolation = "STEP"},
                    {.input = t, .output = grow, .interpolation = "CUBICSPLINE"}},
                   {{.sampler = 0, .node = node, .path = "translation"},
                    {.sampler = 1, .node = node, .path = "rotation"},
                    {.sampler = 2, .node = node, .path = "scale"}},
                   "move");
    w.addScene({node});
    return w;
}

GltfWriter skinned() {
    GltfWriter w;
    w.useExtension("KHR_mesh_quantization", true);
    const auto pos = w.addAccessor(
        {.componentType = kShort, .type = "VEC3", .values = {0, 0, 0, 1, 0, 0, 0, 2, 0}, .byteStride = 8});
    const auto nrm = w.addAccessor({.componentType = kByte,
                                    .type = "VEC3",
                                    .values = {0, 0, 127, 0, 0, 127, 0, 0, 127},
                                    .normalized = true,
                                    .byteStride = 4});
    const auto joints =
        w.addAccessor({.componentType = kUnsignedByte, .type = "VEC4", .values = {0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0}});
    const auto weights = w.addAccessor({.componentType = kUnsignedByte,
                                        .type = "VEC4",
                                        .values = {128, 127, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0},
                                        .normalized = true});
    const auto ibm = w.addFloats("MAT4", {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,  //
                                          1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1});
    const auto mesh =
        w.addMesh({{.attributes = {{"POSITION", pos}, {"NORMAL", nrm}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}}}});
    const auto hip = w.addNode({.name = "hip", .children = {1}});
    w.addNode({.name = "knee", .translation = std::array<double, 3>{0, 1, 0}});
    const auto skin = w.addSkin({0, 1}, ibm, hip);
    const auto body = w.addNode({.name = "body", .mesh = mesh, .skin = skin});
    const auto t = w.addFloats("SCALAR", {0, 1});
    const auto bend = w.addFloats("VEC4", {0, 0, 0, 1, 0.7071068f, 0, 0, 0.7071068f});
    w.addAnimation({{.input = t, .output = bend}}, {{.sampler = 0, .node = 1, .path = "rotation"}}, "bend");
    w.addScene({hip, body});
    return w;
}

GltfWriter morph() {
    GltfWriter w;
    const auto pos = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 0, 1, 0});
    const auto d0 = w.addSparseAccessor({.componentType = kFloat, .type = "VEC3"}, 3,
                                        {.indexComponentType = kUnsignedByte, .indices = {2}, .values = {0, 0, 1}});
    const auto d1 =
        w.addSparseAccessor({.componentType = kFloat, .type = "VEC3", .values = {1, 0, 0, 1, 0, 0, 1, 0, 0}}, 3,
                            {.indexComponentType = kUnsignedShort, .indices = {0, 1}, .values = {0, 1, 0, 0, 1, 0}});
    const auto mesh =
        w.addMesh({{.attributes = {{"POSITION", pos}}, .targets = {{{"POSITION", d0}}, {{"POSITION", d1}}}}}, {0.5, 0});
    const auto node = w.addNode({.name = "face", .mesh = mesh, .weights = {0, 0.25}});
    const auto t = w.addFloats("SCALAR", {0, 1});
    const auto cubic = w.addFloats("SCALAR", {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0});
    w.addAnimation({{.input = t, .output = cubic, .interpolation = "CUBICSPLINE"}},
                   {{.sampler = 0, .node = node, .path = "weights"}}, "blink");
    w.addScene({node});
    return w;
}

// A triangle whose material's texture is a real 4 x 4 RGBA PNG, embedded: the seed
// that takes the fuzzer into the image decoder.
GltfWriter textured() {
    GltfWriter w;
    const auto pos = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 0, 1, 0});
    const auto uv = w.addFloats("VEC2", {0, 0, 1, 0, 0, 1});
    const auto mesh = w.addMesh({{.attributes = {{"POSITION", pos}, {"TEXCOORD_0", uv}}}});
    Bytes rows;
    for (std::uint8_t y = 0; y < 4; ++y) {
        rows.push_back(0);  // filter: none
        for (std::uint8_t x = 0; x < 4; ++x)
            rows.insert(rows.end(), {std::uint8_t(x * 60), std::uint8_t(y * 60), 128, 255});
    }
    const Bytes image = png(4, 4, 6, zlibStored(rows));
    const auto view = w.addBufferView(std::as_bytes(std::span(image)));
    auto& img = w.json()["images"].push(kinema::test::Json::object());
    img["bufferView"] = view;
    img["mimeType"] = "image/png";
    w.json()["textures"].push(kinema::test::Json::object())["source"] = 0;
    w.json()["materials"].push(kinema::test::Json::object())["pbrMetallicRoughness"]["baseColorTexture"]["index"] = 0;
    w.json()["meshes"][mesh]["primitives"][0]["material"] = 0;
    w.addScene({w.addNode({.name = "tri", .mesh = mesh})});
    return w;
}

bool writeSeed(const std::filesystem::path& dir, const std::string& name, const std::vector<std::byte>& bytes) {
    kinema::ImportOptions options;
    options.decodeImages = name.rfind("textured", 0) == 0;
    const auto r = kinema::importGltf(makeSource(bytes, name), options);
    if (!r) {
        std::fprintf(stderr, "seed %s does not import:\n%s\n", name.c_str(), r.message().c_str());
        return false;
    }
    std::ofstream out(dir / name, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <output folder>\n", argv[0]);
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    bool ok = true;
    ok &= writeSeed(dir, "minimal.gltf", toBytes(minimal().gltf()));
    ok &= writeSeed(dir, "triangle.gltf", toBytes(triangle().gltf()));
    ok &= writeSeed(dir, "triangle.glb", triangle().glb());
    ok &= writeSeed(dir, "animated.glb", animated().glb());
    ok &= writeSeed(dir, "skinned.glb", skinned().glb());
    ok &= writeSeed(dir, "morph.gltf", toBytes(morph().gltf()));
    ok &= writeSeed(dir, "textured.glb", textured().glb());
    return ok ? 0 : 1;
}
