// open-link, open-file, entries: launch steps and how an app name resolves.
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "cli/declared_options.h"
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
  auto url = std::make_shared<std::string>();
  auto link = add_method_command(app, methods::kOpenLink, "Refused steps launch nothing and say why.",
                                 "  companyos open-link https://example.org --app firefox\n"
                                 "  companyos open-link https://example.org    # the desktop's app for https\n"
                                 "  companyos entries --match firefox    # why a name resolves as it does\n",
                                 {"url"});
  add_positional(link.cmd, methods::kOpenLink, "url", *url);
  link.cmd->callback([&out, url, options = link.options] {
    out.method = methods::kOpenLink.name;
    options->fill(out.params);
    out.params["url"] = *url;
    out.human = print_launch;
  });

  auto path = std::make_shared<std::string>();
  auto file = add_method_command(app, methods::kOpenFile, "A relative path is made absolute.",
                                 "  companyos open-file report.pdf --app org.gnome.Evince\n"
                                 "  companyos open-file '/tmp/a$b;c.txt' --app mousepad\n",
                                 {"path"});
  add_positional(file.cmd, methods::kOpenFile, "path", *path);
  file.cmd->callback([&out, path, options = file.options] {
    out.method = methods::kOpenFile.name;
    options->fill(out.params);
    std::string absolute = *path;
    if (absolute.rfind("file://", 0) != 0) absolute = std::filesystem::absolute(absolute).lexically_normal().string();
    out.params["path"] = absolute;
    out.human = print_launch;
  });

  auto start = add_method_command(app, methods::kOpenApp, "Refused launches start nothing and say why.",
                                  "  companyos open-app --app mousepad\n"
                                  "  companyos open-app --app org.gnome.Calculator\n");
  start.cmd->callback([&out, options = start.options] {
    out.method = methods::kOpenApp.name;
    options->fill(out.params);
    out.human = print_launch;
  });

  auto entries = add_method_command(app, methods::kEntries,
                                    "Shows the entry chosen or every candidate, and each reason a launch would\n"
                                    "be refused.",
                                    "  companyos entries --match mousepad\n  companyos --json entries --match firefox\n");
  entries.cmd->callback([&out, options = entries.options] {
    out.method = methods::kEntries.name;
    options->fill(out.params);
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
