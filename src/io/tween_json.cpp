#include "kinema/io/tween_json.hpp"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json_reader.hpp"
#include "json_writer.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema {

namespace {

namespace dom = simdjson::dom;

constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;

class TweenReader : public detail::JsonReader {
public:
    Tween document(dom::object root) {
        Tween tween;
        onlyKeys(root, "", {"length", "position", "rotation", "scale"});
        double length = 0.0;
        if (seconds(root, "length", "", length, false)) (void)tween.setLength(length);
        track(root, "position", tween.position);
        track(root, "rotation", tween.rotation);
        track(root, "scale", tween.scale);
        return tween;
    }

private:
    // A time or length: a finite number >= 0, read as a double like the timeline it
    // is placed on.
    bool seconds(dom::object object, std::string_view key, const std::string& at, double& out, bool required) {
        const std::string here = at + "/" + std::string(key);
        dom::element e;
        if (object.at_key(key).get(e)) {
            if (required) fault(here, "missing");
            return false;
        }
        double d = 0.0;
        if (e.get_double().get(d)) {
            fault(here, "must be a number");
            return false;
        }
        if (!std::isfinite(d)) {
            fault(here, "not finite");
            return false;
        }
        if (d < 0.0) {
            fault(here, "must be >= 0");
            return false;
        }
        out = d;
        return true;
    }

    // The key's "value": an array of exactly `n` numbers, each finite as a float.
    bool components(dom::object key, const std::string& at, float* out, std::size_t n) {
        const std::string here = at + "/value";
        const std::string shape = "must be an array of " + std::to_string(n) + " numbers";
        dom::element e;
        if (key.at_key("value").get(e)) {
            fault(here, "missing");
            return false;
        }
        dom::array array;
        if (e.get_array().get(array)) {
            fault(here, shape);
            return false;
        }
        std::size_t count = 0;
        for (const dom::element item : array) {
            (void)item;
            ++count;
        }
        if (count != n) {
            fault(here, shape + " (it has " + std::to_string(count) + ")");
            return false;
        }
        bool ok = true;
        std::size_t i = 0;
        for (const dom::element item : array) {
            const std::string itemAt = here + "/" + std::to_string(i);
            double d = 0.0;
            if (item.get_double().get(d)) {
                fault(itemAt, "must be a number");
                ok = false;
            } else if (const float f = static_cast<float>(d); !std::isfinite(f)) {
                fault(itemAt, "not finite as a 32-bit float");
                ok = false;
            } else {
                out[i] = f;
            }
            ++i;
        }
        return ok;
    }

    bool value(dom::object key, const std::string& at, Vec3& out) {
        float v[3] = {};
        if (!components(key, at, v, 3)) return false;
        out = {v[0], v[1], v[2]};
        return true;
    }

    bool value(dom::object key, const std::string& at, Quat& out) {
        float v[4] = {};
        if (!components(key, at, v, 4)) return false;
        if (v[0] == 0.0f && v[1] == 0.0f && v[2] == 0.0f && v[3] == 0.0f) {
            fault(at + "/value", "a zero quaternion is no rotation (the identity is [0, 0, 0, 1])");
            return false;
        }
        out = {v[0], v[1], v[2], v[3]};
        return true;
    }

    template <class T>
    void track(dom::object root, std::string_view key, TweenTrack<T>& out) {
        dom::element e;
        if (root.at_key(key).get(e)) return;
        std::string at = "/";
        at += key;
        dom::object o;
        if (e.get_object().get(o)) {
            fault(at, "must be an object");
            return;
        }
        onlyKeys(o, at, {"easing", "keys"});
        Easing curve = Easing::Linear;
        easing(o, at, curve);
        out.setEasing(curve);
        // The latest time so far: every key must come after it.
        std::optional<double> latest;
        objects(o, "keys", at, true, [&](dom::object k, const std::string& kat) {
            onlyKeys(k, kat, {"time", "value"});
            double time = 0.0;
            const bool timeOk = seconds(k, "time", kat, time, true);
            T v{};
            const bool valueOk = value(k, kat, v);
            if (!timeOk) return;
            if (latest && !(time > *latest)) {
                fault(kat + "/time",
                      "keys must be in strictly increasing time order: " + exactNumber(time) +
                          " is not after the earlier key at " + exactNumber(*latest));
                return;
            }
            latest = time;
            if (!valueOk) return;
            // The checks above are the track's own, so this only appends.
            if (const Status s = out.insert(time, v); !s) fault(kat, s.what);
        });
    }
};

// ---- writing

void appendNumbers(std::string& out, std::initializer_list<float> values) {
    out += '[';
    for (const float* v = values.begin(); v != values.end(); ++v) {
        if (v != values.begin()) out += ", ";
        json::appendNumber(out, *v);
    }
    out += ']';
}

void appendValue(std::string& out, Vec3 v) { appendNumbers(out, {v.x, v.y, v.z}); }

void appendValue(std::string& out, Quat q) { appendNumbers(out, {q.x, q.y, q.z, q.w}); }

template <class T>
void appendTrack(std::string& out, bool& first, std::string_view name, const TweenTrack<T>& track) {
    if (track.empty() && track.easing() == Easing::Linear) return;
    out += first ? "\n  \"" : ",\n  \"";
    first = false;
    out += name;
    out += "\": {\n    \"easing\": \"";
    out += toString(track.easing());
    out += "\",\n    \"keys\": [";
    const auto keys = track.keys();
    for (std::size_t i = 0; i < keys.size(); ++i) {
        out += i == 0 ? "\n      {\"time\": " : ",\n      {\"time\": ";
        json::appendNumber(out, keys[i].time);
        out += ", \"value\": ";
        appendValue(out, keys[i].value);
        out += '}';
    }
    out += keys.empty() ? "]\n  }" : "\n    ]\n  }";
}

}  // namespace

Result<Tween> parseTweenJson(std::string_view json, std::string_view source) {
    // A default view has no storage; the parser copies from its pointer even when empty.
    if (json.data() == nullptr) json = std::string_view("", 0);
    dom::parser parser;
    dom::object root;
    if (auto fault = detail::parseJsonObject(parser, json, source, root)) return *fault;
    TweenReader reader;
    Tween tween = reader.document(root);
    if (!reader.faults.empty()) return detail::locatedIn(reader.faults, source);
    return tween;
}

Result<Tween> loadTweenFile(const std::string& path) {
    auto bytes = readFileBytes(path, kMaxFileBytes);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    const auto& b = **bytes;
    return parseTweenJson(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), path);
}

std::string toJson(const Tween& tween) {
    std::string out = "{";
    bool first = true;
    if (const auto length = tween.length()) {
        out += "\n  \"length\": ";
        json::appendNumber(out, *length);
        first = false;
    }
    appendTrack(out, first, "position", tween.position);
    appendTrack(out, first, "rotation", tween.rotation);
    appendTrack(out, first, "scale", tween.scale);
    out += first ? "}\n" : "\n}\n";
    return out;
}

}  // namespace kinema
