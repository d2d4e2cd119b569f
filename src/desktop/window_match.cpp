#include "desktop/window_match.h"

#include <vector>

namespace companyos::desktop {
namespace {

template <typename Keep>
std::vector<const x11::WindowInfo*> narrow(const std::vector<const x11::WindowInfo*>& from, Keep keep) {
  std::vector<const x11::WindowInfo*> out;
  for (const auto* client : from) {
    if (keep(*client)) out.push_back(client);
  }
  return out;
}

}  // namespace

std::optional<x11::WindowId> match_x11_window(const a11y::WindowInfo& window,
                                              std::span<const x11::WindowInfo> clients) {
  if (!window.pid) return std::nullopt;
  std::vector<const x11::WindowInfo*> candidates;
  for (const auto& client : clients) {
    if (client.pid && *client.pid == *window.pid) candidates.push_back(&client);
  }
  candidates = narrow(candidates, [&](const x11::WindowInfo& c) { return c.title == window.title; });
  if (candidates.size() > 1 && window.bounds) {
    const auto& b = *window.bounds;
    auto same_size = narrow(candidates, [&](const x11::WindowInfo& c) {
      return c.bounds.width == b.width && c.bounds.height == b.height;
    });
    if (same_size.size() > 1) {
      same_size = narrow(same_size, [&](const x11::WindowInfo& c) {
        return c.bounds.x == b.x && c.bounds.y == b.y;
      });
    }
    candidates = std::move(same_size);
  }
  if (candidates.size() != 1) return std::nullopt;
  return candidates.front()->id;
}

}  // namespace companyos::desktop
