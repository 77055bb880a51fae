// Test helper: glTF 2.0 conformance fixtures. One valid base model (a skinned,
// morphing, animated quad) and a list of copies of it, each damaged in exactly one
// way that the glTF 2.0 specification forbids (or, for "accepted" fixtures, in a
// way that stays inside the specification's tolerances).
//
// Each fixture names the error code that the Khronos glTF-Validator reports for it
// (tests/oracle/validate.mjs checks that it does), where kinema locates the fault,
// and whether a lenient import may repair it. The same list drives the C++ tests
// (tests/io/spec_conformance_test.cpp) and the oracle (tests/oracle/write_fixtures.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "kinema/io/gltf.hpp"
#include "support/gltf_writer.hpp"

namespace kinema::test {

// The base model's data, before it is written. A fixture may change values here
// (the writer then derives accessor min/max from the changed values).
struct SpecBaseData {
    // Mesh: a quad of 4 vertices, one morph target.
    std::vector<double> positions{};  // VEC3 float
    std::vector<double> normals{};    // VEC3 float
    std::vector<double> joints{};     // VEC4 unsigned byte
    std::vector<double> weights{};    // VEC4 float
    std::vector<double> indices{};    // SCALAR unsigned short
    std::vector<double> target{};     // VEC3 float, morph target POSITION deltas
    // Skin over nodes 1 and 2.
    std::vector<double> inverseBindMatrices{};  // MAT4 float, 2 matrices
    std::size_t inverseBindStride = 0;          // byteStride of their bufferView (0: none)
    // Node 2's rest rotation (x, y, z, w).
    std::array<double, 4> jointBRotation{};
    // Animation 0: key times (one input accessor per sampler, same values).
    std::vector<double> times{};
    std::size_t inputStride = 0;  // byteStride of sampler 0's input bufferView (0: none)
    // Sampler 0: rotation of node 1 (VEC4 float).
    std::vector<double> rotations{};
    // Sampler 1: translation of node 2 (VEC3).
    AccessorData translations{};
    // Sampler 2: scale of node 2 (VEC3).
    AccessorData scales{};
    // Sampler 3: morph weights of node 3 (SCALAR float, one target).
    std::vector<double> morphWeights{};
};

// Indices of what the base model defines.
struct SpecBaseIds {
    std::uint32_t positions = 0, normals = 0, joints = 0, weights = 0, indices = 0, target = 0;
    std::uint32_t inverseBindMatrices = 0;
    // Per sampler: its input and output accessors.
    std::array<std::uint32_t, 4> inputs{}, outputs{};
    // Sampler indices in animation 0.
    static constexpr std::uint32_t rotationSampler = 0, translationSampler = 1, scaleSampler = 2, weightsSampler = 3;
    // Nodes: root(0) -> jointA(1) -> jointB(2); body(3) is a root drawing the skinned mesh.
    std::uint32_t root = 0, jointA = 1, jointB = 2, body = 3;
};

struct SpecBase {
    GltfWriter w;
    SpecBaseIds ids;
};

// The base model's values: valid glTF 2.0 (0 errors, 0 warnings from glTF-Validator).
SpecBaseData specBaseData();
// Builds the model from data. Every accessor has its own bufferView; vertex and
// index views carry their target.
SpecBase buildSpecBase(const SpecBaseData& data = specBaseData());

enum class SpecContainer : std::uint8_t { Gltf, Glb };

struct SpecFixture {
    std::string name{};           // also the file name without extension, e.g. "rotation-key-length-2"
    std::string validatorCode{};  // glTF-Validator's error code; empty: valid for the validator ("accepted")
    // Where the validator reports it: its JSON pointer, "@N" for a byte offset, or empty
    // when it gives neither (it often points at the referencing object, not the accessor).
    std::string validatorPointer{};
    // Other error codes the validator reports as a consequence of the same damage.
    std::vector<std::string> validatorAlso{};
    // Where kinema locates the fault: a JSON pointer ("/accessors/9"), appended to the
    // file name after '#', or a suffix starting with '@' ("@byte 0") appended as is.
    // Empty for accepted fixtures.
    std::string pointer{};
    // true: a lenient import repairs it and warns at the same location; false: refused
    // by strict and lenient imports alike. Meaningless for accepted fixtures.
    bool recoverable = false;
    // A word the lenient warning's text must contain (case-insensitive), naming what was
    // repaired. Empty when not recoverable.
    std::string repair{};
    SpecContainer container = SpecContainer::Gltf;
    std::function<void(SpecBaseData&)> edit{};                      // changes values before the build
    std::function<void(GltfWriter&, const SpecBaseIds&)> damage{};  // changes the written document
    std::function<std::vector<std::byte>()> rawBytes{};             // replaces the file entirely when set

    bool accepted() const { return validatorCode.empty(); }
    // name + ".gltf" or ".glb".
    std::string fileName() const;
    // Where kinema reports it: fileName() + "#" + pointer, or fileName() + pointer for '@' suffixes.
    std::string location() const;
    // The file's bytes.
    std::vector<std::byte> bytes() const;
    // The file as an import source named fileName().
    GltfSource source() const;
};

// GoogleTest prints a fixture parameter as its file name.
void PrintTo(const SpecFixture& fixture, std::ostream* out);

// Every fixture, the undamaged base ("base", accepted) first. Names are unique and
// use only [a-z0-9-].
std::vector<SpecFixture> specFixtures();

}  // namespace kinema::test
