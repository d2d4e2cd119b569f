// focus-window, close-window, press, type-text (or paste), click-at: whole-window actions (X11).
#include <iostream>
#include <memory>

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
      render_settled_state(std::cout, data);
    };
  });

  auto text = std::make_shared<std::string>();
  auto type_text = add_method_command(
      app, methods::kTypeText,
      "Physical input, like press: needs the setting physical_input=true and --headed. The window is\n"
      "brought forward and checked to be active before every 16 characters; typing stops if it is\n"
      "not. TEXT - reads the text from standard input (it stays out of the process list). To fill\n"
      "one element, set-value or type on its ref say whether the text arrived; this does not.\n"
      "--paste puts the text on the clipboard, presses ctrl+v and puts the clipboard's earlier\n"
      "content back; the reply says whether the app took the text and how the clipboard was restored.",
      "  companyos type-text 'Hello, world' --app mousepad --headed\n"
      "  printf 'line one\\nline two' | companyos type-text - --app mousepad --headed\n"
      "  companyos type-text - --paste --app mousepad --headed < notes.txt\n",
      {"text"});
  add_positional(type_text.cmd, methods::kTypeText, "text", *text);
  type_text.cmd->callback([&out, text, options = type_text.options] {
    out.method = methods::kTypeText.name;
    options->fill(out.params);
    out.params["text"] = argument_or_stdin(*text);
    out.human = [](const nlohmann::json& data) {
      const bool pasted = data.contains("clipboard");
      std::cout << plain(data["delivery"]) << ": " << plain(data["typed"]) << " characters "
                << (pasted ? "pasted into " : "typed into ") << plain(data["target"]["app"]) << " \""
                << plain(data["target"]["window"]["title"]) << "\"\n";
      if (pasted) {
        std::cout << (data.value("taken", false) ? "the app took the text" : "the app did not ask for the text")
                  << "; clipboard " << plain(data["clipboard"]["restore"]) << "\n";
      }
      render_settled_state(std::cout, data);
    };
  });

  auto click_at = add_method_command(
      app, methods::kClickAt,
      "Physical input, like press. x and y count from the top-left pixel of the window's client\n"
      "area, as in `companyos screenshot`. Refused when the point is outside the window or another\n"
      "window (a menu, a dialog) covers it. To click an element, click its ref instead: that is\n"
      "resolved and checked; a point is not.",
      "  companyos click-at --app mousepad --x 120 --y 40 --headed\n"
      "  companyos click-at --app mousepad --title 'Untitled 1' --x 5 --y 5 --button 3 --headed\n");
  click_at.cmd->callback([&out, options = click_at.options] {
    out.method = methods::kClickAt.name;
    options->fill(out.params);
    out.human = [](const nlohmann::json& data) {
      std::cout << plain(data["delivery"]) << ": button " << plain(data["button"]) << " at ("
                << plain(data["point"]["x"]) << ", " << plain(data["point"]["y"]) << ") on screen in "
                << plain(data["target"]["app"]) << " \"" << plain(data["target"]["window"]["title"]) << "\"\n";
      render_settled_state(std::cout, data);
    };
  });
}

}  // namespace companyos::cli
