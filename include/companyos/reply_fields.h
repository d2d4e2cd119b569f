// The names of reply fields that more than one program reads: the daemon writes them and the
// CLI's renderers and the MCP tools read them, so each is spelled here once rather than as a
// literal on both sides (docs/protocol.md describes what each holds).
#pragma once

namespace companyos::reply_fields {

// An entry of the `apps` reply's "apps".
namespace app {
inline constexpr const char* kName = "name";
inline constexpr const char* kBusName = "bus_name";
inline constexpr const char* kPid = "pid";
inline constexpr const char* kToolkit = "toolkit";
inline constexpr const char* kToolkitVersion = "toolkit_version";
inline constexpr const char* kResponsive = "responsive";
inline constexpr const char* kPolicyDenied = "policy_denied";
inline constexpr const char* kWindowCount = "window_count";
inline constexpr const char* kWindowsNotListed = "windows_not_listed";
inline constexpr const char* kWindows = "windows";
inline constexpr const char* kDesktopEntry = "desktop_entry";
}  // namespace app

}  // namespace companyos::reply_fields
