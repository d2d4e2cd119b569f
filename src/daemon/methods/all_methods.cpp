#include "daemon/methods/methods.h"

namespace companyos::daemon::methods {

std::vector<const MethodSpec*> all_methods() {
  return {&kPing,    &kMethods, &kStatus, &kSettingsGet, &kSettingsSet, &kApps,
          &kWindows, &kSnapshot, &kFind,  &kGet,         &kScreenshot,
          &kFocusWindow, &kCloseWindow, &kPress, &kAudit, &kOpenLink, &kOpenFile, &kEntries,
          &kClick, &kToggle, &kSelect, &kFocus, &kExpand, &kCollapse, &kNamedAction, &kSetValue,
          &kType, &kBatch,
          &kWait,
          &kAutomationList, &kAutomationGet, &kAutomationCreate, &kAutomationUpdate,
          &kAutomationDelete, &kAutomationEnable, &kAutomationDisable, &kAutomationRaise,
          &kAutomationLower, &kAutomationPromote, &kAutomationGate, &kAutomationStart,
          &kAutomationStop, &kAutomationRuns, &kRunShow, &kRunApprove, &kRunDeny, &kRunUndo,
          &kApprovals, &kStopAll};
}

}  // namespace companyos::daemon::methods
