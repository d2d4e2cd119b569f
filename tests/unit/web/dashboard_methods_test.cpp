// The dashboard's API serves the methods declared for it (kFlagDashboard) and no other: a
// page in a browser must never reach what reads or drives the desktop.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "companyos/methods.h"

namespace companyos::web {
namespace {

TEST(DashboardMethods, NoneReadsOrDrivesTheDesktop) {
  std::set<std::string> served;
  for (const methods::MethodDeclaration* method : methods::all()) {
    if ((method->flags & methods::kFlagDashboard) == 0) continue;
    served.insert(std::string(method->name));
    EXPECT_EQ(method->target, methods::TargetKind::kNone) << method->name << " targets an app, window or element";
    EXPECT_EQ(method->flags & methods::kFlagNeedsX11, 0U) << method->name << " drives the display";
  }
  for (const char* never : {"dashboard", "clipboard.get", "clipboard.set", "screenshot", "snapshot", "batch",
                            "open_link", "open_file", "open_app", "press", "type_text", "click_at", "apps"}) {
    EXPECT_EQ(served.count(never), 0U) << never;
  }
  for (const char* page_needs : {"automation.list", "automation.get", "automation.update", "automation.gate",
                                 "automation.runs", "run.show", "run.approve", "run.deny", "run.undo", "approvals",
                                 "stop_all", "settings.get", "settings.set"}) {
    EXPECT_EQ(served.count(page_needs), 1U) << page_needs;
  }
}

}  // namespace
}  // namespace companyos::web
