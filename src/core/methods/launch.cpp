#include "core/methods/params.h"

namespace companyos::methods {

const MethodDeclaration kOpenLink{
    .name = "open_link",
    .command = "open-link",
    .summary = "open a URL in the named app (desktop entry + gio launch), then check it is in front",
    .params = {{.name = "url", .required = true, .help = "http(s) URL, or a scheme the entry declares"},
               {.name = "app", .required = false,
                .help = "WM class, desktop-file id or Name of the app (default: the desktop's app for the URL's scheme)"}},
    .target = TargetKind::kApp,
    .flags = kFlagEffectful | kFlagNeedsX11,
    .returns = R"(what was launched, the launcher's result, the app's pid, the in-front check — see [launching.md](launching.md))",
};

const MethodDeclaration kOpenFile{
    .name = "open_file",
    .command = "open-file",
    .summary = "open an existing file in the named app (desktop entry + gio launch), then check it is in front",
    .params = {{.name = "path", .required = true, .help = "absolute path or file:// URI"},
               {.name = "app", .required = true, .help = "WM class, desktop-file id or Name of the app"}},
    .target = TargetKind::kApp,
    .flags = kFlagEffectful | kFlagNeedsX11,
    .returns = R"(as `open_link`)",
};

const MethodDeclaration kOpenApp{
    .name = "open_app",
    .command = "open-app",
    .summary = "start the named app (desktop entry + gio launch), then check its window is in front",
    .params = {{.name = "app", .required = true, .help = "WM class, desktop-file id or Name of the app"}},
    .target = TargetKind::kApp,
    .flags = kFlagEffectful | kFlagNeedsX11,
    .returns = R"(as `open_link`)",
};

const MethodDeclaration kEntries{
    .name = "entries",
    .command = "entries",
    .summary = "how an app name resolves to a desktop entry: deciding field, candidates, refusals",
    .params = {{.name = "match", .required = true, .help = "the app name a step would use"}},
    .target = TargetKind::kApp,
    .returns = R"(how the name resolves: fields tried, deciding field, chosen entry or candidates, refusals)",
};

}  // namespace companyos::methods
