// open_app: an app started through its desktop entry (the daemon's open_app: the launch
// rules and refusals, the in-front check), answered with the app's state so the agent can
// act at once.
#include "companyos/methods.h"
#include "mcp/tools/app_state.h"
#include "mcp/tools/daemon_reply.h"
#include "mcp/tools/declarations.h"

namespace companyos::mcp::tools {
namespace {

constexpr std::chrono::milliseconds kAppLaunchTimeout{40000};

ToolResult open_app(ToolContext& context, const nlohmann::json& arguments) {
  const std::string app = arguments["app"].get<std::string>();
  const CallOutcome reply = context.call("open_app", {{"app", app}}, kAppLaunchTimeout);
  auto data = daemon_data(reply);
  if (!data) return launch_failed(reply, data.error(), "open_app");
  const std::string entry = data->value("entry", nlohmann::json::object()).value("id", std::string("its entry"));
  ToolResult result;
  result.content.push_back(text_block(app + " was started (" + entry + "), and its window is in front."));
  result.structured = {{"launch", *data}};
  // The app's own name on the accessibility bus may differ from the entry's (mousepad's is
  // "mousepad", GNOME Calculator's "gnome-calculator"): the state is read of the window in
  // front, whatever its app is called.
  auto state = read_app_state(context, StateRequest{std::nullopt, std::nullopt, false, false});
  if (state) {
    result.content.push_back(text_block(state_text(*state)));
    result.structured["state"] = state_summary(*state);
  } else {
    result.content.push_back(text_block("Its state could not be read yet: " + state.error().message +
                                        "; call get_app_state"));
  }
  return result;
}

}  // namespace

const ToolDeclaration kOpenApp{
    .name = "open_app",
    .title = "Start an app",
    .description = "Start the named app through its desktop entry (never a shell), check its window is in "
                   "front, and answer with that window's state.",
    .wraps = &methods::kOpenApp,
    .params = {{.name = "app", .required = true,
                .help = "WM class, desktop-file id or Name of the app, e.g. mousepad or org.gnome.Calculator"}},
    .output_schema = R"({"type":"object"})",
    .annotations = {.destructive = false, .open_world = true},
    .handler = open_app,
};

}  // namespace companyos::mcp::tools
