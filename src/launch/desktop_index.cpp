#include "launch/desktop_index.h"

#include <glib.h>

#include <algorithm>
#include <map>

namespace companyos::launch {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kDefaultDataDirs = "/usr/local/share:/usr/share";

std::optional<fs::path> absolute_dir(std::string_view text) {
  if (text.empty() || text.front() != '/') return std::nullopt;
  fs::path dir = fs::path(text).lexically_normal();
  if (!dir.has_filename() && dir != dir.root_path()) dir = dir.parent_path();  // "a/b/" → "a/b"
  return dir;
}

std::vector<std::string> split_colons(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(':', start), text.size());
    parts.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// The *.desktop files below `dir` as paths relative to it, sorted so ids resolve the same way
// on every load.
std::vector<fs::path> desktop_files_below(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code error;
  fs::recursive_directory_iterator walker(dir, fs::directory_options::skip_permission_denied,
                                          error);
  for (; !error && walker != fs::recursive_directory_iterator(); walker.increment(error)) {
    std::error_code type_error;
    if (walker->path().extension() != ".desktop" || !walker->is_regular_file(type_error)) continue;
    files.push_back(walker->path().lexically_relative(dir));
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string desktop_id(const fs::path& relative) {
  std::string id = relative.generic_string();
  std::replace(id.begin(), id.end(), '/', '-');
  return id;
}

}  // namespace

std::vector<fs::path> application_dirs(const EnvLookup& env) {
  std::vector<fs::path> data_dirs;
  const auto data_home = env("XDG_DATA_HOME");
  if (auto dir = absolute_dir(data_home.value_or(""))) {
    data_dirs.push_back(*dir);
  } else if (auto home = absolute_dir(env("HOME").value_or(""))) {
    data_dirs.push_back(*home / ".local/share");
  }
  std::string system_dirs = env("XDG_DATA_DIRS").value_or("");
  if (system_dirs.empty()) system_dirs = kDefaultDataDirs;
  for (const std::string& part : split_colons(system_dirs)) {
    if (auto dir = absolute_dir(part)) data_dirs.push_back(*dir);
  }

  std::vector<fs::path> result;
  for (const fs::path& dir : data_dirs) {
    fs::path applications = dir / "applications";
    if (std::find(result.begin(), result.end(), applications) == result.end()) {
      result.push_back(std::move(applications));
    }
  }
  return result;
}

std::vector<fs::path> application_dirs() {
  return application_dirs([](const std::string& name) -> std::optional<std::string> {
    const char* value = g_getenv(name.c_str());
    if (!value) return std::nullopt;
    return std::string(value);
  });
}

DesktopIndex DesktopIndex::load(const IndexOptions& options) {
  DesktopIndex index;
  index.dirs_ = options.dirs;
  std::map<std::string, fs::path, std::less<>> claimed;  // id → the file that claimed it
  for (std::size_t level = 0; level < options.dirs.size(); ++level) {
    const fs::path& dir = options.dirs[level];
    for (const fs::path& relative : desktop_files_below(dir)) {
      std::string id = desktop_id(relative);
      const fs::path file = dir / relative;
      const int at = static_cast<int>(level);
      if (auto owner = claimed.find(id); owner != claimed.end()) {
        index.ignored_.push_back(
            {id, file, at, "shadowed", "its id is claimed by " + owner->second.string()});
        continue;
      }
      claimed.emplace(id, file);
      auto entry = read_desktop_entry(file, id, at, options.locale);
      if (entry) {
        index.entries_.push_back(std::move(entry).value());
      } else {
        const Error& error = entry.error();
        index.ignored_.push_back(
            {std::move(id), file, at, error.details.value("kind", "unusable"), error.message});
      }
    }
  }
  std::stable_sort(index.entries_.begin(), index.entries_.end(),
                   [](const DesktopEntry& a, const DesktopEntry& b) {
                     return a.level != b.level ? a.level < b.level : a.id < b.id;
                   });
  return index;
}

DesktopIndex DesktopIndex::load() { return load(IndexOptions{application_dirs(), {}}); }

const DesktopEntry* DesktopIndex::find(std::string_view id) const {
  auto found = std::find_if(entries_.begin(), entries_.end(),
                            [id](const DesktopEntry& entry) { return entry.id == id; });
  return found == entries_.end() ? nullptr : &*found;
}

}  // namespace companyos::launch
