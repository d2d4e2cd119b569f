// One desktop entry file, reduced to the keys launch decisions read. GLib parses it (key-file
// escapes, locale variants) and decides whether it could launch it at all.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"

namespace companyos::launch {

struct DesktopEntry {
  std::string id;  // desktop-file id, e.g. "org.example.Viewer.desktop"
  std::filesystem::path file;
  int level = 0;                 // precedence level; 0 is the user's own directory
  std::string name;              // Name, untranslated
  std::string localized_name;    // Name in the locale used for the index
  std::string startup_wm_class;  // empty when the key is absent
  std::string exec;              // Exec with the key file's escapes undone
  std::vector<std::string> mime_types;
  std::vector<std::string> categories;
  bool terminal = false;
  bool no_display = false;

  // The id without its ".desktop" suffix.
  std::string id_stem() const;
  // The URL schemes MimeType declares through x-scheme-handler/<scheme>, lower-cased.
  std::vector<std::string> handled_schemes() const;
};

// A desktop-file id without its ".desktop" suffix.
std::string desktop_id_stem(std::string_view id);

// Reads `file` as entry `id` at `level`, with Name also read for `locale` (empty: the
// process's locale). NOT_FOUND when the file says Hidden=true (details.kind "hidden");
// INVALID_ARGS when it cannot be read or parsed, is not Type=Application, or GLib would not
// load it because TryExec or the Exec program is missing (details.kind "unusable") — gio
// launch would refuse those too.
Result<DesktopEntry> read_desktop_entry(const std::filesystem::path& file, std::string id,
                                        int level, const std::string& locale);

}  // namespace companyos::launch
