// Every protocol method, declared once (src/core/methods/). The daemon dispatches and audits
// by these, the CLI builds its subcommands' options from them, and docs/protocol.md's table
// is generated from them (a test compares).
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "companyos/method_declaration.h"

namespace companyos::methods {

// Limits both sides need.
inline constexpr std::chrono::milliseconds kDefaultObservationTimeout{2000};
inline constexpr std::chrono::milliseconds kMaxObservationTimeout{60000};
inline constexpr std::chrono::milliseconds kDefaultWaitTimeout{30000};
inline constexpr std::chrono::milliseconds kMaxWaitTimeout{600000};
// Pages beyond this hold nothing (1,000 runs kept at most, 20 a page); the bound only keeps
// page × page_size far from overflow.
inline constexpr std::int64_t kMaxRunsPage = 1'000'000;
// type_text's longest text, in characters: the physical-input lock is held while it types.
inline constexpr std::int64_t kMaxTypedCharacters = 10'000;
// clipboard.set's (and a paste's) longest text, in bytes.
inline constexpr std::int64_t kMaxClipboardTextBytes = 1 << 20;
// click_at's largest coordinate: X11 screens are at most 32767 pixels wide.
inline constexpr std::int64_t kMaxWindowCoordinate = 32'767;

// The daemon and the CLI.
extern const MethodDeclaration kPing;
extern const MethodDeclaration kMethods;
extern const MethodDeclaration kStatus;
extern const MethodDeclaration kDoctor;
extern const MethodDeclaration kAudit;
// Settings.
extern const MethodDeclaration kSettingsGet;
extern const MethodDeclaration kSettingsSet;
// Observation.
extern const MethodDeclaration kApps;
extern const MethodDeclaration kWindows;
extern const MethodDeclaration kSnapshot;
extern const MethodDeclaration kFind;
extern const MethodDeclaration kSurfaces;
extern const MethodDeclaration kGet;
extern const MethodDeclaration kScreenshot;
extern const MethodDeclaration kWait;
// Whole windows.
extern const MethodDeclaration kFocusWindow;
extern const MethodDeclaration kCloseWindow;
extern const MethodDeclaration kPress;
extern const MethodDeclaration kTypeText;
extern const MethodDeclaration kClickAt;
// The clipboard.
extern const MethodDeclaration kClipboardGet;
extern const MethodDeclaration kClipboardSet;
// Launch steps.
extern const MethodDeclaration kOpenLink;
extern const MethodDeclaration kOpenApp;
extern const MethodDeclaration kOpenFile;
extern const MethodDeclaration kEntries;
// Elements.
extern const MethodDeclaration kClick;
extern const MethodDeclaration kToggle;
extern const MethodDeclaration kSelect;
extern const MethodDeclaration kFocus;
extern const MethodDeclaration kExpand;
extern const MethodDeclaration kCollapse;
extern const MethodDeclaration kNamedAction;
extern const MethodDeclaration kSetValue;
extern const MethodDeclaration kType;
extern const MethodDeclaration kBatch;
// Automations and their runs.
extern const MethodDeclaration kAutomationList;
extern const MethodDeclaration kAutomationGet;
extern const MethodDeclaration kAutomationCreate;
extern const MethodDeclaration kAutomationUpdate;
extern const MethodDeclaration kAutomationDelete;
extern const MethodDeclaration kAutomationEnable;
extern const MethodDeclaration kAutomationDisable;
extern const MethodDeclaration kAutomationRaise;
extern const MethodDeclaration kAutomationLower;
extern const MethodDeclaration kAutomationPromote;
extern const MethodDeclaration kAutomationGate;
extern const MethodDeclaration kAutomationStart;
extern const MethodDeclaration kAutomationStop;
extern const MethodDeclaration kAutomationRuns;
extern const MethodDeclaration kRunShow;
extern const MethodDeclaration kRunApprove;
extern const MethodDeclaration kRunDeny;
extern const MethodDeclaration kRunAnswer;
extern const MethodDeclaration kRunUndo;
extern const MethodDeclaration kApprovals;
extern const MethodDeclaration kStopAll;
extern const MethodDeclaration kDashboard;

// Every declaration above, in the order `methods` lists them.
std::span<const MethodDeclaration* const> all();
// By the protocol name, or by the CLI command (batch steps may use either spelling).
const MethodDeclaration* find(std::string_view name);
const MethodDeclaration* find_command(std::string_view command);

// The methods table of docs/protocol.md (Markdown, one row a method), made from the
// declarations; `companyos methods --markdown` prints it and a test holds the file to it.
std::string markdown_table();

}  // namespace companyos::methods
