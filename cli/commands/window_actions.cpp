// focus-window, close-window, press, type-text (or paste), click-at: whole-window actions (X11).
#include <iostream>
#include <memory>

#include "cli/command_parts.h"
#include "cli/render.h"
#include "companyos/reply_fields.h"

namespace companyos::cli {
namespace {

void print_delivery(const nlohmann::json& data) {
  const nlohmann::json& target = data["target"];
  std::cout << plain(data[reply_fields::outcome::kDelivery]) << ": " << plain(target["app"]);
  // Through the agent-desktop bridge the reply names the app only, no window.
  if (target.contains("window")) {
    std::cout << " \"" << plain(target["window"]["title"]) << "\"\n";
  } else {
    std::cout << " (through " << plain(data.value("via", nlohmann::json("?"))) << ")\n";
  }
}

[[maybe_unused]] const bool focus_window_registered = register_command(
    methods::kFocusWindow, {.details = "X11 only.",
                            .examples = "  companyos focus-window --app mousepad\n"
                                        "  companyos focus-window --app mousepad --title 'Untitled 1'\n",
                            .human = print_delivery});

[[maybe_unused]] const bool close_window_registered = register_command(
    methods::kCloseWindow,
    {.examples = "  companyos close-window --app mousepad --title 'Untitled 1'\n", .human = print_delivery});

[[maybe_unused]] const bool press_registered = register_command(
    methods::kPress,
    {.details = "Physical input: needs the setting physical_input=true and --headed; the window is brought\n"
                "forward first.",
     .examples = "  companyos settings set physical_input true\n"
                 "  companyos press ctrl+s --app mousepad --headed\n"
                 "  companyos press Return --app mousepad --title 'Save As' --headed\n",
     .by_hand = {"chord"},
     .bind = bind_positional(methods::kPress, "chord"),
     .human = [](const nlohmann::json& data) {
       std::cout << plain(data[reply_fields::outcome::kDelivery]) << ": " << plain(data["chord"]) << " to " << plain(data["target"]["app"])
                 << "\n";
       render_settled_state(std::cout, data);
     }});

[[maybe_unused]] const bool type_text_registered = register_command(
    methods::kTypeText,
    {.details = "Physical input, like press: needs the setting physical_input=true and --headed. The window is\n"
                "brought forward and checked to be active before every 16 characters; typing stops if it is\n"
                "not. TEXT - reads the text from standard input (it stays out of the process list). To fill\n"
                "one element, set-value or type on its ref say whether the text arrived; this does not.\n"
                "--paste puts the text on the clipboard, presses ctrl+v and puts the clipboard's earlier\n"
                "content back; the reply says whether the app took the text and how the clipboard was restored.",
     .examples = "  companyos type-text 'Hello, world' --app mousepad --headed\n"
                 "  printf 'line one\\nline two' | companyos type-text - --app mousepad --headed\n"
                 "  companyos type-text - --paste --app mousepad --headed < notes.txt\n",
     .by_hand = {"text"},
     .bind = bind_positional(methods::kTypeText, "text", ArgumentSource::kOrStdin),
     .human = [](const nlohmann::json& data) {
       const bool pasted = data.contains("clipboard");
       std::cout << plain(data[reply_fields::outcome::kDelivery]) << ": " << plain(data["typed"]) << " characters "
                 << (pasted ? "pasted into " : "typed into ") << plain(data["target"]["app"]) << " \""
                 << plain(data["target"]["window"]["title"]) << "\"\n";
       if (pasted) {
         std::cout << (data.value("taken", false) ? "the app took the text" : "the app did not ask for the text")
                   << "; clipboard " << plain(data["clipboard"]["restore"]) << "\n";
       }
       render_settled_state(std::cout, data);
     }});

[[maybe_unused]] const bool click_at_registered = register_command(
    methods::kClickAt,
    {.details = "Physical input, like press. x and y count from the top-left pixel of the window's client\n"
                "area, as in `companyos screenshot`. Refused when the point is outside the window or another\n"
                "window (a menu, a dialog) covers it. To click an element, click its ref instead: that is\n"
                "resolved and checked; a point is not.",
     .examples = "  companyos click-at --app mousepad --x 120 --y 40 --headed\n"
                 "  companyos click-at --app mousepad --title 'Untitled 1' --x 5 --y 5 --button 3 --headed\n",
     .human = [](const nlohmann::json& data) {
       std::cout << plain(data[reply_fields::outcome::kDelivery]) << ": button " << plain(data["button"]) << " at ("
                 << plain(data["point"]["x"]) << ", " << plain(data["point"]["y"]) << ") on screen in "
                 << plain(data["target"]["app"]) << " \"" << plain(data["target"]["window"]["title"]) << "\"\n";
       render_settled_state(std::cout, data);
     }});

}  // namespace
}  // namespace companyos::cli
