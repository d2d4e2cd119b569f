#include <string>

#include "core/methods/params.h"

namespace companyos::methods {

const MethodDeclaration kFocusWindow{
    .name = "focus_window",
    .command = "focus-window",
    .summary = "bring one window forward (EWMH) and confirm it is active",
    .params = shared::window_target(),
    .target = TargetKind::kWindow,
    .flags = kFlagEffectful | kFlagNeedsX11 | kFlagBatchable,
    .returns = R"(`delivery`, `target` (or, through the agent-desktop bridge, `via`, `windows`, `calls`))",
};

const MethodDeclaration kCloseWindow{
    .name = "close_window",
    .command = "close-window",
    .summary = "ask the window manager to close one window; verified when it is gone",
    .params = shared::window_target(),
    .target = TargetKind::kWindow,
    .flags = kFlagEffectful | kFlagNeedsX11 | kFlagBatchable,
    .returns = R"(`delivery`, `closed`, `target`)",
};

const MethodDeclaration kPress{
    .name = "press",
    .command = "press",
    .summary = "send a key chord to an app's window through XTest (physical input)",
    .params = shared::window_target(
        {{.name = "chord", .required = true, .help = "modifiers then one key, joined by +: ctrl+s, Return, alt+F4"},
         {.name = "headed", .type = ParamType::kBoolean, .help = "allow physical input for this request"},
         {.name = "force", .type = ParamType::kBoolean, .help = "allow chords that end, lock or switch the session"},
         shared::settle()}),
    .target = TargetKind::kWindow,
    .flags = kFlagEffectful | kFlagNeedsX11 | kFlagAsksApproval | kFlagBatchable,
    .returns = R"(`delivery`, `chord`, `target` — see [actions.md](actions.md))",
};

namespace {

// Typed, the text is bounded by the physical-input lock it holds; pasted, by the clipboard.
// Defined before kTypeText, so made before it.
const std::string kTypeTextHelp =
    "UTF-8 text; typed, " + length_text({kMaxTypedCharacters, LengthUnit::kCharacters}) +
    " (a newline presses Return, a tab Tab); pasted";

}  // namespace

const MethodDeclaration kTypeText{
    .name = "type_text",
    .command = "type-text",
    .summary = "type text into whatever has the focus in an app's window, through XTest (physical input)",
    .params = shared::window_target(
        {{.name = "text", .required = true, .help = kTypeTextHelp,
          .length = LengthLimit{kMaxClipboardTextBytes, LengthUnit::kBytes}},
         {.name = "paste", .type = ParamType::kBoolean,
          .help = "paste it through the clipboard (ctrl+v) instead of typing; the clipboard is put back after"},
         {.name = "headed", .type = ParamType::kBoolean, .help = "allow physical input for this request"},
         shared::settle()}),
    .target = TargetKind::kWindow,
    .flags = kFlagEffectful | kFlagNeedsX11 | kFlagAsksApproval,
    .returns = R"(`delivery`, `route` (`xtest:keyboard`, or `xtest:paste` with `paste`, then also `taken` and `clipboard`), `typed` (characters; never the text), `target` — see [actions.md](actions.md))",
};

const MethodDeclaration kClickAt{
    .name = "click_at",
    .command = "click-at",
    .summary = "click one point of an app's window through the pointer (XTest, physical input)",
    .params = shared::window_target(
        {{.name = "x", .type = ParamType::kInteger, .required = true,
          .help = "pixels from the left edge of the window's client area (as in its screenshot)",
          .range = IntRange{0, kMaxWindowCoordinate}},
         {.name = "y", .type = ParamType::kInteger, .required = true,
          .help = "pixels from the top edge of the window's client area",
          .range = IntRange{0, kMaxWindowCoordinate}},
         {.name = "button", .type = ParamType::kInteger, .help = "1 left (default), 2 middle, 3 right",
          .range = IntRange{1, 3}},
         {.name = "headed", .type = ParamType::kBoolean, .help = "allow physical input for this request"},
         shared::settle()}),
    .target = TargetKind::kWindow,
    .flags = kFlagEffectful | kFlagNeedsX11 | kFlagAsksApproval,
    .returns = R"(`delivery`, `route` (`xtest:pointer`), `point` (screen x, y), `button`, `target` — see [actions.md](actions.md))",
};

}  // namespace companyos::methods
