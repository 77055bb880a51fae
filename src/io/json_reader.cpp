#include "json_reader.hpp"

#include "../core/json_syntax.hpp"

namespace kinema::detail {

std::optional<Fault> parseJsonObject(dom::parser& parser, std::string_view json, std::string_view source,
                                     dom::object& root) {
    dom::element doc;
    if (const auto error = parser.parse(json.data(), json.size(), true).get(doc); error) {
        // simdjson says that the text is malformed, the locator says where: the byte
        // offset in `json`, and the line and column (in code points) for an editor.
        const auto syntax = kinema::json::findJsonSyntaxError(json);
        if (!syntax) {
            return Fault{std::string(source) + "#",
                         std::string("JSON does not parse: ") + simdjson::error_message(error)};
        }
        return Fault{std::string(source) + "@byte " + std::to_string(syntax->byteOffset) + " (line " +
                         std::to_string(syntax->line) + ", column " + std::to_string(syntax->column) + ")",
                     "JSON syntax error: " + syntax->what};
    }
    if (doc.get_object().get(root)) return Fault{std::string(source) + "#", "the JSON root must be an object"};
    return std::nullopt;
}

std::vector<Fault> locatedIn(std::span<const Fault> faults, std::string_view source) {
    std::vector<Fault> out;
    out.reserve(faults.size());
    for (const Fault& f : faults) {
        // An empty pointer is the reader's "more faults not listed": it names the file alone.
        out.push_back({f.where.empty() ? std::string(source) : std::string(source) + "#" + f.where, f.what});
    }
    return out;
}

}  // namespace kinema::detail
