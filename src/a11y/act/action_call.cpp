#include "a11y/act/action_call.h"

#include "a11y/bus.h"

namespace companyos::a11y {
namespace {

constexpr const char* kEditableTextInterface = "org.a11y.atspi.EditableText";

}  // namespace

ActionCallOutcome send_action_call(Pipeline& pipeline, const ChosenRoute& route,
                                   const ActionCallArguments& arguments) {
  ActionCallOutcome outcome;
  const std::size_t calls_before = pipeline.calls_started();
  auto on_reply = [&outcome](bool boolean_answer) {
    return [&outcome, boolean_answer](sd_bus_message* reply) {
      outcome.answered = true;
      if (const char* error = error_name(reply)) {
        outcome.error = error;
        outcome.gone = reply_says_gone(reply);
        return;
      }
      if (!boolean_answer) return;
      int accepted = 0;
      if (sd_bus_message_read_basic(reply, 'b', &accepted) > 0) outcome.accepted = accepted != 0;
    };
  };
  const char* path = arguments.element_path.c_str();
  switch (route.route) {
    case Route::kDoAction:
      pipeline.call(path, "org.a11y.atspi.Action", "DoAction", on_reply(true), "i",
                    static_cast<std::int32_t>(route.action_index));
      break;
    case Route::kSelectInParent:
    case Route::kSelectInGrandparent:
      pipeline.call(arguments.container_path.c_str(), "org.a11y.atspi.Selection", "SelectChild",
                    on_reply(true), "i", static_cast<std::int32_t>(arguments.index));
      break;
    case Route::kGrabFocus:
      pipeline.call(path, "org.a11y.atspi.Component", "GrabFocus", on_reply(true));
      break;
    case Route::kSetText:
      pipeline.call(path, kEditableTextInterface, "SetTextContents", on_reply(true), "s",
                    arguments.text.c_str());
      break;
    case Route::kSetNumber:
    case Route::kCellNumber:
      pipeline.call(path, kPropertiesInterface, "Set", on_reply(false), "ssv",
                    "org.a11y.atspi.Value", "CurrentValue", "d", arguments.number);
      break;
    case Route::kInsertText:
      // The length in bytes, as GTK hands it to gtk_editable_insert_text; toolkits that
      // count characters still get the whole text from it.
      pipeline.call(path, kEditableTextInterface, "InsertText", on_reply(true), "isi",
                    arguments.insert_at, arguments.text.c_str(),
                    static_cast<std::int32_t>(arguments.text.size()));
      break;
    case Route::kAlreadyInState:
    case Route::kCellEntry:  // several calls (ActionRun::deliver_to_cell)
    case Route::kKeyboard:  // the caller's keyboard, not a call
      return outcome;
  }
  outcome.sent = pipeline.calls_started() > calls_before;
  if (outcome.sent) pipeline.wait();
  outcome.disconnected = pipeline.disconnected();
  return outcome;
}

}  // namespace companyos::a11y
