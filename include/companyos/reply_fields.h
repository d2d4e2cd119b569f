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

// A window, as `windows` lists it and snapshots, actions, waits and error details embed it.
namespace window {
inline constexpr const char* kId = "id";
inline constexpr const char* kTitle = "title";
inline constexpr const char* kRole = "role";
inline constexpr const char* kApp = "app";
inline constexpr const char* kPid = "pid";
inline constexpr const char* kActive = "active";
inline constexpr const char* kResponsive = "responsive";
inline constexpr const char* kStates = "states";
inline constexpr const char* kBounds = "bounds";
}  // namespace window

// The head of a snapshot reply (and of each entry `snapshots` lists), and what a snapshot
// reply adds to it.
namespace snapshot {
inline constexpr const char* kSnapshot = "snapshot";
inline constexpr const char* kApp = "app";
inline constexpr const char* kPid = "pid";
inline constexpr const char* kWindow = "window";
inline constexpr const char* kNodeCount = "node_count";
inline constexpr const char* kOutline = "outline";
inline constexpr const char* kLoading = "loading";
}  // namespace snapshot

// What every effectful reply says of its effect — and a refusal's details, when something
// may have reached the app: the delivery ("not_delivered", "delivered_unverified",
// "delivered_verified") and the route it took ("xtest…" for physical input), and a route
// whose effect that one replaced.
namespace outcome {
inline constexpr const char* kDelivery = "delivery";
inline constexpr const char* kRoute = "route";
inline constexpr const char* kFirstRoute = "first_route";
}  // namespace outcome

}  // namespace companyos::reply_fields
