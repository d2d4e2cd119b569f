// focus-window, close-window, press: whole-window actions (X11).
#include <iostream>

#include "cli/command.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

struct WindowTarget {
  std::string app, window, title;
};

void add_target_options(CLI::App* cmd, WindowTarget& target) {
  cmd->add_option("--app", target.app, "application name")->required();
  auto* w = cmd->add_option("--window", target.window, "window id (from `companyos windows`)");
  auto* t = cmd->add_option("--title", target.title, "exact window title");
  w->excludes(t);
}

nlohmann::json target_params(const WindowTarget& target) {
  nlohmann::json params = {{"app", target.app}};
  if (!target.window.empty()) params["window"] = target.window;
  if (!target.title.empty()) params["title"] = target.title;
  return params;
}

void print_delivery(const nlohmann::json& data) {
  const nlohmann::json& target = data["target"];
  std::cout << plain(data["delivery"]) << ": " << plain(target["app"]);
  // Through the agent-desktop bridge the reply names the app only, no window.
  if (target.contains("window")) {
    std::cout << " \"" << plain(target["window"]["title"]) << "\"\n";
  } else {
    std::cout << " (through " << plain(data.value("via", nlohmann::json("?"))) << ")\n";
  }
}

}  // namespace

void add_window_action_commands(CLI::App& app, Invocation& out) {
  auto focus = std::make_shared<WindowTarget>();
  auto* focus_cmd = add_command(app, "focus-window", "Bring a window forward and confirm it is active (X11).",
                                "  companyos focus-window --app mousepad\n"
                                "  companyos focus-window --app mousepad --title 'Untitled 1'\n");
  add_target_options(focus_cmd, *focus);
  focus_cmd->callback([&out, focus] {
    out.method = "focus_window";
    out.params = target_params(*focus);
    out.human = print_delivery;
  });

  auto close = std::make_shared<WindowTarget>();
  auto* close_cmd = add_command(app, "close-window",
                                "Ask the window manager to close a window; verified when it is gone.",
                                "  companyos close-window --app mousepad --title 'Untitled 1'\n");
  add_target_options(close_cmd, *close);
  close_cmd->callback([&out, close] {
    out.method = "close_window";
    out.params = target_params(*close);
    out.human = print_delivery;
  });

  struct PressArgs {
    WindowTarget target;
    std::string chord;
    bool headed = false, force = false;
  };
  auto press = std::make_shared<PressArgs>();
  auto* press_cmd = add_command(
      app, "press",
      "Send a key chord to an app's window through XTest. Physical input: needs the setting\n"
      "physical_input=true and --headed; the window is brought forward first.",
      "  companyos settings set physical_input true\n"
      "  companyos press ctrl+s --app mousepad --headed\n"
      "  companyos press Return --app mousepad --title 'Save As' --headed\n");
  press_cmd->add_option("chord", press->chord, "modifiers then one key, joined by +")->required();
  add_target_options(press_cmd, press->target);
  press_cmd->add_flag("--headed", press->headed, "allow physical input for this request");
  press_cmd->add_flag("--force", press->force, "allow chords that end, lock or switch the session");
  press_cmd->callback([&out, press] {
    out.method = "press";
    out.params = target_params(press->target);
    out.params["chord"] = press->chord;
    out.params["headed"] = press->headed;
    out.params["force"] = press->force;
    out.human = [](const nlohmann::json& data) {
      std::cout << plain(data["delivery"]) << ": " << plain(data["chord"]) << " to "
                << plain(data["target"]["app"]) << "\n";
    };
  });
}

}  // namespace companyos::cli
