// Every desktop entry this user can launch, read fresh on each load: one precedence level per
// applications directory (the user's first). Ids come from the path below the directory
// ("kde/foo.desktop" → "kde-foo.desktop"); the first file with an id claims it, so an id at a
// higher level hides the same id below it, also when that file says Hidden=true or is unusable.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "launch/desktop_entry.h"

namespace companyos::launch {

using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// $XDG_DATA_HOME/applications (default ~/.local/share/applications), then each
// $XDG_DATA_DIRS entry's applications/ (default /usr/local/share:/usr/share). Relative paths
// are ignored and repeats dropped, as the base-directory specification says.
std::vector<std::filesystem::path> application_dirs(const EnvLookup& env);
// The same from this process's environment.
std::vector<std::filesystem::path> application_dirs();

// A file that provides no entry, and why: "hidden" (Hidden=true), "shadowed" (its id is
// claimed at a higher level or earlier on its own), "unusable" (see read_desktop_entry).
struct IgnoredFile {
  std::string id;
  std::filesystem::path file;
  int level = 0;
  std::string kind;
  std::string why;
};

struct IndexOptions {
  std::vector<std::filesystem::path> dirs;  // one level each, most important first
  std::string locale;                       // for Name[...]; empty: the process's locale
};

class DesktopIndex {
 public:
  // Reads every *.desktop below each directory; missing or unreadable directories are empty.
  static DesktopIndex load(const IndexOptions& options);
  // application_dirs() of this process's environment, in its locale.
  static DesktopIndex load();

  const std::vector<std::filesystem::path>& dirs() const { return dirs_; }
  // Usable entries ordered by level, then id.
  const std::vector<DesktopEntry>& entries() const { return entries_; }
  const std::vector<IgnoredFile>& ignored() const { return ignored_; }
  const DesktopEntry* find(std::string_view id) const;

 private:
  std::vector<std::filesystem::path> dirs_;
  std::vector<DesktopEntry> entries_;
  std::vector<IgnoredFile> ignored_;
};

}  // namespace companyos::launch
