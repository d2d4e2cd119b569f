#include "mcp/tools/app_state.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <iterator>

#include <glib.h>

#include "companyos/reply_fields.h"
#include "mcp/element_numbers.h"
#include "mcp/tools/daemon_reply.h"

namespace companyos::mcp {
namespace {

// The listed window with this id, or the active one when no id is given.
Result<nlohmann::json> listed_window(ToolContext& context, const std::optional<std::string>& window_id) {
  auto windows = daemon_data(context.call("windows", nlohmann::json::object(), kReadTimeout));
  if (!windows) return std::move(windows).take_error();
  for (const nlohmann::json& window : windows->value("windows", nlohmann::json::array())) {
    if (window_id ? window.value(reply_fields::window::kId, "") == *window_id
                  : window.value(reply_fields::window::kActive, false)) {
      return window;
    }
  }
  if (window_id) {
    return make_error(ErrorCode::kWindowNotFound, "no window has the id " + *window_id,
                      {{"window_id", *window_id}}, "list_windows shows the windows open now");
  }
  return make_error(ErrorCode::kWindowNotFound, "no window is active", {}, "name the app (list_apps shows them)");
}

// The daemon writes the PNG (it owns the X connection); the file lives only until read.
std::string picture_path() {
  static std::atomic<int> counter{0};
  const char* runtime = g_get_user_runtime_dir();
  return std::string(runtime) + "/companyos-mcp-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter++) + ".png";
}

void take_picture(ToolContext& context, AppState& state) {
  const std::string path = picture_path();
  auto shot = daemon_data(context.call(
      "screenshot", {{"app", state.app}, {"window", state.window_id}, {"out", path}}, kReadTimeout));
  if (!shot) {
    state.no_picture_reason = shot.error().message;
    return;
  }
  std::ifstream file(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  if (bytes.empty()) {
    state.no_picture_reason = "the picture could not be read back";
    return;
  }
  gchar* encoded = g_base64_encode(reinterpret_cast<const guchar*>(bytes.data()), bytes.size());
  state.png_base64 = std::string(encoded);
  g_free(encoded);
  context.numbers().remember_picture(
      {state.app, state.window_id, shot->value("width", 0), shot->value("height", 0)});
}

}  // namespace

const char* const kStateSummarySchema = R"({
  "type": "object",
  "properties": {
    "app": {"type": "string"},
    "window_id": {"type": "string"},
    "title": {"type": "string"},
    "state": {"type": "string", "description": "the state element numbers belong to; none with cells"},
    "node_count": {"type": "integer"},
    "picture": {"type": "boolean"},
    "cells": {"type": "object", "description": "with cells: {cell, text, formula} or {range, rows}"}
  },
  "required": ["app", "window_id"]
})";

Result<AppState> read_app_state(ToolContext& context, const StateRequest& request) {
  AppState state;
  std::optional<std::string> window_id = request.window_id;
  if (request.app) {
    // Without a window, the daemon takes the app's default one (a11y::default_window_of).
    state.app = *request.app;
  } else {
    // No app named: the named window's, or the active window's.
    auto window = listed_window(context, window_id);
    if (!window) return std::move(window).take_error();
    state.app = window->value(reply_fields::window::kApp, "");
    window_id = window->value(reply_fields::window::kId, "");
  }

  // A first look: a page still loading is waited for (the daemon's `loaded`).
  nlohmann::json params = {{"app", state.app}, {"format", "outline"}, {"loaded", true}};
  if (window_id) params["window"] = *window_id;
  if (!request.full) {
    params["interactive"] = true;
    params["compact"] = true;
  }
  auto snapshot = daemon_data(context.call("snapshot", params, kReadTimeout));
  if (!snapshot) return std::move(snapshot).take_error();
  namespace head = reply_fields::snapshot;
  const nlohmann::json window = snapshot->value(head::kWindow, nlohmann::json::object());
  state.window_id = window.value(reply_fields::window::kId, "");
  state.title = window.value(reply_fields::window::kTitle, "");
  state.state = snapshot->value(head::kSnapshot, "");
  state.node_count = snapshot->value(head::kNodeCount, 0);
  state.outline = snapshot->value(head::kOutline, "");
  state.loading = snapshot->value(head::kLoading, false);
  if (state.state.empty() || state.window_id.empty()) {
    return make_error(ErrorCode::kInternal, "the daemon's snapshot reply names no snapshot or window");
  }
  context.numbers().remember({state.app, state.window_id, state.state},
                             request.full ? std::string() : state.outline);
  if (request.picture) take_picture(context, state);
  return state;
}

Result<AppState> settled_app_state(ToolContext& context, const std::string& app, const nlohmann::json& state) {
  namespace head = reply_fields::snapshot;
  if (!state.is_object() || !state.contains(head::kSnapshot)) {
    const std::string problem = state.is_object() ? state.value("problem", std::string()) : std::string();
    return make_error(ErrorCode::kInternal,
                      problem.empty() ? "the daemon's reply holds no state" : problem);
  }
  AppState read;
  read.app = state.value(head::kApp, app);
  const nlohmann::json window = state.value(head::kWindow, nlohmann::json::object());
  read.window_id = window.value(reply_fields::window::kId, "");
  read.title = window.value(reply_fields::window::kTitle, "");
  read.state = state.value(head::kSnapshot, "");
  read.node_count = state.value(head::kNodeCount, 0);
  read.outline = state.value(head::kOutline, "");
  if (read.state.empty() || read.window_id.empty()) {
    return make_error(ErrorCode::kInternal, "the daemon's settled state names no snapshot or window");
  }
  context.numbers().remember({read.app, read.window_id, read.state}, read.outline);
  return read;
}

namespace {

// "State <id> of <app> window <id> "<title>" (<N> nodes)": what both texts start with.
std::string state_header(const AppState& state) {
  std::string text = "State " + state.state + " of " + state.app + " window " + state.window_id;
  if (!state.title.empty()) text += " \"" + state.title + "\"";
  return text + " (" + std::to_string(state.node_count) + " nodes)";
}

}  // namespace

std::string state_text(const AppState& state) {
  std::string text = state_header(state) + ". Element numbers (eN) below belong to this state.\n";
  if (state.loading) {
    text += "The page was still loading when this was read: what it has not built yet is missing; look "
            "again before you act on something you do not see.\n";
  }
  text += state.outline;
  return text;
}

std::string changes_text(const AppState& state, const std::string& since, const std::string& changes) {
  const std::string text = state_header(state) + ": changes since " + since;
  if (changes.empty()) return text + "; nothing changed (full: true for the whole state).\n";
  return text + " (+ new, ~ replaced, - gone, = renumbered; other lines as before; full: true for all).\n" +
         changes;
}

nlohmann::json state_summary(const AppState& state) {
  return {{"app", state.app}, {"window_id", state.window_id}, {"title", state.title},
          {"state", state.state}, {"node_count", state.node_count}};
}

}  // namespace companyos::mcp
