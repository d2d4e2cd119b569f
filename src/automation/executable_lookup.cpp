#include "automation/executable_lookup.h"

#include <sys/stat.h>
#include <unistd.h>

#include "automation/child_environment.h"

namespace companyos::automation {
namespace {

enum class Candidate { kMissing, kNotExecutable, kRunnable };

Candidate inspect(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return Candidate::kMissing;
  return ::access(path.c_str(), X_OK) == 0 ? Candidate::kRunnable : Candidate::kNotExecutable;
}

Error not_executable(const std::string& path) {
  return make_error(ErrorCode::kPermDenied, "'" + path + "' is not executable", {{"program", path}},
                    "make the file executable, or run it with its interpreter");
}

}  // namespace

Result<std::string> resolve_executable(std::string_view program, std::string_view search_path) {
  const std::string name(program);
  if (name.empty() || name.find('\0') != std::string::npos) {
    return make_error(ErrorCode::kInvalidArgs, "the program name is empty or holds a NUL byte");
  }
  if (name.find('/') != std::string::npos) {
    if (name.front() != '/') {
      return make_error(ErrorCode::kInvalidArgs,
                        "program '" + name + "' must be an absolute path or a bare name",
                        {{"program", name}}, "write the program's absolute path");
    }
    switch (inspect(name)) {
      case Candidate::kRunnable:
        return name;
      case Candidate::kNotExecutable:
        return not_executable(name);
      case Candidate::kMissing:
        break;
    }
    return make_error(ErrorCode::kNotFound, "no program at '" + name + "'", {{"program", name}});
  }

  std::string not_executable_match;
  std::string_view rest = search_path;
  while (true) {
    const std::size_t colon = rest.find(':');
    const std::string_view directory = rest.substr(0, colon);
    if (!directory.empty() && directory.front() == '/') {
      std::string candidate(directory);
      if (candidate.back() != '/') candidate += '/';
      candidate += name;
      const Candidate found = inspect(candidate);
      if (found == Candidate::kRunnable) return candidate;
      if (found == Candidate::kNotExecutable && not_executable_match.empty()) {
        not_executable_match = candidate;
      }
    }
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  if (!not_executable_match.empty()) return not_executable(not_executable_match);
  return make_error(ErrorCode::kNotFound, "program '" + name + "' is not in PATH",
                    {{"program", name}, {"path", std::string(search_path)}},
                    "install it, or write its absolute path");
}

std::string search_path_of(std::span<const std::string> environment) {
  if (const auto path = environment_value(environment, "PATH")) return std::string(*path);
  const std::size_t size = ::confstr(_CS_PATH, nullptr, 0);
  std::string fallback(size, '\0');
  if (size > 0) ::confstr(_CS_PATH, fallback.data(), size);
  while (!fallback.empty() && fallback.back() == '\0') fallback.pop_back();
  return fallback;
}

}  // namespace companyos::automation
