// Temporary applications directories for launch tests (one per precedence level), with
// executable programs for entries to name, and the index read from them.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "launch/desktop_index.h"
#include "temp_dir.h"

namespace companyos::launch::testing {

class EntryFixture {
 public:
  explicit EntryFixture(int levels = 3) : levels_(levels) {
    for (int level = 0; level < levels_; ++level) std::filesystem::create_directories(dir(level));
    std::filesystem::create_directories(temp_.path() / "bin");
  }

  std::filesystem::path root() const { return temp_.path(); }
  std::filesystem::path dir(int level) const {
    return temp_.path() / ("level" + std::to_string(level)) / "applications";
  }

  // Writes <dir(level)>/<relative> holding "[Desktop Entry]" and then `body`.
  std::filesystem::path write(int level, const std::string& relative, const std::string& body) {
    const auto file = dir(level) / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << "[Desktop Entry]\n" << body;
    return file;
  }

  // An executable bin/<name>; returns its absolute path (GLib loads an entry only when its
  // Exec program exists).
  std::string program(const std::string& name) {
    const auto file = temp_.path() / "bin" / name;
    std::ofstream(file) << "#!/bin/true\n";
    ::chmod(file.c_str(), 0755);
    return file.string();
  }

  DesktopIndex index(const std::string& locale = "C") const {
    IndexOptions options;
    for (int level = 0; level < levels_; ++level) options.dirs.push_back(dir(level));
    options.locale = locale;
    return DesktopIndex::load(options);
  }

 private:
  companyos::testing::TempDir temp_;
  int levels_;
};

// The body of a plain application entry.
inline std::string app_body(const std::string& name, const std::string& exec,
                            const std::string& more = {}) {
  return "Type=Application\nName=" + name + "\nExec=" + exec + "\n" + more;
}

}  // namespace companyos::launch::testing
