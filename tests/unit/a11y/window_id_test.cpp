#include "a11y/read/window_id.h"

#include <set>

#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

TEST(WindowId, StableOpaqueAndDistinct) {
  const std::string id = window_id(":1.42", "/org/a11y/atspi/accessible/3");
  EXPECT_EQ(id, window_id(":1.42", "/org/a11y/atspi/accessible/3"));
  ASSERT_EQ(id.size(), 13u);
  EXPECT_EQ(id[0], 'w');
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef", 1), std::string::npos);
  std::set<std::string> ids;
  for (int app = 0; app < 50; ++app) {
    for (int window = 0; window < 50; ++window) {
      ids.insert(window_id(":1." + std::to_string(app),
                           "/org/a11y/atspi/accessible/" + std::to_string(window)));
    }
  }
  EXPECT_EQ(ids.size(), 2500u);
  // The separator keeps (":1.1", "2/x") and (":1.12", "/x") apart.
  EXPECT_NE(window_id(":1.1", "2/x"), window_id(":1.12", "/x"));
}

}  // namespace
}  // namespace companyos::a11y
