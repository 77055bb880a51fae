#include "kinema/io/state_machine_json.hpp"

#include <simdjson.h>

#include <charconv>
#include <cstdio>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <unordered_set>

#include "../core/json_syntax.hpp"

namespace kinema {

namespace {

namespace dom = simdjson::dom;

// Walks the DOM once, collecting every fault with its JSON pointer.
class Reader {
public:
    std::vector<Fault> faults;

    void fault(const std::string& at, std::string what) { faults.push_back({at, std::move(what)}); }

    // Rejects keys outside `known`, so that a misspelt setting is an error rather than a
    // default, and a known key given twice: readers disagree on which of the two counts
    // (this one would read the first), so the text would mean different things to
    // different tools. Every object the reader reads passes here; any other object is
    // the value of a key or an element that is a fault already.
    void onlyKeys(dom::object object, const std::string& at, std::initializer_list<std::string_view> known) {
        seen_.clear();
        repeated_.clear();
        for (const auto field : object) {
            bool ok = false;
            for (const std::string_view k : known) ok = ok || field.key == k;
            if (!ok) {
                fault(at + "/" + escape(field.key), "unknown key");
            } else if (!seen_.insert(field.key).second && repeated_.insert(field.key).second) {
                fault(at + "/" + escape(field.key), "duplicate key (keys must be unique)");
            }
        }
    }

    static std::string escape(std::string_view key) {
        std::string out;
        for (const char c : key) {
            if (c == '~') out += "~0";
            else if (c == '/') out += "~1";
            else out += c;
        }
        return out;
    }

    bool has(dom::object object, std::string_view key) {
        dom::element e;
        return !object.at_key(key).get(e);
    }

    void string(dom::object object, std::string_view key, const std::string& at, std::string& out, bool required) {
        dom::element e;
        if (object.at_key(key).get(e)) {
            if (required) fault(at + "/" + std::string(key), "missing");
            return;
        }
        std::string_view s;
        if (e.get_string().get(s)) {
            fault(at + "/" + std::string(key), "must be a string");
            return;
        }
        out.assign(s);
    }

    bool number(dom::object object, std::string_view key, const std::string& at, float& out, bool required) {
        dom::element e;
        if (object.at_key(key).get(e)) {
            if (required) fault(at + "/" + std::string(key), "missing");
            return false;
        }
        double d = 0.0;
        if (e.get_double().get(d)) {
            fault(at + "/" + std::string(key), "must be a number");
            return false;
        }
        const float f = static_cast<float>(d);
        if (!std::isfinite(f)) {
            fault(at + "/" + std::string(key), "not finite as a 32-bit float");
            return false;
        }
        out = f;
        return true;
    }

    void boolean(dom::object object, std::string_view key, const std::string& at, bool& out) {
        dom::element e;
        if (object.at_key(key).get(e)) return;
        if (e.get_bool().get(out)) fault(at + "/" + std::string(key), "must be true or false");
    }

    template <class E, class Parse>
    void name(dom::object object, std::string_view key, const std::string& at, E& out, Parse parse,
              std::string_view what) {
        std::string s;
        const std::size_t before = faults.size();
        string(object, key, at, s, false);
        if (faults.size() != before || !has(object, key)) return;
        const auto parsed = parse(s);
        if (!parsed) {
            fault(at + "/" + std::string(key), "unknown " + std::string(what) + " '" + s + "'");
            return;
        }
        out = *parsed;
    }

    // Calls `each(object, pointer)` for every element of the array `key`, which must
    // hold objects.
    template <class Each>
    void objects(dom::object object, std::string_view key, const std::string& at, bool required, Each each) {
        dom::element e;
        const std::string here = at + "/" + std::string(key);
        if (object.at_key(key).get(e)) {
            if (required) fault(here, "missing");
            return;
        }
        dom::array array;
        if (e.get_array().get(array)) {
            fault(here, "must be an array");
            return;
        }
        std::size_t i = 0;
        for (const dom::element item : array) {
            const std::string itemAt = here + "/" + std::to_string(i++);
            dom::object o;
            if (item.get_object().get(o)) {
                fault(itemAt, "must be an object");
                continue;
            }
            each(o, itemAt);
        }
    }

    BlendSpaceDesc blendSpace(dom::object o, const std::string& at) {
        onlyKeys(o, at, {"dimensions", "x", "y", "sync", "clips"});
        BlendSpaceDesc b;
        float dims = 1.0f;
        if (number(o, "dimensions", at, dims, false)) {
            if (dims != 1.0f && dims != 2.0f) fault(at + "/dimensions", "must be 1 or 2");
            b.dimensions = dims == 2.0f ? 2u : 1u;
        }
        string(o, "x", at, b.xParameter, true);
        string(o, "y", at, b.yParameter, b.dimensions == 2);
        name(o, "sync", at, b.sync, parseBlendSync, "sync mode");
        objects(o, "clips", at, true, [&](dom::object c, const std::string& cat) {
            onlyKeys(c, cat, {"clip", "x", "y"});
            BlendSpaceClipDesc clip;
            string(c, "clip", cat, clip.clip, true);
            number(c, "x", cat, clip.x, true);
            number(c, "y", cat, clip.y, b.dimensions == 2);
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
            string(o, "clip", at, s.clip, false);
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
            string(o, "speedParameter", at, s.speedParameter, false);
            name(o, "mode", at, s.mode, parseLoopMode, "playback mode");
            desc.states.push_back(std::move(s));
        });
        objects(root, "transitions", "", false, [&](dom::object o, const std::string& at) {
            onlyKeys(o, at, {"from", "to", "duration", "easing", "conditions", "exitTime", "offset", "interruption",
                             "canTransitionToSelf", "predicate"});
            TransitionDesc t;
            string(o, "from", at, t.from, true);
            string(o, "to", at, t.to, true);
            number(o, "duration", at, t.duration, false);
            name(o, "easing", at, t.easing, parseEasing, "easing");
            objects(o, "conditions", at, false, [&](dom::object c, const std::string& cat) {
                onlyKeys(c, cat, {"parameter", "op", "value"});
                ConditionDesc cond;
                string(c, "parameter", cat, cond.parameter, true);
                // Whether `value` belongs depends on the operator: when that is missing
                // or unknown, its own fault is the only one (cond.op would still hold
                // its default, "true", which takes no value).
                const std::size_t before = faults.size();
                if (!has(c, "op")) fault(cat + "/op", "missing");
                name(c, "op", cat, cond.op, parseConditionOp, "operator");
                const bool opKnown = faults.size() == before;
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
            name(o, "interruption", at, t.interruption, parseInterruption, "interruption policy");
            boolean(o, "canTransitionToSelf", at, t.canTransitionToSelf);
            string(o, "predicate", at, t.predicate, false);
            desc.transitions.push_back(std::move(t));
        });
        string(root, "defaultState", "", desc.defaultState, false);
        return desc;
    }

private:
    // onlyKeys' scratch: the keys of the object at hand, and those already reported twice.
    std::unordered_set<std::string_view> seen_;
    std::unordered_set<std::string_view> repeated_;
};

std::vector<Fault> located(std::span<const Fault> faults, std::string_view source) {
    std::vector<Fault> out;
    out.reserve(faults.size());
    for (const Fault& f : faults) out.push_back({std::string(source) + "#" + f.where, f.what});
    return out;
}

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

void appendNumber(std::string& out, float v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
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
        appendNumber(out_, v);
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
void appendArray(std::string& out, ObjectWriter& owner, std::string_view key, const std::vector<T>& items, Write write) {
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
    dom::element doc;
    if (const auto error = parser.parse(json.data(), json.size(), true).get(doc); error) {
        // simdjson says that the text is malformed, the locator says where: the byte
        // offset in `json`, and the line and column (in code points) for an editor.
        const auto syntax = kinema::json::findJsonSyntaxError(json);
        if (!syntax) {
            return Fault{std::string(source) + "#", std::string("JSON does not parse: ") + simdjson::error_message(error)};
        }
        return Fault{std::string(source) + "@byte " + std::to_string(syntax->byteOffset) + " (line " +
                         std::to_string(syntax->line) + ", column " + std::to_string(syntax->column) + ")",
                     "JSON syntax error: " + syntax->what};
    }
    dom::object root;
    if (doc.get_object().get(root)) return Fault{std::string(source) + "#", "the JSON root must be an object"};
    Reader reader;
    StateMachineDesc desc = reader.document(root);
    if (!reader.faults.empty()) return located(reader.faults, source);
    return desc;
}

Result<StateMachineDefinition> loadStateMachineJson(std::string_view json, const ClipLookup& clips,
                                                    std::string_view source) {
    auto desc = parseStateMachineJson(json, source);
    if (!desc) return std::vector<Fault>(desc.faults().begin(), desc.faults().end());
    auto def = StateMachineDefinition::create(std::move(*desc), clips);
    if (!def) return located(def.faults(), source);
    return def;
}

Result<StateMachineDefinition> loadStateMachineFile(const std::string& path, const ClipLookup& clips) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Fault{path, "cannot open the file"};
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return Fault{path, "cannot read the file"};
    return loadStateMachineJson(text.str(), clips, path);
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
        if (!s.clip.empty()) o.string("clip", s.clip);
        if (s.blendSpace) {
            const BlendSpaceDesc& b = *s.blendSpace;
            o.key("blendSpace");
            ObjectWriter bo(out, o.indent() + 2);
            bo.number("dimensions", static_cast<float>(b.dimensions));
            bo.string("x", b.xParameter);
            if (!b.yParameter.empty()) bo.string("y", b.yParameter);
            bo.string("sync", toString(b.sync));
            appendArray(out, bo, "clips", b.clips, [&](ObjectWriter& c, const BlendSpaceClipDesc& clip) {
                c.string("clip", clip.clip);
                c.number("x", clip.x);
                c.number("y", clip.y);
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
