// The shape shared by the JSON files that give a model's clips data by clip name
// (markers, user curves): {"clips": {"<clip name>": <per-clip value>, ...}}, read
// fail-closed, then applied all or nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json_reader.hpp"
#include "kinema/asset/model.hpp"
#include "kinema/core/name_index.hpp"
#include "kinema/core/quoted.hpp"
#include "kinema/core/result.hpp"

namespace kinema::detail {

// Calls `read(name, value, at)` for every member of the root's "clips" object, in
// order, with `at` its JSON pointer; faults for a missing or non-object "clips", an
// unknown root key or a clip named twice.
template <class Read>
void forEachClip(JsonReader& reader, dom::object root, Read&& read) {
    reader.onlyKeys(root, "", {"clips"});
    dom::element e;
    if (root.at_key("clips").get(e)) {
        reader.fault("/clips", "missing");
        return;
    }
    dom::object byClip;
    if (e.get_object().get(byClip)) {
        reader.fault("/clips", "must be an object of clip names");
        return;
    }
    JsonReader::UniqueKeys clips;
    for (const auto field : byClip) {
        const std::string at = "/clips/" + JsonReader::escape(field.key);
        if (!clips.first(reader, field.key, at)) continue;
        read(field.key, field.value, at);
    }
}

// Gives each named clip of `model` its new version, `rebuild(clip, entry)` (a
// Result<Clip>; its faults and warnings are placed under the clip's pointer,
// `where(fault, entry)` naming the rest of the path). Every clip is rebuilt first and the model
// changed only when all succeeded; a name the model lacks is a fault. Returns how
// many clips changed.
template <class Entry, class Rebuild, class Where>
Result<std::size_t> applyByClipName(std::vector<Entry>& entries, Model& model, std::string_view source,
                                    Rebuild&& rebuild, Where&& where) {
    std::vector<std::pair<std::size_t, Clip>> changed;
    std::vector<Fault> faults, warnings;
    NameIndex clipIndex;  // the first clip of each name
    for (std::size_t i = 0; i < model.clips.size(); ++i)
        clipIndex.emplace(model.clips[i].name(), static_cast<std::uint32_t>(i));
    for (Entry& entry : entries) {
        const std::string at = std::string(source) + "#/clips/" + JsonReader::escape(entry.clip);
        const auto found = clipIndex.find(entry.clip);
        if (found == clipIndex.end()) {
            appendFault(faults, {at, "the model has no clip named " + inQuotes(entry.clip, '"')}, source);
            continue;
        }
        const std::size_t index = found->second;
        Result<Clip> clip = rebuild(model.clips[index], entry);
        if (!clip) {
            for (const Fault& f : clip.faults()) appendFault(faults, {at + where(f, entry), f.what}, source);
            continue;
        }
        for (const Fault& w : clip.warnings()) warnings.push_back({at + where(w, entry), w.what});
        changed.emplace_back(index, std::move(clip).value());
    }
    if (!faults.empty()) return faults;
    for (auto& [index, clip] : changed) model.clips[index] = std::move(clip);
    Result<std::size_t> count = changed.size();
    count.addWarnings(warnings);
    return count;
}

}  // namespace kinema::detail
