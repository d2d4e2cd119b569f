#include "oracles.h"

#include <sstream>
#include <string>

#include "child_process.h"

namespace companyos::x11::testing {
namespace {

constexpr std::chrono::seconds kToolDeadline{10};

std::string hex_id(WindowId id) {
  std::ostringstream text;
  text << "0x" << std::hex << id;
  return text.str();
}

// The integer after `label` in xwininfo's "  Label:  123" lines.
std::optional<int> field(const std::string& output, const std::string& label) {
  const auto at = output.find(label);
  if (at == std::string::npos) return std::nullopt;
  std::istringstream rest(output.substr(at + label.size()));
  int value = 0;
  if (!(rest >> value)) return std::nullopt;
  return value;
}

}  // namespace

std::optional<WindowId> xprop_active_window() {
  // Prints e.g. "_NET_ACTIVE_WINDOW(WINDOW): window id # 0x600007".
  auto output = run_for_output({"xprop", "-root", "_NET_ACTIVE_WINDOW"}, kToolDeadline);
  if (!output) return std::nullopt;
  const auto hash = output->find("# 0x");
  if (hash == std::string::npos) return std::nullopt;
  const WindowId id = std::stoul(output->substr(hash + 2), nullptr, 16);
  if (id == 0) return std::nullopt;
  return id;
}

std::optional<Bounds> xwininfo_bounds(WindowId id) {
  auto output = run_for_output({"xwininfo", "-id", hex_id(id)}, kToolDeadline);
  if (!output) return std::nullopt;
  auto x = field(*output, "Absolute upper-left X:");
  auto y = field(*output, "Absolute upper-left Y:");
  auto width = field(*output, "Width:");
  auto height = field(*output, "Height:");
  if (!x || !y || !width || !height) return std::nullopt;
  return Bounds{*x, *y, *width, *height};
}

}  // namespace companyos::x11::testing
