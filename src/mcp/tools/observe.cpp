// The tools that only look: list_apps, list_windows, get_app_state, wait.
#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "companyos/methods.h"
#include "mcp/element_numbers.h"
#include "mcp/tools/app_state.h"
#include "mcp/tools/daemon_reply.h"
#include "mcp/tools/declarations.h"
#include "companyos/reply_fields.h"

namespace companyos::mcp::tools {
namespace {

using methods::IntRange;
using methods::ParamType;

std::optional<std::string> optional_string(const nlohmann::json& arguments, const char* name) {
  if (!arguments.contains(name)) return std::nullopt;
  return arguments[name].get<std::string>();
}

// "  at 0,0 1280×1005" on the desktop; nothing when the window gives no bounds.
std::string bounds_text(const nlohmann::json& bounds) {
  if (!bounds.is_object()) return {};
  const auto number = [&](const char* key) { return std::to_string(bounds.value(key, 0)); };
  return "  at " + number("x") + "," + number("y") + " " + number("width") + "×" + number("height");
}

ToolResult list_apps(ToolContext& context, const nlohmann::json&) {
  auto data = daemon_data(context.call("apps", nlohmann::json::object(), kReadTimeout));
  if (!data) return error_result(data.error());
  nlohmann::json apps = nlohmann::json::array();
  std::string text;
  namespace field = reply_fields::app;
  for (const nlohmann::json& app : data->value("apps", nlohmann::json::array())) {
    const std::string name = app.value(field::kName, "");
    nlohmann::json entry = {{"name", name},
                            {"pid", app.contains(field::kPid) ? app[field::kPid] : nlohmann::json(nullptr)},
                            {"toolkit", app.value(field::kToolkit, "")},
                            {"windows", app.value(field::kWindowCount, 0)},
                            {"responsive", app.value(field::kResponsive, true)},
                            {"policy_denied", app.value(field::kPolicyDenied, false)}};
    text += name.empty() ? "(unnamed)" : escape_for_terminal(name);
    text += entry["pid"].is_number() ? " (pid " + std::to_string(entry["pid"].get<long long>()) + ")" : "";
    text += " — " + escape_for_terminal(entry["toolkit"].get<std::string>()) + ", " + std::to_string(entry["windows"].get<int>()) +
            " window(s)";
    text += entry["responsive"].get<bool>() ? ", answering" : ", not answering";
    if (entry["policy_denied"].get<bool>()) text += ", off limits (password manager)";
    text += "\n";
    apps.push_back(std::move(entry));
  }
  ToolResult result;
  result.content.push_back(text_block(text.empty() ? "No app is on the accessibility bus." : text));
  result.structured = {{"apps", std::move(apps)}};
  return result;
}

ToolResult list_windows(ToolContext& context, const nlohmann::json& arguments) {
  nlohmann::json params = nlohmann::json::object();
  if (arguments.contains("app")) params["app"] = arguments["app"];
  auto data = daemon_data(context.call("windows", params, kReadTimeout));
  if (!data) return error_result(data.error());
  nlohmann::json windows = nlohmann::json::array();
  std::string text;
  for (const nlohmann::json& window : data->value("windows", nlohmann::json::array())) {
    namespace listed = reply_fields::window;
    nlohmann::json entry = {{"window_id", window.value(listed::kId, "")},
                            {"app", window.value(listed::kApp, "")},
                            {"title", window.value(listed::kTitle, "")},
                            {"bounds", window.contains(listed::kBounds) ? window[listed::kBounds] : nlohmann::json(nullptr)},
                            {"active", window.value(listed::kActive, false)}};
    // A title's line breaks are escaped here too: one window, one line.
    text += entry["window_id"].get<std::string>() + "  " + escape_for_terminal(entry["app"].get<std::string>()) +
            "  \"" + escape_for_terminal(entry["title"].get<std::string>()) + "\"" + bounds_text(entry["bounds"]) +
            (entry["active"].get<bool>() ? "  (active)" : "") + "\n";
    windows.push_back(std::move(entry));
  }
  ToolResult result;
  result.content.push_back(text_block(text.empty() ? "No window is open." : text));
  result.structured = {{"windows", std::move(windows)}};
  return result;
}

// One cell's line: what it shows and its formula, as the app gives them.
std::string cell_text(const nlohmann::json& cell, const std::string& address) {
  const nlohmann::json text = cell.value("text", nlohmann::json(nullptr));
  std::string out = "Cell " + address;
  out += text.is_string() && !text.get<std::string>().empty() ? " shows " + quote_for_terminal(text.get<std::string>()) : " is empty";
  const nlohmann::json formula = cell.value("formula", nlohmann::json(nullptr));
  if (formula.is_string()) {
    out += "; formula " + quote_for_terminal(formula.get<std::string>());
  } else if (cell.value("formula_cut", false)) {
    // Calc gives a formula with ':' or ';' in part unless the cell has the cursor.
    out += "; it holds a formula the app gives whole only while the cell has the cursor (as right after "
           "set_value on it)";
  }
  return out + ".\n";
}

// A range's rows as the state's grid shows them: "row 3: A3 \"11\" | B3 \"x\"", empty
// cells left out.
std::string range_text(const nlohmann::json& data, const std::string& range) {
  std::string out = "Cells " + range + " (empty cells left out):\n";
  const auto names = data.value("column_names", nlohmann::json::array());
  const auto rows = data.value("rows", nlohmann::json::array());
  const std::int64_t first_row = data.value("first_row", std::int64_t{1});
  std::size_t shown = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string number = std::to_string(first_row + static_cast<std::int64_t>(r));
    std::string line;
    for (std::size_t c = 0; c < rows[r].size() && c < names.size(); ++c) {
      if (!rows[r][c].is_string() || rows[r][c].get<std::string>().empty()) continue;
      if (!line.empty()) line += " | ";
      line += names[c].get<std::string>() + number + " " + quote_for_terminal(rows[r][c].get<std::string>());
    }
    if (line.empty()) continue;
    out += "row " + number + ": " + line + "\n";
    ++shown;
  }
  if (shown == 0) out += "(every cell in it is empty)\n";
  return out;
}

// get_app_state with cells: one cell's value and formula, or a range's values as rows, of
// the table element N names (default: the window's one table on screen), without reading the state.
ToolResult read_cells(ToolContext& context, const nlohmann::json& arguments) {
  const std::string app = arguments.value("app", std::string());
  if (app.empty()) return error_result(make_error(ErrorCode::kInvalidArgs, "cells needs app", {{"param", "app"}}));
  const std::string cells = arguments["cells"].get<std::string>();
  const bool range = cells.find(':') != std::string::npos;
  nlohmann::json params = {{range ? "cells" : "cell", cells}};
  std::optional<std::string> window_id = optional_string(arguments, "window_id");
  if (arguments.contains("element")) {
    const std::int64_t element = arguments["element"].get<std::int64_t>();
    auto seen = context.numbers().state_for(app, window_id, element, std::nullopt);
    if (!seen) return error_result(seen.error());
    params["ref"] = ElementNumbers::ref_in(*seen, element);
  } else {
    params["app"] = app;
  }
  auto data = daemon_data(context.call("get", params, kReadTimeout));
  if (!data) return error_result(data.error());
  const nlohmann::json window = data->value("window", nlohmann::json::object());
  ToolResult result;
  result.structured = {{"app", app}, {"window_id", window.value("id", "")}, {"title", window.value("title", "")}};
  if (range) {
    result.content.push_back(text_block(range_text(*data, data->value("range", cells))));
    result.structured["cells"] = {{"range", data->value("range", cells)}, {"rows", data->value("rows", nlohmann::json::array())}};
  } else {
    std::string address = cells;
    std::transform(address.begin(), address.end(), address.begin(), [](unsigned char c) { return std::toupper(c); });
    result.content.push_back(text_block(cell_text(*data, address)));
    result.structured["cells"] = {{"cell", address},
                                  {"text", data->value("text", nlohmann::json(nullptr))},
                                  {"formula", data->value("formula", nlohmann::json(nullptr))}};
  }
  return result;
}

ToolResult get_app_state(ToolContext& context, const nlohmann::json& arguments) {
  if (arguments.contains("cells")) return read_cells(context, arguments);
  StateRequest request;
  request.app = optional_string(arguments, "app");
  request.window_id = optional_string(arguments, "window_id");
  request.full = arguments.value("full", false);
  request.picture = arguments.value("screenshot", true);
  auto state = read_app_state(context, request);
  if (!state) return error_result(state.error());
  ToolResult result;
  result.content.push_back(text_block(state_text(*state)));
  result.structured = state_summary(*state);
  if (state->png_base64) {
    result.content.push_back({{"type", "image"}, {"data", *state->png_base64}, {"mimeType", "image/png"}});
    result.structured["picture"] = true;
  } else if (request.picture) {
    result.content.push_back(text_block("No picture: " + state->no_picture_reason));
    result.structured["picture"] = false;
  }
  return result;
}

// A wait either for a condition (the daemon's wait, ended when the call is cancelled) or
// for a number of seconds; then the app's new state.
ToolResult wait(ToolContext& context, const nlohmann::json& arguments) {
  const auto app = optional_string(arguments, "app");
  const auto seconds = arguments.value("seconds", 0);
  const bool has_condition = arguments.contains("window") || arguments.contains("text") ||
                             arguments.value("closed", false);
  if (has_condition && !app) {
    return error_result(make_error(ErrorCode::kInvalidArgs, "a wait for a window, a text or a close needs app"));
  }
  if (!has_condition && seconds == 0) {
    return error_result(make_error(ErrorCode::kInvalidArgs,
                                   "say what to wait for: seconds, or window, closed or text with app"));
  }
  const int limit = seconds > 0 ? seconds : 30;
  std::string outcome;
  nlohmann::json structured = nlohmann::json::object();
  if (has_condition) {
    nlohmann::json params = {{"app", *app}, {"timeout_ms", limit * 1000}};
    for (const char* key : {"window", "text", "closed"}) {
      if (arguments.contains(key)) params[key] = arguments[key];
    }
    int elapsed = 0;
    auto data = daemon_data(context.call("wait", params, std::chrono::seconds(limit + 5), [&] {
      ++elapsed;
      context.progress(elapsed, limit, "waiting (" + std::to_string(elapsed) + " s)");
    }));
    if (!data) return error_result(data.error());
    outcome = "The wait ended: " + data->value("condition", std::string("the condition")) + " after " +
              std::to_string(data->value("elapsed_ms", 0)) + " ms.";
    structured["condition_met"] = true;
  } else {
    for (int elapsed = 0; elapsed < seconds; ++elapsed) {
      if (!context.sleep(std::chrono::seconds(1))) {
        return error_result(make_error(ErrorCode::kTimeout, "the wait was cancelled"));
      }
      context.progress(elapsed + 1, seconds, "waited " + std::to_string(elapsed + 1) + " s");
    }
    outcome = "Waited " + std::to_string(seconds) + " s.";
  }
  ToolResult result;
  result.content.push_back(text_block(outcome));
  if (app) {
    auto state = read_app_state(context, StateRequest{app, std::nullopt, false, false});
    if (!state) {
      result.content.push_back(text_block("The new state could not be read: " + state.error().message));
    } else {
      result.content.push_back(text_block(state_text(*state)));
      structured["state"] = state->state;
      structured["window_id"] = state->window_id;
    }
  }
  result.structured = std::move(structured);
  return result;
}

}  // namespace

const ToolDeclaration kListApps{
    .name = "list_apps",
    .title = "List apps",
    .description = "Apps on the accessibility bus: name, pid, toolkit, how many windows, whether they answer.",
    .wraps = &methods::kApps,
    .params = {},
    .output_schema = R"({"type":"object","properties":{"apps":{"type":"array","items":{"type":"object"}}},
                        "required":["apps"]})",
    .annotations = {.idempotent = true},
    .handler = list_apps,
};

const ToolDeclaration kListWindows{
    .name = "list_windows",
    .title = "List windows",
    .description = "Top-level windows: window_id, app, title, desktop bounds, and which one is active.",
    .wraps = &methods::kWindows,
    .params = {{.name = "app", .help = "only this app's windows"}},
    .output_schema = R"({"type":"object","properties":{"windows":{"type":"array","items":{"type":"object"}}},
                        "required":["windows"]})",
    .annotations = {.idempotent = true},
    .handler = list_windows,
};

const ToolDeclaration kGetAppState{
    .name = "get_app_state",
    .title = "Get an app's state",
    .description =
        "The numbered state of one window: every element that can be acted on now, as lines "
        "\"eN role \\\"name\\\" ...\", and a picture of the window when it can be captured. Act on "
        "elements by their number N; numbers belong to this state only. With cells, a spreadsheet's "
        "or table's cells instead: a formula and any cell off screen.",
    .params = {{.name = "app", .help = "the app (default: the app of the active window)"},
               {.name = "window_id", .help = "one of the app's windows (from list_windows)"},
               {.name = "screenshot", .type = ParamType::kBoolean, .help = "add a PNG of the window (default true)"},
               {.name = "full", .type = ParamType::kBoolean,
                .help = "every node, not only what can be acted on (longer)"},
               {.name = "cells",
                .help = "instead of the state, a table's cells: one (B3: what it shows and its formula) or a "
                        "range (A1:C10: what each shows, as rows) — shown on screen or not"},
               {.name = "element", .type = ParamType::kInteger,
                .help = "with cells: the table's number N in the newest state (default: the window's one table on screen)",
                .range = IntRange{0, {}}}},
    .output_schema = kStateSummarySchema,
    .annotations = {.read_only = true},
    .handler = get_app_state,
};

const ToolDeclaration kWait{
    .name = "wait",
    .title = "Wait",
    .description =
        "Wait some seconds, or until a window with a title appears, a window closes or a text "
        "appears in the app; then returns the app's new state.",
    .params = {{.name = "app", .help = "the app to watch (and whose state to return)"},
               {.name = "seconds", .type = ParamType::kInteger, .help = "how long (1-30); with a condition, the limit",
                .range = IntRange{1, 30}},
               {.name = "window", .help = "a window with this exact title appears"},
               {.name = "closed", .type = ParamType::kBoolean, .help = "a window of the app closes"},
               {.name = "text", .help = "this text appears in an element's name or value"}},
    .output_schema = R"({"type":"object","properties":{"condition_met":{"type":"boolean"},
                        "state":{"type":"string"},"window_id":{"type":"string"}}})",
    .annotations = {.read_only = true},
    .handler = wait,
};

}  // namespace companyos::mcp::tools
