// The command-line number parsers of the tools and samples: the whole argument, in range, or a
// refusal; nothing a typo leaves is read as a number.
#include "flak_support/cli_number.h"

#include <gtest/gtest.h>

#include <cfloat>

namespace flak::support {
namespace {

TEST(CliNumber, WholeNumbersInRange) {
    unsigned long long v = 7;
    EXPECT_TRUE(parseWhole("0", 0, 10, v));
    EXPECT_EQ(v, 0u);
    EXPECT_TRUE(parseWhole("10", 0, 10, v));
    EXPECT_EQ(v, 10u);
    EXPECT_TRUE(parseWhole("007", 0, 10, v));
    EXPECT_EQ(v, 7u);
    EXPECT_TRUE(parseWhole("18446744073709551615", 0, ~0ull, v));
    EXPECT_EQ(v, ~0ull);
}

TEST(CliNumber, WholeNumbersRefuseWhatIsNotOne) {
    const char* const bad[] = {"",
                               " 1",
                               "1 ",
                               "+1",
                               "-1",
                               "4x",
                               "1.0",
                               "1e3",
                               "0x10",
                               "x",
                               "11",
                               "18446744073709551616",
                               "99999999999999999999999"};
    for (const char* text : bad) {
        unsigned long long v = 42;
        EXPECT_FALSE(parseWhole(text, 0, 10, v)) << "'" << text << "'";
        EXPECT_EQ(v, 42u) << "written on a refusal: '" << text << "'";
    }
    unsigned long long v = 42;
    EXPECT_FALSE(parseWhole("0", 1, 10, v)); // below lo
    EXPECT_FALSE(parseWhole(nullptr, 0, 10, v));
    EXPECT_EQ(v, 42u);
}

TEST(CliNumber, NumbersInRange) {
    double v = 7;
    EXPECT_TRUE(parseNumber("4", 0, 10, v));
    EXPECT_EQ(v, 4.0);
    EXPECT_TRUE(parseNumber("-2.5", -10, 10, v));
    EXPECT_EQ(v, -2.5);
    EXPECT_TRUE(parseNumber("1e2", 0, 1000, v));
    EXPECT_EQ(v, 100.0);
    EXPECT_TRUE(parseNumber(".5", 0, 1, v));
    EXPECT_EQ(v, 0.5);
    EXPECT_TRUE(parseNumber("1e300", -DBL_MAX, DBL_MAX, v));
    EXPECT_EQ(v, 1e300);
    EXPECT_TRUE(parseNumber("0", 0, 0, v));
    EXPECT_EQ(v, 0.0);
}

TEST(CliNumber, NumbersRefuseWhatIsNotOne) {
    const char* const bad[] = {"",    " 4",    "\t4",    "4 ",     "4x",  "x4",  "inf",     "-inf",
                               "nan", "1e400", "-1e400", "1e-400", "4,5", "--4", "infinity"};
    for (const char* text : bad) {
        double v = 42;
        EXPECT_FALSE(parseNumber(text, -DBL_MAX, DBL_MAX, v)) << "'" << text << "'";
        EXPECT_EQ(v, 42.0) << "written on a refusal: '" << text << "'";
    }
    double v = 42;
    EXPECT_FALSE(parseNumber("10.5", 0, 10, v)); // above hi
    EXPECT_FALSE(parseNumber("-0.1", 0, 10, v)); // below lo
    EXPECT_FALSE(parseNumber(nullptr, 0, 10, v));
    EXPECT_EQ(v, 42.0);
}

} // namespace
} // namespace flak::support
