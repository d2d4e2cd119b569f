// focus-window, close-window, press: whole-window actions (X11).
#include <iostream>

#include "cli/command.h"
#include "cli/declared_options.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

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
  auto focus = add_method_command(app, methods::kFocusWindow, "X11 only.",
                                  "  companyos focus-window --app mousepad\n"
                                  "  companyos focus-window --app mousepad --title 'Untitled 1'\n");
  focus.cmd->callback([&out, options = focus.options] {
    out.method = methods::kFocusWindow.name;
    options->fill(out.params);
    out.human = print_delivery;
  });

  auto close = add_method_command(app, methods::kCloseWindow, "",
                                  "  companyos close-window --app mousepad --title 'Untitled 1'\n");
  close.cmd->callback([&out, options = close.options] {
    out.method = methods::kCloseWindow.name;
    options->fill(out.params);
    out.human = print_delivery;
  });

  auto chord = std::make_shared<std::string>();
  auto press = add_method_command(
      app, methods::kPress,
      "Physical input: needs the setting physical_input=true and --headed; the window is brought\n"
      "forward first.",
      "  companyos settings set physical_input true\n"
      "  companyos press ctrl+s --app mousepad --headed\n"
      "  companyos press Return --app mousepad --title 'Save As' --headed\n",
      {"chord"});
  add_positional(press.cmd, methods::kPress, "chord", *chord);
  press.cmd->callback([&out, chord, options = press.options] {
    out.method = methods::kPress.name;
    options->fill(out.params);
    out.params["chord"] = *chord;
    out.human = [](const nlohmann::json& data) {
      std::cout << plain(data["delivery"]) << ": " << plain(data["chord"]) << " to "
                << plain(data["target"]["app"]) << "\n";
    };
  });
}

}  // namespace companyos::cli
