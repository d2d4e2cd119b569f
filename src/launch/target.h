// Whether an entry can take a step's target. A link must parse strictly (GUri), carry no
// control characters, and its scheme must be declared by the entry as
// x-scheme-handler/<scheme> with %u or %U in Exec (http and https included: a browser says
// so). A file is an absolute path or a local file:// URI that exists, for an Exec with %f, %F,
// %u or %U. The app alone (open_app) takes no target and fits every entry.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "launch/desktop_entry.h"
#include "launch/exec_line.h"
#include "launch/refusal.h"

namespace companyos::launch {

enum class TargetKind { kLink, kFile, kApp };

// "link", "file", "app".
std::string_view to_string(TargetKind kind);

struct Target {
  TargetKind kind = TargetKind::kLink;
  std::string value;  // the URL, path or file:// URI, passed to gio launch byte for byte; "" for kApp
};

// Why `target` does not fit `entry` (a cannot_take_target refusal), or nullopt when it fits.
// details.problem names the first problem found, the target's own first:
// links "control_characters", "unparseable", "missing_host", "scheme_not_handled",
// "no_url_field_code"; files "control_characters" (a NUL), "relative_path", "not_local",
// "file_missing", "no_file_field_code".
std::optional<Refusal> check_target(const DesktopEntry& entry, const ExecLine& exec,
                                    const Target& target);

}  // namespace companyos::launch
