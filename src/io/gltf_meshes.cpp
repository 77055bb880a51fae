// Meshes: primitives and their vertex attributes (vertex colours included), indices,
// morph targets and the targets' names. Skinning sets are read in gltf_influences.cpp.
#include "gltf_importer.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace kinema::gltf_import {

void Importer::readMeshes() {
    model_.meshes.resize(table("meshes", sizeof(Mesh)));
    if (stopped_) return;  // out of budget
    forEachObject("meshes", [&](std::size_t mi, const dom::object& o, const Pointer& at) {
        Mesh& mesh = model_.meshes[mi];
        readName(o, at, mesh.name);
        dom::array prims;
        if (!getArray(o, "primitives", at, prims, true)) return;
        if (!charged(prims.size(), sizeof(MeshPrimitive), at / "primitives", "the primitives")) return;
        mesh.primitives.resize(prims.size());
        std::size_t p = 0;
        bool first = true;
        for (dom::element e : prims) {
            const Pointer pat = at / "primitives" / p;
            dom::object po;
            if (asObject(e, pat, po)) {
                std::size_t targets = 0;
                readPrimitive(po, pat, mesh.primitives[p], targets);
                if (first)
                    mesh.targetCount = static_cast<std::uint32_t>(targets);
                else if (targets != mesh.targetCount) {
                    fault(pat / "targets",
                          "every primitive of a mesh has the same number of morph targets (" +
                              std::to_string(mesh.targetCount) + " in primitive 0)");
                }
                first = false;
            }
            ++p;
        }
        mesh.weights.assign(mesh.targetCount, 0.0f);
        dom::array w;
        if (getArray(o, "weights", at, w, false)) {
            if (w.size() != mesh.targetCount) {
                fault(at / "weights",
                      "holds " + std::to_string(w.size()) + " weights for " + std::to_string(mesh.targetCount) +
                          " morph targets");
            } else {
                getFloats(o, "weights", at, mesh.weights.data(), mesh.weights.size());
            }
        }
        readTargetNames(o, at, mesh);
    });
}

// Morph target names: not part of glTF itself, but exporters (Blender among them)
// and loaders agree on mesh.extras.targetNames, one string per target. Names that
// do not fit the targets are a warning, never a fault: extras are free-form.
void Importer::readTargetNames(const dom::object& o, const Pointer& at, Mesh& mesh) {
    dom::object extras;
    dom::array names;
    dom::element e;
    if (o.at_key("extras").get(e) || e.get_object().get(extras)) return;
    if (extras.at_key("targetNames").get(e)) return;
    const Pointer nat = at / "extras" / "targetNames";
    if (e.get_array().get(names)) {
        warn(nat, "is not an array of names; ignored");
        return;
    }
    if (names.size() != mesh.targetCount) {
        warn(nat,
             "holds " + std::to_string(names.size()) + " names for " + std::to_string(mesh.targetCount) +
                 " morph targets; ignored");
        return;
    }
    std::vector<std::string> list;
    for (dom::element name : names) {
        std::string_view text;
        if (name.get_string().get(text)) {
            warn(nat / list.size(), "is not a string; the names are ignored");
            return;
        }
        list.emplace_back(text);
    }
    mesh.targetNames = std::move(list);
}

void Importer::readPrimitive(const dom::object& o, const Pointer& at, MeshPrimitive& prim, std::size_t& targetCount) {
    enum { kMode, kMaterial, kAttributes, kIndices, kTargets };
    static constexpr std::array<std::string_view, 5> kKeys{"mode", "material", "attributes", "indices", "targets"};
    const Members<5> pm(o, kKeys);
    std::uint64_t mode = 4;
    if (getUint(pm[kMode], "mode", at, mode, false) && mode > 6) fault(at / "mode", "must be 0..6");
    prim.mode = static_cast<PrimitiveMode>(std::min<std::uint64_t>(mode, 6));
    prim.material = getIndex(pm[kMaterial], "material", at, model_.materials.size(), "material", false);
    dom::object attrObject;
    if (!getObject(pm[kAttributes], "attributes", at, attrObject, true)) return;
    const Attributes attrs(attrObject);
    const Pointer aat = at / "attributes";
    const unsigned posAllow = quantized_ ? kQuantized : kFloat;
    const unsigned nrmAllow = quantized_ ? (kFloat | kInt8Norm | kInt16Norm) : kFloat;
    const unsigned uvAllow = quantized_ ? kQuantized : (kFloat | kInt8Norm | kInt16Norm);
    std::uint64_t idx = 0;
    std::size_t vertexCount = 0;
    bool haveCount = false;
    if (getUint(attrs["POSITION"], "POSITION", aat, idx, false)) {
        if (decodeInto(static_cast<std::int64_t>(idx), aat / "POSITION", {{3, 1}}, posAllow, "POSITION",
                       prim.positions)) {
            vertexCount = prim.positions.size();
            haveCount = true;
            const std::span<const float> flat(&prim.positions.data()->x, vertexCount * 3);
            checkFinite(static_cast<std::int64_t>(idx), flat);
            checkBounds(static_cast<std::int64_t>(idx), flat, true, "a POSITION");
        }
        if (idx >= accessors_.size()) fault(aat / "POSITION", "no such accessor");
    }
    auto attributeIndex = [&](std::string_view key, std::int64_t& out) {
        std::uint64_t v = 0;
        if (!getUint(attrs[key], key, aat, v, false)) return false;
        if (v >= accessors_.size()) {
            fault(aat / key, "no such accessor");
            return false;
        }
        out = static_cast<std::int64_t>(v);
        return true;
    };
    // Without POSITION a primitive has no vertices to pose or draw (glTF: skip
    // it); its other accessors are still checked but not decoded, so nothing in
    // the model refers to vertices that do not exist.
    const bool decodeDrawData = opt_.decodeRenderAttributes && haveCount;
    std::int64_t a = -1;
    if (attributeIndex("NORMAL", a)) {
        if (decodeDrawData) {
            if (decodeInto(a, aat / "NORMAL", {{3, 1}}, nrmAllow, "NORMAL", prim.normals, vertexCount)) {
                const std::span<const float> flat(&prim.normals.data()->x, vertexCount * 3);
                if (checkFinite(a, flat)) checkUnitNormals(a, prim.normals);
                checkBounds(a, flat, false, "a NORMAL");
            }
        } else {
            useAccessor(a, aat / "NORMAL", {{3, 1}}, nrmAllow, "NORMAL");
        }
    }
    if (attributeIndex("TEXCOORD_0", a)) {
        if (decodeDrawData) {
            if (decodeInto(a, aat / "TEXCOORD_0", {{2, 1}}, uvAllow, "TEXCOORD_0", prim.texcoords, vertexCount)) {
                const std::span<const float> flat(prim.texcoords.data()->data(), vertexCount * 2);
                checkFinite(a, flat);
                checkBounds(a, flat, false, "a TEXCOORD_0");
            }
        } else {
            useAccessor(a, aat / "TEXCOORD_0", {{2, 1}}, uvAllow, "TEXCOORD_0");
        }
    }
    if (attributeIndex("COLOR_0", a)) readColors(a, aat / "COLOR_0", vertexCount, decodeDrawData, prim);
    // Skinning sets JOINTS_n / WEIGHTS_n come in pairs, numbered from 0 without gaps.
    std::size_t sets = 0;
    bool unpairedSet = false;
    while (true) {
        const std::string jk = "JOINTS_" + std::to_string(sets), wk = "WEIGHTS_" + std::to_string(sets);
        const bool hj = attrs[jk].has_value(), hw = attrs[wk].has_value();
        if (!hj && !hw) break;
        if (hj != hw) {
            fault(aat / (hj ? jk : wk),
                  "skinning set " + std::to_string(sets) + " has " + (hj ? jk : wk) + " without " + (hj ? wk : jk));
            unpairedSet = true;
            break;
        }
        ++sets;
    }
    // Any other numbered skinning set (a gap) is a fault.
    for (auto [key, value] : attrObject) {
        (void)value;
        for (std::string_view prefix : {std::string_view("JOINTS_"), std::string_view("WEIGHTS_")}) {
            if (key.substr(0, prefix.size()) == prefix) {
                std::size_t n = 0;
                bool digits = key.size() > prefix.size();
                for (char c : key.substr(prefix.size())) {
                    digits &= (c >= '0' && c <= '9');
                    n = n * 10 + static_cast<std::size_t>(c - '0');
                    if (n > 1000) break;
                }
                if ((!digits || n >= sets) && !unpairedSet) {
                    fault(aat / key, "skinning attribute sets must be numbered from 0 without gaps");
                }
            }
        }
    }
    if (unpairedSet) {
        // Reported above; the sets cannot be read, the rest of the primitive can.
    } else if (sets > 0 && haveCount) {
        readInfluences(attrs, aat, sets, vertexCount, prim);
    } else {
        for (std::size_t set = 0; set < sets; ++set) {
            const std::string jk = "JOINTS_" + std::to_string(set), wk = "WEIGHTS_" + std::to_string(set);
            if (attributeIndex(jk, a)) useAccessor(a, aat / jk, {{4, 1}}, kInt8 | kInt16, "JOINTS_n");
            if (attributeIndex(wk, a)) useAccessor(a, aat / wk, {{4, 1}}, kFloat | kInt8Norm | kInt16Norm, "WEIGHTS_n");
        }
    }
    if (pm.has(kIndices)) {
        std::uint64_t ia = 0;
        getUint(pm[kIndices], "indices", at, ia, true);
        if (ia >= accessors_.size()) {
            fault(at / "indices", "no such accessor");
        } else if (accessors_[ia].ok && accessors_[ia].desc.byteStride != 0) {
            fault(at / "indices",
                  "accessor " + std::to_string(ia) + "'s bufferView has byteStride " +
                      std::to_string(accessors_[ia].desc.byteStride) +
                      "; indices must be tightly packed (no byteStride)");
        } else if (!decodeDrawData) {
            useAccessor(static_cast<std::int64_t>(ia), at / "indices", {{1, 1}}, kInt8 | kInt16 | kUint32, "indices");
        } else if (decodeUintsInto(static_cast<std::int64_t>(ia), at / "indices", {1, 1}, "indices", prim.indices)) {
            // Any index >= vertexCount, as a signed compare of biased values so
            // the scan vectorises without SSE4.1's unsigned max.
            bool anyBad = false;
            if (vertexCount <= 0xFFFFFFFFu) {
                const auto biased = [](std::uint32_t v) { return static_cast<std::int32_t>(v ^ 0x80000000u); };
                const std::int32_t limit = biased(static_cast<std::uint32_t>(vertexCount));
                int bad = 0;
                for (const std::uint32_t i : prim.indices) bad |= biased(i) >= limit ? 1 : 0;
                anyBad = bad != 0;
            }
            if (anyBad) {
                const auto bad = std::find_if(prim.indices.begin(), prim.indices.end(),
                                              [&](std::uint32_t i) { return i >= vertexCount; });
                fault(Pointer{} / "accessors" / static_cast<std::size_t>(ia),
                      "index " + std::to_string(*bad) + " at element " + std::to_string(bad - prim.indices.begin()) +
                          " is not below the vertex count " + std::to_string(vertexCount));
            }
        }
    }
    dom::array targets;
    if (getArray(pm[kTargets], "targets", at, targets, false)) {
        targetCount = targets.size();
        if (!charged(targetCount, sizeof(MorphTarget), at / "targets", "the morph targets")) return;
        prim.targets.resize(targetCount);
        std::size_t t = 0;
        for (dom::element e : targets) {
            const Pointer tat = at / "targets" / t;
            dom::object to;
            if (asObject(e, tat, to)) {
                const unsigned deltaAllow = quantized_ ? kQuantized : kFloat;
                std::uint64_t ta = 0;
                for (const auto& [key, deltas] :
                     {std::pair<std::string_view, std::vector<Vec3>*>{"POSITION", &prim.targets[t].positions},
                      std::pair<std::string_view, std::vector<Vec3>*>{"NORMAL", &prim.targets[t].normals}}) {
                    if (!getUint(to, key, tat, ta, false)) continue;
                    const auto index = static_cast<std::int64_t>(ta);
                    if (ta >= accessors_.size()) {
                        fault(tat / key, "no such accessor");
                    } else if (haveCount) {
                        if (decodeInto(index, tat / key, {{3, 1}}, deltaAllow, "morph target", *deltas, vertexCount)) {
                            const std::span<const float> flat(&deltas->data()->x, vertexCount * 3);
                            checkFinite(index, flat);
                            checkBounds(index, flat, false, "a morph target");
                        }
                    } else {
                        useAccessor(index, tat / key, {{3, 1}}, deltaAllow, "morph target");
                    }
                }
            }
            ++t;
        }
    }
}

// NORMAL vectors of unit length within the validator's tolerance; lenient
// import renormalises the others (a zero vector stays zero: it has no direction).
void Importer::checkUnitNormals(std::int64_t index, std::vector<Vec3>& normals) {
    std::size_t off = 0, first = 0;
    double firstLength = 0.0;
    for (std::size_t v = 0; v < normals.size(); ++v) {
        Vec3& n = normals[v];
        const double len = std::sqrt(double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z);
        if (std::fabs(len - 1.0) <= kNormalUnitTolerance) continue;
        if (off++ == 0) {
            first = v;
            firstLength = len;
        }
        if (lenient() && len > 0.0) n = {float(n.x / len), float(n.y / len), float(n.z / len)};
    }
    if (off == 0) return;
    recoverable(Pointer{} / "accessors" / static_cast<std::size_t>(index),
                std::to_string(off) + " normal" + (off == 1 ? " is" : "s are") + " not of unit length (first: vertex " +
                    std::to_string(first) + ", length " + exactNumber(static_cast<float>(firstLength)) +
                    "; tolerance " + exactNumber(kNormalUnitTolerance) + ")",
                "renormalised (zero vectors left as they are)");
}

// COLOR_0: RGB or RGBA, float or normalised unsigned byte / short (the only encodings
// glTF allows), as linear RGBA floats. `vertexCount` is 0 when the primitive has no
// POSITION; the accessor is then only checked.
void Importer::readColors(std::int64_t index, const Pointer& at, std::size_t vertexCount, bool decode,
                          MeshPrimitive& prim) {
    const unsigned allow = kFloat | kInt8Norm | kInt16Norm;
    const AccessorDesc* d = useAccessor(index, at, {{3, 1}, {4, 1}}, allow, "COLOR_0");
    if (!d) return;
    if (d->componentType == ComponentType::Byte || d->componentType == ComponentType::Short) {
        fault(at,
              "COLOR_0 cannot use accessor " + std::to_string(index) + " with componentType " +
                  std::to_string(static_cast<unsigned>(d->componentType)) + " (normalized integers must be unsigned)");
        return;
    }
    if (vertexCount == 0) return;
    if (d->count != vertexCount) {
        fault(at,
              "COLOR_0 accessor " + std::to_string(index) + " has " + std::to_string(d->count) + " elements, " +
                  std::to_string(vertexCount) + " expected");
        return;
    }
    if (!decode) return;
    const bool isFloat = d->componentType == ComponentType::Float;
    std::span<const float> raw;  // the accessor's values, for the checks below
    std::vector<std::array<float, 3>> rgb;
    if (d->shape.rows == 4) {
        if (!decodeInto(index, at, {{4, 1}}, allow, "COLOR_0", prim.colors, vertexCount)) return;
        raw = std::span<const float>(prim.colors.data()->data(), vertexCount * 4);
    } else {
        if (!decodeInto(index, at, {{3, 1}}, allow, "COLOR_0", rgb, vertexCount)) return;
        if (!reserveDecoded(vertexCount * sizeof(std::array<float, 4>), at)) return;
        prim.colors.resize(vertexCount);
        for (std::size_t v = 0; v < vertexCount; ++v) prim.colors[v] = {rgb[v][0], rgb[v][1], rgb[v][2], 1.0f};
        raw = std::span<const float>(rgb.data()->data(), vertexCount * 3);
    }
    // Normalised integers decode into 0..1; only float data can be outside it.
    if (checkFinite(index, raw) && isFloat) {
        checkBounds(index, raw, false, "a COLOR_0");
        checkColorRange(index, prim.colors);
    }
    if (!rgb.empty()) refund(rgb.size() * sizeof(rgb[0]));
}

// Colour components within 0..1, as the validator requires (ACCESSOR_NON_CLAMPED);
// lenient import clamps the others.
void Importer::checkColorRange(std::int64_t index, std::vector<std::array<float, 4>>& colors) {
    std::size_t off = 0, first = 0;
    float firstValue = 0.0f;
    for (std::size_t v = 0; v < colors.size(); ++v) {
        for (std::size_t c = 0; c < 4; ++c) {
            float& value = colors[v][c];
            if (value >= 0.0f && value <= 1.0f) continue;
            if (off++ == 0) {
                first = v * 4 + c;
                firstValue = value;
            }
            if (lenient()) value = std::clamp(value, 0.0f, 1.0f);
        }
    }
    if (off == 0) return;
    recoverable(Pointer{} / "accessors" / static_cast<std::size_t>(index),
                std::to_string(off) + " colour component" + (off == 1 ? " is" : "s are") +
                    " outside 0..1 (first: vertex " + std::to_string(first / 4) + " component " +
                    std::to_string(first % 4) + ", value " + exactNumber(firstValue) + ")",
                "clamped to 0..1");
}

}  // namespace kinema::gltf_import
