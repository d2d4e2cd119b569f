#include "core/methods/params.h"

namespace companyos::methods {

const MethodDeclaration kClipboardGet{
    .name = "clipboard.get",
    .command = "clipboard get",
    .summary = "read the X11 clipboard's text (CLIPBOARD, UTF-8)",
    .flags = kFlagNeedsX11,
    .returns = R"(`text` (null when nobody owns the clipboard or it holds no text), `owned`; a password manager's secret is `POLICY_DENIED` — see [actions.md](actions.md))",
};

const MethodDeclaration kClipboardSet{
    .name = "clipboard.set",
    .command = "clipboard set",
    .summary = "put UTF-8 text on the X11 clipboard; the daemon owns it until another app copies",
    .params = {{.name = "text",
                .required = true,
                .help = "UTF-8 text",
                .length = LengthLimit{kMaxClipboardTextBytes, LengthUnit::kBytes}}},
    .flags = kFlagEffectful | kFlagNeedsX11,
    .returns = R"(`delivery` (verified when a read through the X server gives the text back), `bytes` (never the text))",
};

}  // namespace companyos::methods
