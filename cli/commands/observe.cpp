// apps, windows, snapshot, find, surfaces, get, screenshot: what companyOS sees.
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "cli/command_parts.h"
#include "cli/render.h"
#include "companyos/reply_fields.h"

namespace companyos::cli {
namespace {

std::string bounds_text(const nlohmann::json& b) {
  if (!b.is_object()) return "-";
  return std::to_string(b.value("x", 0)) + "," + std::to_string(b.value("y", 0)) + " " +
         std::to_string(b.value("width", 0)) + "x" + std::to_string(b.value("height", 0));
}

void print_apps(const nlohmann::json& data, bool names_only) {
  namespace field = reply_fields::app;
  if (names_only) {
    std::set<std::string> printed;
    for (const auto& a : data["apps"]) {
      const std::string name = a.value(field::kName, std::string());
      if (!name.empty() && printed.insert(name).second) std::cout << name << '\n';
    }
    return;
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& a : data["apps"]) {
    rows.push_back({{"name", a[field::kName]}, {"pid", a[field::kPid]},
                    {"toolkit", plain(a[field::kToolkit]) + " " + plain(a[field::kToolkitVersion])},
                    {"windows", a[field::kWindowCount]},
                    {"entry", a.value(field::kDesktopEntry, nlohmann::json(nullptr))},
                    {"state", a.value(field::kPolicyDenied, false) ? "policy denied"
                              : a.value(field::kResponsive, true)   ? "ok"
                                                                    : "not responding"}});
  }
  render_table(std::cout, rows, {{"NAME", "name"}, {"PID", "pid"}, {"TOOLKIT", "toolkit"},
                                 {"WINDOWS", "windows"}, {"ENTRY", "entry"},
                                 {"STATE", "state"}});
}

void print_windows(const nlohmann::json& data) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& w : data["windows"]) {
    namespace window = reply_fields::window;
    rows.push_back({{"id", w[window::kId]}, {"app", w[window::kApp]}, {"pid", w[window::kPid]},
                    {"title", w[window::kTitle]}, {"bounds", bounds_text(w[window::kBounds])},
                    {"active", w[window::kActive]},
                    {"x11", w["x11_window"]},
                    {"state", w.value("responsive", true) ? "ok" : "not responding"}});
  }
  render_table(std::cout, rows, {{"ID", "id"}, {"APP", "app"}, {"PID", "pid"}, {"TITLE", "title"},
                                 {"BOUNDS", "bounds"}, {"ACTIVE", "active"}, {"X11", "x11"},
                                 {"STATE", "state"}});
  if (data.value("windows_not_listed", 0) > 0) {
    std::cout << "incomplete: " << plain(data["windows_not_listed"])
              << " more window(s) not listed (an app lists at most 1000)\n";
  }
}

void print_snapshot(const nlohmann::json& data) {
  namespace head = reply_fields::snapshot;
  std::cout << "snapshot " << plain(data[head::kSnapshot]) << ": " << plain(data[head::kApp]) << " (pid "
            << plain(data[head::kPid]) << "), window \"" << plain(data[head::kWindow][reply_fields::window::kTitle])
            << "\", " << plain(data[head::kNodeCount]) << " nodes; refs are @" << plain(data[head::kSnapshot])
            << ":eN\n";
  if (data.contains("within")) {
    std::cout << "only the subtree under " << plain(data["within"]) << ", numbered anew\n";
  }
  const auto& stats = data.value("stats", nlohmann::json::object());
  if (stats.value("truncated", false)) {
    std::cout << "incomplete: " << (data.contains("within") ? "the part" : "the window")
              << " has more nodes than one snapshot reads; read a part of it at a time with "
                 "--within <ref>\n";
  }
  if (stats.value("children_unread", 0) > 0) {
    std::cout << "incomplete: " << plain(stats["children_unread"])
              << " node(s) answered but their children did not (the app refused to list them)\n";
  }
  if (data.contains("surface")) {
    const auto& surface = data["surface"];
    std::cout << "open " << plain(surface["kind"]) << " " << plain(surface["ref"]) << ", "
              << plain(surface["items"]) << " items showing";
    if (surface["opener"].is_object()) {
      std::cout << ", opened by " << plain(surface["opener"]["role"]) << " \"" << plain(surface["opener"]["name"])
                << "\"";
    }
    std::cout << "\n";
  }
  if (data.contains("outline")) {
    std::cout << data["outline"].get<std::string>();
  } else {
    std::cout << "(the reply carries the JSON tree only: add --json to print it)\n";
  }
}

void print_snapshots(const nlohmann::json& data) {
  if (data["snapshots"].empty()) {
    std::cout << "no snapshot is kept: take one with `companyos snapshot --app APP`\n";
    return;
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& s : data["snapshots"]) {
    rows.push_back({{"snapshot", s["snapshot"]}, {"app", s["app"]}, {"window", s["window"]["id"]},
                    {"title", s["window"]["title"]}, {"nodes", s["node_count"]},
                    {"within", s["within"].is_string() ? s["within"] : nlohmann::json("-")}});
  }
  render_table(std::cout, rows, {{"SNAPSHOT", "snapshot"}, {"APP", "app"}, {"WINDOW", "window"},
                                 {"TITLE", "title"}, {"NODES", "nodes"}, {"WITHIN", "within"}});
}

// A cell's row is its own column: SHOWS instead of TWIN.
void print_found(const nlohmann::json& data, bool cells) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& e : data["elements"]) {
    rows.push_back({{"ref", e["ref"]}, {"role", e["role"]}, {"name", e["name"]},
                    {"value", e.value("value", nlohmann::json()).is_string() ? e["value"] : nlohmann::json("")},
                    {"twin", e.value("twin", false)}, {"window", e["window"]["title"]}});
  }
  if (cells) {
    render_table(std::cout, rows, {{"REF", "ref"}, {"ROLE", "role"}, {"NAME", "name"},
                                   {"SHOWS", "value"}, {"WINDOW", "window"}});
  } else {
    render_table(std::cout, rows, {{"REF", "ref"}, {"ROLE", "role"}, {"NAME", "name"},
                                   {"TWIN", "twin"}, {"WINDOW", "window"}});
  }
}

void print_surfaces(const nlohmann::json& data) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& s : data["surfaces"]) {
    const auto& opener = s["opener"];
    rows.push_back({{"ref", s["ref"]}, {"kind", s["kind"]}, {"name", s["name"]}, {"items", s["items"]},
                    {"opener", opener.is_object() ? plain(opener["ref"]) + " " + plain(opener["role"]) + " \"" +
                                                        plain(opener["name"]) + "\""
                                                  : std::string("-")},
                    {"window", s["window"]["title"]}});
  }
  if (rows.empty()) {
    std::cout << "no menu, list or tooltip is open\n";
    return;
  }
  render_table(std::cout, rows, {{"REF", "ref"}, {"KIND", "kind"}, {"NAME", "name"}, {"ITEMS", "items"},
                                 {"OPENED BY", "opener"}, {"WINDOW", "window"}});
}

// A range of cells: one line a row, cells separated by tabs.
void print_cell_rows(const nlohmann::json& data) {
  for (const auto& row : data.value("rows", nlohmann::json::array())) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) line.push_back('\t');
      if (!row[i].is_null()) line += plain(row[i]);
    }
    std::cout << line << "\n";
  }
}

void print_screenshot(const nlohmann::json& data) {
  std::cout << "wrote " << plain(data["path"]) << " (" << plain(data["width"]) << "x"
            << plain(data["height"]) << ")\n";
}

[[maybe_unused]] const bool apps_registered = register_command(
    methods::kApps, {.examples = "  companyos apps\n  companyos --json apps\n"
                                 "  companyos --reply-timeout 200 apps --names   # what shell completion offers\n",
                     .bind = [](const MethodCommand& made) -> CompleteRequest {
                       auto names_only = std::make_shared<bool>(false);
                       made.cmd->add_flag("--names", *names_only,
                                          "print only the apps' names, one per line, each once");
                       return [names_only](Invocation& out) {
                         out.human = [names_only](const nlohmann::json& data) { print_apps(data, *names_only); };
                       };
                     }});

[[maybe_unused]] const bool windows_registered = register_command(
    methods::kWindows, {.details = "Ids stay valid for the window's life.",
                        .examples = "  companyos windows\n  companyos windows --app mousepad\n",
                        .human = print_windows});

[[maybe_unused]] const bool snapshot_registered = register_command(
    methods::kSnapshot,
    {.details = "Act on its refs.",
     .examples = "  companyos snapshot --app mousepad\n"
                 "  companyos snapshot --app mousepad -i --compact\n"
                 "  companyos snapshot --app mousepad --title 'Untitled 1' --max-depth 3\n"
                 "  companyos snapshot --app mousepad --timeout 10000   # a slow app\n"
                 "  companyos snapshot --app mousepad --surface menu   # the open menu alone\n"
                 "  companyos snapshot --app mousepad --within e12   # e12's subtree alone\n"
                 "  companyos --json snapshot --app mousepad   # JSON tree and outline\n"
                 "  companyos --json snapshot --app mousepad --format tree   # the tree alone\n",
     .bind = [](const MethodCommand& made) -> CompleteRequest {
       made.options->option("format")->check(CLI::IsMember({"tree", "outline", "both"}));
       made.options->option("surface")->check(CLI::IsMember({"menu", "list", "tooltip", "any"}));
       return [options = made.options](Invocation& out) {
         if (!options->given("format")) out.human_params["format"] = "outline";  // a person reads the outline only
       };
     },
     .human = print_snapshot});

[[maybe_unused]] const bool snapshots_registered = register_command(
    methods::kSnapshots,
    {.details = "A ref resolves while its snapshot is kept; e<N> with --app means the newest of the window.",
     .examples = "  companyos snapshots\n  companyos snapshots --app mousepad\n"
                 "  companyos --json snapshots | jq -r '.data.snapshots[0].snapshot'   # the newest id\n",
     .human = print_snapshots});

[[maybe_unused]] const bool find_registered = register_command(
    methods::kFind, {.details = "Prints their refs.",
                     .examples = "  companyos find --app mousepad --role 'push button' --name Save\n"
                                 "  companyos find --app companyos-fixture --id write-effect\n"
                                 "  companyos find --app soffice --cell Z500     # of the sheet, shown or not\n",
                     .bind = [](const MethodCommand& made) -> CompleteRequest {
                       return [options = made.options](Invocation& out) {
                         out.human = [cells = options->given("cell")](const nlohmann::json& data) {
                           print_found(data, cells);
                         };
                       };
                     }});

[[maybe_unused]] const bool surfaces_registered = register_command(
    methods::kSurfaces,
    {.details = "Their items are acted on by ref.",
     .examples = "  companyos surfaces --app mousepad\n"
                 "  companyos surfaces --app Firefox --kind menu\n"
                 "  companyos snapshot --app mousepad --surface menu   # the innermost one's tree\n",
     .bind = [](const MethodCommand& made) -> CompleteRequest {
       made.options->option("kind")->check(CLI::IsMember({"menu", "list", "tooltip"}));
       return {};
     },
     .human = print_surfaces});

[[maybe_unused]] const bool get_registered = register_command(
    methods::kGet, {.details = "A cell is read by its table and address, shown or not: its text and formula.\n"
                               "A range comes back as rows, one line each, cells separated by tabs.",
                    .examples = "  companyos get @s3:e12\n"
                                "  companyos get --app soffice --cell A3        # the sheet's A3: text and formula\n"
                                "  companyos get @s3:e57 --cells A1:C10         # rows of table e57's cells\n",
                    .by_hand = {"ref"},
                    .bind = [](const MethodCommand& made) -> CompleteRequest {
                      auto ref = std::make_shared<std::string>();
                      add_positional(made.cmd, methods::kGet, "ref", *ref);
                      return [ref, options = made.options](Invocation& out) {
                        if (!ref->empty()) out.params["ref"] = *ref;
                        if (options->given("cells")) out.human = print_cell_rows;
                      };
                    }});

[[maybe_unused]] const bool screenshot_registered = register_command(
    methods::kScreenshot,
    {.details = "The window must be the active one.",
     .examples = "  companyos screenshot --app mousepad --out mousepad.png\n"
                 "  companyos screenshot --app mousepad --window w1a2b3c4d5e6f --out /tmp/w.png\n",
     .by_hand = {"out"},
     .bind = [](const MethodCommand& made) -> CompleteRequest {
       auto path = std::make_shared<std::string>();
       made.cmd->add_option("--out", *path, "PNG file to write (relative paths are made absolute)")->required();
       return [path](Invocation& out) {
         // The daemon has its own working directory: send an absolute path.
         out.params["out"] = std::filesystem::absolute(*path).lexically_normal().string();
       };
     },
     .human = print_screenshot});

}  // namespace
}  // namespace companyos::cli
