#include "kinema/io/curve_json.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>

#include "clip_sidecar.hpp"
#include "json_reader.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema {

namespace {

namespace dom = simdjson::dom;

class CurveReader : public detail::JsonReader {
public:
    std::vector<ClipCurves> document(dom::object root) {
        std::vector<ClipCurves> clips;
        detail::forEachClip(*this, root, [&](std::string_view name, dom::element value, const std::string& at) {
            dom::object byCurve;
            if (value.get_object().get(byCurve)) {
                fault(at, "must be an object of curve names");
                return;
            }
            ClipCurves c{std::string(name), {}};
            UniqueKeys names;
            for (const auto curveField : byCurve) {
                const std::string curveAt = std::string(at).append("/").append(escape(curveField.key));
                if (!names.first(*this, curveField.key, curveAt)) continue;
                dom::object o;
                if (curveField.value.get_object().get(o)) {
                    fault(curveAt, "must be an object with times and values");
                    continue;
                }
                onlyKeys(o, curveAt, {"times", "values", "interpolation"});
                CurveTrack curve;
                curve.name = std::string(curveField.key);
                if (curve.name.empty()) fault(curveAt, "a curve needs a name");
                numbers(o, "times", curveAt, curve.times);
                numbers(o, "values", curveAt, curve.values);
                dom::element mode;
                if (!o.at_key("interpolation").get(mode)) {
                    std::string_view text;
                    if (mode.get_string().get(text) || (text != "LINEAR" && text != "STEP")) {
                        fault(curveAt + "/interpolation", "must be \"LINEAR\" or \"STEP\"");
                    } else if (text == "STEP") {
                        curve.interpolation = Interpolation::Step;
                    }
                }
                c.curves.push_back(std::move(curve));
            }
            clips.push_back(std::move(c));
        });
        return clips;
    }

private:
    void numbers(dom::object o, std::string_view key, const std::string& at, std::vector<float>& out) {
        std::string where = at;
        where.append("/").append(key);
        dom::element e;
        if (o.at_key(key).get(e)) {
            fault(where, "missing");
            return;
        }
        dom::array list;
        if (e.get_array().get(list)) {
            fault(where, "must be an array of numbers");
            return;
        }
        std::size_t i = 0;
        for (const dom::element item : list) {
            double x = 0.0;
            if (item.get_double().get(x) || !std::isfinite(static_cast<float>(x))) {
                fault(std::string(where).append("/").append(std::to_string(i)),
                      "must be a number that is finite as a float");
                return;
            }
            out.push_back(static_cast<float>(x));
            ++i;
        }
    }
};

}  // namespace

Result<std::vector<ClipCurves>> parseCurveJson(std::string_view json, std::string_view source) {
    dom::parser parser;
    dom::object root;
    if (auto fault = detail::parseJsonObject(parser, json, source, root)) return *fault;
    CurveReader reader;
    std::vector<ClipCurves> clips = reader.document(root);
    if (!reader.faults.empty()) return detail::locatedIn(reader.faults, source);
    return clips;
}

Result<std::size_t> applyCurveJson(std::string_view json, Model& model, std::string_view source) {
    auto parsed = parseCurveJson(json, source);
    if (!parsed) return std::vector<Fault>(parsed.faults().begin(), parsed.faults().end());
    return detail::applyByClipName(
        *parsed, model, source,
        [](const Clip& clip, ClipCurves& c) {
            std::vector<CurveTrack> curves = c.curves;  // kept for the faults' names
            return clip.withCurves(std::move(curves));
        },
        [](const Fault& f, const ClipCurves& c) {
            // "curves/<i>[/times/<k>]" -> the curve's own key, then the rest of the path.
            std::string rest;
            if (f.where.rfind("curves/", 0) == 0) {
                const std::size_t digits = f.where.find_first_not_of("0123456789", 7);
                const std::string_view index =
                    std::string_view(f.where).substr(7, digits == std::string::npos ? std::string::npos : digits - 7);
                std::size_t i = 0;
                const auto [end, error] = std::from_chars(index.data(), index.data() + index.size(), i);
                if (error == std::errc{} && end == index.data() + index.size() && i < c.curves.size()) {
                    rest.append("/").append(detail::JsonReader::escape(c.curves[i].name));
                    if (digits != std::string::npos) rest.append(f.where, digits);
                }
            }
            return rest;
        });
}

Result<std::size_t> applyCurveFile(const std::string& path, Model& model) {
    auto bytes = readFileBytes(path, std::size_t{64} << 20);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    const auto& b = **bytes;
    return applyCurveJson(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), model, path);
}

}  // namespace kinema
