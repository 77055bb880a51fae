#include "kinema/io/joint_map_json.hpp"

#include <unordered_map>
#include <utility>

#include "json_reader.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema {

namespace {

namespace dom = simdjson::dom;

class JointMapReader : public detail::JsonReader {
public:
    RetargetMap document(dom::object root) {
        RetargetMap map;
        onlyKeys(root, "", {"joints", "reference"});
        joints(root, map);
        dom::element e;
        if (!root.at_key("reference").get(e)) reference(e, map);
        return map;
    }

private:
    void joints(dom::object root, RetargetMap& map) {
        dom::element e;
        if (root.at_key("joints").get(e)) {
            fault("/joints", "missing");
            return;
        }
        dom::object byName;
        if (e.get_object().get(byName)) {
            fault("/joints", "must be an object of source joint names to target joint names");
            return;
        }
        if (byName.begin() == byName.end()) {
            fault("/joints", "names no joints (leave the map out to match joints by name)");
            return;
        }
        UniqueKeys sources;
        std::unordered_map<std::string_view, std::string_view> targets;  // target -> its first source
        for (const auto field : byName) {
            const std::string at = "/joints/" + escape(field.key);
            if (!sources.first(*this, field.key, at)) continue;
            if (field.key.empty()) fault(at, "the source joint name is empty");
            std::string_view target;
            if (field.value.get_string().get(target)) {
                fault(at, "must be a string (the target joint name)");
                continue;
            }
            if (target.empty()) {
                fault(at, "the target joint name is empty");
                continue;
            }
            const auto [first, fresh] = targets.emplace(target, field.key);
            if (!fresh) {
                std::string what("target joint \"");
                what.append(target).append("\" is mapped already from \"").append(first->second).append("\"");
                fault(at, std::move(what));
                continue;
            }
            map.joints.push_back({std::string(field.key), std::string(target)});
        }
    }

    void reference(dom::element e, RetargetMap& map) {
        dom::object o;
        if (e.get_object().get(o)) {
            fault("/reference", "must be an object with \"source\" and/or \"target\"");
            return;
        }
        onlyKeys(o, "/reference", {"source", "target"});
        if (!has(o, "source") && !has(o, "target")) {
            fault("/reference", "names neither a source nor a target joint");
            return;
        }
        for (const auto& [key, out] : {std::pair{"source", &map.sourceReference}, {"target", &map.targetReference}}) {
            const std::size_t before = faultCount();
            string(o, key, "/reference", *out, false);
            if (faultCount() == before && has(o, key) && out->empty()) {
                fault(std::string("/reference/").append(key), "must not be empty");
            }
        }
    }
};

}  // namespace

Result<RetargetMap> parseJointMapJson(std::string_view json, std::string_view source) {
    dom::parser parser;
    dom::object root;
    if (auto fault = detail::parseJsonObject(parser, json, source, root)) return *fault;
    JointMapReader reader;
    RetargetMap map = reader.document(root);
    if (!reader.faults.empty()) return detail::locatedIn(reader.faults, source);
    map.origin = std::string(source);
    return map;
}

Result<RetargetMap> loadJointMapFile(const std::string& path) {
    auto bytes = readFileBytes(path, std::size_t{64} << 20);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    const auto& b = **bytes;
    return parseJointMapJson(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), path);
}

}  // namespace kinema
