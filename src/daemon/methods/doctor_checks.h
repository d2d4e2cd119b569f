// `doctor`: what this session gives an automation, each check with what was found and, for a
// problem, the fix. A pure function of facts the daemon gathered (doctor.cpp), so every rule
// is tested on made-up sessions. A problem means an automation cannot work here; a warning
// means some of it cannot (physical input, one app, announcing approvals); ready means no
// check found a problem.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "desktop/notification_server.h"
#include "desktop/session_probe.h"

namespace companyos::daemon::methods {

// What `systemctl --user is-enabled companyosd.socket` said.
enum class SocketUnit { kEnabled, kDisabled, kMasked, kNotInstalled, kNoUserManager, kUnknown };

struct DoctorApp {
  std::string name;
  std::string toolkit;
  std::size_t windows = 0;
  bool responsive = true;
  // Chromium only: a window shows, but no web page with content is in its tree.
  bool web_pages_empty = false;
};

struct DoctorFacts {
  desktop::SessionFacts session;
  std::vector<DoctorApp> apps;
  std::optional<std::string> apps_error;  // the apps could not be listed
  std::string store_path;
  bool store_writable = true;
  std::string store_problem;       // why it is read-only
  std::optional<unsigned> store_dir_mode;
  std::string socket_path;
  std::optional<unsigned> socket_dir_mode;
  SocketUnit socket_unit = SocketUnit::kUnknown;
  desktop::NotificationServer notifications;
};

enum class CheckState { kOk, kWarning, kProblem };

struct Check {
  std::string name;   // "display", "accessibility bus", …
  CheckState state = CheckState::kOk;
  std::string found;  // what is there, in a person's words
  std::string fix;    // what to do; empty when nothing is needed
};

std::vector<Check> diagnose(const DoctorFacts& facts);
// No check found a problem.
bool ready(const std::vector<Check>& checks);

std::string_view to_string(CheckState state);  // "ok", "warning", "problem"
nlohmann::json checks_to_json(const std::vector<Check>& checks);

}  // namespace companyos::daemon::methods
