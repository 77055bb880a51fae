// glTF 2.0 conformance: every fixture of tests/support/spec_fixtures.hpp, imported
// strictly (the default) and leniently. The fixtures' error codes are checked against
// the Khronos glTF-Validator by tests/oracle/validate.mjs; here the expectations are:
//   strict:  an error is a fault at exactly the fixture's location;
//   lenient: a recoverable error is repaired, with a warning at that location naming
//            the repair; any other error is still a fault there;
//   either:  an accepted fixture (inside the specification's tolerances) imports with
//            no warning at all.
// Each damaged .gltf fixture is also imported as a .glb: the container does not change
// what is checked or where.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"
#include "support/spec_fixtures.hpp"

namespace kinema::test {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string warningList(const Result<Model>& r) {
    std::string s;
    for (const Fault& w : r.warnings()) s += "\n    " + w.where + ": " + w.what;
    return s.empty() ? std::string("\n    (no warnings)") : s;
}

// Every fixture, and each damaged .gltf one built in code again as a .glb.
std::vector<SpecFixture> fixturesInBothContainers() {
    std::vector<SpecFixture> all = specFixtures();
    const std::size_t n = all.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (all[i].container != SpecContainer::Gltf || all[i].rawBytes) continue;
        SpecFixture glb = all[i];
        glb.container = SpecContainer::Glb;
        all.push_back(std::move(glb));
    }
    return all;
}

std::string paramName(const ::testing::TestParamInfo<SpecFixture>& info) {
    std::string s = info.param.name + (info.param.container == SpecContainer::Glb ? "_glb" : "");
    std::replace(s.begin(), s.end(), '-', '_');
    return s;
}

// ---- the fixture list itself ----------------------------------------------------------

TEST(SpecFixtures, NamesAreUniqueFileNames) {
    std::set<std::string> names;
    for (const SpecFixture& f : specFixtures()) {
        EXPECT_TRUE(names.insert(f.name).second) << "duplicate fixture " << f.name;
        EXPECT_TRUE(std::all_of(f.name.begin(), f.name.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        })) << f.name;
        if (f.accepted()) {
            EXPECT_TRUE(f.pointer.empty()) << f.name;
        } else {
            EXPECT_FALSE(f.pointer.empty()) << f.name;
            EXPECT_TRUE(f.pointer.front() == '/' || f.pointer.front() == '@') << f.name;
            EXPECT_EQ(f.recoverable, !f.repair.empty()) << f.name;
        }
    }
    EXPECT_EQ(specFixtures().front().name, "base");
}

// The truncated document's location is counted by hand in spec_fixtures.cpp; the text
// must still be what was counted: it ends at byte 88, on line 4, column 43.
TEST(SpecFixtures, TruncatedJsonLocationMatchesItsText) {
    for (const SpecFixture& f : specFixtures()) {
        if (f.name != "json-truncated") continue;
        const std::vector<std::byte> bytes = f.bytes();
        std::size_t line = 1, column = 1;
        for (const std::byte b : bytes) {
            if (b == std::byte{'\n'}) {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        EXPECT_EQ(f.pointer,
                  "@byte " + std::to_string(bytes.size()) + " (line " + std::to_string(line) + ", column " +
                      std::to_string(column) + ")");
        return;
    }
    FAIL() << "no json-truncated fixture";
}

TEST(SpecConformanceOptions, StrictIsTheDefault) { EXPECT_EQ(ImportOptions{}.conformance, Conformance::Strict); }

// ---- import ---------------------------------------------------------------------------

class SpecConformance : public ::testing::TestWithParam<SpecFixture> {};

TEST_P(SpecConformance, Strict) {
    const SpecFixture& f = GetParam();
    const Result<Model> r = importGltf(f.source());
    if (f.accepted()) {
        EXPECT_TRUE(imported(r));
        EXPECT_TRUE(r.warnings().empty()) << "accepted fixture warned:" << warningList(r);
    } else {
        EXPECT_TRUE(faultAt(r, f.location()));
    }
}

TEST_P(SpecConformance, Lenient) {
    const SpecFixture& f = GetParam();
    ImportOptions options;
    options.conformance = Conformance::Lenient;
    const Result<Model> r = importGltf(f.source(), options);
    if (f.accepted()) {
        EXPECT_TRUE(imported(r));
        EXPECT_TRUE(r.warnings().empty()) << "accepted fixture warned:" << warningList(r);
        return;
    }
    if (!f.recoverable) {
        EXPECT_TRUE(faultAt(r, f.location())) << "not recoverable: lenient import must refuse it too";
        return;
    }
    ASSERT_TRUE(imported(r));
    const auto warnings = r.warnings();
    const auto at =
        std::find_if(warnings.begin(), warnings.end(), [&](const Fault& w) { return w.where == f.location(); });
    ASSERT_NE(at, warnings.end()) << "no warning at " << f.location() << ":" << warningList(r);
    EXPECT_NE(lower(at->what).find(f.repair), std::string::npos)
        << "the warning should name the repair ('" << f.repair << "'): " << at->what;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SpecConformance, ::testing::ValuesIn(fixturesInBothContainers()), paramName);

}  // namespace
}  // namespace kinema::test
