#include "kinema/io/marker_json.hpp"

#include <optional>
#include <unordered_set>
#include <utility>

#include "json_reader.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema {

namespace {

namespace dom = simdjson::dom;

class MarkerReader : public detail::JsonReader {
public:
    std::vector<ClipMarkers> document(dom::object root) {
        std::vector<ClipMarkers> clips;
        onlyKeys(root, "", {"clips"});
        dom::element e;
        if (root.at_key("clips").get(e)) {
            fault("/clips", "missing");
            return clips;
        }
        dom::object byClip;
        if (e.get_object().get(byClip)) {
            fault("/clips", "must be an object of clip names");
            return clips;
        }
        std::unordered_set<std::string_view> seen;
        for (const auto field : byClip) {
            const std::string at = "/clips/" + escape(field.key);
            if (!seen.insert(field.key).second) {
                fault(at, "duplicate key (keys must be unique)");
                continue;
            }
            dom::array array;
            if (field.value.get_array().get(array)) {
                fault(at, "must be an array of markers");
                continue;
            }
            ClipMarkers c{std::string(field.key), {}};
            std::size_t i = 0;
            for (const dom::element item : array) {
                const std::string itemAt = at + "/" + std::to_string(i++);
                dom::object o;
                if (item.get_object().get(o)) {
                    fault(itemAt, "must be an object");
                    continue;
                }
                onlyKeys(o, itemAt, {"name", "time"});
                Marker m;
                string(o, "name", itemAt, m.name, true);
                if (has(o, "name") && m.name.empty()) fault(itemAt + "/name", "must not be empty");
                if (number(o, "time", itemAt, m.time, true) && m.time < 0.0f) fault(itemAt + "/time", "must be >= 0");
                c.markers.push_back(std::move(m));
            }
            clips.push_back(std::move(c));
        }
        return clips;
    }
};

}  // namespace

Result<std::vector<ClipMarkers>> parseMarkerJson(std::string_view json, std::string_view source) {
    dom::parser parser;
    dom::object root;
    if (auto fault = detail::parseJsonObject(parser, json, source, root)) return *fault;
    MarkerReader reader;
    std::vector<ClipMarkers> clips = reader.document(root);
    if (!reader.faults.empty()) return detail::locatedIn(reader.faults, source);
    return clips;
}

Result<std::size_t> applyMarkerJson(std::string_view json, Model& model, std::string_view source) {
    auto parsed = parseMarkerJson(json, source);
    if (!parsed) return std::vector<Fault>(parsed.faults().begin(), parsed.faults().end());
    // Every clip is rebuilt first, and the model changed only when all succeeded.
    std::vector<std::pair<std::size_t, Clip>> changed;
    std::vector<Fault> faults;
    for (ClipMarkers& c : *parsed) {
        const std::string at = std::string(source) + "#/clips/" + detail::JsonReader::escape(c.clip);
        std::optional<std::size_t> index;
        for (std::size_t i = 0; i < model.clips.size() && !index; ++i) {
            if (model.clips[i].name() == c.clip) index = i;
        }
        if (!index) {
            faults.push_back({at, "the model has no clip named \"" + c.clip + "\""});
            continue;
        }
        auto clip = model.clips[*index].withMarkers(std::move(c.markers));
        if (!clip) {
            for (const Fault& f : clip.faults()) faults.push_back({at, f.what});
            continue;
        }
        changed.emplace_back(*index, std::move(clip).value());
    }
    if (!faults.empty()) return faults;
    for (auto& [index, clip] : changed) model.clips[index] = std::move(clip);
    return changed.size();
}

Result<std::size_t> applyMarkerFile(const std::string& path, Model& model) {
    auto bytes = readFileBytes(path, std::size_t{64} << 20);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    const auto& b = **bytes;
    return applyMarkerJson(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), model, path);
}

}  // namespace kinema
