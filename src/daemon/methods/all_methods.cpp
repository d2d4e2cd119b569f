#include <algorithm>

#include "daemon/methods/element_actions.h"
#include "daemon/methods/methods.h"

namespace companyos::daemon::methods {

std::vector<const MethodSpec*> all_methods() {
  std::vector<const MethodSpec*> specs = {
      &kPing, &kMethods, &kStatus, &kDoctor, &kSettingsGet, &kSettingsSet, &kApps, &kWindows, &kSnapshot, &kFind, &kSurfaces, &kGet,
      &kScreenshot, &kFocusWindow, &kCloseWindow, &kPress, &kTypeText, &kClickAt, &kClipboardGet, &kClipboardSet, &kAudit, &kOpenLink, &kOpenFile, &kOpenApp, &kEntries, &kBatch,
      &kWait, &kAutomationList, &kAutomationGet, &kAutomationCreate, &kAutomationUpdate, &kAutomationDelete,
      &kAutomationEnable, &kAutomationDisable, &kAutomationRaise, &kAutomationLower, &kAutomationPromote,
      &kAutomationGate, &kAutomationStart, &kAutomationStop, &kAutomationRuns, &kRunShow, &kRunApprove, &kRunDeny, &kRunAnswer,
      &kRunUndo, &kApprovals, &kStopAll, &kDashboard};
  const auto actions = element_action_methods();
  specs.insert(specs.end(), actions.begin(), actions.end());
  // In the declarations' order, which `methods` and docs/protocol.md follow.
  const auto declared_order = declared::all();
  const auto position = [&](const MethodSpec* spec) {
    return std::find(declared_order.begin(), declared_order.end(), &spec->decl) - declared_order.begin();
  };
  std::sort(specs.begin(), specs.end(),
            [&](const MethodSpec* a, const MethodSpec* b) { return position(a) < position(b); });
  return specs;
}

}  // namespace companyos::daemon::methods
