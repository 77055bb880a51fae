// Skins: joints, inverse bind matrices, and the joints' common root.
#include "gltf_importer.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "kinema/math/finite.hpp"

namespace kinema::gltf_import {

// Joint-space lowest common ancestor-or-self of a and b, or -1.
std::int32_t Importer::commonAncestor(std::int32_t a, std::int32_t b) const {
    const auto parents = model_.skeleton.parents();
    // Parents come before children, so walking the larger index up converges.
    while (a != b && a >= 0 && b >= 0) {
        if (a > b)
            a = parents[static_cast<std::size_t>(a)];
        else
            b = parents[static_cast<std::size_t>(b)];
    }
    return a == b ? a : -1;
}

void Importer::readSkins() {
    model_.skins.resize(table("skins", sizeof(Skin)));
    if (stopped_) return;  // out of budget
    forEachObject("skins", [&](std::size_t si, const dom::object& o, const Pointer& at) {
        Skin& skin = model_.skins[si];
        readName(o, at, skin.name);
        dom::array joints;
        if (!getArray(o, "joints", at, joints, true)) return;
        // One marker array for all skins, cleared joint by joint: work stays
        // proportional to the joints listed, however many nodes and skins there are.
        std::vector<std::uint8_t>& seen = jointSeen_;
        seen.resize(nodes_.size(), 0);
        struct Clear {
            std::vector<std::uint8_t>& marks;
            const Skin& skin;
            const std::vector<std::uint32_t>& nodeOfJoint;
            ~Clear() {
                for (const std::uint32_t joint : skin.joints) marks[nodeOfJoint[joint]] = 0;
            }
        } const clear{seen, skin, model_.nodeOfJoint};
        std::size_t j = 0;
        for (dom::element e : joints) {
            const auto v = asUint(e);
            if (!v || *v >= nodes_.size()) {
                fault(at / "joints" / j, "not a node index");
            } else if (seen[*v]) {
                fault(at / "joints" / j, "node " + std::to_string(*v) + " is listed twice");
            } else {
                seen[*v] = 1;
                skin.joints.push_back(model_.jointOfNode[*v]);
            }
            ++j;
        }
        if (skin.joints.size() != joints.size()) return;
        if (!charged(skin.joints.size(), sizeof(Mat4), at / "joints", "the inverse bind matrices")) return;
        skin.inverseBindMatrices.assign(skin.joints.size(), Mat4::identity());
        std::uint64_t ibm = 0;
        if (getUint(o, "inverseBindMatrices", at, ibm, false)) {
            if (ibm >= accessors_.size()) {
                fault(at / "inverseBindMatrices", "no such accessor");
                return;
            }
            const AccessorDesc* d = useAccessor(static_cast<std::int64_t>(ibm), at / "inverseBindMatrices", {{4, 4}},
                                                kFloat, "inverseBindMatrices");
            if (!d) return;
            if (d->byteStride != 0) {
                fault(at / "inverseBindMatrices",
                      "accessor " + std::to_string(ibm) + "'s bufferView has byteStride " +
                          std::to_string(d->byteStride) +
                          "; inverse bind matrices must be tightly packed (no byteStride)");
                return;
            }
            if (d->count < skin.joints.size()) {
                fault(at / "inverseBindMatrices",
                      "accessor " + std::to_string(ibm) + " has " + std::to_string(d->count) + " matrices for " +
                          std::to_string(skin.joints.size()) + " joints");
                return;
            }
            std::vector<Mat4> all;
            if (!decodeInto(static_cast<std::int64_t>(ibm), at / "inverseBindMatrices", {{4, 4}}, kFloat,
                            "inverseBindMatrices", all))
                return;
            checkBounds(static_cast<std::int64_t>(ibm), std::span<const float>(all.data()->m.data(), all.size() * 16),
                        false, "an inverseBindMatrices");
            for (std::size_t i = 0; i < skin.joints.size(); ++i) {
                const Mat4& m = all[i];
                if (!isFiniteAffine(m, kInverseBindSlack)) {
                    fault(Pointer{} / "accessors" / static_cast<std::size_t>(ibm),
                          "inverse bind matrix " + std::to_string(i) +
                              " is not finite or its last row is not 0, 0, 0, 1");
                    return;
                }
                skin.inverseBindMatrices[i] = m;
            }
        }
        std::int32_t root = static_cast<std::int32_t>(skin.joints[0]);
        for (const std::uint32_t jj : skin.joints) root = commonAncestor(root, static_cast<std::int32_t>(jj));
        if (root < 0) {
            fault(at / "joints", "the joints have no common root node");
            return;
        }
        std::int32_t declared = getIndex(o, "skeleton", at, nodes_.size(), "node", false);
        if (declared >= 0) {
            const std::int32_t dj = static_cast<std::int32_t>(model_.jointOfNode[static_cast<std::size_t>(declared)]);
            if (commonAncestor(dj, root) != dj) {
                fault(at / "skeleton",
                      "node " + std::to_string(declared) + " is not the joints' common root nor one of its ancestors");
                return;
            }
        }
        skin.root = root;
        skin.skeleton = model_.skeleton.fingerprint();
    });
}

}  // namespace kinema::gltf_import
