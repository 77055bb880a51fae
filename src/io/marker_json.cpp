#include "kinema/io/marker_json.hpp"

#include <utility>

#include "clip_sidecar.hpp"
#include "json_reader.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema {

namespace {

namespace dom = simdjson::dom;

class MarkerReader : public detail::JsonReader {
public:
    std::vector<ClipMarkers> document(dom::object root) {
        std::vector<ClipMarkers> clips;
        detail::forEachClip(*this, root, [&](std::string_view name, dom::element value, const std::string& at) {
            dom::array array;
            if (value.get_array().get(array)) {
                fault(at, "must be an array of markers");
                return;
            }
            ClipMarkers c{std::string(name), {}};
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
                // A name that is not a string is one fault, not also an empty name.
                const std::size_t before = faults.size();
                string(o, "name", itemAt, m.name, true);
                if (faults.size() == before && m.name.empty()) fault(itemAt + "/name", "must not be empty");
                if (number(o, "time", itemAt, m.time, true) && m.time < 0.0f) fault(itemAt + "/time", "must be >= 0");
                c.markers.push_back(std::move(m));
            }
            clips.push_back(std::move(c));
        });
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
    return detail::applyByClipName(
        *parsed, model, source, [](const Clip& clip, ClipMarkers& c) { return clip.withMarkers(std::move(c.markers)); },
        [](const Fault& f, const ClipMarkers&) {
            // "markers/<i>" -> the marker's time in the clip's array.
            std::string rest;
            if (f.where.rfind("markers/", 0) == 0) rest.append("/").append(f.where, 8).append("/time");
            return rest;
        });
}

Result<std::size_t> applyMarkerFile(const std::string& path, Model& model) {
    auto bytes = readFileBytes(path, std::size_t{64} << 20);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    const auto& b = **bytes;
    return applyMarkerJson(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), model, path);
}

}  // namespace kinema
