#include "kinema/asset/model.hpp"

#include <string>

#include "kinema/core/counted.hpp"

namespace kinema {

std::string clipNames(std::span<const Clip> clips) {
    if (clips.empty()) return "none";
    std::string names;
    for (std::size_t c = 0; c < clips.size(); ++c) {
        if (c != 0) names.append(", ");
        if (clips[c].name().empty()) {
            names.append("an unnamed one (index ").append(std::to_string(c)).append(")");
        } else {
            names.append("'").append(clips[c].name()).append("'");
        }
    }
    return names;
}

std::vector<Fault> findModelFaults(const Model& model) {
    std::vector<Fault> faults;
    const std::size_t joints = model.skeleton.jointCount();
    auto fault = [&](std::string where, std::string what) { faults.push_back({std::move(where), std::move(what)}); };
    if (model.nodeOfJoint.size() != joints || model.jointOfNode.size() != joints) {
        fault("nodeOfJoint", "node/joint maps do not match the skeleton's " + counted(joints, "joint"));
        return faults;
    }
    for (std::size_t j = 0; j < joints; ++j) {
        const std::uint32_t n = model.nodeOfJoint[j];
        if (n >= joints || model.jointOfNode[n] != j) fault("nodeOfJoint/" + std::to_string(j), "maps are not inverse");
    }
    if (model.weightOffsetOfJoint.size() != joints) fault("weightOffsetOfJoint", "one entry per joint expected");
    for (std::size_t j = 0; j < model.weightOffsetOfJoint.size(); ++j) {
        const std::int32_t w = model.weightOffsetOfJoint[j];
        if (w != -1 && (w < 0 || static_cast<std::size_t>(w) >= model.weightCount())) {
            fault("weightOffsetOfJoint/" + std::to_string(j),
                  "offset " + std::to_string(w) + " is past the " + std::to_string(model.weightCount()) +
                      " morph weights");
        }
    }
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        const std::string mat = "meshes/" + std::to_string(m);
        if (mesh.weights.size() != mesh.targetCount)
            fault(mat + "/weights", "one default weight per morph target expected");
        if (!mesh.targetNames.empty() && mesh.targetNames.size() != mesh.targetCount) {
            fault(mat + "/targetNames", "one name per morph target expected, or none");
        }
        for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
            const MeshPrimitive& prim = mesh.primitives[p];
            const std::string pat = mat + "/primitives/" + std::to_string(p);
            const std::size_t n = prim.vertexCount();
            if (prim.targets.size() != mesh.targetCount) {
                fault(pat + "/targets",
                      std::to_string(prim.targets.size()) + " morph targets, the mesh has " +
                          std::to_string(mesh.targetCount));
            }
            for (std::size_t t = 0; t < prim.targets.size(); ++t) {
                const MorphTarget& target = prim.targets[t];
                if ((!target.positions.empty() && target.positions.size() != n) ||
                    (!target.normals.empty() && target.normals.size() != n)) {
                    fault(pat + "/targets/" + std::to_string(t), "displacements do not match the vertex count");
                }
            }
            if ((!prim.normals.empty() && prim.normals.size() != n) ||
                (!prim.texcoords.empty() && prim.texcoords.size() != n) ||
                (!prim.colors.empty() && prim.colors.size() != n)) {
                fault(pat, "attribute counts do not match the vertex count");
            }
            for (std::size_t i = 0; i < prim.indices.size(); ++i) {
                if (prim.indices[i] >= n) {
                    fault(pat + "/indices/" + std::to_string(i),
                          "index " + std::to_string(prim.indices[i]) + " is not below the vertex count " +
                              std::to_string(n));
                    break;
                }
            }
            if (prim.material >= 0 && static_cast<std::size_t>(prim.material) >= model.materials.size()) {
                fault(pat + "/material", "no such material");
            }
        }
    }
    for (std::size_t c = 0; c < model.clips.size(); ++c) {
        for (Fault& f : findClipFaults(model.clips[c], model.skeleton, model.weightCount())) {
            fault("clips/" + std::to_string(c) + "/" + f.where, std::move(f.what));
        }
    }
    for (std::size_t s = 0; s < model.skins.size(); ++s) {
        const Skin& skin = model.skins[s];
        const std::string at = "skins/" + std::to_string(s);
        if (skin.inverseBindMatrices.size() != skin.joints.size()) {
            fault(at + "/inverseBindMatrices", "one matrix per joint expected");
        }
        for (std::size_t i = 0; i < skin.joints.size(); ++i) {
            if (skin.joints[i] >= joints) fault(at + "/joints/" + std::to_string(i), "not a skeleton joint");
        }
        for (std::size_t i = 0; i < skin.inverseBindMatrices.size(); ++i) {
            if (!isFiniteAffine(skin.inverseBindMatrices[i], kInverseBindSlack)) {
                fault(at + "/inverseBindMatrices/" + std::to_string(i), "not finite or its last row is not 0, 0, 0, 1");
            }
        }
    }
    for (std::size_t i = 0; i < model.meshInstances.size(); ++i) {
        const MeshInstance& mi = model.meshInstances[i];
        const std::string at = "meshInstances/" + std::to_string(i);
        if (mi.joint >= joints) fault(at + "/joint", "not a skeleton joint");
        if (mi.mesh >= model.meshes.size()) {
            fault(at + "/mesh", "no such mesh");
            continue;
        }
        const Mesh& mesh = model.meshes[mi.mesh];
        if (std::size_t{mi.weightOffset} + mesh.targetCount > model.weightCount()) {
            fault(at + "/weightOffset", "morph weights pass the end of the weight array");
        }
        if (mi.skin >= 0 && static_cast<std::size_t>(mi.skin) >= model.skins.size()) {
            fault(at + "/skin", "no such skin");
            continue;
        }
        for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
            const MeshPrimitive& prim = mesh.primitives[p];
            const std::string pat = "meshes/" + std::to_string(mi.mesh) + "/primitives/" + std::to_string(p);
            const std::size_t n = prim.vertexCount() * prim.influencesPerVertex;
            if (prim.joints.size() != n || prim.weights.size() != n) {
                fault(pat, "influence arrays do not match vertexCount * influencesPerVertex");
                continue;
            }
            if (mi.skin >= 0) {
                const std::size_t skinJoints = model.skins[static_cast<std::size_t>(mi.skin)].joints.size();
                for (std::size_t k = 0; k < n; ++k) {
                    if (prim.joints[k] >= skinJoints) {
                        fault(pat + "/joints/" + std::to_string(k),
                              "joint " + std::to_string(prim.joints[k]) + " is past the skin's " +
                                  counted(skinJoints, "joint"));
                        break;
                    }
                }
            }
        }
    }
    for (std::size_t i = 0; i < model.cameraInstances.size(); ++i) {
        const CameraInstance& ci = model.cameraInstances[i];
        const std::string at = "cameraInstances/" + std::to_string(i);
        if (ci.joint >= joints) fault(at + "/joint", "not a skeleton joint");
        if (ci.camera >= model.cameras.size()) fault(at + "/camera", "no such camera");
    }
    for (std::size_t m = 0; m < model.materials.size(); ++m) {
        const auto& texture = model.materials[m].baseColorTexture;
        if (texture && texture->texture >= model.textures.size())
            fault("materials/" + std::to_string(m) + "/baseColorTexture", "no such texture");
    }
    for (std::size_t t = 0; t < model.textures.size(); ++t) {
        const std::int32_t image = model.textures[t].image;
        if (image < -1 || (image >= 0 && static_cast<std::size_t>(image) >= model.images.size()))
            fault("textures/" + std::to_string(t) + "/image", "no such image");
    }
    if (!model.decodedImages.empty() && model.decodedImages.size() != model.images.size())
        fault("decodedImages", "one decoded image per image expected, or none");
    for (std::size_t i = 0; i < model.decodedImages.size(); ++i) {
        const ImageRGBA8& image = model.decodedImages[i];
        if (image.pixels.size() != std::size_t{image.width} * image.height * 4)
            fault("decodedImages/" + std::to_string(i), "pixels do not match width x height x 4");
    }
    for (std::size_t s = 0; s < model.scenes.size(); ++s) {
        for (const std::uint32_t root : model.scenes[s].roots) {
            if (root >= joints) fault("scenes/" + std::to_string(s) + "/roots", "not a skeleton joint");
        }
    }
    if (model.defaultScene < -1 ||
        (model.defaultScene >= 0 && static_cast<std::size_t>(model.defaultScene) >= model.scenes.size()))
        fault("defaultScene", "no such scene");
    return faults;
}

}  // namespace kinema
