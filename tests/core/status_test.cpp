#include <flak/status.h>

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace flak {
namespace {

TEST(Status, EveryValueHasADistinctName) {
    std::set<std::string> names;
    for (int i = 0; i < static_cast<int>(Status::Count); ++i) {
        const std::string name = statusName(static_cast<Status>(i));
        EXPECT_NE(name, "Unknown") << "status " << i << " has no name";
        names.insert(name);
    }
    EXPECT_EQ(names.size(), static_cast<std::size_t>(Status::Count));
    EXPECT_STREQ(statusName(Status::Ok), "Ok");
    EXPECT_STREQ(statusName(Status::PoolFull), "PoolFull");
    EXPECT_STREQ(statusName(static_cast<Status>(250)), "Unknown");
}

} // namespace
} // namespace flak
