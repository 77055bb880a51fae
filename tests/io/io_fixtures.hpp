// Shared by the tests in tests/io: fault matchers and a small valid rigged,
// morphing, animated model that the hostile-input tests damage one field at a time.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/io/gltf.hpp"
#include "support/gltf_writer.hpp"

namespace kinema::test {

// A fresh folder under the system temp folder, removed with the object.
class TempDir {
public:
    TempDir() {
        static std::atomic<int> counter{0};
        path_ = std::filesystem::temp_directory_path() /
            ("kinema-io-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

inline void writeFile(const std::filesystem::path& p, const std::vector<std::byte>& bytes) {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline void writeFile(const std::filesystem::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
}

// Every fault, one per line, for failure messages.
inline std::string faultList(const Result<Model>& r) {
    std::string s;
    for (const Fault& f : r.faults()) s += "\n    " + f.where + ": " + f.what;
    return s.empty() ? std::string("\n    (no faults)") : s;
}

// An accepted model must be one the per-frame path may trust (model.hpp).
inline ::testing::AssertionResult consistent(const Model& m) {
    const std::vector<Fault> faults = findModelFaults(m);
    if (faults.empty()) return ::testing::AssertionSuccess();
    auto failure = ::testing::AssertionFailure() << "import accepted an inconsistent model (findModelFaults):";
    for (const Fault& f : faults) failure << "\n    " << f.where << ": " << f.what;
    return failure;
}

// Imported, and the model is consistent.
inline ::testing::AssertionResult imported(const Result<Model>& r) {
    if (r.ok()) return consistent(r.value());
    return ::testing::AssertionFailure() << "import failed:" << faultList(r);
}

// Rejected, with some fault located exactly at `where`.
inline ::testing::AssertionResult faultAt(const Result<Model>& r, const std::string& where) {
    if (r.ok()) return ::testing::AssertionFailure() << "import succeeded; expected a fault at " << where;
    for (const Fault& f : r.faults()) {
        if (f.where == where) return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "no fault at " << where << "; faults:" << faultList(r);
}

// Rejected, with some fault at `where` or inside it (where + "/...").
inline ::testing::AssertionResult faultUnder(const Result<Model>& r, const std::string& where) {
    if (r.ok()) return ::testing::AssertionFailure() << "import succeeded; expected a fault under " << where;
    for (const Fault& f : r.faults()) {
        if (f.where == where || f.where.rfind(where + "/", 0) == 0) return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "no fault under " << where << "; faults:" << faultList(r);
}

// Either imported as a consistent model, or rejected with faults that all name
// the file and say something.
inline ::testing::AssertionResult cleanOutcome(const Result<Model>& r, const std::string& name) {
    if (r.ok()) return consistent(r.value());
    if (r.faults().empty()) return ::testing::AssertionFailure() << "rejected without faults";
    for (const Fault& f : r.faults()) {
        if (f.where.rfind(name, 0) != 0 || f.what.empty()) {
            return ::testing::AssertionFailure() << "badly located fault '" << f.where << ": " << f.what << "'";
        }
    }
    return ::testing::AssertionSuccess();
}

// The glTF spec's decoding of normalised integers (Animations / Meshes sections),
// computed in double precision.
inline float specNormByte(int c) { return static_cast<float>(std::max(c / 127.0, -1.0)); }
inline float specNormUbyte(int c) { return static_cast<float>(c / 255.0); }
inline float specNormShort(int c) { return static_cast<float>(std::max(c / 32767.0, -1.0)); }
inline float specNormUshort(int c) { return static_cast<float>(c / 65535.0); }

// A small valid model: root(0) -> jointA(1) -> jointB(2), root -> meshNode(3)
// which draws mesh 0 (4 vertices, 2 morph targets) skinned by skin 0 (joints
// 1, 2); animation 0 rotates jointA (LINEAR), moves jointB (STEP) and drives the
// mesh node's morph weights (LINEAR).
struct Rig {
    GltfWriter w;
    std::uint32_t positions = 0, normals = 0, joints = 0, weights = 0, indices = 0, target0 = 0, target1 = 0;
    std::uint32_t ibm = 0, times = 0, rotations = 0, translations = 0, morphWeights = 0;
    std::uint32_t root = 0, jointA = 0, jointB = 0, meshNode = 0;
};

inline Rig makeRig() {
    Rig r;
    GltfWriter& w = r.w;
    r.positions = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0});
    r.normals = w.addFloats("VEC3", {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1});
    r.joints = w.addAccessor(
        {.componentType = kUnsignedByte, .type = "VEC4", .values = {0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}});
    r.weights = w.addFloats("VEC4", {0.5f, 0.5f, 0, 0, 0.25f, 0.75f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    r.indices = w.addAccessor({.componentType = kUnsignedShort, .type = "SCALAR", .values = {0, 1, 2, 0, 2, 3}});
    r.target0 = w.addFloats("VEC3", {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1});
    r.target1 = w.addFloats("VEC3", {1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0});
    r.ibm = w.addFloats("MAT4", {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,  //
                                 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1});
    r.times = w.addFloats("SCALAR", {0.0f, 1.0f});
    r.rotations = w.addFloats("VEC4", {0, 0, 0, 1, 0, 0, 1, 0});
    r.translations = w.addFloats("VEC3", {0, 1, 0, 0, 2, 0});
    r.morphWeights = w.addFloats("SCALAR", {0, 0, 1, 0.5f});

    w.addMesh(
        {{.attributes =
              {{"POSITION", r.positions}, {"NORMAL", r.normals}, {"JOINTS_0", r.joints}, {"WEIGHTS_0", r.weights}},
          .indices = r.indices,
          .targets = {{{"POSITION", r.target0}}, {{"POSITION", r.target1}}}}},
        {0.0, 0.0});
    w.addSkin({1, 2}, r.ibm);
    r.root = w.addNode({.name = "root", .children = {1, 3}});
    r.jointA = w.addNode({.name = "jointA", .translation = std::array<double, 3>{0, 1, 0}, .children = {2}});
    r.jointB = w.addNode({.name = "jointB", .translation = std::array<double, 3>{0, 1, 0}});
    r.meshNode = w.addNode({.name = "body", .mesh = 0, .skin = 0});
    w.addScene({r.root});
    w.addAnimation({{.input = r.times, .output = r.rotations},
                    {.input = r.times, .output = r.translations, .interpolation = "STEP"},
                    {.input = r.times, .output = r.morphWeights, .interpolation = "LINEAR"}},
                   {{.sampler = 0, .node = r.jointA, .path = "rotation"},
                    {.sampler = 1, .node = r.jointB, .path = "translation"},
                    {.sampler = 2, .node = r.meshNode, .path = "weights"}},
                   "rig");
    return r;
}

}  // namespace kinema::test
