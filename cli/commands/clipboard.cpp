// clipboard get / clipboard set TEXT: the X11 clipboard's text.
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/declared_options.h"
#include "cli/render.h"

namespace companyos::cli {

void add_clipboard_commands(CLI::App& app, Invocation& out) {
  auto* clipboard = add_command(app, "clipboard", "Read or set the X11 clipboard's text (CLIPBOARD).",
                                "  companyos clipboard get\n"
                                "  companyos clipboard set 'some text'\n");
  clipboard->require_subcommand(1);

  auto* get = add_method_command(*clipboard, methods::kClipboardGet,
                                 "Prints the text as it is, without a newline added; nothing when the\n"
                                 "clipboard holds no text. A password manager's secret is refused.",
                                 "  companyos clipboard get\n  companyos clipboard get > copied.txt\n"
                                 "  companyos --json clipboard get | jq -r .data.text\n")
                  .cmd;
  get->callback([&out] {
    out.method = methods::kClipboardGet.name;
    out.human = [](const nlohmann::json& data) {
      if (data["text"].is_string()) {
        std::cout << data["text"].get<std::string>();
      } else {
        std::cerr << "the clipboard holds no text\n";
      }
    };
  });

  auto text = std::make_shared<std::string>();
  auto* set = add_method_command(*clipboard, methods::kClipboardSet,
                                 "TEXT - reads the text from standard input. The daemon owns the clipboard\n"
                                 "afterwards and hands the text to any app that pastes, until another app\n"
                                 "copies something; it is verified by reading it back through the X server.",
                                 "  companyos clipboard set 'Hello, world'\n"
                                 "  companyos clipboard set - < notes.txt\n",
                                 {"text"})
                  .cmd;
  add_positional(set, methods::kClipboardSet, "text", *text);
  set->callback([&out, text] {
    out.method = methods::kClipboardSet.name;
    out.params["text"] = argument_or_stdin(*text);
    out.human = [](const nlohmann::json& data) {
      std::cout << plain(data["delivery"]) << ": " << plain(data["bytes"]) << " bytes on the clipboard\n";
    };
  });
}

}  // namespace companyos::cli
