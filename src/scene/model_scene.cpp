#include "kinema/scene/model_scene.hpp"

#include <map>
#include <numeric>
#include <utility>

#include "kinema/core/counted.hpp"

namespace kinema {

namespace {

// A primitive's triangles as a list, or nullopt for points and lines.
std::optional<std::vector<std::uint32_t>> triangleList(const MeshPrimitive& p) {
    std::vector<std::uint32_t> in = p.indices;
    if (in.empty()) {
        in.resize(p.vertexCount());
        std::iota(in.begin(), in.end(), 0u);
    }
    std::vector<std::uint32_t> out;
    switch (p.mode) {
        case PrimitiveMode::Triangles: in.resize(in.size() - in.size() % 3); return in;
        case PrimitiveMode::TriangleStrip:
            // Every other triangle of a strip is wound the other way round.
            for (std::size_t i = 2; i < in.size(); ++i) {
                if (i % 2 == 0) {
                    out.insert(out.end(), {in[i - 2], in[i - 1], in[i]});
                } else {
                    out.insert(out.end(), {in[i - 1], in[i - 2], in[i]});
                }
            }
            return out;
        case PrimitiveMode::TriangleFan:
            for (std::size_t i = 2; i < in.size(); ++i) out.insert(out.end(), {in[i - 1], in[i], in[0]});
            return out;
        case PrimitiveMode::Points:
        case PrimitiveMode::Lines:
        case PrimitiveMode::LineLoop:
        case PrimitiveMode::LineStrip: return std::nullopt;
    }
    return std::nullopt;
}

// glTF's sampling as the render descriptions name it; mipmapping is the renderer's
// choice there, so a mipmapped minFilter contributes its base filter.
TextureFilter textureFilter(SamplerFilter f) {
    return f == SamplerFilter::Nearest ? TextureFilter::Nearest : TextureFilter::Linear;
}

TextureWrap textureWrap(SamplerWrap w) {
    switch (w) {
        case SamplerWrap::Repeat: return TextureWrap::Repeat;
        case SamplerWrap::MirroredRepeat: return TextureWrap::MirroredRepeat;
        case SamplerWrap::ClampToEdge: return TextureWrap::ClampToEdge;
    }
    return TextureWrap::Repeat;
}

AlphaMode alphaMode(MaterialAlpha a) {
    switch (a) {
        case MaterialAlpha::Opaque: return AlphaMode::Opaque;
        case MaterialAlpha::Mask: return AlphaMode::Mask;
        case MaterialAlpha::Blend: return AlphaMode::Blend;
    }
    return AlphaMode::Opaque;
}

RenderMesh renderMesh(const MeshPrimitive& p, std::vector<std::uint32_t> indices) {
    RenderMesh m;
    m.positions = p.positions;
    m.normals = p.normals;
    m.texcoords = p.texcoords;
    m.colors = p.colors;
    m.influencesPerVertex = p.influencesPerVertex;
    m.joints = p.joints;
    m.weights = p.weights;
    m.indices = std::move(indices);
    m.targets = p.targets;
    return m;
}

// The joints in the chosen scene: every joint under one of its roots.
std::vector<bool> jointsInScene(const Model& model, std::int32_t sceneIndex) {
    const std::size_t n = model.skeleton.jointCount();
    if (sceneIndex < 0) return std::vector<bool>(n, true);
    std::vector<bool> in(n, false);
    for (const std::uint32_t root : model.scenes[static_cast<std::size_t>(sceneIndex)].roots) in[root] = true;
    const auto parents = model.skeleton.parents();
    for (std::size_t j = 0; j < n; ++j) {  // parents come before children
        if (parents[j] >= 0 && in[static_cast<std::size_t>(parents[j])]) in[j] = true;
    }
    return in;
}

}  // namespace

Result<ModelScene> buildModelScene(const Model& model, const ModelSceneOptions& options) {
    std::vector<Fault> faults;
    std::vector<Fault> warnings;
    std::int32_t sceneIndex = options.scene;
    if (sceneIndex < -1 || sceneIndex >= static_cast<std::int32_t>(model.scenes.size())) {
        return Fault{model.source + "#/scenes",
                     "scene " + std::to_string(options.scene) + " is out of range: the file has " +
                         counted(model.scenes.size(), "scene")};
    }
    if (sceneIndex < 0) sceneIndex = model.defaultScene;
    if (options.animationIndex < -1) {
        return Fault{model.source + "#/animations",
                     "animation " + std::to_string(options.animationIndex) + " is out of range: the file has " +
                         counted(model.clips.size(), "animation")};
    }
    std::int32_t clipIndex = -1;
    if (options.bindAnimation && !model.clips.empty()) {
        clipIndex = 0;
        if (options.animationIndex >= 0) {
            if (static_cast<std::size_t>(options.animationIndex) >= model.clips.size()) {
                return Fault{model.source + "#/animations",
                             "animation " + std::to_string(options.animationIndex) + " is out of range: the file has " +
                                 counted(model.clips.size(), "animation")};
            }
            clipIndex = options.animationIndex;
        } else if (!options.animation.empty()) {
            clipIndex = -1;
            for (std::size_t c = 0; c < model.clips.size() && clipIndex < 0; ++c) {  // the first of the name
                if (model.clips[c].name() == options.animation) clipIndex = static_cast<std::int32_t>(c);
            }
            if (clipIndex < 0) {
                return Fault{
                    model.source + "#/animations",
                    "no animation is named '" + options.animation + "'; the file has " + clipNames(model.clips)};
            }
        }
    } else if (options.bindAnimation && options.animationIndex >= 0) {
        return Fault{model.source + "#/animations",
                     "animation " + std::to_string(options.animationIndex) + " does not exist; the file has none"};
    } else if (options.bindAnimation && !options.animation.empty()) {
        return Fault{model.source + "#/animations",
                     "no animation is named '" + options.animation + "'; the file has none"};
    }

    ModelScene out;
    Scene& scene = out.scene;
    RenderCatalogue& catalogue = out.catalogue;
    for (const Clip& clip : model.clips) scene.addAnimation(clip);
    if (clipIndex >= 0) out.boundAnimation = AnimationId{static_cast<std::uint32_t>(clipIndex)};

    // Render descriptions: images (when decoded), textures, materials (one default
    // for primitives without one).
    std::vector<ImageId> imageIds;
    for (const ImageRGBA8& image : model.decodedImages) imageIds.push_back(catalogue.addImage(image));
    std::vector<std::optional<TextureId>> textureIds;
    bool undecodedTexture = false;
    for (const Texture& t : model.textures) {
        if (t.image >= 0 && static_cast<std::size_t>(t.image) < imageIds.size()) {
            TextureDesc desc{imageIds[static_cast<std::size_t>(t.image)]};
            desc.minFilter = textureFilter(t.minFilter);
            desc.magFilter = textureFilter(t.magFilter);
            desc.wrapU = textureWrap(t.wrapS);
            desc.wrapV = textureWrap(t.wrapT);
            textureIds.push_back(catalogue.addTexture(desc));
        } else {
            textureIds.push_back(std::nullopt);
            undecodedTexture = undecodedTexture || t.image >= 0;
        }
    }
    if (undecodedTexture) {
        warnings.push_back({model.source + "#/textures",
                            "images were not decoded (ImportOptions::decodeImages): materials draw untextured"});
    }
    std::vector<MaterialId> materialIds;
    for (const Material& m : model.materials) {
        MaterialDesc desc;
        desc.baseColorFactor = m.baseColorFactor;
        desc.alphaMode = alphaMode(m.alphaMode);
        desc.alphaCutoff = m.alphaCutoff;
        desc.doubleSided = m.doubleSided;
        if (m.baseColorTexture && m.baseColorTexture->texture < textureIds.size()) {
            desc.baseColorTexture = textureIds[m.baseColorTexture->texture];
        }
        materialIds.push_back(catalogue.addMaterial(desc));
    }
    MaterialId defaultMaterial;

    // Nodes, parents first (the skeleton's order).
    const Skeleton& skeleton = model.skeleton;
    const std::size_t jointCount = skeleton.jointCount();
    const std::vector<bool> inScene = jointsInScene(model, sceneIndex);
    std::vector<std::uint32_t> weightCount(jointCount, 0);
    for (const MeshInstance& mi : model.meshInstances) weightCount[mi.joint] = model.meshes[mi.mesh].targetCount;
    std::vector<std::vector<AnimatorBinding>> bindings(jointCount);
    if (clipIndex >= 0) {
        const auto tracks = model.clips[static_cast<std::size_t>(clipIndex)].tracks();
        for (std::size_t t = 0; t < tracks.size(); ++t) {
            bindings[tracks[t].target].push_back(
                {out.boundAnimation, static_cast<std::uint32_t>(t), tracks[t].path, 0.0, options.loop});
        }
    }
    out.nodeOfJoint.assign(jointCount, NodeId{});
    for (std::size_t j = 0; j < jointCount; ++j) {
        if (!inScene[j]) continue;
        const std::int32_t parentJoint = skeleton.parents()[j];
        const NodeId parent = parentJoint >= 0 ? out.nodeOfJoint[static_cast<std::size_t>(parentJoint)] : NodeId{};
        NodeRole role = GroupRole{};
        if (!bindings[j].empty() || weightCount[j] > 0) {
            AnimatorRole animator;
            animator.bindings = std::move(bindings[j]);
            if (weightCount[j] > 0 && model.weightOffsetOfJoint[j] >= 0) {
                const auto first = model.restWeights.begin() + model.weightOffsetOfJoint[j];
                animator.weights.assign(first, first + weightCount[j]);
            }
            role = std::move(animator);
        }
        auto node = scene.addNode(parent, std::string(skeleton.name(j)), skeleton.restPose()[j], std::move(role));
        if (!node) {
            for (const Fault& f : node.faults())
                faults.push_back({model.source + "#/nodes/" + std::to_string(model.nodeOfJoint[j]), f.what});
            continue;
        }
        out.nodeOfJoint[j] = *node;
    }
    if (!faults.empty()) return faults;

    // Skins: one scene skin per glTF skin a drawn mesh uses.
    std::map<std::int32_t, SkinId> skinIds;
    auto sceneSkin = [&](std::int32_t s) -> std::optional<SkinId> {
        if (const auto it = skinIds.find(s); it != skinIds.end()) return it->second;
        const Skin& skin = model.skins[static_cast<std::size_t>(s)];
        SceneSkin built;
        for (const std::uint32_t joint : skin.joints) {
            if (!out.nodeOfJoint[joint].valid()) {
                faults.push_back(
                    {model.source + "#/skins/" + std::to_string(s),
                     "joint node " + std::to_string(model.nodeOfJoint[joint]) + " is not in the chosen scene"});
                return std::nullopt;
            }
            built.joints.push_back(out.nodeOfJoint[joint]);
        }
        built.inverseBindMatrices = skin.inverseBindMatrices;
        auto id = scene.addSkin(std::move(built));
        if (!id) {
            for (const Fault& f : id.faults())
                faults.push_back({model.source + "#/skins/" + std::to_string(s), f.what});
            return std::nullopt;
        }
        skinIds.emplace(s, *id);
        return *id;
    };

    // Renderables: one child node per primitive; render objects shared by every
    // instance of a mesh.
    std::map<std::pair<std::uint32_t, std::size_t>, std::optional<RenderObjectId>> objects;
    bool skippedLines = false;
    for (const MeshInstance& mi : model.meshInstances) {
        const NodeId owner = out.nodeOfJoint[mi.joint];
        if (!owner.valid()) continue;
        const Mesh& mesh = model.meshes[mi.mesh];
        SkinId skin;
        if (mi.skin >= 0) {
            const auto id = sceneSkin(mi.skin);
            if (!id) continue;
            skin = *id;
        }
        for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
            auto [it, added] = objects.try_emplace({mi.mesh, p});
            if (added) {
                const MeshPrimitive& prim = mesh.primitives[p];
                auto triangles = triangleList(prim);
                if (!triangles || triangles->empty()) {
                    skippedLines = true;
                } else {
                    MaterialId material;
                    if (prim.material >= 0 && static_cast<std::size_t>(prim.material) < materialIds.size()) {
                        material = materialIds[static_cast<std::size_t>(prim.material)];
                    } else {
                        if (!defaultMaterial.valid()) defaultMaterial = catalogue.addMaterial({});
                        material = defaultMaterial;
                    }
                    const MeshId meshId = catalogue.addMesh(renderMesh(prim, std::move(*triangles)));
                    it->second = catalogue.addRenderObject({meshId, material});
                }
            }
            if (!it->second) continue;
            RenderableRole role{*it->second, skin, mesh.targetCount > 0 ? owner : NodeId{}};
            std::string name = std::string(scene.name(owner)) + "/" + (mesh.name.empty() ? "mesh" : mesh.name) + "/" +
                std::to_string(p);
            auto node = scene.addNode(owner, std::move(name), Transform{}, role);
            if (!node) {
                for (const Fault& f : node.faults()) {
                    faults.push_back({model.source + "#/meshes/" + std::to_string(mi.mesh), f.what});
                }
            }
        }
    }
    for (const CameraInstance& ci : model.cameraInstances) {
        if (ci.joint >= jointCount || ci.camera >= model.cameras.size()) continue;  // findModelFaults names these
        const NodeId node = out.nodeOfJoint[ci.joint];
        if (node.valid()) out.cameras.push_back({node, model.cameras[ci.camera], ci.camera});
    }
    if (skippedLines) {
        warnings.push_back({model.source + "#/meshes", "point, line and empty primitives are not drawn"});
    }
    if (!faults.empty()) return faults;
    scene.updateWorldTransforms();
    Result<ModelScene> result(std::move(out));
    result.addWarnings(warnings);
    return result;
}

}  // namespace kinema
