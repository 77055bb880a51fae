// The retargeting joint map as JSON: one case per rule, each fault at its JSON pointer.
#include "kinema/io/joint_map_json.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace kinema {
namespace {

TEST(JointMapJson, ReadsPairsInOrderAndTheReference) {
    const auto map = parseJointMapJson(R"({"joints": {"mixamorig:Hips": "hips", "mixamorig:Spine": "spine",
                                                     "a/b~c": "abc"},
                                          "reference": {"source": "mixamorig:Hips", "target": "hips"}})",
                                       "map.json");
    ASSERT_TRUE(map.ok()) << map.message();
    ASSERT_EQ(map->joints.size(), 3u);
    EXPECT_EQ(map->joints[0].source, "mixamorig:Hips");
    EXPECT_EQ(map->joints[0].target, "hips");
    EXPECT_EQ(map->joints[1].source, "mixamorig:Spine");
    EXPECT_EQ(map->joints[1].target, "spine");
    EXPECT_EQ(map->joints[2].source, "a/b~c");
    EXPECT_EQ(map->sourceReference, "mixamorig:Hips");
    EXPECT_EQ(map->targetReference, "hips");

    const auto half = parseJointMapJson(R"({"joints": {"Hips": "hips"}, "reference": {"target": "hips"}})");
    ASSERT_TRUE(half.ok()) << half.message();
    EXPECT_TRUE(half->sourceReference.empty());
    EXPECT_EQ(half->targetReference, "hips");

    const auto none = parseJointMapJson(R"({"joints": {"Hips": "hips"}})");
    ASSERT_TRUE(none.ok()) << none.message();
    EXPECT_TRUE(none->sourceReference.empty() && none->targetReference.empty());
}

TEST(JointMapJson, EveryFaultIsAtItsJsonPointer) {
    const std::vector<std::pair<std::string, std::string>> cases{
        {R"({})", "map.json#/joints: missing"},
        {R"({"joints": []})", "map.json#/joints: must be an object of source joint names to target joint names"},
        {R"({"joints": {}})", "map.json#/joints: names no joints (leave the map out to match joints by name)"},
        {R"({"joints": {"mixamorig:Hips": "hips", "mixamorig:Hips": "pelvis"}})",
         "map.json#/joints/mixamorig:Hips: duplicate key (keys must be unique)"},
        {R"({"joints": {"a": "b", "a": "c", "a": "d"}})", "map.json#/joints/a: duplicate key (keys must be unique)"},
        {R"({"joints": {"mixamorig:Hips": 3}})",
         "map.json#/joints/mixamorig:Hips: must be a string (the target joint name)"},
        {R"({"joints": {"mixamorig:Hips": ""}})", "map.json#/joints/mixamorig:Hips: the target joint name is empty"},
        {R"({"joints": {"": "hips"}})", "map.json#/joints/: the source joint name is empty"},
        {R"({"joints": {"Hips": "hips", "Pelvis": "hips"}})",
         "map.json#/joints/Pelvis: target joint \"hips\" is mapped already from \"Hips\""},
        {R"({"joints": {"a/b": 1}})", "map.json#/joints/a~1b: must be a string (the target joint name)"},
        {R"({"joints": {"Hips": "hips"}, "scale": 2})", "map.json#/scale: unknown key"},
        {R"({"joints": {"Hips": "hips"}, "joints": {"Hips": "hips"}})",
         "map.json#/joints: duplicate key (keys must be unique)"},
        {R"({"joints": {"Hips": "hips"}, "reference": "Hips"})",
         "map.json#/reference: must be an object with \"source\" and/or \"target\""},
        {R"({"joints": {"Hips": "hips"}, "reference": {}})",
         "map.json#/reference: names neither a source nor a target joint"},
        {R"({"joints": {"Hips": "hips"}, "reference": {"source": "Hips", "up": [0, 1, 0]}})",
         "map.json#/reference/up: unknown key"},
        {R"({"joints": {"Hips": "hips"}, "reference": {"source": 1, "target": ""}})",
         "map.json#/reference/source: must be a string\nmap.json#/reference/target: must not be empty"},
        {R"([1])", "map.json#: the JSON root must be an object"},
        {"{\"joints\": {\n  \"Hips\": }}",
         "map.json@byte 23 (line 2, column 11): JSON syntax error: expected a value, found '}'"},
    };
    for (const auto& [json, expect] : cases) {
        const auto r = parseJointMapJson(json, "map.json");
        ASSERT_FALSE(r.ok()) << json;
        EXPECT_EQ(r.message(), expect) << json;
    }
}

// Names the skeletons lack are found when the map is used; the faults then point
// into the file the map came from.
TEST(JointMapJson, FaultsFoundWhenTheMapIsUsedPointIntoItsFile) {
    const auto map = parseJointMapJson(R"({"joints": {"mixamorig:Hips": "hips", "a/b~c": "spine"},
                                          "reference": {"source": "pelvis"}})",
                                       "rig.json");
    ASSERT_TRUE(map.ok()) << map.message();
    EXPECT_EQ(map->origin, "rig.json");
    const Skeleton source = Skeleton::create({{"mixamorig:Hips", kNoParent, {}}, {"a/b~c", 0, {}}}).value();
    const Skeleton target = Skeleton::create({{"hips", kNoParent, {}}}).value();
    const Clip clip = Clip::create("still", {}).value();
    EXPECT_EQ(checkRetarget(clip, source, target, *map).message(),
              "rig.json#/joints/a~1b~0c: target joint \"spine\" is not in the target skeleton");
    RetargetMap joined = *map;
    joined.joints.pop_back();
    EXPECT_EQ(checkRetarget(clip, source, target, joined).message(),
              "rig.json#/reference/source: source joint \"pelvis\" is not in the source skeleton");
    // Built in code, the same map names its entries by index.
    joined.origin.clear();
    EXPECT_EQ(checkRetarget(clip, source, target, joined).message(),
              "map/sourceReference: source joint \"pelvis\" is not in the source skeleton");
}

TEST(JointMapJson, AMissingFileIsAFault) {
    const auto r = loadJointMapFile("/nonexistent/map.json");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.message().find("/nonexistent/map.json"), std::string::npos) << r.message();
}

}  // namespace
}  // namespace kinema
