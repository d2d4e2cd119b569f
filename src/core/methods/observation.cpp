#include "core/methods/params.h"

namespace companyos::methods {

const MethodDeclaration kApps{
    .name = "apps",
    .command = "apps",
    .summary = "applications on the accessibility bus: name, pid, toolkit, windows",
    .params = {shared::observation_timeout()},
    .returns = R"(every app on the accessibility bus: name, bus name, pid, toolkit and version, windows, `responsive`, `policy_denied`)",
};

const MethodDeclaration kWindows{
    .name = "windows",
    .command = "windows",
    .summary = "top-level windows (opaque stable ids), with the X11 window where it pairs",
    .params = {{.name = "app", .help = "only this application's windows"}, shared::observation_timeout()},
    .target = TargetKind::kApp,
    .returns = R"(top-level windows: opaque `id`, app, pid, title, role, states, bounds, `active`, `responsive` (false: the app did not answer, so the window as last listed), `x11_window` (where it pairs))",
};

const MethodDeclaration kSnapshot{
    .name = "snapshot",
    .command = "snapshot",
    .summary = "numbered tree of exactly one window (refs @<snapshot>:e<N>)",
    .params = {{.name = "app", .required = true, .help = "application name"},
               {.name = "window", .help = "window id (from `companyos windows`)"},
               {.name = "title", .help = "exact window title", .excludes = "window"},
               {.name = "interactive", .type = ParamType::kBoolean,
                .help = "only actionable nodes and their ancestors", .option = "-i,--interactive"},
               {.name = "max_depth", .type = ParamType::kInteger, .help = "semantic levels below the window",
                .range = IntRange{0, 1000}},
               {.name = "compact", .type = ParamType::kBoolean, .help = "fold nameless single-child wrappers"},
               {.name = "bounds", .type = ParamType::kBoolean, .help = "show bounds in the outline too"},
               {.name = "format",
                .help = "what the reply carries: tree (JSON nodes), outline (text) or both (default); "
                        "ask only for what you read"},
               {.name = "surface",
                .help = "only the open menu, list or tooltip (menu, list, tooltip or any): the innermost "
                        "one open, in the named window or any window of the app"},
               {.name = "loaded", .type = ParamType::kBoolean,
                .help = "a first look: a web page the window shows is read again until it is no longer "
                        "busy and the app has been quiet for 150 ms since the read, at most 3 s more "
                        "(`loading: true` when it was still loading)"},
               {.name = "within",
                .help = "only the subtree under this element (@<snapshot>:e<N>, or e<N> of the app's "
                        "newest snapshot), read with the whole node budget: how a window too big for "
                        "one snapshot is read a part at a time",
                .excludes = "surface"},
               shared::observation_timeout()},
    .target = TargetKind::kWindow,
    .returns = R"(`snapshot` id, `window`, `node_count`, `stats`, and as `format` asks: `tree` (every node: ref, role, name, description, accessible_id, value, states, actions, bounds, twin, children) and `outline` (text); with `surface`, the tree and outline start at the surface, and `surface` describes it as `surfaces` does; with `within`, they start at that element (`within`: its full ref), numbered anew; with `loaded`, `loading` (and `first_look_ms`) for a window that holds a web page)",
};

const MethodDeclaration kSnapshots{
    .name = "snapshots",
    .command = "snapshots",
    .summary = "the snapshots the daemon keeps, newest first: their refs still resolve",
    .params = {{.name = "app", .help = "only this app's snapshots"}},
    .returns = R"(`snapshots`, newest first, each with its `snapshot` id, `app`, `pid`, `window` (id, title, …), `node_count` and `within` (the ref whose subtree it is, or null); the daemon keeps the newest 8 of each window and 32 in all)",
};

const MethodDeclaration kSurfaces{
    .name = "surfaces",
    .command = "surfaces",
    .summary = "menus, drop-down lists and tooltips open now, with refs",
    .params = {{.name = "app", .required = true, .help = "application name"},
               {.name = "window", .help = "only this window id"},
               {.name = "title", .help = "only the window with this exact title", .excludes = "window"},
               {.name = "kind", .help = "only menus, lists or tooltips (menu, list, tooltip)"},
               shared::observation_timeout()},
    .target = TargetKind::kApp,
    .returns = R"(`count` and `surfaces`, each with its `ref`, `kind` (menu, list, tooltip), role, name, `items` (showing), bounds, `window`, `snapshot` and `opener` (the element that opens it, or null for a top-level popup); innermost last)",
};

const MethodDeclaration kFind{
    .name = "find",
    .command = "find",
    .summary = "elements of an app matching role, name and accessible id, with refs",
    .params = {{.name = "app", .required = true, .help = "application name"},
               {.name = "role", .help = "role as printed in snapshots, e.g. \"push button\""},
               {.name = "name", .help = "exact accessible name"},
               {.name = "id", .help = "exact accessible id"},
               {.name = "window", .help = "only this window id"},
               {.name = "title", .help = "only the window with this exact title", .excludes = "window"},
               {.name = "ignore_case", .type = ParamType::kBoolean,
                .help = "compare role, name and id case-insensitively"},
               {.name = "cell",
                .help = "the cell at this address (B3) of each table matching role, name and id (with none "
                        "of them: of every table), shown or not"},
               shared::observation_timeout()},
    .target = TargetKind::kApp,
    .returns = R"(`count` and `elements`, each a node with its ref and window (a cell: `cell`, its row and column))",
};

const MethodDeclaration kGet{
    .name = "get",
    .command = "get",
    .summary = "one element, freshly read: role, name, value, states, actions, bounds, text",
    .params = {{.name = "ref", .help = "a ref from snapshot or find, e.g. @s3:e12 (with cell: the table's)"},
               {.name = "app", .help = "with cell or cells and no ref: the window's one table on screen (a spreadsheet's sheet)"},
               {.name = "cell", .help = "a cell of the table by address (B3), shown or not: its text and formula"},
               {.name = "cells", .help = "a range of the table's cells (A1:C10), as rows of what each shows",
                .excludes = "cell"},
               shared::observation_timeout()},
    .target = TargetKind::kElement,
    .returns = R"(one element read afresh, with `text` where it has some (a cell: `cell`, `formula`, `formula_cut`); with `cells`: `range`, `first_row` (counted from 1), `column_names` (A, B, …), `rows` (arrays of texts), `table_rows`, `table_columns`, `window`)",
};

const MethodDeclaration kScreenshot{
    .name = "screenshot",
    .command = "screenshot",
    .summary = "PNG of exactly one window's bounds; only of the active window (X11)",
    .params = shared::window_target({{.name = "out", .required = true,
                                      .help = "absolute path of the PNG to write"}}),
    .target = TargetKind::kWindow,
    .flags = kFlagNeedsX11,
    .returns = R"(`path`, `width`, `height`, `bounds`, `window`, `x11_window`)",
};

const MethodDeclaration kWait{
    .name = "wait",
    .command = "wait",
    .summary = "until a window appears or closes, a text appears, a menu opens, or an element meets a predicate",
    .params = {{.name = "app", .help = "application name (not needed with an element)"},
               {.name = "window", .help = "a window with this exact title appears"},
               {.name = "closed", .type = ParamType::kBoolean,
                .help = "a window of the app closes (one open at the start or opened since)"},
               {.name = "title", .help = "with closed: only a window with this exact title"},
               {.name = "text", .help = "this text appears in an element's name or value"},
               {.name = "menu", .type = ParamType::kBoolean,
                .help = "a menu of the app opens (as `surfaces` finds them)"},
               {.name = "surface", .help = "a surface of this kind opens: menu, list, tooltip or any",
                .excludes = "menu"},
               {.name = "ref", .help = "an element (a ref from snapshot or find, e.g. @s3:e12)",
                .option = "--element"},
               {.name = "predicate", .help = "with an element: exists (default), gone, value or state"},
               {.name = "value", .help = "the value (predicate value) or state name (predicate state)"},
               {.name = "timeout_ms", .type = ParamType::kInteger, .help = "how long to wait, in ms (default 30000)",
                .range = IntRange{1, kMaxWaitTimeout.count()}, .option = "--timeout"}},
    .target = TargetKind::kApp,
    .returns = R"(`condition`, `elapsed_ms`, `seen_by`, `evidence`, `checks`, `events`; `TIMEOUT` with `details.last_seen`; at most 4 at once (`CONFLICT`); closing the connection ends the wait — see [observation.md](observation.md#waits))",
};

}  // namespace companyos::methods
