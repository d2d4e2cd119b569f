// open-link, open-file, entries: launch steps and how an app name resolves.
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

void print_launch(const nlohmann::json& data) {
  std::cout << "launched " << plain(data["entry"]["id"]) << " with " << plain(data["target"]["value"]);
  if (data.contains("app_pid") && !data["app_pid"].is_null()) std::cout << " (pid " << plain(data["app_pid"]) << ")";
  std::cout << "\nin front: " << plain(data["outcome"]) << '\n';
}

}  // namespace

void add_launch_commands(CLI::App& app, Invocation& out) {
  struct Args {
    std::string target, app;
  };
  auto link = std::make_shared<Args>();
  auto* link_cmd = add_command(app, "open-link",
                               "Open a URL in the named app (its desktop entry, via gio launch), then check\n"
                               "that the app is in front. Refused steps launch nothing and say why.",
                               "  companyos open-link https://example.org --app firefox\n"
                               "  companyos entries --match firefox    # why a name resolves as it does\n");
  link_cmd->add_option("url", link->target, "http or https URL")->required();
  link_cmd->add_option("--app", link->app, "WM class, desktop-file id or Name")->required();
  link_cmd->callback([&out, link] {
    out.method = "open_link";
    out.params = {{"url", link->target}, {"app", link->app}};
    out.human = print_launch;
  });

  auto file = std::make_shared<Args>();
  auto* file_cmd = add_command(app, "open-file",
                               "Open an existing file in the named app, then check that the app is in front.",
                               "  companyos open-file report.pdf --app org.gnome.Evince\n"
                               "  companyos open-file '/tmp/a$b;c.txt' --app mousepad\n");
  file_cmd->add_option("path", file->target, "file path (relative paths are made absolute) or file:// URI")->required();
  file_cmd->add_option("--app", file->app, "WM class, desktop-file id or Name")->required();
  file_cmd->callback([&out, file] {
    out.method = "open_file";
    std::string path = file->target;
    if (path.rfind("file://", 0) != 0) path = std::filesystem::absolute(path).lexically_normal().string();
    out.params = {{"path", path}, {"app", file->app}};
    out.human = print_launch;
  });

  auto name = std::make_shared<std::string>();
  auto* entries = add_command(app, "entries",
                              "Explain how an app name resolves to a desktop entry: the deciding field,\n"
                              "the entry chosen or every candidate, and each reason a launch would be refused.",
                              "  companyos entries --match mousepad\n  companyos --json entries --match firefox\n");
  entries->add_option("--match", *name, "the app name a step uses")->required();
  entries->callback([&out, name] {
    out.method = "entries";
    out.params = {{"match", *name}};
    out.human = [](const nlohmann::json& data) {
      std::cout << "name:           " << plain(data["query"]) << '\n'
                << "deciding field: " << plain(data["deciding_field"]) << '\n'
                << "chosen:         " << (data["chosen"].is_object() ? plain(data["chosen"]["id"]) : "-") << '\n';
      if (data["candidates"].is_array() && data["candidates"].size() > 1) {
        std::cout << "candidates:\n";
        for (const auto& c : data["candidates"]) std::cout << "  " << plain(c["id"]) << "  " << plain(c["file"]) << '\n';
      }
      std::cout << "launchable:     " << plain(data["launchable"]) << '\n';
      for (const auto& r : data["refusals"]) {
        std::cout << "refused:        " << plain(r["reason"]) << ": " << plain(r["message"]) << '\n';
      }
    };
  });
}

}  // namespace companyos::cli
