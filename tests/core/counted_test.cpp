// counted(): the count and a noun that agrees with it, as fault messages print them.
#include "kinema/core/counted.hpp"

#include <gtest/gtest.h>

namespace {

using kinema::counted;

TEST(Counted, OneTakesTheSingularEveryOtherCountThePlural) {
    EXPECT_EQ(counted(1, "animation"), "1 animation");
    EXPECT_EQ(counted(0, "animation"), "0 animations");
    EXPECT_EQ(counted(2, "animation"), "2 animations");
    EXPECT_EQ(counted(18446744073709551615ull, "joint"), "18446744073709551615 joints");
}

TEST(Counted, AHissingEndingTakesEs) {
    EXPECT_EQ(counted(0, "mesh"), "0 meshes");
    EXPECT_EQ(counted(2, "batch"), "2 batches");
    EXPECT_EQ(counted(3, "bus"), "3 buses");
    EXPECT_EQ(counted(4, "box"), "4 boxes");
    EXPECT_EQ(counted(1, "mesh"), "1 mesh");
    EXPECT_EQ(counted(2, "buffer view"), "2 buffer views");
}

TEST(Counted, AnIrregularPluralIsGivenOutright) {
    EXPECT_EQ(counted(1, "matrix", "matrices"), "1 matrix");
    EXPECT_EQ(counted(3, "matrix", "matrices"), "3 matrices");
    EXPECT_EQ(counted(0, "mesh", "meshes"), "0 meshes");
}

}  // namespace
