// The handlers of the protocol's methods, each paired with its declaration
// (companyos/methods.h); the element actions come from their own table (element_actions.h).
#pragma once

#include <vector>

#include "daemon/method_table.h"

namespace companyos::daemon::methods {

extern const MethodSpec kPing;
extern const MethodSpec kMethods;
extern const MethodSpec kStatus;
extern const MethodSpec kDoctor;
extern const MethodSpec kSettingsGet;
extern const MethodSpec kSettingsSet;
extern const MethodSpec kApps;
extern const MethodSpec kWindows;
extern const MethodSpec kSurfaces;
extern const MethodSpec kSnapshot;
extern const MethodSpec kFind;
extern const MethodSpec kGet;
extern const MethodSpec kScreenshot;
extern const MethodSpec kFocusWindow;
extern const MethodSpec kCloseWindow;
extern const MethodSpec kPress;
extern const MethodSpec kTypeText;
extern const MethodSpec kClickAt;
extern const MethodSpec kClipboardGet;
extern const MethodSpec kClipboardSet;
extern const MethodSpec kAudit;
extern const MethodSpec kOpenLink;
extern const MethodSpec kOpenApp;
extern const MethodSpec kOpenFile;
extern const MethodSpec kEntries;
extern const MethodSpec kBatch;
extern const MethodSpec kWait;
extern const MethodSpec kAutomationList;
extern const MethodSpec kAutomationGet;
extern const MethodSpec kAutomationCreate;
extern const MethodSpec kAutomationUpdate;
extern const MethodSpec kAutomationDelete;
extern const MethodSpec kAutomationEnable;
extern const MethodSpec kAutomationDisable;
extern const MethodSpec kAutomationRaise;
extern const MethodSpec kAutomationLower;
extern const MethodSpec kAutomationPromote;
extern const MethodSpec kAutomationGate;
extern const MethodSpec kAutomationStart;
extern const MethodSpec kAutomationStop;
extern const MethodSpec kAutomationRuns;
extern const MethodSpec kRunShow;
extern const MethodSpec kRunApprove;
extern const MethodSpec kRunDeny;
extern const MethodSpec kRunAnswer;
extern const MethodSpec kRunUndo;
extern const MethodSpec kApprovals;
extern const MethodSpec kStopAll;
extern const MethodSpec kDashboard;

std::vector<const MethodSpec*> all_methods();

}  // namespace companyos::daemon::methods
