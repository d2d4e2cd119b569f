// Element numbers belong to the state they came from. The server remembers, per window,
// the last state (snapshot id) it showed an agent, and turns element N of it into the
// daemon's ref @<state>:e<N>; a number asked of another state is refused, never guessed.
// Likewise the last picture of each window, which a click's x and y are read against.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "companyos/result.h"

namespace companyos::mcp {

inline constexpr std::string_view kStaleNumberAdvice =
    "element numbers belong to the state they came from: call get_app_state again and find it by its label";

class ElementNumbers {
 public:
  struct Seen {
    std::string app;
    std::string window_id;
    std::string state;  // the daemon's snapshot id, e.g. "s12"
  };

  // The state an agent has just been shown of this window; it replaces the window's older one.
  // `agent_view`: its outline when it is the agent view (not a full one), which the changes
  // after an action are worked out against.
  void remember(Seen seen, std::string agent_view = {});
  // The newest state shown of the app (of that window, when given).
  std::optional<Seen> latest(const std::string& app, const std::optional<std::string>& window_id) const;
  // The agent view of `state` as the agent was shown it, while it is its window's newest.
  std::optional<std::string> agent_view_of(const std::string& state) const;
  // The state element N is taken from: `state` when given (it must be the newest shown of
  // its window), else the app's newest. STALE_REF or ELEMENT_NOT_FOUND with advice.
  Result<Seen> state_for(const std::string& app, const std::optional<std::string>& window_id,
                         std::int64_t element, const std::optional<std::string>& state) const;
  // The daemon's ref of element N in that state: @<state>:e<N>.
  static std::string ref_in(const Seen& seen, std::int64_t element);

  // A window's picture an agent has been shown: click x and y are taken from it.
  struct Picture {
    std::string app;
    std::string window_id;
    int width = 0;
    int height = 0;
  };
  // It replaces the window's older picture.
  void remember_picture(Picture picture);
  // The newest picture shown of the app (of that window, when given); NOT_FOUND with
  // advice when none was.
  Result<Picture> picture_of(const std::string& app, const std::optional<std::string>& window_id) const;

 private:
  struct Entry {
    Seen seen;
    std::uint64_t order = 0;
    std::string agent_view;
  };
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
  struct PictureEntry {
    Picture picture;
    std::uint64_t order = 0;
  };
  std::vector<PictureEntry> pictures_;
  std::uint64_t next_order_ = 1;
};

}  // namespace companyos::mcp
