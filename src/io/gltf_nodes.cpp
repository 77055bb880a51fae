// Nodes and the hierarchy: the skeleton (every node a joint, parent before child),
// scenes, and the rules that bind nodes to meshes, morph weights and skins.
#include "gltf_importer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace kinema::gltf_import {

namespace {

double lengthInDouble(const Vec3& v) { return std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z); }

// How far the matrix axes `axes` lie from those of `trs` (their decomposition), each
// relative to its own length: 0 for an exact rotation and scale, about half the
// shear for a sheared matrix.
double shearOf(const Vec3 (&axes)[3], const Transform& trs) {
    const Mat4 back = toMatrix(trs);
    double worst = 0.0;
    for (int c = 0; c < 3; ++c) {
        const double length = lengthInDouble(axes[c]);
        if (length == 0.0) continue;
        const Vec3 rebuilt{back(0, c), back(1, c), back(2, c)};
        worst = std::max(worst, lengthInDouble(axes[c] - rebuilt) / length);
    }
    return worst;
}

// Axes this far (relative) from their rotation and scale shear: about 1e-4 of shear,
// where the Khronos validator draws its line for a unit matrix; exporters' rounding
// stays near 1e-7.
constexpr double kShearTolerance = 5e-5;

}  // namespace

// glTF asks a node matrix to decompose to TRS. Two kinds do not: a singular one (an
// axis of zero length, or one in the plane of the others: the validator's rule, though
// TRS holds a zero scale) and a sheared one. A lenient import takes decompose()'s TRS.
void Importer::checkDecomposes(const Vec3 (&axes)[3], const Transform& trs, const Pointer& at) {
    const Vec3& a = axes[0];
    const Vec3& b = axes[1];
    const Vec3& c = axes[2];
    const double det = double(a.x) * (double(b.y) * c.z - double(b.z) * c.y) -
        double(a.y) * (double(b.x) * c.z - double(b.z) * c.x) + double(a.z) * (double(b.x) * c.y - double(b.y) * c.x);
    if (det == 0.0) {
        recoverable(at, "the matrix is singular (an axis is zero or lies in the plane of the others)",
                    "taken as its nearest TRS");
        return;
    }
    const double shear = shearOf(axes, trs);
    if (shear > kShearTolerance) {
        recoverable(at,
                    "the matrix shears (its axes are not perpendicular: " + exactNumber(static_cast<float>(shear)) +
                        " of an axis off the nearest rotation and scale), so it does not decompose to TRS",
                    "taken as its nearest TRS");
    }
}

void Importer::readNodes() {
    const std::size_t count = arraySize("nodes");
    const std::size_t meshCount = arraySize("meshes");
    const std::size_t skinCount = arraySize("skins");
    const std::size_t cameraCount = arraySize("cameras");
    // A node is also a joint of the skeleton, with its maps and rest pose.
    if (!charged(count, sizeof(Node) + sizeof(JointDesc) + 2 * sizeof(Transform) + 8 * sizeof(std::uint32_t),
                 Pointer{} / "nodes", "the nodes table")) {
        return;
    }
    nodes_.resize(count);
    const std::size_t faultsBefore = faults_.size() - valueFaults_;
    forEachObject("nodes", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        Node& n = nodes_[i];
        enum { kName, kMesh, kSkin, kMatrix, kTranslation, kRotation, kScale, kChildren, kWeights, kCamera };
        static constexpr std::array<std::string_view, 10> kKeys{
            "name", "mesh", "skin", "matrix", "translation", "rotation", "scale", "children", "weights", "camera"};
        const Members<10> f(o, kKeys);
        std::string_view name;
        if (getString(f[kName], "name", at, name, false)) n.name = name;
        n.mesh = getIndex(f[kMesh], "mesh", at, meshCount, "mesh", false);
        n.skin = getIndex(f[kSkin], "skin", at, skinCount, "skin", false);
        n.camera = getIndex(f[kCamera], "camera", at, cameraCount, "camera", false);
        float m[16];
        const bool hasMatrix = getFloats(f[kMatrix], "matrix", at, m, 16);
        float t[3], r[4], s[3];
        const bool hasT = getFloats(f[kTranslation], "translation", at, t, 3);
        const bool hasR = getFloats(f[kRotation], "rotation", at, r, 4);
        const bool hasS = getFloats(f[kScale], "scale", at, s, 3);
        if (hasMatrix && (hasT || hasR || hasS)) fault(at, "a node has either matrix or TRS properties, not both");
        if (hasMatrix) {
            Mat4 mat;
            std::copy(m, m + 16, mat.m.begin());
            if (mat(3, 0) != 0.0f || mat(3, 1) != 0.0f || mat(3, 2) != 0.0f || mat(3, 3) != 1.0f) {
                fault(at / "matrix", "the last row must be 0, 0, 0, 1 (the matrix must decompose to TRS)");
            }
            n.local = decompose(mat);
            n.hasMatrix = true;
            // decompose() zeroes what it cannot represent; a finite matrix whose
            // axis lengths overflow float would silently collapse the subtree.
            const Vec3 axes[3] = {{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}};
            bool tooLong = false;
            for (const Vec3& axis : axes) {
                if (lengthInDouble(axis) > double(std::numeric_limits<float>::max())) {
                    fault(at / "matrix", "an axis is too long to represent as a float scale");
                    tooLong = true;
                    break;
                }
            }
            if (!tooLong) checkDecomposes(axes, n.local, at / "matrix");
        }
        if (hasT) n.local.translation = {t[0], t[1], t[2]};
        if (hasS) n.local.scale = {s[0], s[1], s[2]};
        if (hasR) {
            const auto q = tryNormalize({r[0], r[1], r[2], r[3]});
            const double len =
                std::sqrt(double(r[0]) * r[0] + double(r[1]) * r[1] + double(r[2]) * r[2] + double(r[3]) * r[3]);
            if (!q) {
                fault(at / "rotation", "zero quaternion");
            } else {
                // Within the tolerance, renormalising is what the file means.
                if (std::fabs(len - 1.0) > kRotationUnitTolerance) {
                    recoverable(at / "rotation",
                                "rotation has length " + exactNumber(static_cast<float>(len)) +
                                    "; a unit quaternion is required (tolerance " +
                                    exactNumber(kRotationUnitTolerance) + ")",
                                "renormalised");
                }
                n.local.rotation = *q;
            }
        }
        dom::array children;
        if (getArray(f[kChildren], "children", at, children, false)) {
            std::size_t c = 0;
            for (dom::element e : children) {
                const auto v = asUint(e);
                if (!v || *v >= count) {
                    fault(at / "children" / c, "not a node index (" + std::to_string(count) + " nodes)");
                } else if (*v == i) {
                    fault(at / "children" / c, "a node cannot be its own child");
                } else {
                    n.children.push_back(static_cast<std::uint32_t>(*v));
                }
                ++c;
            }
        }
        dom::array weights;
        if (getArray(f[kWeights], "weights", at, weights, false)) {
            n.hasWeights = true;
            n.weights.resize(weights.size());
            if (!getFloats(f[kWeights], "weights", at, n.weights.data(), n.weights.size())) n.weights.clear();
        }
    });
    // Parents: each node is the child of at most one node.
    for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t c = 0; c < nodes_[i].children.size(); ++c) {
            const std::uint32_t child = nodes_[i].children[c];
            Node& cn = nodes_[child];
            if (cn.parent >= 0 && cn.parent != static_cast<std::int32_t>(i)) {
                fault(Pointer{} / "nodes" / i / "children" / c,
                      "node " + std::to_string(child) + " already has parent " + std::to_string(cn.parent));
            } else if (cn.parent == static_cast<std::int32_t>(i)) {
                fault(Pointer{} / "nodes" / i / "children" / c, "node " + std::to_string(child) + " listed twice");
            } else {
                cn.parent = static_cast<std::int32_t>(i);
            }
        }
    }
    // Repairable value faults (a non-unit rotation) do not stop the passes that
    // need the hierarchy, so that every other fault is still found.
    nodesOk_ = faults_.size() - valueFaults_ == faultsBefore;
}

void Importer::buildSkeleton() {
    const std::size_t count = nodes_.size();
    std::vector<std::uint32_t> order;
    order.reserve(count);
    std::vector<std::uint8_t> visited(count, 0);
    std::vector<std::uint32_t> stack;
    for (std::size_t r = 0; r < count; ++r) {
        if (nodes_[r].parent >= 0) continue;
        stack.push_back(static_cast<std::uint32_t>(r));
        while (!stack.empty()) {
            const std::uint32_t n = stack.back();
            stack.pop_back();
            if (visited[n]) continue;
            visited[n] = 1;
            order.push_back(n);
            const auto& ch = nodes_[n].children;
            for (auto it = ch.rbegin(); it != ch.rend(); ++it) stack.push_back(*it);
        }
    }
    if (order.size() != count) {
        for (std::size_t i = 0; i < count; ++i) {
            if (!visited[i]) fault(Pointer{} / "nodes" / i, "node is part of a cycle in the node hierarchy");
        }
        return;
    }
    model_.nodeOfJoint = order;
    model_.jointOfNode.assign(count, 0);
    for (std::size_t j = 0; j < count; ++j) model_.jointOfNode[order[j]] = static_cast<std::uint32_t>(j);
    std::vector<JointDesc> joints(count);
    for (std::size_t j = 0; j < count; ++j) {
        Node& n = nodes_[order[j]];
        joints[j].name = std::string(n.name);
        joints[j].parent = n.parent < 0
            ? kNoParent
            : static_cast<std::int32_t>(model_.jointOfNode[static_cast<std::size_t>(n.parent)]);
        joints[j].rest = n.local;
    }
    auto skeleton = Skeleton::create(std::move(joints));
    if (!skeleton) {
        // The skeleton names joints ("joints/<j>/..."); a glTF reader looks for nodes.
        for (const Fault& f : skeleton.faults()) {
            const auto j = indexAfter(f.where, "joints/");
            if (j && *j < count) {
                fault(Pointer{} / "nodes" / order[*j], f.what);
            } else {
                fault(Pointer{} / "nodes", f.where + ": " + f.what);
            }
        }
        return;
    }
    model_.skeleton = std::move(*skeleton);
    skeletonOk_ = true;
}

std::uint16_t Importer::largestJoint(std::size_t mesh, std::size_t primitive, const MeshPrimitive& prim) {
    const std::uint64_t key = (std::uint64_t{mesh} << 32) | primitive;
    const auto it = largestJoint_.find(key);
    if (it != largestJoint_.end()) return it->second;
    std::uint16_t largest = 0;
    for (const std::uint16_t j : prim.joints) largest = std::max(largest, j);
    largestJoint_.emplace(key, largest);
    return largest;
}

// Mesh and camera instances, morph weight layout, and the rules that tie nodes to
// meshes and skins.
void Importer::bindNodes() {
    const std::size_t count = nodes_.size();
    model_.weightOffsetOfJoint.assign(count, -1);
    for (std::size_t i = 0; i < count; ++i) {
        const Node& n = nodes_[i];
        const Pointer at = Pointer{} / "nodes" / i;
        const std::uint32_t joint = model_.jointOfNode[i];
        if (n.camera >= 0) model_.cameraInstances.push_back({joint, static_cast<std::uint32_t>(n.camera)});
        if (n.skin >= 0 && n.mesh < 0) fault(at / "skin", "a node with a skin must have a mesh");
        if (n.mesh < 0) {
            if (n.hasWeights) fault(at / "weights", "a node without a mesh cannot have morph weights");
            continue;
        }
        const Mesh& mesh = model_.meshes[static_cast<std::size_t>(n.mesh)];
        MeshInstance inst;
        inst.joint = joint;
        inst.mesh = static_cast<std::uint32_t>(n.mesh);
        inst.skin = n.skin;
        inst.weightOffset = static_cast<std::uint32_t>(model_.restWeights.size());
        if (mesh.targetCount > 0) {
            model_.weightOffsetOfJoint[joint] = static_cast<std::int32_t>(inst.weightOffset);
            if (n.hasWeights && n.weights.size() != mesh.targetCount) {
                fault(at / "weights",
                      "holds " + std::to_string(n.weights.size()) + " weights for the mesh's " +
                          std::to_string(mesh.targetCount) + " morph targets");
            }
            const std::vector<float>& w =
                (n.hasWeights && n.weights.size() == mesh.targetCount) ? n.weights : mesh.weights;
            // Many nodes may share a mesh with many targets: each gets its own weights.
            if (!reserveDecoded(w.size() * sizeof(float), at / "mesh")) continue;
            model_.restWeights.insert(model_.restWeights.end(), w.begin(), w.end());
        } else if (n.hasWeights) {
            fault(at / "weights", "the node's mesh has no morph targets");
        }
        if (n.skin >= 0) {
            const Skin& skin = model_.skins[static_cast<std::size_t>(n.skin)];
            for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
                const MeshPrimitive& prim = mesh.primitives[p];
                if (prim.vertexCount() == 0) continue;  // no POSITION: nothing to skin
                if (prim.influencesPerVertex == 0) {
                    fault(Pointer{} / "meshes" / static_cast<std::size_t>(n.mesh) / "primitives" / p / "attributes",
                          "skinned by node " + std::to_string(i) + " but has no JOINTS_0/WEIGHTS_0");
                    continue;
                }
                // Once per primitive, however many nodes skin it.
                const std::uint16_t largest = largestJoint(static_cast<std::size_t>(n.mesh), p, prim);
                if (largest < skin.joints.size()) continue;
                for (std::size_t k = 0; k < prim.joints.size(); ++k) {
                    if (prim.joints[k] >= skin.joints.size()) {
                        fault(Pointer{} / "meshes" / static_cast<std::size_t>(n.mesh) / "primitives" / p / "attributes",
                              "vertex " + std::to_string(k / prim.influencesPerVertex) + " uses joint " +
                                  std::to_string(prim.joints[k]) + ", skin " + std::to_string(n.skin) + " has " +
                                  std::to_string(skin.joints.size()));
                        break;
                    }
                }
            }
        }
        model_.meshInstances.push_back(inst);
    }
}

void Importer::readScenes() {
    model_.scenes.resize(table("scenes", sizeof(SceneRoots)));
    if (stopped_) return;  // out of budget
    // The scene (plus one) that last listed each node: a root listed twice in one scene
    // breaks the schema's unique items, found in one pass whatever the scene count.
    std::vector<std::size_t> listedBy(nodes_.size(), 0);
    forEachObject("scenes", [&](std::size_t si, const dom::object& o, const Pointer& at) {
        SceneRoots& scene = model_.scenes[si];
        readName(o, at, scene.name);
        dom::array roots;
        if (!getArray(o, "nodes", at, roots, false)) return;
        std::size_t r = 0;
        for (dom::element e : roots) {
            const auto v = asUint(e);
            if (!v || *v >= nodes_.size()) {
                fault(at / "nodes" / r, "not a node index");
            } else if (listedBy[*v] == si + 1) {
                fault(at / "nodes" / r, "node " + std::to_string(*v) + " is listed twice");
            } else if (nodes_[*v].parent >= 0) {
                fault(at / "nodes" / r,
                      "node " + std::to_string(*v) + " is not a root (its parent is node " +
                          std::to_string(nodes_[*v].parent) + ")");
            } else {
                listedBy[*v] = si + 1;
                scene.roots.push_back(model_.jointOfNode[*v]);
            }
            ++r;
        }
    });
    model_.defaultScene = getIndex(root_, "scene", Pointer{}, model_.scenes.size(), "scene", false);
}

}  // namespace kinema::gltf_import
