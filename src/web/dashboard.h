// The automations dashboard: an HTTP server on 127.0.0.1 (libsoup, on the daemon's main
// context) that serves the page files and a JSON API of the methods declared for it, each
// call run through the daemon's one dispatcher as the person's. Access: a one-time login
// link, then an HttpOnly, SameSite=Strict session cookie; a CSRF token on every API call;
// the Host and the requesting site checked; a strict Content-Security-Policy.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glib.h>

#include <nlohmann/json.hpp>

#include "companyos/method_declaration.h"
#include "companyos/result.h"
#include "core/clock.h"

namespace companyos::web {

// Runs one method the dashboard serves (flag kFlagDashboard) as the person's request and
// answers through done exactly once, maybe later, on the main loop.
using CallMethod = std::function<void(const methods::MethodDeclaration& method, const nlohmann::json& params,
                                      std::function<void(Result<nlohmann::json>)> done)>;

// What open pages hear of (GET /events): the active runs with their status and steps so
// far, read a few times a second while a page listens; a change is sent as a "runs" event.
using Activity = std::function<nlohmann::json()>;

class Dashboard {
 public:
  Dashboard(const Clock& clock, CallMethod call, Activity activity);
  ~Dashboard();
  Dashboard(const Dashboard&) = delete;
  Dashboard& operator=(const Dashboard&) = delete;

  // Serves pages_dir's files and the API on 127.0.0.1:port (0: a free port). Already
  // serving, it stays on its port when port is 0 or that port, else moves to port.
  Result<std::uint16_t> serve(std::uint16_t port, const std::filesystem::path& pages_dir);
  // Stops serving; every session ends. The server answers what it already took, then goes
  // (on the main loop: stop may be asked from one of its own requests).
  void stop();
  // At the daemon's end, after its loop stopped: stops serving and runs the loop here until
  // every request taken has been answered and closed, for at most `limit`.
  void finish(std::chrono::milliseconds limit);
  std::optional<std::uint16_t> port() const;
  // The folder of the page files served, while serving.
  std::optional<std::filesystem::path> pages_dir() const;
  // "http://127.0.0.1:<port>/login?token=…": logs one browser in, once, within ten minutes.
  Result<std::string> login_link();

 private:
  struct Server;
  static gboolean reap(gpointer self);
  void retire();

  const Clock& clock_;
  CallMethod call_;
  Activity activity_;
  std::unique_ptr<Server> server_;
  // Stopped servers still answering what they took; each goes once it has nothing in flight.
  std::vector<std::unique_ptr<Server>> retiring_;
  unsigned reaper_ = 0;  // the GLib timeout that frees them
};

// Where the page files are: beside the program (a build tree's "dashboard" folder), else
// ../share/companyos/dashboard from it (installed).
std::optional<std::filesystem::path> find_page_files();

}  // namespace companyos::web
