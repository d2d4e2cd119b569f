// The tools that act: click, set_value, perform_action, insert_text (on an element by its
// number), click on a point of the window's picture, and type and keypress (keys to the
// app's window). Each answers with how sure it is of
// the effect, then the window's new state.
#include <algorithm>

#include "mcp/element_numbers.h"
#include "mcp/outcome_line.h"
#include "mcp/state_changes.h"
#include "mcp/tools/app_state.h"
#include "mcp/tools/daemon_reply.h"
#include "mcp/tools/declarations.h"
#include "companyos/methods.h"
#include "core/text.h"

namespace companyos::mcp::tools {
namespace {

using methods::IntRange;
using methods::ParamSpec;
using methods::ParamType;

constexpr std::chrono::milliseconds kActionTimeout{20000};

// What settling said, for the agent: how long the app took, whether it was still changing,
// and which window the state is of when it is not the one acted on: one the action opened,
// or the one that took over from a window that closed.
std::string settle_note(const nlohmann::json& state) {
  std::string note;
  if (state.contains("opened_over")) {
    note += "A new window opened in front of " + state["opened_over"].get<std::string>() +
            " (the one acted on): this is its state.\n";
  }
  if (state.contains("handed_over_from")) {
    note += "The window " + state["handed_over_from"].get<std::string>() +
            " closed; this is the app's window now in front.\n";
  }
  const nlohmann::json settled = state.value("settled", nlohmann::json::object());
  if (settled.value("still_changing", false)) {
    note += "The app was still changing " + std::to_string(settled.value("waited_ms", 0)) +
            " ms after the action: this state may not be its last; read it again with get_app_state.\n";
  }
  return note;
}

// Which state an action is answered against: the one acted on, unless the agent asked for
// the whole new state.
struct AnswerBase {
  std::optional<ElementNumbers::Seen> acted_on;
  bool full = false;
};

AnswerBase answer_base(const nlohmann::json& arguments,
                       std::optional<ElementNumbers::Seen> acted_on) {
  AnswerBase base;
  base.full = arguments.value("full", false);
  base.acted_on = std::move(acted_on);
  return base;
}

// The new state as the agent reads it: the changes since the state acted on when they are
// of its window and shorter than the whole, else the whole.
std::string state_for_agent(const AppState& state, const AnswerBase& base,
                            const std::optional<std::string>& acted_on_view, nlohmann::json& structured) {
  const std::string whole = state_text(state);
  if (base.full || !base.acted_on || !acted_on_view || base.acted_on->window_id != state.window_id) return whole;
  const auto changes = outline_changes(*acted_on_view, state.outline);
  if (!changes) return whole;
  std::string text = changes_text(state, base.acted_on->state, *changes);
  if (text.size() >= whole.size()) return whole;
  structured["changes_since"] = base.acted_on->state;
  return text;
}

// The outcome line, then the new state of the window acted on (without a picture: the
// agent asks for one when it needs it): the state the daemon read once the app had settled,
// else (a refusal, or no state in the reply) a read now — as its changes since the state
// acted on, or whole.
ToolResult answer(ToolContext& context, const ActionOutcome& outcome, const std::string& app,
                  const std::optional<std::string>& window_id, const nlohmann::json& element,
                  const nlohmann::json& envelope, const AnswerBase& base) {
  // Read before the new state replaces it as its window's newest.
  const std::optional<std::string> acted_on_view =
      base.acted_on ? context.numbers().agent_view_of(base.acted_on->state) : std::nullopt;
  ToolResult result;
  result.is_error = outcome.is_error;
  result.content.push_back(text_block(outcome.line));
  result.structured = {{"delivery", outcome.delivery}, {"verified", outcome.verified}, {"route", outcome.route},
                       {"element", element}};
  if (!outcome.error_code.empty()) result.structured["error"] = outcome.error_code;
  const nlohmann::json settled = envelope.value("data", nlohmann::json::object()).value("state", nlohmann::json());
  Result<AppState> state = settled.is_object() ? settled_app_state(context, app, settled)
                                               : read_app_state(context, StateRequest{app, window_id, false, false});
  if (state) {
    const std::string note = settled.is_object() ? settle_note(settled) : std::string();
    result.structured["state"] = state->state;
    result.content.push_back(text_block(note + state_for_agent(*state, base, acted_on_view, result.structured)));
  } else {
    result.content.push_back(text_block("The new state could not be read: " + state.error().message));
  }
  return result;
}

// An element action: element N of the state the agent saw → the daemon's ref, then the call.
ToolResult act_on_element(ToolContext& context, const nlohmann::json& arguments, std::string_view method,
                          const std::string& what, nlohmann::json extra) {
  const std::string app = arguments["app"].get<std::string>();
  const std::int64_t element = arguments["element"].get<std::int64_t>();
  std::optional<std::string> state;
  if (arguments.contains("state")) state = arguments["state"].get<std::string>();
  auto seen = context.numbers().state_for(app, std::nullopt, element, state);
  if (!seen) {
    ToolResult refused = nothing_done(seen.error());
    refused.structured = {{"delivery", "not_delivered"}, {"verified", false}, {"element", element},
                          {"error", std::string(to_string(seen.error().code))}};
    return refused;
  }

  nlohmann::json params = std::move(extra);
  params["ref"] = ElementNumbers::ref_in(*seen, element);
  if (arguments.contains("within")) params["within"] = ElementNumbers::ref_in(*seen, arguments["within"].get<std::int64_t>());
  if (arguments.contains("cell")) params["cell"] = arguments["cell"];
  params["settle"] = true;
  const CallOutcome reply = context.call(method, params, kActionTimeout);
  if (reply.failure != CallFailure::kNone) return error_result(error_from_failure(reply));
  ActionOutcome outcome = describe_outcome(what, reply.envelope);
  if (outcome.error_code == "STALE_REF") {
    outcome.line = "Nothing was done: element " + std::to_string(element) + " does not resolve in state " +
                   seen->state + "; " + std::string(kStaleNumberAdvice) + ".";
  }
  // The new state is read of the window the element's state came from.
  return answer(context, outcome, app, seen->window_id, element, reply.envelope,
                answer_base(arguments, *seen));
}

ToolResult refused_arguments(std::string message, std::string suggestion) {
  return error_result(make_error(ErrorCode::kInvalidArgs, std::move(message), {}, std::move(suggestion)));
}

std::optional<std::string> window_id_of(const nlohmann::json& arguments) {
  if (!arguments.contains("window_id")) return std::nullopt;
  return arguments["window_id"].get<std::string>();
}

// A click on a point of the latest picture of the app's window: the pointer, so physical
// input (the daemon's click_at and its gate).
ToolResult click_point(ToolContext& context, const nlohmann::json& arguments) {
  const std::string app = arguments["app"].get<std::string>();
  const std::int64_t x = arguments["x"].get<std::int64_t>();
  const std::int64_t y = arguments["y"].get<std::int64_t>();
  auto picture = context.numbers().picture_of(app, window_id_of(arguments));
  if (!picture) return nothing_done(picture.error());
  if (x >= picture->width || y >= picture->height) {
    return nothing_done(make_error(
        ErrorCode::kInvalidArgs,
        "(" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the latest picture of the window, " +
            std::to_string(picture->width) + "×" + std::to_string(picture->height) + " pixels",
        {{"x", x}, {"y", y}}, "take x and y from the picture, counting from its top-left pixel"));
  }
  const std::string what = "click at " + std::to_string(x) + "," + std::to_string(y);
  const CallOutcome reply = context.call(
      "click_at",
      {{"app", app}, {"window", picture->window_id}, {"x", x}, {"y", y}, {"headed", true}, {"settle", true}},
      kActionTimeout);
  if (reply.failure != CallFailure::kNone) return error_result(error_from_failure(reply));
  return answer(context, describe_outcome(what, reply.envelope), app, picture->window_id, nullptr, reply.envelope,
                answer_base(arguments, context.numbers().latest(app, picture->window_id)));
}

ToolResult click(ToolContext& context, const nlohmann::json& arguments) {
  const bool by_element = arguments.contains("element");
  const bool has_x = arguments.contains("x");
  const bool has_y = arguments.contains("y");
  if (by_element && (has_x || has_y)) {
    return refused_arguments("give element, or x and y, not both",
                             "an element number is resolved and checked; prefer it to a point");
  }
  if (has_x != has_y) return refused_arguments("a point needs both x and y", "give x and y from the picture");
  if (has_x) return click_point(context, arguments);
  if (!by_element) {
    return refused_arguments("name the element to click (its number) or a point (x and y)",
                             "element numbers come from get_app_state");
  }
  return act_on_element(context, arguments, "click", "click", nlohmann::json::object());
}

// What a paste says beyond the keys: whether the app took the text, and the clipboard.
std::string paste_facts(const nlohmann::json& data) {
  std::string facts = data.value("taken", false) ? ", the app took the text" : ", the app never asked for the text";
  const std::string restore =
      data.contains("clipboard") ? data["clipboard"].value("restore", std::string("?")) : std::string("?");
  if (restore == "restored") return facts + ", the clipboard was put back";
  if (restore == "partly") return facts + ", the clipboard was put back without some of its formats";
  if (restore == "kept_newer") return facts + ", another app copied meanwhile and the clipboard holds that";
  return facts + ", the clipboard's earlier content could not be read and it was left empty";
}

// Keyboard text into whatever has the focus in the app's window (the daemon's type_text),
// key by key or pasted through the clipboard.
ToolResult type_keys(ToolContext& context, const nlohmann::json& arguments) {
  const std::string app = arguments["app"].get<std::string>();
  const bool paste = arguments.value("paste", false);
  nlohmann::json params = {{"app", app}, {"text", arguments["text"]}, {"headed", true}, {"settle", true}};
  if (paste) params["paste"] = true;
  // Without one, the daemon takes the app's default window (a11y::default_window_of).
  const auto window_id = window_id_of(arguments);
  if (window_id) params["window"] = *window_id;
  const AnswerBase base = answer_base(arguments, context.numbers().latest(app, window_id));
  const CallOutcome reply = context.call("type_text", params, kActionTimeout);
  if (reply.failure != CallFailure::kNone) return error_result(error_from_failure(reply));
  const nlohmann::json data = reply.envelope.value("data", nlohmann::json::object());
  std::string what = std::string(paste ? "type by paste, " : "type, ") + std::to_string(data.value("typed", 0)) +
                     " characters";
  if (paste && reply.envelope.value("ok", false)) what += paste_facts(data);
  return answer(context, describe_outcome(what, reply.envelope), app, window_id, nullptr, reply.envelope, base);
}

ToolResult set_value(ToolContext& context, const nlohmann::json& arguments) {
  const nlohmann::json& value = arguments["value"];
  if (!value.is_string() && !value.is_number()) {
    return error_result(make_error(ErrorCode::kInvalidArgs, "value must be a text or a number"));
  }
  return act_on_element(context, arguments, "set_value", "set_value", {{"value", value}});
}

ToolResult perform_action(ToolContext& context, const nlohmann::json& arguments) {
  const std::string action = arguments["action"].get<std::string>();
  return act_on_element(context, arguments, "action", "perform_action " + action, {{"action", action}});
}

ToolResult insert_text(ToolContext& context, const nlohmann::json& arguments) {
  return act_on_element(context, arguments, "type", "insert_text", {{"text", arguments["text"]}});
}

// Key names as agents send them, to the daemon's chord spelling.
std::string chord_key(const std::string& key) {
  const std::string lower = ascii_lowercase(key);
  if (lower == "cmdorctrl" || lower == "cmd" || lower == "command" || lower == "control") return "ctrl";
  if (lower == "option") return "alt";
  if (lower == "win" || lower == "meta") return "super";
  if (lower == "enter" || lower == "return") return "Return";
  if (lower == "esc") return "Escape";
  return key;
}

ToolResult keypress(ToolContext& context, const nlohmann::json& arguments) {
  const std::string app = arguments["app"].get<std::string>();
  const nlohmann::json& keys = arguments["keys"];
  if (keys.empty()) return error_result(make_error(ErrorCode::kInvalidArgs, "keys is empty: name a key"));
  std::string chord;
  for (const nlohmann::json& key : keys) {
    chord += (chord.empty() ? "" : "+") + chord_key(key.get<std::string>());
  }
  // The request asks for physical input; the daemon's setting physical_input still decides.
  nlohmann::json params = {{"app", app}, {"chord", chord}, {"headed", true}, {"settle", true}};
  // Without one, the daemon takes the app's default window (a11y::default_window_of).
  const auto window_id = window_id_of(arguments);
  if (window_id) params["window"] = *window_id;
  const AnswerBase base = answer_base(arguments, context.numbers().latest(app, window_id));
  const CallOutcome reply = context.call("press", params, kActionTimeout);
  if (reply.failure != CallFailure::kNone) return error_result(error_from_failure(reply));
  ActionOutcome outcome = describe_outcome("keypress " + chord, reply.envelope);
  const nlohmann::json details = reply.envelope.value("error", nlohmann::json::object())
                                     .value("details", nlohmann::json::object());
  if (details.value("reason", "") == "session_chord") {
    // The daemon's way past this refusal (force) is never offered to an agent.
    outcome.line = "Nothing was done: " + chord + " ends, locks or switches the session, and an agent may never send it.";
  }
  // A chord is physical input whatever route the daemon names.
  if (outcome.delivery == "delivered_unverified" && outcome.route.rfind("xtest", 0) != 0) {
    outcome.line = "Input was posted (keypress " + chord + "); nothing confirmed the effect.";
  }
  return answer(context, outcome, app, window_id, nullptr, reply.envelope, base);
}

ParamSpec full_param() {
  return {.name = "full", .type = ParamType::kBoolean,
          .help = "answer with the whole new state (default: only what changed since the state acted on)"};
}

ParamSpec cell_param() {
  return {.name = "cell",
          .help = "with a table's number (a spreadsheet's sheet): its cell by address, e.g. B3 — shown or "
                  "not; a formula is entered as =A1*2"};
}

ParamSpec within_param() {
  return {.name = "within", .type = ParamType::kInteger,
          .help = "for twins (twin=N in the state): the number of an element of the same state that holds only "
                  "the one you mean; it must itself be unique",
          .range = IntRange{0, {}}};
}

// Whether a tool needs an element's number, or takes a point of the window's picture instead.
enum class ElementNumber { kRequired, kOrPoint };

std::vector<ParamSpec> element_params(std::vector<ParamSpec> extra, ElementNumber number = ElementNumber::kRequired) {
  const bool or_point = number == ElementNumber::kOrPoint;
  std::vector<ParamSpec> params = {
      {.name = "app", .required = true,
       .help = or_point ? "the app whose state the element number or picture comes from"
                        : "the app whose state the element number comes from"},
      {.name = "element", .type = ParamType::kInteger, .required = !or_point,
       .help = "the element's number N (eN in the state)", .range = IntRange{0, {}}},
      {.name = "state", .help = "the state the number comes from (default: the newest one shown of the app)"},
      within_param(),
      cell_param(),
      full_param(),
  };
  params.insert(params.end(), extra.begin(), extra.end());
  return params;
}

constexpr const char* kActionSchema = R"({
  "type": "object",
  "properties": {
    "delivery": {"enum": ["not_delivered", "delivered_unverified", "delivered_verified"]},
    "verified": {"type": "boolean"},
    "route": {"type": "string"},
    "state": {"type": "string", "description": "the new state the element numbers now belong to"},
    "changes_since": {"type": "string", "description": "present when the text gives only the changes since this state"},
    "element": {"type": ["integer", "null"]},
    "error": {"type": "string"}
  },
  "required": ["delivery", "verified"]
})";

}  // namespace

const ToolDeclaration kClick{
    .name = "click",
    .title = "Click an element",
    .description = "Click, press or activate the element numbered N in the app's state, through its own "
                   "accessible action. Or, where no element serves, click the point x, y of the latest "
                   "picture of the app's window through the pointer (physical input: refused unless the "
                   "person turned it on). Answers how sure it is of the effect, then the new state.",
    .params = element_params(
        {{.name = "x", .type = ParamType::kInteger, .help = "instead of element: pixels from the picture's left edge",
          .range = IntRange{0, methods::kMaxWindowCoordinate}},
         {.name = "y", .type = ParamType::kInteger, .help = "with x: pixels from the picture's top edge",
          .range = IntRange{0, methods::kMaxWindowCoordinate}},
         {.name = "window_id", .help = "with x and y: the window whose picture they come from (default: the "
                                       "app's newest picture)"}},
        ElementNumber::kOrPoint),
    .output_schema = kActionSchema,
    .annotations = {.destructive = true},
    .handler = click,
};

const ToolDeclaration kSetValue{
    .name = "set_value",
    .title = "Set an element's value",
    .description = "Replace the text or number of element N and read it back; with cell, of that cell of "
                   "table N (a number, text, or a formula such as =A1*2, entered as typed). Password "
                   "fields need the person's say-so and are never shown.",
    .params = element_params({{.name = "value", .type = ParamType::kAny, .required = true,
                               .help = "the new text, or a number for sliders and spin buttons"}}),
    .output_schema = kActionSchema,
    .annotations = {.destructive = true, .idempotent = true},
    .handler = set_value,
};

const ToolDeclaration kPerformAction{
    .name = "perform_action",
    .title = "Perform a named action",
    .description = "Run one of the actions element N lists (actions=... in the state), by its name.",
    .params = element_params({{.name = "action", .required = true, .help = "an action name the element lists"}}),
    .output_schema = kActionSchema,
    .annotations = {.destructive = true},
    .handler = perform_action,
};

const ToolDeclaration kInsertText{
    .name = "insert_text",
    .title = "Insert text",
    .description = "Insert text at the caret of element N through its editable text, without key events; "
                   "read back.",
    .params = element_params({{.name = "text", .required = true, .help = "the text to insert"}}),
    .output_schema = kActionSchema,
    .annotations = {.destructive = true},
    .handler = insert_text,
};

// Typed, at most what type_text types; pasted, what the clipboard takes. Defined before
// kType, so made before it.
const std::string kTypeTextHelp =
    "the text; typed, " +
    methods::length_text({methods::kMaxTypedCharacters, methods::LengthUnit::kCharacters}) + "; pasted (any characters)";

const ToolDeclaration kType{
    .name = "type",
    .title = "Type text",
    .description = "Type text through the keyboard into whatever has the focus in the app's window (physical "
                   "input: refused unless the person turned it on). Give the element the focus first (click it); "
                   "a newline presses Return. To fill one element and have it read back, prefer set_value or "
                   "insert_text.",
    .params = {{.name = "app", .required = true, .help = "the app whose window gets the text"},
               {.name = "text", .required = true, .help = kTypeTextHelp,
                .length = methods::LengthLimit{methods::kMaxClipboardTextBytes, methods::LengthUnit::kBytes}},
               {.name = "paste", .type = ParamType::kBoolean,
                .help = "through the clipboard and ctrl+v; the clipboard's earlier content is put back after"},
               {.name = "window_id", .help = "one of the app's windows (default: the one the daemon picks)"},
               full_param()},
    .output_schema = kActionSchema,
    .annotations = {.destructive = true},
    .handler = type_keys,
};

const ToolDeclaration kKeypress{
    .name = "keypress",
    .title = "Press keys",
    .description = "Press a key chord in the app's window through the keyboard (physical input: refused "
                   "unless the person turned it on). Keys in order, modifiers first: [\"cmdorctrl\",\"s\"]. "
                   "Chords that end, lock or switch the session are always refused.",
    .params = {{.name = "app", .required = true, .help = "the app whose window gets the keys"},
               {.name = "keys", .type = ParamType::kArray, .required = true,
                .help = "modifiers then one key, e.g. [\"cmdorctrl\",\"s\"] or [\"Return\"]",
                .items = ParamType::kString},
               {.name = "window_id", .help = "one of the app's windows (default: the one the daemon picks)"},
               full_param()},
    .output_schema = kActionSchema,
    .annotations = {.destructive = true},
    .handler = keypress,
};

}  // namespace companyos::mcp::tools
