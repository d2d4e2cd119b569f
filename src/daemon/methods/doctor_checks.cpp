#include "daemon/methods/doctor_checks.h"

#include <cstdio>

#include "core/text.h"

namespace companyos::daemon::methods {
namespace {

Check ok(std::string name, std::string found) { return {std::move(name), CheckState::kOk, std::move(found), {}}; }
Check warning(std::string name, std::string found, std::string fix) {
  return {std::move(name), CheckState::kWarning, std::move(found), std::move(fix)};
}
Check problem(std::string name, std::string found, std::string fix) {
  return {std::move(name), CheckState::kProblem, std::move(found), std::move(fix)};
}

std::string octal(unsigned mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", mode & 07777U);
  return text;
}

// A private directory is nobody's but its owner's: no group or other bits.
bool is_private(unsigned mode) { return (mode & 077U) == 0; }

// On Wayland the accessibility bus works as on X11; what needs the display server does not,
// and what the compositor offers for it is said.
void wayland_checks(const desktop::SessionFacts& session, std::vector<Check>& checks) {
  const desktop::CompositorFacts facts = session.wayland.value_or(desktop::CompositorFacts{});
  const std::string compositor = facts.compositor.empty() ? "a compositor companyOS does not recognise"
                                                          : "compositor " + facts.compositor;
  checks.push_back(ok("display", "Wayland, " + compositor +
                                     ": apps are seen and acted on through accessibility as on X11"));
  std::string offered;
  if (facts.error) {
    offered = "the session bus could not be asked what the compositor offers (" + *facts.error + ")";
  } else if (facts.mutter_remote_desktop && facts.mutter_screen_cast) {
    offered = "mutter's RemoteDesktop and ScreenCast interfaces answer here, the way GNOME lets a client see the "
              "screen and send input once the person approves; companyOS does not use them yet";
  } else if (facts.mutter_remote_desktop || facts.mutter_screen_cast) {
    offered = std::string("only mutter's ") + (facts.mutter_remote_desktop ? "RemoteDesktop" : "ScreenCast") +
              " interface answers here";
  } else {
    offered = "the compositor offers no interface companyOS knows for pictures or input";
  }
  checks.push_back(warning("pictures and input",
                           "on Wayland, screenshot, press, type-text, click-at, the --headed routes, focus-window, "
                           "launches (their in-front check) and the clipboard are refused (PLATFORM_NOT_SUPPORTED): "
                           "not built; " + offered,
                           "for those, log in to an X11 session (or run the app under Xwayland with DISPLAY)"));
}

void display_checks(const DoctorFacts& facts, std::vector<Check>& checks) {
  const desktop::SessionFacts& session = facts.session;
  switch (session.display_server) {
    case x11::DisplayServer::kNone:
      checks.push_back(problem("display", "no display server (neither DISPLAY nor WAYLAND_DISPLAY is set)",
                               "run companyosd inside the desktop session (systemctl --user import-environment "
                               "DISPLAY, then restart it), or start a private one with scripts/desktop-session"));
      return;
    case x11::DisplayServer::kWayland:
      wayland_checks(session, checks);
      return;
    case x11::DisplayServer::kX11:
      break;
  }
  const auto& x11 = session.x11;
  if (!x11 || !x11->connected || x11->error) {
    const std::string why = x11 && x11->error ? *x11->error : "no connection";
    checks.push_back(problem("display", "X11, but the X server does not answer: " + why,
                             "check DISPLAY (and XAUTHORITY) in companyosd's environment: systemctl --user "
                             "import-environment DISPLAY XAUTHORITY, then restart it"));
    return;
  }
  checks.push_back(ok("display", "X11 " + x11->display));
  if (x11->xtest) {
    checks.push_back(ok("XTest", "the X server offers XTest (physical input)"));
  } else {
    checks.push_back(warning("XTest", "the X server lacks the XTEST extension: physical input (--headed, press, "
                                      "type-text, click-at) cannot work",
                             "use an X server with XTEST (Xorg and Xvfb have it)"));
  }
  if (x11->ewmh_window_manager) {
    checks.push_back(ok("window manager", x11->window_manager.empty() ? "an EWMH window manager"
                                                                      : x11->window_manager + " (EWMH)"));
  } else {
    checks.push_back(problem("window manager", "no EWMH window manager: windows cannot be paired, brought forward "
                                               "or checked to be in front",
                             "run a window manager that supports EWMH (GNOME, KDE, Xfce, openbox, …)"));
  }
}

void accessibility_checks(const DoctorFacts& facts, std::vector<Check>& checks) {
  const a11y::BusHealth& bus = facts.session.accessibility;
  if (!bus.bus) {
    checks.push_back(problem("accessibility bus", "no accessibility bus: " + bus.error.value_or("unknown"),
                             "install at-spi2-core; the session's D-Bus starts at-spi-bus-launcher on demand "
                             "(check DBUS_SESSION_BUS_ADDRESS in companyosd's environment)"));
    return;
  }
  checks.push_back(ok("accessibility bus", "the accessibility bus answers"));
  if (!bus.registry) {
    checks.push_back(problem("registry", "the accessibility registry does not answer: " + bus.error.value_or("unknown"),
                             "restart the session's accessibility bus (at-spi2-registryd runs beside it)"));
  } else {
    checks.push_back(ok("registry", "the registry lists " + std::to_string(bus.apps.value_or(0)) + " app(s)"));
  }
  if (!bus.enabled) {
    checks.push_back(warning("accessibility switched on", "org.a11y.Status.IsEnabled could not be read",
                             "busctl --user get-property org.a11y.Bus /org/a11y/bus org.a11y.Status IsEnabled"));
  } else if (!*bus.enabled) {
    checks.push_back(problem("accessibility switched on",
                             "org.a11y.Status.IsEnabled is false: Qt apps do not register, Chromium and Firefox "
                             "show no web pages",
                             "gsettings set org.gnome.desktop.interface toolkit-accessibility true (lasting), or "
                             "busctl --user set-property org.a11y.Bus /org/a11y/bus org.a11y.Status IsEnabled b "
                             "true (this session); then restart those apps"));
  } else {
    checks.push_back(ok("accessibility switched on", "org.a11y.Status.IsEnabled is true"));
  }
}

void app_checks(const DoctorFacts& facts, std::vector<Check>& checks) {
  if (facts.apps_error) {
    checks.push_back(warning("apps", "the apps could not be listed: " + *facts.apps_error,
                             "run companyos apps to see which app does not answer"));
    return;
  }
  std::string names;
  for (const DoctorApp& app : facts.apps) names += (names.empty() ? "" : ", ") + app.name;
  checks.push_back(ok("apps", std::to_string(facts.apps.size()) + " on the bus" + (names.empty() ? "" : ": " + names)));
  for (const DoctorApp& app : facts.apps) {
    const std::string name = "app " + app.name;
    if (!app.responsive) {
      checks.push_back(warning(name, "does not answer the accessibility bus", "wait for it, or restart it"));
    } else if (app.windows == 0 && equals_ignoring_ascii_case(app.toolkit, "qt")) {
      checks.push_back(warning(name, "a Qt app whose tree is empty: nothing in it can be seen or acted on",
                               "start it with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 in its environment"));
    } else if (app.web_pages_empty) {
      checks.push_back(warning(name, "Chromium shows no web page content to accessibility",
                               "start it with --force-renderer-accessibility"));
    }
  }
}

void launch_check(const DoctorFacts& facts, std::vector<Check>& checks) {
  if (facts.session.gio_launch) {
    checks.push_back(ok("gio launch", "gio has the launch subcommand (open-app, open-link, open-file)"));
  } else {
    checks.push_back(problem("gio launch", "no gio with the launch subcommand: apps, links and files cannot be "
                                           "opened",
                             "install libglib2.0-bin (GLib 2.68 or later)"));
  }
}

void store_checks(const DoctorFacts& facts, std::vector<Check>& checks) {
  if (!facts.store_writable) {
    checks.push_back(problem("store", facts.store_path + " is read-only: " + facts.store_problem,
                             "make it writable by you (check its directory's owner and the disk), then restart "
                             "companyosd"));
  } else if (facts.store_dir_mode && !is_private(*facts.store_dir_mode)) {
    checks.push_back(warning("store", facts.store_path + ": its directory has mode " + octal(*facts.store_dir_mode) +
                                          ", readable by others (runs and audit rows are in it)",
                             "chmod 0700 on the store's directory"));
  } else {
    checks.push_back(ok("store", facts.store_path + " (writable, private)"));
  }
  if (facts.socket_dir_mode && !is_private(*facts.socket_dir_mode)) {
    checks.push_back(problem("socket", facts.socket_path + ": its directory has mode " +
                                           octal(*facts.socket_dir_mode),
                             "chmod 0700 on the socket's directory, then restart companyosd"));
  } else {
    checks.push_back(ok("socket", facts.socket_path + " (its directory is private)"));
  }
}

void unit_check(const DoctorFacts& facts, std::vector<Check>& checks) {
  const std::string name = "socket unit";
  switch (facts.socket_unit) {
    case SocketUnit::kEnabled:
      checks.push_back(ok(name, "companyosd.socket is enabled: the daemon starts when a client connects"));
      return;
    case SocketUnit::kDisabled:
      checks.push_back(warning(name, "companyosd.socket is installed but not enabled: the daemon does not start "
                                     "at login",
                               "systemctl --user enable --now companyosd.socket"));
      return;
    case SocketUnit::kMasked:
      checks.push_back(warning(name, "companyosd.socket is masked: the daemon does not start at login",
                               "systemctl --user unmask companyosd.socket, then enable --now it"));
      return;
    case SocketUnit::kNotInstalled:
      checks.push_back(ok(name, "no companyosd.socket unit is installed: companyosd is started by hand"));
      return;
    case SocketUnit::kNoUserManager:
      checks.push_back(ok(name, "no systemd user manager runs: companyosd is started by hand"));
      return;
    case SocketUnit::kUnknown:
      checks.push_back(warning(name, "systemctl --user is-enabled companyosd.socket gave no answer",
                               "run it yourself to see why"));
      return;
  }
}

void notification_check(const DoctorFacts& facts, std::vector<Check>& checks) {
  const desktop::NotificationServer& server = facts.notifications;
  const std::string name = "notifications";
  if (!server.answers) {
    checks.push_back(warning(name, "no notification server answers: " + server.error.value_or("unknown") +
                                       " (runs waiting for approval are not announced; they wait in companyos "
                                       "approvals)",
                             "run your desktop's notification daemon (or dunst, mako, xfce4-notifyd)"));
  } else if (!server.has("actions")) {
    checks.push_back(warning(name, server.name + " answers but shows no actions: approvals are announced, and "
                                                 "decided with companyos run approve|deny",
                             "use a notification server that lists \"actions\" in its capabilities"));
  } else {
    checks.push_back(ok(name, server.name + " answers, with actions"));
  }
}

}  // namespace

std::vector<Check> diagnose(const DoctorFacts& facts) {
  std::vector<Check> checks;
  display_checks(facts, checks);
  accessibility_checks(facts, checks);
  if (facts.session.accessibility.registry) app_checks(facts, checks);
  launch_check(facts, checks);
  store_checks(facts, checks);
  unit_check(facts, checks);
  notification_check(facts, checks);
  return checks;
}

bool ready(const std::vector<Check>& checks) {
  for (const Check& check : checks) {
    if (check.state == CheckState::kProblem) return false;
  }
  return true;
}

std::string_view to_string(CheckState state) {
  switch (state) {
    case CheckState::kOk:
      return "ok";
    case CheckState::kWarning:
      return "warning";
    case CheckState::kProblem:
      return "problem";
  }
  return "problem";
}

nlohmann::json checks_to_json(const std::vector<Check>& checks) {
  nlohmann::json list = nlohmann::json::array();
  for (const Check& check : checks) {
    nlohmann::json item = {{"check", check.name}, {"state", to_string(check.state)}, {"found", check.found}};
    item["fix"] = check.fix.empty() ? nlohmann::json(nullptr) : nlohmann::json(check.fix);
    list.push_back(std::move(item));
  }
  return list;
}

}  // namespace companyos::daemon::methods
