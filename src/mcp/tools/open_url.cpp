// open_url: a link opened in a named browser, or the desktop's default app for its scheme,
// through its desktop entry (the daemon's open_link: launch rules, refusals, the in-front
// check); never xdg-open.
#include "companyos/methods.h"
#include "mcp/tools/daemon_reply.h"
#include "mcp/tools/declarations.h"

namespace companyos::mcp::tools {
namespace {

constexpr std::chrono::milliseconds kLaunchTimeout{40000};

ToolResult open_url(ToolContext& context, const nlohmann::json& arguments) {
  nlohmann::json params = {{"url", arguments["url"]}};
  if (arguments.contains("app")) params["app"] = arguments["app"];
  const CallOutcome reply = context.call("open_link", params, kLaunchTimeout);
  auto data = daemon_data(reply);
  if (!data) return launch_failed(reply, data.error(), "open_url");
  const std::string entry = data->value("entry", nlohmann::json::object()).value("id", std::string("its entry"));
  const std::string app = arguments.contains("app") ? arguments["app"].get<std::string>() : "the desktop's default app";
  ToolResult result;
  result.content.push_back(text_block("The link was opened in " + app + " (" + entry +
                                      "), and its window is in front. Read it with get_app_state."));
  result.structured = *data;
  return result;
}

}  // namespace

const ToolDeclaration kOpenUrl{
    .name = "open_url",
    .title = "Open a link",
    .description = "Open a URL in the named browser app (or, without app, the desktop's default app for the URL's "
                   "scheme) through its desktop entry, then check its window is in front. Call get_app_state on the "
                   "browser next.",
    .wraps = &methods::kOpenLink,
    .params = {{.name = "url", .required = true, .help = "an http(s) URL, or a scheme the app's entry declares"},
               {.name = "app", .required = false,
                .help = "the browser: WM class, desktop-file id or Name, e.g. firefox-esr; default: the desktop's "
                        "app for the URL's scheme"}},
    .output_schema = R"({"type":"object"})",
    .annotations = {.destructive = false, .open_world = true},
    .handler = open_url,
};

}  // namespace companyos::mcp::tools
