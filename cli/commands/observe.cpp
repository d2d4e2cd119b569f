// apps, windows, snapshot, find, get, screenshot: what companyOS sees.
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

std::string bounds_text(const nlohmann::json& b) {
  if (!b.is_object()) return "-";
  return std::to_string(b.value("x", 0)) + "," + std::to_string(b.value("y", 0)) + " " +
         std::to_string(b.value("width", 0)) + "x" + std::to_string(b.value("height", 0));
}

// Adds --window ID / --title T (mutually exclusive) to a window-targeting command.
void add_window_choice(CLI::App* cmd, std::shared_ptr<std::string> window, std::shared_ptr<std::string> title) {
  auto* w = cmd->add_option("--window", *window, "window id (from `companyos windows`)");
  auto* t = cmd->add_option("--title", *title, "exact window title");
  w->excludes(t);
}

void put_window_choice(nlohmann::json& params, const std::string& window, const std::string& title) {
  if (!window.empty()) params["window"] = window;
  if (!title.empty()) params["title"] = title;
}

}  // namespace

void add_observe_commands(CLI::App& app, Invocation& out) {
  add_command(app, "apps", "List applications on the accessibility bus.",
              "  companyos apps\n  companyos --json apps\n")
      ->callback([&out] {
        out.method = "apps";
        out.human = [](const nlohmann::json& data) {
          nlohmann::json rows = nlohmann::json::array();
          for (const auto& a : data["apps"]) {
            rows.push_back({{"name", a["name"]}, {"pid", a["pid"]},
                            {"toolkit", plain(a["toolkit"]) + " " + plain(a["toolkit_version"])},
                            {"windows", a["window_count"]},
                            {"entry", a.value("desktop_entry", nlohmann::json(nullptr))},
                            {"state", a.value("policy_denied", false) ? "policy denied"
                                      : a.value("responsive", true)    ? "ok"
                                                                       : "not responding"}});
          }
          render_table(std::cout, rows, {{"NAME", "name"}, {"PID", "pid"}, {"TOOLKIT", "toolkit"},
                                         {"WINDOWS", "windows"}, {"ENTRY", "entry"},
                                         {"STATE", "state"}});
        };
      });

  auto windows_app = std::make_shared<std::string>();
  auto* windows = add_command(app, "windows", "List top-level windows (ids stay valid for the window's life).",
                              "  companyos windows\n  companyos windows --app mousepad\n");
  windows->add_option("--app", *windows_app, "only this application's windows");
  windows->callback([&out, windows_app] {
    out.method = "windows";
    if (!windows_app->empty()) out.params["app"] = *windows_app;
    out.human = [](const nlohmann::json& data) {
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& w : data["windows"]) {
        rows.push_back({{"id", w["id"]}, {"app", w["app"]}, {"pid", w["pid"]}, {"title", w["title"]},
                        {"bounds", bounds_text(w["bounds"])}, {"active", w["active"]},
                        {"x11", w["x11_window"]}});
      }
      render_table(std::cout, rows, {{"ID", "id"}, {"APP", "app"}, {"PID", "pid"}, {"TITLE", "title"},
                                     {"BOUNDS", "bounds"}, {"ACTIVE", "active"}, {"X11", "x11"}});
    };
  });

  struct SnapshotArgs {
    std::string app, window, title, format;
    bool interactive = false, compact = false, bounds = false;
    int max_depth = -1;
  };
  auto snap = std::make_shared<SnapshotArgs>();
  auto snap_window = std::make_shared<std::string>();
  auto snap_title = std::make_shared<std::string>();
  auto* snapshot = add_command(app, "snapshot", "Numbered tree of exactly one window; act on its refs.",
                               "  companyos snapshot --app mousepad\n"
                               "  companyos snapshot --app mousepad -i --compact\n"
                               "  companyos snapshot --app mousepad --title 'Untitled 1' --max-depth 3\n"
                               "  companyos --json snapshot --app mousepad   # JSON tree and outline\n"
                               "  companyos --json snapshot --app mousepad --format tree   # the tree alone\n");
  snapshot->add_option("--app", snap->app, "application name")->required();
  add_window_choice(snapshot, snap_window, snap_title);
  snapshot->add_flag("-i,--interactive", snap->interactive, "only actionable nodes and their ancestors");
  snapshot->add_option("--max-depth", snap->max_depth, "semantic levels below the window")->check(CLI::NonNegativeNumber);
  snapshot->add_flag("--compact", snap->compact, "fold nameless single-child wrappers");
  snapshot->add_flag("--bounds", snap->bounds, "show bounds in the outline");
  snapshot->add_option("--format", snap->format,
                       "what the reply carries: tree, outline or both (default: both with --json, "
                       "else outline)")
      ->check(CLI::IsMember({"tree", "outline", "both"}));
  snapshot->callback([&out, snap, snap_window, snap_title] {
    out.method = "snapshot";
    out.params = {{"app", snap->app}, {"interactive", snap->interactive}, {"compact", snap->compact},
                  {"bounds", snap->bounds}};
    put_window_choice(out.params, *snap_window, *snap_title);
    if (snap->max_depth >= 0) out.params["max_depth"] = snap->max_depth;
    if (!snap->format.empty()) {
      out.params["format"] = snap->format;
    } else {
      out.human_params["format"] = "outline";  // a person reads the outline only
    }
    out.human = [](const nlohmann::json& data) {
      std::cout << "snapshot " << plain(data["snapshot"]) << ": " << plain(data["app"]) << " (pid "
                << plain(data["pid"]) << "), window \"" << plain(data["window"]["title"]) << "\", "
                << plain(data["node_count"]) << " nodes; refs are @" << plain(data["snapshot"]) << ":eN\n";
      if (data.contains("outline")) {
        std::cout << data["outline"].get<std::string>();
      } else {
        std::cout << "(the reply carries the JSON tree only: add --json to print it)\n";
      }
    };
  });

  struct FindArgs {
    std::string app, role, name, id, window, title;
    bool ignore_case = false;
  };
  auto find_args = std::make_shared<FindArgs>();
  auto find_window = std::make_shared<std::string>();
  auto find_title = std::make_shared<std::string>();
  auto* find = add_command(app, "find", "Find elements by role, name or accessible id; prints their refs.",
                           "  companyos find --app mousepad --role 'push button' --name Save\n"
                           "  companyos find --app companyos-fixture --id write-effect\n");
  find->add_option("--app", find_args->app, "application name")->required();
  find->add_option("--role", find_args->role, "role as printed in snapshots, e.g. 'push button'");
  find->add_option("--name", find_args->name, "exact accessible name");
  find->add_option("--id", find_args->id, "exact accessible id");
  add_window_choice(find, find_window, find_title);
  find->add_flag("--ignore-case", find_args->ignore_case, "compare case-insensitively");
  find->callback([&out, find_args, find_window, find_title] {
    out.method = "find";
    out.params = {{"app", find_args->app}, {"ignore_case", find_args->ignore_case}};
    if (!find_args->role.empty()) out.params["role"] = find_args->role;
    if (!find_args->name.empty()) out.params["name"] = find_args->name;
    if (!find_args->id.empty()) out.params["id"] = find_args->id;
    put_window_choice(out.params, *find_window, *find_title);
    out.human = [](const nlohmann::json& data) {
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& e : data["elements"]) {
        rows.push_back({{"ref", e["ref"]}, {"role", e["role"]}, {"name", e["name"]},
                        {"twin", e.value("twin", false)}, {"window", e["window"]["title"]}});
      }
      render_table(std::cout, rows, {{"REF", "ref"}, {"ROLE", "role"}, {"NAME", "name"},
                                     {"TWIN", "twin"}, {"WINDOW", "window"}});
    };
  });

  auto ref = std::make_shared<std::string>();
  auto* get = add_command(app, "get", "Read one element afresh: role, name, value, states, actions, bounds, text.",
                          "  companyos get @s3:e12\n");
  get->add_option("ref", *ref, "a ref from snapshot or find")->required();
  get->callback([&out, ref] {
    out.method = "get";
    out.params = {{"ref", *ref}};
  });

  struct ShotArgs {
    std::string app, out;
  };
  auto shot = std::make_shared<ShotArgs>();
  auto shot_window = std::make_shared<std::string>();
  auto shot_title = std::make_shared<std::string>();
  auto* screenshot = add_command(app, "screenshot",
                                 "PNG of exactly one window (X11; the window must be the active one).",
                                 "  companyos screenshot --app mousepad --out mousepad.png\n"
                                 "  companyos screenshot --app mousepad --window w1a2b3c4d5e6f --out /tmp/w.png\n");
  screenshot->add_option("--app", shot->app, "application name")->required();
  add_window_choice(screenshot, shot_window, shot_title);
  screenshot->add_option("--out", shot->out, "PNG file to write")->required();
  screenshot->callback([&out, shot, shot_window, shot_title] {
    out.method = "screenshot";
    // The daemon has its own working directory: send an absolute path.
    out.params = {{"app", shot->app}, {"out", std::filesystem::absolute(shot->out).lexically_normal().string()}};
    put_window_choice(out.params, *shot_window, *shot_title);
    out.human = [](const nlohmann::json& data) {
      std::cout << "wrote " << plain(data["path"]) << " (" << plain(data["width"]) << "x"
                << plain(data["height"]) << ")\n";
    };
  });
}

}  // namespace companyos::cli
