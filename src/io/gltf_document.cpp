// The importer's bookkeeping and the document itself: faults and warnings, the
// memory budget, the container (GLB or JSON text) and its parse, duplicate keys,
// the asset and the extensions in use.
#include "gltf_importer.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "../core/json_syntax.hpp"
#include "container.hpp"

namespace kinema::gltf_import {

std::string printable(std::string text) {
    constexpr std::size_t kMaxMessage = 1000;
    bool clean = text.size() <= kMaxMessage;
    for (const char c : text) clean &= !(static_cast<unsigned char>(c) < 0x20 || c == 0x7F);
    if (clean) return text;
    std::string out;
    for (const char c : text) {
        if (out.size() >= kMaxMessage) {
            out += "... (cut)";
            break;
        }
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F) {
            constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[u >> 4];
            out += kHex[u & 15];
        } else {
            out += c;
        }
    }
    return out;
}

// A recoverable error: a warning naming the repair when lenient, else a fault.
void Importer::recoverable(const Pointer& at, const std::string& what, const std::string& repair) {
    if (lenient()) {
        warn(at, what + "; " + repair);
    } else {
        fault(at, what);
        ++valueFaults_;
    }
}

void Importer::warn(const Pointer& at, std::string what) {
    if (warnings_.size() < kMaxListedFaults)
        warnings_.push_back({src_.name + "#" + at.str(), printable(std::move(what))});
}

void Importer::fault(const Pointer& at, std::string what) {
    if (faults_.size() > kMaxListedFaults) return;  // the message is not built for a fault not listed
    appendFault(faults_, {src_.name + "#" + at.str(), printable(std::move(what))}, src_.name);
}

void Importer::faultRaw(std::string where, std::string what) {
    if (faults_.size() > kMaxListedFaults) return;
    appendFault(faults_, {src_.name + std::move(where), printable(std::move(what))}, src_.name);
}

// The working table of a top-level array: `perItem` bytes per entry, charged
// before it is sized (a file of a million "{}" would otherwise cost far more
// memory than its bytes). 0, and the import stops, when they do not fit.
std::size_t Importer::table(std::string_view key, std::size_t perItem) {
    const std::size_t count = arraySize(key);
    return charged(count, perItem, Pointer{} / key, "the " + std::string(key) + " table") ? count : 0;
}

// Charges `count` items of `perItem` bytes; false (and the import stops) when they
// do not fit.
bool Importer::charged(std::size_t count, std::size_t perItem, const Pointer& at, const std::string& what) {
    if (count == 0) return true;
    if (count > std::numeric_limits<std::size_t>::max() / perItem || !charge(count * perItem, at, what)) {
        stopped_ = true;
        return false;
    }
    return true;
}

std::string Importer::budgetMessage(std::size_t bytes, const std::string& what) const {
    return what + " needs " + std::to_string(bytes) + " bytes" + std::string(kBudgetWords) +
        std::to_string(opt_.memoryBudget) + " bytes has " + std::to_string(budgetLeft()) + " left";
}

namespace {

// Where visit `v` hangs in the document, following its parents to the root.
template <class Visits>
Pointer pointerTo(const Visits& visits, std::size_t v) {
    std::vector<std::size_t> chain;
    for (std::size_t at = v; at != 0; at = visits[at].parent) chain.push_back(at);
    Pointer p;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const auto& step = visits[*it];
        p = step.key.data() ? p / step.key : p / std::size_t{step.index};
    }
    return p;
}

bool isContainer(const dom::element& e) noexcept {
    const dom::element_type t = e.type();
    return t == dom::element_type::OBJECT || t == dom::element_type::ARRAY;
}

// The first key that appears twice (empty when none does); may reorder `keys`.
std::string_view firstRepeated(std::vector<std::string_view>& keys) {
    if (keys.size() <= 16) {
        for (std::size_t i = 1; i < keys.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                if (keys[i].size() == keys[j].size() && keys[i] == keys[j]) return keys[i];
            }
        }
        return {};
    }
    std::sort(keys.begin(), keys.end());
    const auto it = std::adjacent_find(keys.begin(), keys.end());
    return it == keys.end() ? std::string_view{} : *it;
}

}  // namespace

// glTF requires the keys of a JSON object to be unique. Readers disagree on which
// of two equal keys counts (kinema reads the first, JSON.parse the last), so a
// file could mean one thing here and another elsewhere: strict import refuses it,
// lenient import warns and keeps the first. One walk over the objects of the
// document, without recursion; objects of up to 16 keys compare pairwise, larger
// ones sort a copy.
void Importer::checkDuplicateKeys(const dom::element& doc) {
    // Each container visited: its element and where it hangs (parent, key or index),
    // so a pointer is built only for a duplicate found.
    struct Visit {
        dom::element element;
        std::uint32_t parent;
        std::uint32_t index;  // in the parent array, when key is empty
        std::string_view key;
    };
    std::vector<Visit> visits{{doc, 0, 0, {}}};
    std::vector<std::string_view> keys;
    for (std::size_t v = 0; v < visits.size(); ++v) {
        const dom::element e = visits[v].element;
        const auto self = static_cast<std::uint32_t>(v);
        dom::object o;
        dom::array a;
        if (!e.get_object().get(o)) {
            keys.clear();
            for (dom::key_value_pair field : o) {
                keys.push_back(field.key);
                if (isContainer(field.value)) visits.push_back({field.value, self, 0, field.key});
            }
            const std::string_view repeated = firstRepeated(keys);
            if (!repeated.empty()) {
                recoverable(
                    pointerTo(visits, v) / repeated,
                    "the key " + inQuotes(repeated) + " appears more than once in one object (keys must be unique)",
                    "the first one is used");
            }
        } else if (!e.get_array().get(a)) {
            // An array that starts with a number or string holds no objects that
            // kinema reads (a glTF array is of one kind): not walked, which keeps
            // this cheap on files full of number arrays.
            dom::element first;
            if (a.at(0).get(first) || !isContainer(first)) continue;
            std::uint32_t i = 0;
            for (dom::element item : a) {
                if (isContainer(item)) visits.push_back({item, self, i, {}});
                ++i;
            }
        }
    }
}

// A GLB whose magic is damaged: named .glb and not JSON text, or a GLB header
// (version 2) and first chunk header ("JSON") behind the wrong four bytes.
bool Importer::looksLikeGlb(std::span<const std::byte> bytes) const {
    const auto at = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
    if (bytes.size() >= 20 && at(4) == 2 && at(5) == 0 && at(6) == 0 && at(7) == 0 && at(16) == 'J' && at(17) == 'S' &&
        at(18) == 'O' && at(19) == 'N') {
        return true;
    }
    std::string lower;
    const std::size_t dot = src_.name.rfind('.');
    if (dot != std::string::npos) {
        for (const char c : src_.name.substr(dot))
            lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (lower != ".glb") return false;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const unsigned char c = at(i);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        return c != '{';
    }
    return false;
}

bool Importer::parseContainer() {
    const std::vector<std::byte>& file = *src_.bytes;
    if (file.empty()) {
        faultRaw("@byte 0", "the file is empty");
        return false;
    }
    std::span<const std::byte> json(file.data(), file.size());
    std::size_t jsonOffset = 0;
    if (!gltf::isGlb(json) && looksLikeGlb(json)) {
        std::string magic;
        for (std::size_t i = 0; i < 4 && i < json.size(); ++i) {
            const auto c = static_cast<unsigned char>(json[i]);
            magic += (c >= 0x20 && c < 0x7F) ? static_cast<char>(c) : '?';
        }
        faultRaw("@byte 0", "bad magic: a GLB file starts with 'glTF', this one with '" + magic + "'");
        return false;
    }
    if (gltf::isGlb(json)) {
        gltf::GlbError error;
        const auto chunks = gltf::splitGlb(json, error);
        if (!chunks) {
            faultRaw("@byte " + std::to_string(error.byteOffset), error.what);
            return false;
        }
        json = chunks->json;
        jsonOffset = chunks->jsonOffset;
        if (chunks->hasBin) {
            glbBin_ = chunks->bin;
            hasGlbBin_ = true;
        }
    }
    // simdjson reads up to SIMDJSON_PADDING bytes past the text (their values do
    // not matter). In a GLB the BIN chunk usually follows the JSON, so the file's
    // own bytes are that padding and the parser need not copy the text first.
    const std::size_t after = static_cast<std::size_t>(file.data() + file.size() - (json.data() + json.size()));
    const bool padded = after >= simdjson::SIMDJSON_PADDING;
    // The parser's document: an 8-byte tape slot and up to 5/3 bytes of string
    // buffer per byte of text, a 4-byte structural index per byte, and a padded copy
    // of the text when the file's own bytes cannot serve as the padding.
    constexpr std::size_t kParserBytesPerJsonByte = 14;
    const std::size_t copy = padded ? 0 : json.size() + simdjson::SIMDJSON_PADDING;
    if (json.size() > std::numeric_limits<std::size_t>::max() / (kParserBytesPerJsonByte + 1) ||
        !charge(json.size() * kParserBytesPerJsonByte + copy, "", "parsing the JSON text")) {
        return false;
    }
    dom::element doc;
    const auto error = parser_.parse(reinterpret_cast<const char*>(json.data()), json.size(), !padded).get(doc);
    if (error) {
        // simdjson says that the text is malformed, the locator says where.
        const std::string_view text(reinterpret_cast<const char*>(json.data()), json.size());
        const auto syntax = kinema::json::findJsonSyntaxError(text);
        if (!syntax) {
            faultRaw("", std::string("JSON does not parse: ") + simdjson::error_message(error));
            return false;
        }
        const std::size_t offset = jsonOffset + syntax->byteOffset;
        faultRaw("@byte " + std::to_string(offset) + " (line " + std::to_string(syntax->line) + ", column " +
                     std::to_string(syntax->column) + ")",
                 "JSON syntax error: " + syntax->what);
        return false;
    }
    if (doc.get_object().get(root_)) {
        faultRaw("#", "the JSON root must be an object");
        return false;
    }
    checkDuplicateKeys(doc);
    return true;
}

void Importer::readAsset() {
    dom::object asset;
    if (!getObject(root_, "asset", Pointer{}, asset, true)) return;
    std::string_view version;
    if (getString(asset, "version", Pointer{} / "asset", version, true)) {
        if (version.substr(0, 2) != "2.")
            fault(Pointer{} / "asset" / "version", "glTF version " + std::string(version) + " is not 2.x");
    }
    std::string_view minVersion;
    if (getString(asset, "minVersion", Pointer{} / "asset", minVersion, false) && minVersion != "2.0") {
        fault(Pointer{} / "asset" / "minVersion", "requires glTF " + std::string(minVersion) + "; 2.0 is supported");
    }
    std::set<std::string_view> used;
    auto readExtensionList = [&](std::string_view key, bool required, std::set<std::string_view>& seen) {
        dom::array list;
        if (!getArray(root_, key, Pointer{}, list, false)) return;
        std::size_t i = 0;
        for (dom::element e : list) {
            const Pointer at = Pointer{} / key / i++;
            std::string_view name;
            if (e.get_string().get(name)) {
                fault(at, "must be a string");
                continue;
            }
            if (!seen.insert(name).second) {
                fault(at, "extension " + std::string(name) + " is listed twice");
                continue;
            }
            if (name == "KHR_mesh_quantization") {
                quantized_ = true;
            } else if (required) {
                fault(at, "required extension " + std::string(name) + " is not supported");
                continue;
            }
            // What a file requires it also uses: a list without it is a writer's slip.
            if (required && !used.contains(name)) {
                recoverable(at, "extension " + std::string(name) + " is required but not in extensionsUsed",
                            "taken as used");
            }
        }
    };
    std::set<std::string_view> required;
    readExtensionList("extensionsUsed", false, used);
    readExtensionList("extensionsRequired", true, required);
}

}  // namespace kinema::gltf_import
