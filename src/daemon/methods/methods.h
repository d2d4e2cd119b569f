// The protocol's methods, one declaration each (see method_table.h). Adding a method means
// one new file with its MethodSpec and one line in all_methods().
#pragma once

#include <vector>

#include "daemon/method_table.h"

namespace companyos::daemon::methods {

extern const MethodSpec kPing;
extern const MethodSpec kMethods;
extern const MethodSpec kStatus;
extern const MethodSpec kSettingsGet;
extern const MethodSpec kSettingsSet;
extern const MethodSpec kApps;
extern const MethodSpec kWindows;
extern const MethodSpec kSnapshot;
extern const MethodSpec kFind;
extern const MethodSpec kGet;
extern const MethodSpec kScreenshot;
extern const MethodSpec kFocusWindow;
extern const MethodSpec kCloseWindow;
extern const MethodSpec kPress;
extern const MethodSpec kAudit;
extern const MethodSpec kOpenLink;
extern const MethodSpec kOpenFile;
extern const MethodSpec kEntries;

std::vector<const MethodSpec*> all_methods();

}  // namespace companyos::daemon::methods
