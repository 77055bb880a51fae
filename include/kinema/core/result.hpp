// kinema/core: the error model shared by every module.
//
// Fallible work at a boundary (import, validation, building assets from code)
// returns a Result<T>: either the value, or every Fault found, each naming where
// it is (a JSON pointer, a byte offset, or a field path of data built in code).
// Beside either, a Result carries warnings: problems that were repaired or are
// harmless (a lenient import names each repair it made), located the same way.
// The per-frame path never produces Faults; it trusts data that passed here.
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace kinema {

// One problem with input, located precisely enough that a person can find it.
struct Fault {
    std::string where;  // e.g. "CesiumMan.glb#/accessors/3/count" or "file.glb@byte 20"
    std::string what;   // what is wrong, in plain words
};

// Readers list at most this many faults of one input, then one fault saying that more
// were found: a file of a million bad entries gives a readable report, not a flood.
inline constexpr std::size_t kMaxListedFaults = 500;

// Appends `fault` to `faults` while fewer than kMaxListedFaults are listed; the first
// one past that becomes {`source`, "more faults not listed"}, later ones are dropped.
void appendFault(std::vector<Fault>& faults, Fault fault, std::string_view source);

// A number as the shortest text that reads back to the same value ("0.1", "1e-07",
// "nan"): messages print what the input holds, not a rounded neighbour.
std::string exactNumber(float value);
std::string exactNumber(double value);

// "where: what" on one line.
std::string describe(const Fault& fault);
// Every fault, one per line.
std::string describe(std::span<const Fault> faults);

// A value or the faults that prevented it. Never both, never neither.
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : state_(std::move(value)) {}
    Result(Fault fault) : state_(std::vector<Fault>{std::move(fault)}) {}
    Result(std::vector<Fault> faults) : state_(std::move(faults)) { assert(!std::get<1>(state_).empty()); }

    bool ok() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }

    T& value() & {
        assert(ok());
        return std::get<0>(state_);
    }
    const T& value() const& {
        assert(ok());
        return std::get<0>(state_);
    }
    T&& value() && {
        assert(ok());
        return std::get<0>(std::move(state_));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    // Empty when ok().
    std::span<const Fault> faults() const {
        if (ok()) return {};
        return std::get<1>(state_);
    }
    std::string message() const { return describe(faults()); }

    // What was repaired or noticed on the way, whether or not a value came back.
    std::span<const Fault> warnings() const noexcept { return warnings_; }
    void addWarnings(std::span<const Fault> warnings) {
        warnings_.insert(warnings_.end(), warnings.begin(), warnings.end());
    }
    void addWarning(Fault warning) { warnings_.push_back(std::move(warning)); }

private:
    std::variant<T, std::vector<Fault>> state_;
    std::vector<Fault> warnings_;
};

}  // namespace kinema
