#include "core/methods/params.h"

namespace companyos::methods {

const MethodDeclaration kFocusWindow{
    .name = "focus_window",
    .command = "focus-window",
    .summary = "bring one window forward (EWMH) and confirm it is active",
    .params = shared::window_target(),
    .target = TargetKind::kWindow,
    .flags = kFlagEffectful | kFlagNeedsX11,
    .returns = R"(`delivery`, `target` (or, through the agent-desktop bridge, `via`, `windows`, `calls`))",
};

const MethodDeclaration kCloseWindow{
    .name = "close_window",
    .command = "close-window",
    .summary = "ask the window manager to close one window; verified when it is gone",
    .params = shared::window_target(),
    .target = TargetKind::kWindow,
    .flags = kFlagEffectful | kFlagNeedsX11,
    .returns = R"(`delivery`, `closed`, `target`)",
};

const MethodDeclaration kPress{
    .name = "press",
    .command = "press",
    .summary = "send a key chord to an app's window through XTest (physical input)",
    .params = shared::window_target(
        {{.name = "chord", .required = true, .help = "modifiers then one key, joined by +: ctrl+s, Return, alt+F4"},
         {.name = "headed", .type = ParamType::kBoolean, .help = "allow physical input for this request"},
         {.name = "force", .type = ParamType::kBoolean, .help = "allow chords that end, lock or switch the session"}}),
    .target = TargetKind::kWindow,
    .flags = kFlagEffectful | kFlagNeedsX11 | kFlagAsksApproval,
    .returns = R"(`delivery`, `chord`, `target` — see [actions.md](actions.md))",
};

}  // namespace companyos::methods
