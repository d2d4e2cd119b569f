// clipboard get / clipboard set TEXT: the X11 clipboard's text.
#include <iostream>

#include "cli/command_parts.h"
#include "cli/render.h"
#include "companyos/reply_fields.h"

namespace companyos::cli {
namespace {

[[maybe_unused]] const bool clipboard_group_registered =
    register_group("clipboard", {"Read or set the X11 clipboard's text (CLIPBOARD).",
                                 "  companyos clipboard get\n"
                                 "  companyos clipboard set 'some text'\n"});

[[maybe_unused]] const bool clipboard_get_registered = register_command(
    methods::kClipboardGet, {.details = "Prints the text as it is, without a newline added; nothing when the\n"
                                        "clipboard holds no text. A password manager's secret is refused.",
                             .examples = "  companyos clipboard get\n  companyos clipboard get > copied.txt\n"
                                         "  companyos --json clipboard get | jq -r .data.text\n",
                             .human = [](const nlohmann::json& data) {
                               if (data["text"].is_string()) {
                                 std::cout << data["text"].get<std::string>();
                               } else {
                                 std::cerr << "the clipboard holds no text\n";
                               }
                             }});

[[maybe_unused]] const bool clipboard_set_registered = register_command(
    methods::kClipboardSet, {.details = "TEXT - reads the text from standard input. The daemon owns the clipboard\n"
                                        "afterwards and hands the text to any app that pastes, until another app\n"
                                        "copies something; it is verified by reading it back through the X server.",
                             .examples = "  companyos clipboard set 'Hello, world'\n"
                                         "  companyos clipboard set - < notes.txt\n",
                             .by_hand = {"text"},
                             .bind = bind_positional(methods::kClipboardSet, "text", ArgumentSource::kOrStdin),
                             .human = [](const nlohmann::json& data) {
                               std::cout << plain(data[reply_fields::outcome::kDelivery]) << ": " << plain(data["bytes"])
                                         << " bytes on the clipboard\n";
                             }});

}  // namespace
}  // namespace companyos::cli
