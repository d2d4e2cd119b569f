#include "daemon/methods/methods.h"

namespace companyos::daemon::methods {

std::vector<const MethodSpec*> all_methods() {
  return {&kPing,    &kMethods, &kStatus, &kSettingsGet, &kSettingsSet, &kApps,
          &kWindows, &kSnapshot, &kFind,  &kGet,         &kScreenshot,
          &kFocusWindow, &kCloseWindow, &kPress, &kAudit, &kOpenLink, &kOpenFile, &kEntries};
}

}  // namespace companyos::daemon::methods
