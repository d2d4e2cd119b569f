#include "launch/platform.h"

#include "launch/subprocess.h"

namespace companyos::launch {

bool gio_has_launch(const std::string& gio_program, std::chrono::milliseconds timeout) {
  auto ran = run_subprocess({{gio_program, "help", "launch"}, timeout, 4096, Capture::kPipe});
  return ran && ran->succeeded();
}

PlatformFacts probe_platform(const std::string& gio_program) {
  return PlatformFacts{x11::detect_display_server(), gio_has_launch(gio_program)};
}

std::vector<Refusal> platform_refusals(const PlatformFacts& facts, const std::string& gio_program) {
  std::vector<Refusal> refusals;
  if (facts.display_server != x11::DisplayServer::kX11) {
    const bool wayland = facts.display_server == x11::DisplayServer::kWayland;
    refusals.push_back(make_refusal(RefusalReason::kNotX11,
                                    wayland ? "launch steps need X11; this is a Wayland session"
                                            : "launch steps need an X11 display; none answers",
                                    {{"display_server", x11::to_string(facts.display_server)}},
                                    wayland ? "run the step in an X11 session"
                                            : "check that DISPLAY names a running X server"));
  }
  if (!facts.gio_launch) {
    refusals.push_back(make_refusal(
        RefusalReason::kNoGioLaunch,
        "'" + gio_program + " help launch' failed: gio has no launch subcommand",
        {{"gio", gio_program}}, "install GLib 2.68 or newer (Debian: libglib2.0-bin)"));
  }
  return refusals;
}

}  // namespace companyos::launch
