// Reading kinema's own JSON formats (state machines, marker files) fail-closed.
#pragma once

#include <simdjson.h>

#include <cmath>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "kinema/asset/easing.hpp"
#include "kinema/core/quoted.hpp"
#include "kinema/core/result.hpp"

namespace kinema::detail {

namespace dom = simdjson::dom;

// Walks a simdjson DOM, collecting every fault with its JSON pointer: the shared
// checks of kinema's own JSON formats (unknown and duplicate keys, types, finite numbers).
class JsonReader {
public:
    // At most kMaxListedFaults, then one with an empty pointer saying more were found.
    std::vector<Fault> faults;

    void fault(const std::string& at, std::string what) {
        ++faultCount_;
        appendFault(faults, {at, std::move(what)}, "");
    }

    // Every fault found, listed or not: `faultCount() != before` tells whether a read
    // found one.
    std::size_t faultCount() const { return faultCount_; }

    // Rejects keys outside `known`, so that a misspelt setting is an error rather than a
    // default, and a known key given twice: readers disagree on which of the two counts
    // (this one would read the first), so the text would mean different things to
    // different tools. Every object the reader reads passes here; any other object is
    // the value of a key or an element that is a fault already.
    void onlyKeys(dom::object object, const std::string& at, std::initializer_list<std::string_view> known) {
        UniqueKeys keys;
        for (const auto field : object) {
            bool ok = false;
            for (const std::string_view k : known) ok = ok || field.key == k;
            if (!ok) {
                fault(at + "/" + escape(field.key), "unknown key");
            } else if (keys.see(field.key) == UniqueKeys::Seen::NewRepeat) {
                fault(at + "/" + escape(field.key), UniqueKeys::kRepeated);
            }
        }
    }

    // The keys of one object as a reader meets them: first() is true the first time a
    // key comes; a key given again is a fault at `at`, named once however often it
    // repeats.
    class UniqueKeys {
    public:
        static constexpr const char* kRepeated = "duplicate key (keys must be unique)";
        enum class Seen { First, NewRepeat, Repeat };  // a repeat is news the first time
        Seen see(std::string_view key) {
            if (seen_.insert(key).second) return Seen::First;
            return repeated_.insert(key).second ? Seen::NewRepeat : Seen::Repeat;
        }
        bool first(JsonReader& reader, std::string_view key, const std::string& at) {
            const Seen seen = see(key);
            if (seen == Seen::NewRepeat) reader.fault(at, kRepeated);
            return seen == Seen::First;
        }

    private:
        std::unordered_set<std::string_view> seen_, repeated_;
    };

    static bool equalIgnoringCase(std::string_view a, std::string_view b) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (lower(a[i]) != lower(b[i])) return false;
        }
        return true;
    }

    // `key` as a JSON pointer token, on one line (appendPointerToken).
    static std::string escape(std::string_view key) {
        std::string out;
        appendPointerToken(out, key);
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
        const std::size_t before = faultCount();
        string(object, key, at, s, false);
        if (faultCount() != before || !has(object, key)) return;
        const auto parsed = parse(s);
        if (!parsed) {
            fault(at + "/" + std::string(key), "unknown " + std::string(what) + " " + inQuotes(s));
            return;
        }
        out = *parsed;
    }

    // The optional key "easing": an easing's name. A name that differs only in case
    // gets the right spelling in its fault; every unknown one, a few valid names.
    void easing(dom::object object, const std::string& at, Easing& out) {
        std::string s;
        const std::size_t before = faultCount();
        string(object, "easing", at, s, false);
        if (faultCount() != before || !has(object, "easing")) return;
        if (const auto parsed = parseEasing(s)) {
            out = *parsed;
            return;
        }
        std::string what = "unknown easing " + inQuotes(s);
        for (const Easing e : allEasings()) {
            if (equalIgnoringCase(toString(e), s)) {
                what += " (names are case-sensitive: '" + std::string(toString(e)) + "')";
                break;
            }
        }
        what += "; valid names include linear, inQuad, outCubic, inOutSine, outBack, outElastic, inOutBounce (" +
            std::to_string(kEasingCount) + " in all, listed in docs/TWEENS.md)";
        fault(at + "/easing", std::move(what));
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

private:
    std::size_t faultCount_ = 0;
};

// Parses `json` into `doc`; a fault located at the byte, line and column of a syntax
// error ("source@byte N (line L, column C)") when it does not parse, or when the root
// is not an object.
std::optional<Fault> parseJsonObject(dom::parser& parser, std::string_view json, std::string_view source,
                                     dom::object& root);

// Prefixes every fault's location with "source#".
std::vector<Fault> locatedIn(std::span<const Fault> faults, std::string_view source);

}  // namespace kinema::detail
