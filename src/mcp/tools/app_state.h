// The numbered state of one window as an agent reads it: the daemon's interactive, compact
// outline (everything with `full`), the state id its element numbers belong to, and a PNG
// of the window when it can be captured. Every action's reply ends with one of these.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "companyos/result.h"
#include "mcp/tool.h"

namespace companyos::mcp {

struct StateRequest {
  std::optional<std::string> app;        // default: the app of the active window
  std::optional<std::string> window_id;  // default: the app's window the daemon picks
  bool full = false;
  bool picture = false;
};

struct AppState {
  std::string app;
  std::string window_id;
  std::string title;
  std::string state;  // snapshot id
  int node_count = 0;
  std::string outline;
  std::optional<std::string> png_base64;
  std::string no_picture_reason;  // when a picture was asked for and none came
  bool loading = false;           // a first look at a web page that had not finished loading
};

// Reads the state and remembers it as the window's newest (element numbers map onto it).
Result<AppState> read_app_state(ToolContext& context, const StateRequest& request);

// The state a daemon action reply carries with "settle": true (its "state" member), taken
// as read and remembered as the window's newest; the daemon's problem when it could not
// read one.
Result<AppState> settled_app_state(ToolContext& context, const std::string& app, const nlohmann::json& state);

// The text an agent reads: a header line naming the state, then the outline.
std::string state_text(const AppState& state);
// The same header for an action's answer that gives only the changes since the state
// `since` (mcp/state_changes.h), then those changes.
std::string changes_text(const AppState& state, const std::string& since, const std::string& changes);
// {app, window_id, title, state, node_count}
nlohmann::json state_summary(const AppState& state);
// get_app_state's output: the summary, or with cells the window and what the cells hold
// (a JSON Schema object literal).
extern const char* const kStateSummarySchema;

}  // namespace companyos::mcp
