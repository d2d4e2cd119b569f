#include "core/methods/params.h"

namespace companyos::methods {

const MethodDeclaration kSettingsGet{
    .name = "settings.get",
    .command = "settings get",
    .summary = "read every setting, or one",
    .params = {{.name = "key", .help = "one setting's key"}},
    .flags = kFlagDashboard,
    .returns = R"(all settings (values, defaults, allowed ranges) or one value)",
};

const MethodDeclaration kSettingsSet{
    .name = "settings.set",
    .command = "settings set",
    .summary = "change one setting (validated; the old value stays on error)",
    .params = {{.name = "key", .required = true, .help = "the setting's key"},
               {.name = "value", .type = ParamType::kAny, .required = true,
                .help = "the new value (JSON type per setting)"}},
    .flags = kFlagEffectful | kFlagPersonOnly | kFlagDashboard,
    .returns = R"(the stored value; a bad value is `INVALID_ARGS` naming the allowed range and changes nothing)",
};

}  // namespace companyos::methods
