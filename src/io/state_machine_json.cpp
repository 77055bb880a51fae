#include "kinema/io/state_machine_json.hpp"

#include <simdjson.h>

#include <charconv>
#include <cstdio>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <unordered_set>

#include "json_reader.hpp"
#include "json_writer.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema {

namespace {

namespace dom = simdjson::dom;

class Reader : public detail::JsonReader {
public:
    // An optional key naming something (a state, a parameter, a predicate): given, it
    // names one; an empty name would read as the key left out.
    void reference(dom::object o, std::string_view key, const std::string& at, std::string& out) {
        const std::size_t before = faultCount();
        string(o, key, at, out, false);
        if (faultCount() == before && has(o, key) && out.empty()) {
            fault(at + "/" + std::string(key), "an empty name (leave the key out for none)");
        }
    }

    BlendSpaceDesc blendSpace(dom::object o, const std::string& at) {
        onlyKeys(o, at, {"dimensions", "x", "y", "sync", "clips"});
        BlendSpaceDesc b;
        // Read as the document writes it, not as a float: 1.00000001 is not 1.
        dom::element dimensions;
        bool dimensionsKnown = true;  // a bad count is its own fault: no guess at what the y means
        if (!o.at_key("dimensions").get(dimensions)) {
            double dims = 0.0;
            if (dimensions.get_double().get(dims) || (dims != 1.0 && dims != 2.0)) {
                fault(at + "/dimensions", "must be 1 or 2");
                dimensionsKnown = false;
            } else {
                b.dimensions = dims == 2.0 ? 2u : 1u;
            }
        }
        string(o, "x", at, b.xParameter, true);
        // A y in a 1D blend space would be ignored: most likely "dimensions": 2 is missing.
        const auto only2D = [&](dom::object obj, const std::string& where) {
            if (dimensionsKnown && b.dimensions != 2 && has(obj, "y"))
                fault(where + "/y", "a 1D blend space has no y (\"dimensions\": 2?)");
        };
        only2D(o, at);
        if (b.dimensions == 2) string(o, "y", at, b.yParameter, true);
        name(o, "sync", at, b.sync, parseBlendSync, "sync mode");
        objects(o, "clips", at, true, [&](dom::object c, const std::string& cat) {
            onlyKeys(c, cat, {"clip", "x", "y"});
            BlendSpaceClipDesc clip;
            string(c, "clip", cat, clip.clip, true);
            number(c, "x", cat, clip.x, true);
            only2D(c, cat);
            if (b.dimensions == 2) number(c, "y", cat, clip.y, true);
            b.clips.push_back(std::move(clip));
        });
        return b;
    }

    StateMachineDesc document(dom::object root) {
        StateMachineDesc desc;
        onlyKeys(root, "", {"parameters", "states", "transitions", "defaultState"});
        objects(root, "parameters", "", false, [&](dom::object o, const std::string& at) {
            onlyKeys(o, at, {"name", "type", "default"});
            ParameterDesc p;
            string(o, "name", at, p.name, true);
            if (!has(o, "type")) fault(at + "/type", "missing");
            name(o, "type", at, p.type, parseParameterType, "parameter type");
            if (p.type == ParameterType::Bool) {
                bool b = false;
                boolean(o, "default", at, b);
                p.defaultValue = b ? 1.0f : 0.0f;
            } else if (p.type == ParameterType::Float) {
                number(o, "default", at, p.defaultValue, false);
            } else if (has(o, "default")) {
                fault(at + "/default", "a trigger has no default");
            }
            desc.parameters.push_back(std::move(p));
        });
        objects(root, "states", "", true, [&](dom::object o, const std::string& at) {
            onlyKeys(o, at, {"name", "clip", "blendSpace", "speed", "speedParameter", "mode"});
            StateDesc s;
            string(o, "name", at, s.name, true);
            // Present, even empty (glTF animations are often unnamed), it names a clip.
            if (has(o, "clip")) string(o, "clip", at, s.clip.emplace(), false);
            dom::element e;
            if (!o.at_key("blendSpace").get(e)) {
                dom::object b;
                if (e.get_object().get(b)) {
                    fault(at + "/blendSpace", "must be an object");
                } else {
                    s.blendSpace = blendSpace(b, at + "/blendSpace");
                }
            }
            number(o, "speed", at, s.speed, false);
            reference(o, "speedParameter", at, s.speedParameter);
            name(o, "mode", at, s.mode, parseLoopMode, "playback mode");
            desc.states.push_back(std::move(s));
        });
        objects(root, "transitions", "", false, [&](dom::object o, const std::string& at) {
            onlyKeys(o, at,
                     {"from", "to", "duration", "easing", "conditions", "exitTime", "offset", "interruption",
                      "canTransitionToSelf", "predicate", "syncMarkers"});
            TransitionDesc t;
            string(o, "from", at, t.from, true);
            string(o, "to", at, t.to, true);
            number(o, "duration", at, t.duration, false);
            easing(o, at, t.easing);
            objects(o, "conditions", at, false, [&](dom::object c, const std::string& cat) {
                onlyKeys(c, cat, {"parameter", "op", "value"});
                ConditionDesc cond;
                string(c, "parameter", cat, cond.parameter, true);
                // Whether `value` belongs depends on the operator: when that is missing
                // or unknown, its own fault is the only one (cond.op would still hold
                // its default, "true", which takes no value).
                const std::size_t before = faultCount();
                if (!has(c, "op")) fault(cat + "/op", "missing");
                name(c, "op", cat, cond.op, parseConditionOp, "operator");
                const bool opKnown = faultCount() == before;
                const bool comparison = cond.op != ConditionOp::IsTrue && cond.op != ConditionOp::IsFalse;
                if (opKnown && comparison) {
                    number(c, "value", cat, cond.value, true);
                } else if (opKnown && has(c, "value")) {
                    fault(cat + "/value", "\"true\" and \"false\" take no value");
                }
                t.conditions.push_back(std::move(cond));
            });
            float exit = 0.0f;
            if (number(o, "exitTime", at, exit, false)) t.exitTime = exit;
            number(o, "offset", at, t.offset, false);
            boolean(o, "syncMarkers", at, t.syncMarkers);
            name(o, "interruption", at, t.interruption, parseInterruption, "interruption policy");
            boolean(o, "canTransitionToSelf", at, t.canTransitionToSelf);
            reference(o, "predicate", at, t.predicate);
            desc.transitions.push_back(std::move(t));
        });
        reference(root, "defaultState", "", desc.defaultState);
        return desc;
    }
};

using detail::locatedIn;

// ---- writing

void appendString(std::string& out, std::string_view s) {
    out += '"';
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    out += '"';
}

// Writes `"key": ` after a comma when something came before in this object.
class ObjectWriter {
public:
    ObjectWriter(std::string& out, int indent) : out_(out), indent_(indent) { out_ += '{'; }
    void key(std::string_view k) {
        out_ += first_ ? "\n" : ",\n";
        first_ = false;
        out_.append(static_cast<std::size_t>(indent_ + 2), ' ');
        appendString(out_, k);
        out_ += ": ";
    }
    void string(std::string_view k, std::string_view v) {
        key(k);
        appendString(out_, v);
    }
    void number(std::string_view k, float v) {
        key(k);
        json::appendNumber(out_, v);
    }
    void boolean(std::string_view k, bool v) {
        key(k);
        out_ += v ? "true" : "false";
    }
    void close() {
        if (!first_) {
            out_ += '\n';
            out_.append(static_cast<std::size_t>(indent_), ' ');
        }
        out_ += '}';
    }
    int indent() const { return indent_; }

private:
    std::string& out_;
    int indent_;
    bool first_ = true;
};

template <class T, class Write>
void appendArray(std::string& out, ObjectWriter& owner, std::string_view key, const std::vector<T>& items,
                 Write write) {
    owner.key(key);
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
        out += i == 0 ? "\n" : ",\n";
        out.append(static_cast<std::size_t>(owner.indent() + 4), ' ');
        ObjectWriter item(out, owner.indent() + 4);
        write(item, items[i]);
        item.close();
    }
    if (!items.empty()) {
        out += '\n';
        out.append(static_cast<std::size_t>(owner.indent() + 2), ' ');
    }
    out += ']';
}

}  // namespace

Result<StateMachineDesc> parseStateMachineJson(std::string_view json, std::string_view source) {
    dom::parser parser;
    dom::object root;
    if (auto fault = detail::parseJsonObject(parser, json, source, root)) return *fault;
    Reader reader;
    StateMachineDesc desc = reader.document(root);
    if (!reader.faults.empty()) return locatedIn(reader.faults, source);
    return desc;
}

Result<StateMachineDefinition> loadStateMachineJson(std::string_view json, const ClipLookup& clips,
                                                    std::string_view source) {
    auto desc = parseStateMachineJson(json, source);
    if (!desc) return std::vector<Fault>(desc.faults().begin(), desc.faults().end());
    auto def = StateMachineDefinition::create(std::move(*desc), clips);
    if (!def) return locatedIn(def.faults(), source);
    return def;
}

Result<StateMachineDefinition> loadStateMachineFile(const std::string& path, const ClipLookup& clips) {
    // As every JSON file kinema reads: a regular file of at most 64 MiB (a FIFO or a
    // device is refused without blocking).
    auto bytes = readFileBytes(path, std::size_t{64} << 20);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    const auto& b = **bytes;
    return loadStateMachineJson(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), clips, path);
}

std::string toJson(const StateMachineDesc& desc) {
    std::string out;
    ObjectWriter root(out, 0);
    appendArray(out, root, "parameters", desc.parameters, [&](ObjectWriter& o, const ParameterDesc& p) {
        o.string("name", p.name);
        o.string("type", toString(p.type));
        if (p.type == ParameterType::Float) o.number("default", p.defaultValue);
        if (p.type == ParameterType::Bool) o.boolean("default", p.defaultValue != 0.0f);
    });
    appendArray(out, root, "states", desc.states, [&](ObjectWriter& o, const StateDesc& s) {
        o.string("name", s.name);
        if (s.clip) o.string("clip", *s.clip);
        if (s.blendSpace) {
            const BlendSpaceDesc& b = *s.blendSpace;
            o.key("blendSpace");
            ObjectWriter bo(out, o.indent() + 2);
            bo.number("dimensions", static_cast<float>(b.dimensions));
            bo.string("x", b.xParameter);
            if (b.dimensions == 2) bo.string("y", b.yParameter);
            bo.string("sync", toString(b.sync));
            appendArray(out, bo, "clips", b.clips, [&](ObjectWriter& c, const BlendSpaceClipDesc& clip) {
                c.string("clip", clip.clip);
                c.number("x", clip.x);
                if (b.dimensions == 2) c.number("y", clip.y);
            });
            bo.close();
        }
        o.number("speed", s.speed);
        if (!s.speedParameter.empty()) o.string("speedParameter", s.speedParameter);
        o.string("mode", toString(s.mode));
    });
    appendArray(out, root, "transitions", desc.transitions, [&](ObjectWriter& o, const TransitionDesc& t) {
        o.string("from", t.from);
        o.string("to", t.to);
        o.number("duration", t.duration);
        o.string("easing", toString(t.easing));
        appendArray(out, o, "conditions", t.conditions, [&](ObjectWriter& c, const ConditionDesc& cond) {
            c.string("parameter", cond.parameter);
            c.string("op", toString(cond.op));
            if (cond.op != ConditionOp::IsTrue && cond.op != ConditionOp::IsFalse) c.number("value", cond.value);
        });
        if (t.exitTime) o.number("exitTime", *t.exitTime);
        o.number("offset", t.offset);
        if (t.syncMarkers) o.boolean("syncMarkers", true);
        o.string("interruption", toString(t.interruption));
        o.boolean("canTransitionToSelf", t.canTransitionToSelf);
        if (!t.predicate.empty()) o.string("predicate", t.predicate);
    });
    if (!desc.defaultState.empty()) root.string("defaultState", desc.defaultState);
    root.close();
    out += '\n';
    return out;
}

}  // namespace kinema
