// open-link, open-file, entries: launch steps and how an app name resolves.
#include <filesystem>
#include <iostream>

#include "cli/command_parts.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

void print_launch(const nlohmann::json& data) {
  std::cout << "launched " << plain(data["entry"]["id"]) << " with " << plain(data["target"]["value"]);
  if (data.contains("app_pid") && !data["app_pid"].is_null()) std::cout << " (pid " << plain(data["app_pid"]) << ")";
  std::cout << "\nin front: " << plain(data["outcome"]) << '\n';
}

[[maybe_unused]] const bool open_link_registered = register_command(
    methods::kOpenLink, {.details = "Refused steps launch nothing and say why.",
                         .examples = "  companyos open-link https://example.org --app firefox\n"
                                     "  companyos open-link https://example.org    # the desktop's app for https\n"
                                     "  companyos entries --match firefox    # why a name resolves as it does\n",
                         .by_hand = {"url"},
                         .bind = bind_positional(methods::kOpenLink, "url"),
                         .human = print_launch});

[[maybe_unused]] const bool open_file_registered = register_command(
    methods::kOpenFile, {.details = "A relative path is made absolute.",
                         .examples = "  companyos open-file report.pdf --app org.gnome.Evince\n"
                                     "  companyos open-file '/tmp/a$b;c.txt' --app mousepad\n",
                         .by_hand = {"path"},
                         .bind = [](const MethodCommand& made) -> CompleteRequest {
                           auto path = std::make_shared<std::string>();
                           add_positional(made.cmd, methods::kOpenFile, "path", *path);
                           return [path](Invocation& out) {
                             std::string absolute = *path;
                             if (absolute.rfind("file://", 0) != 0) {
                               absolute = std::filesystem::absolute(absolute).lexically_normal().string();
                             }
                             out.params["path"] = absolute;
                           };
                         },
                         .human = print_launch});

[[maybe_unused]] const bool open_app_registered =
    register_command(methods::kOpenApp, {.details = "Refused launches start nothing and say why.",
                                         .examples = "  companyos open-app --app mousepad\n"
                                                     "  companyos open-app --app org.gnome.Calculator\n",
                                         .human = print_launch});

[[maybe_unused]] const bool entries_registered = register_command(
    methods::kEntries,
    {.details = "Shows the entry chosen or every candidate, and each reason a launch would\n"
                "be refused.",
     .examples = "  companyos entries --match mousepad\n  companyos --json entries --match firefox\n",
     .human = [](const nlohmann::json& data) {
       std::cout << "name:           " << plain(data["query"]) << '\n'
                 << "deciding field: " << plain(data["deciding_field"]) << '\n'
                 << "chosen:         " << (data["chosen"].is_object() ? plain(data["chosen"]["id"]) : "-") << '\n';
       if (data["candidates"].is_array() && data["candidates"].size() > 1) {
         std::cout << "candidates:\n";
         for (const auto& c : data["candidates"])
           std::cout << "  " << plain(c["id"]) << "  " << plain(c["file"]) << '\n';
       }
       std::cout << "launchable:     " << plain(data["launchable"]) << '\n';
       for (const auto& r : data["refusals"]) {
         std::cout << "refused:        " << plain(r["reason"]) << ": " << plain(r["message"]) << '\n';
       }
     }});

}  // namespace
}  // namespace companyos::cli
