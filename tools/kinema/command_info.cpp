#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>
#include <string>
#include <string_view>

#include "arguments.hpp"
#include "commands.hpp"
#include "json_writer.hpp"
#include "kinema/core/counted.hpp"
#include "kinema/core/quoted.hpp"
#include "kinema/io/cooked.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::cli {

namespace {

struct ClipSummary {
    std::set<std::string_view> interpolations;
    std::set<std::string_view> paths;
};

ClipSummary summarise(const Clip& clip) {
    ClipSummary s;
    for (const Track& t : clip.tracks()) {
        s.interpolations.insert(toString(t.interpolation));
        s.paths.insert(toString(t.path));
    }
    return s;
}

std::string joined(const std::set<std::string_view>& items) {
    std::string out;
    for (const auto& i : items) {
        if (!out.empty()) out += ", ";
        out += i;
    }
    return out;
}

std::size_t countIndices(const Mesh& m) {
    std::size_t n = 0;
    for (const auto& p : m.primitives) n += p.indices.size();
    return n;
}

// What a cooked file holds beside its model: which clips are stored compressed, and
// its state machines (both empty for a glTF file).
struct CookedParts {
    std::vector<bool> compressed;
    std::vector<CookedStateMachine> stateMachines;

    bool isCompressed(std::size_t clip) const { return clip < compressed.size() && compressed[clip]; }
};

void printJson(const Model& model, bool cooked, const CookedParts& parts) {
    std::string out;
    JsonWriter w(out, true);
    w.beginObject();
    w.key("file").value(model.source);
    w.key("format").value(cooked ? "cooked" : "gltf");
    w.key("nodes").beginArray();
    for (std::size_t n = 0; n < model.nodeCount(); ++n) {
        const std::uint32_t j = model.jointOfNode[n];
        const std::int32_t parentJoint = model.skeleton.parents()[j];
        w.beginObject();
        w.key("index").value(static_cast<std::uint64_t>(n));
        w.key("name").value(model.skeleton.name(j));
        w.key("parent");
        if (parentJoint < 0)
            w.null();
        else
            w.value(static_cast<std::uint64_t>(model.nodeOfJoint[static_cast<std::size_t>(parentJoint)]));
        w.endObject();
    }
    w.endArray();
    w.key("scenes").value(static_cast<std::uint64_t>(model.scenes.size()));
    w.key("skins").beginArray();
    for (std::size_t s = 0; s < model.skins.size(); ++s) {
        const Skin& skin = model.skins[s];
        w.beginObject();
        w.key("index").value(static_cast<std::uint64_t>(s));
        w.key("name").value(skin.name);
        w.key("joints").value(static_cast<std::uint64_t>(skin.joints.size()));
        w.key("root");
        if (skin.root < 0)
            w.null();
        else
            w.value(static_cast<std::uint64_t>(model.nodeOfJoint[static_cast<std::size_t>(skin.root)]));
        w.endObject();
    }
    w.endArray();
    w.key("animations").beginArray();
    for (std::size_t a = 0; a < model.clips.size(); ++a) {
        const Clip& clip = model.clips[a];
        const ClipSummary s = summarise(clip);
        w.beginObject();
        w.key("index").value(static_cast<std::uint64_t>(a));
        w.key("name").value(clip.name());
        w.key("duration").value(clip.duration());
        w.key("channels").value(static_cast<std::uint64_t>(clip.tracks().size()));
        w.key("interpolations").beginArray();
        for (const auto& i : s.interpolations) w.value(i);
        w.endArray();
        w.key("paths").beginArray();
        for (const auto& p : s.paths) w.value(p);
        w.endArray();
        w.key("compressed").value(parts.isCompressed(a));
        w.endObject();
    }
    w.endArray();
    w.key("stateMachines").beginArray();
    for (const CookedStateMachine& m : parts.stateMachines) {
        w.beginObject();
        w.key("name").value(m.name);
        w.key("states").value(static_cast<std::uint64_t>(m.desc.states.size()));
        w.key("parameters").value(static_cast<std::uint64_t>(m.desc.parameters.size()));
        w.key("transitions").value(static_cast<std::uint64_t>(m.desc.transitions.size()));
        w.endObject();
    }
    w.endArray();
    w.key("meshes").beginArray();
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        w.beginObject();
        w.key("index").value(static_cast<std::uint64_t>(m));
        w.key("name").value(mesh.name);
        w.key("morphTargets").value(static_cast<std::uint64_t>(mesh.targetCount));
        w.key("targetNames").beginArray();
        for (const std::string& name : mesh.targetNames) w.value(name);
        w.endArray();
        w.key("primitives").beginArray();
        for (const MeshPrimitive& p : mesh.primitives) {
            w.beginObject();
            w.key("vertices").value(static_cast<std::uint64_t>(p.vertexCount()));
            w.key("indices").value(static_cast<std::uint64_t>(p.indices.size()));
            w.key("influencesPerVertex").value(static_cast<std::uint64_t>(p.influencesPerVertex));
            w.key("material");
            if (p.material < 0)
                w.null();
            else
                w.value(static_cast<std::int64_t>(p.material));
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("materials").beginArray();
    for (std::size_t m = 0; m < model.materials.size(); ++m) {
        const Material& mat = model.materials[m];
        w.beginObject();
        w.key("index").value(static_cast<std::uint64_t>(m));
        w.key("name").value(mat.name);
        w.key("baseColorFactor").floats(mat.baseColorFactor);
        w.key("baseColorTexture");
        if (mat.baseColorTexture)
            w.value(static_cast<std::uint64_t>(mat.baseColorTexture->texture));
        else
            w.null();
        w.endObject();
    }
    w.endArray();
    w.key("images").value(static_cast<std::uint64_t>(model.images.size()));
    w.endObject();
    std::cout << out << '\n';
}

// A path or name on one line: control characters escaped, as inQuotes does.
std::string oneLine(std::string_view text) {
    std::string out;
    appendOneLine(out, text);
    return out;
}

// Names are printed as inQuotes writes them: a name holding a newline, a NUL or a
// terminal escape stays one line and prints whole.
void printText(const Model& model, bool cooked, const CookedParts& parts) {
    std::printf("%s\n", oneLine(model.source).c_str());
    std::printf("  format: %s\n", cooked ? "kinema cooked" : "glTF");
    std::printf("  nodes: %zu (scenes: %zu)\n", model.nodeCount(), model.scenes.size());
    std::printf("  skins: %zu\n", model.skins.size());
    for (std::size_t s = 0; s < model.skins.size(); ++s) {
        const Skin& skin = model.skins[s];
        std::printf("    #%zu %s: %s\n", s, inQuotes(skin.name).c_str(), counted(skin.joints.size(), "joint").c_str());
    }
    std::printf("  animations: %zu\n", model.clips.size());
    for (std::size_t a = 0; a < model.clips.size(); ++a) {
        const Clip& clip = model.clips[a];
        const ClipSummary s = summarise(clip);
        std::printf("    #%zu %s: %.4g s, %s, %s; paths %s%s\n", a, inQuotes(clip.name()).c_str(),
                    double(clip.duration()), counted(clip.tracks().size(), "channel").c_str(),
                    joined(s.interpolations).c_str(), joined(s.paths).c_str(),
                    parts.isCompressed(a) ? " (compressed)" : "");
    }
    if (cooked) {
        std::printf("  state machines: %zu\n", parts.stateMachines.size());
        for (std::size_t m = 0; m < parts.stateMachines.size(); ++m) {
            const StateMachineDesc& d = parts.stateMachines[m].desc;
            std::printf("    #%zu %s: %s, %s, %s\n", m, inQuotes(parts.stateMachines[m].name).c_str(),
                        counted(d.states.size(), "state").c_str(), counted(d.parameters.size(), "parameter").c_str(),
                        counted(d.transitions.size(), "transition").c_str());
        }
    }
    std::printf("  meshes: %zu\n", model.meshes.size());
    for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        std::size_t vertices = 0;
        for (const auto& p : mesh.primitives) vertices += p.vertexCount();
        std::printf(
            "    #%zu %s: %s, %s, %s, %s\n", m, inQuotes(mesh.name).c_str(),
            counted(mesh.primitives.size(), "primitive").c_str(), counted(vertices, "vertex", "vertices").c_str(),
            counted(countIndices(mesh), "index", "indices").c_str(), counted(mesh.targetCount, "morph target").c_str());
        if (!mesh.targetNames.empty()) {
            std::printf("      morph targets:");
            for (const std::string& name : mesh.targetNames) std::printf(" %s", inQuotes(name).c_str());
            std::printf("\n");
        }
    }
    std::printf("  materials: %zu\n", model.materials.size());
    for (std::size_t m = 0; m < model.materials.size(); ++m) {
        const Material& mat = model.materials[m];
        std::printf("    #%zu %s: base colour (%g, %g, %g, %g)%s\n", m, inQuotes(mat.name).c_str(),
                    double(mat.baseColorFactor[0]), double(mat.baseColorFactor[1]), double(mat.baseColorFactor[2]),
                    double(mat.baseColorFactor[3]), mat.baseColorTexture ? " + texture" : "");
    }
    std::printf("  images: %zu\n", model.images.size());
}

}  // namespace

int runInfo(const InfoOptions& options) {
    bool cooked = false;
    auto model = loadModel(options.file, options.import, cooked);
    printWarnings(std::cerr, model.warnings());
    if (!model) {
        std::cerr << model.message() << '\n';
        return 1;
    }
    CookedParts parts;
    if (cooked) {
        auto file = readCookedFile(options.file);
        if (!file) {
            std::cerr << file.message() << '\n';
            return 1;
        }
        // A clip counts as compressed when a track of it is stored in a form of its
        // own: one whose tracks are all kept exact (STEP, CUBICSPLINE) plays as given.
        for (const CompressedClip& c : file->compressedClips) {
            parts.compressed.push_back(std::any_of(
                c.tracks.begin(), c.tracks.end(), [](const CompressedTrack& t) { return t.form != TrackForm::Exact; }));
        }
        parts.stateMachines = std::move(file->stateMachines);
    }
    if (options.json)
        printJson(*model, cooked, parts);
    else
        printText(*model, cooked, parts);
    return 0;
}

}  // namespace kinema::cli
