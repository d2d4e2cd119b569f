#include "launch/target.h"

#include <glib.h>

#include <algorithm>
#include <filesystem>
#include <variant>

#include "core/text.h"
#include "core/glib_handles.h"

namespace companyos::launch {
namespace {

Refusal target_problem(ErrorCode code, std::string problem, std::string message,
                       nlohmann::json details = nlohmann::json::object(),
                       std::string suggestion = {}) {
  details["problem"] = std::move(problem);
  Refusal refusal = make_refusal(RefusalReason::kCannotTakeTarget, std::move(message),
                                 std::move(details), std::move(suggestion));
  refusal.code = code;
  return refusal;
}

bool is_web_scheme(const std::string& scheme) { return scheme == "http" || scheme == "https"; }

// The scheme of a link that is fit to hand on, or the problem with it.
std::variant<std::string, Refusal> link_scheme(const std::string& url) {
  if (has_control_characters(url)) {
    return target_problem(ErrorCode::kInvalidArgs, "control_characters",
                          "the link contains control characters");
  }
  if (!is_valid_utf8_without_nul(url)) {
    return target_problem(ErrorCode::kInvalidArgs, "unparseable", "the link is not valid UTF-8");
  }
  // GUri lets spaces through, though no part of a URI may hold one.
  if (url.find(' ') != std::string::npos) {
    return target_problem(ErrorCode::kInvalidArgs, "unparseable", "the link contains a space", {},
                          "escape spaces as %20");
  }
  ErrorSlot error;
  UriPtr uri(g_uri_parse(url.c_str(), G_URI_FLAGS_NONE, error.out()));
  if (!uri) {
    return target_problem(ErrorCode::kInvalidArgs, "unparseable",
                          std::string("the link does not parse: ") + error.message(), {},
                          "give an absolute URL such as https://example.org/page");
  }
  GCharPtr scheme(g_ascii_strdown(g_uri_get_scheme(uri.get()), -1));
  std::string result(scheme.get());
  const char* host = g_uri_get_host(uri.get());
  if (is_web_scheme(result) && (!host || *host == '\0')) {
    return target_problem(ErrorCode::kInvalidArgs, "missing_host", "the link names no host");
  }
  return result;
}

// The local path a file target names, or the problem with it.
std::variant<std::string, Refusal> local_file_path(const std::string& target) {
  // GLib and stat() read the target as a C string, so a NUL would make the file checked
  // (and the one gio opens) a shorter path than the target named.
  if (target.find('\0') != std::string::npos) {
    return target_problem(ErrorCode::kInvalidArgs, "control_characters",
                          "the file contains a NUL character");
  }
  std::string path;
  if (g_ascii_strncasecmp(target.c_str(), "file:", 5) == 0) {
    ErrorSlot error;
    GCharPtr host;
    gchar* raw_host = nullptr;
    GCharPtr converted(g_filename_from_uri(target.c_str(), &raw_host, error.out()));
    host.reset(raw_host);
    if (!converted) {
      return target_problem(ErrorCode::kInvalidArgs, "not_local",
                            std::string("the file URI is not usable: ") + error.message());
    }
    if (host && g_ascii_strcasecmp(host.get(), "localhost") != 0) {
      return target_problem(ErrorCode::kInvalidArgs, "not_local", "the file URI names another host",
                            {{"host", host.get()}});
    }
    path = converted.get();
  } else {
    path = target;
  }
  if (path.empty() || path.front() != '/') {
    return target_problem(ErrorCode::kInvalidArgs, "relative_path",
                          "the file must be given as an absolute path or a file:// URI", {},
                          "give the full path, starting with /");
  }
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    return target_problem(ErrorCode::kNotFound, "file_missing", "the file does not exist",
                          {{"path", path}});
  }
  return path;
}

std::optional<Refusal> check_link(const DesktopEntry& entry, const ExecLine& exec,
                                  const std::string& url) {
  auto scheme = link_scheme(url);
  if (auto* problem = std::get_if<Refusal>(&scheme)) return *problem;
  const std::string& name = std::get<std::string>(scheme);
  const auto handled = entry.handled_schemes();
  if (std::find(handled.begin(), handled.end(), name) == handled.end()) {
    return target_problem(ErrorCode::kActionNotSupported, "scheme_not_handled",
                          entry.id + " does not declare x-scheme-handler/" + name + " in MimeType",
                          {{"scheme", name}, {"handled_schemes", handled}},
                          is_web_scheme(name) ? "name a web browser's entry"
                                              : "name an app that handles " + name + " links");
  }
  if (!exec.takes_urls()) {
    return target_problem(ErrorCode::kActionNotSupported, "no_url_field_code",
                          entry.id + " takes no URL: its Exec has neither %u nor %U",
                          {{"exec", entry.exec}});
  }
  return std::nullopt;
}

std::optional<Refusal> check_file(const DesktopEntry& entry, const ExecLine& exec,
                                  const std::string& target) {
  auto path = local_file_path(target);
  if (auto* problem = std::get_if<Refusal>(&path)) return *problem;
  if (!exec.takes_files()) {
    return target_problem(ErrorCode::kActionNotSupported, "no_file_field_code",
                          entry.id + " takes no file: its Exec has none of %f, %F, %u, %U",
                          {{"exec", entry.exec}});
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(TargetKind kind) {
  switch (kind) {
    case TargetKind::kLink:
      return "link";
    case TargetKind::kFile:
      return "file";
    case TargetKind::kApp:
      return "app";
  }
  return "app";
}

std::optional<Refusal> check_target(const DesktopEntry& entry, const ExecLine& exec,
                                    const Target& target) {
  switch (target.kind) {
    case TargetKind::kLink:
      return check_link(entry, exec, target.value);
    case TargetKind::kFile:
      return check_file(entry, exec, target.value);
    case TargetKind::kApp:
      return std::nullopt;  // nothing to hand the app: every entry can start
  }
  return std::nullopt;
}

}  // namespace companyos::launch
