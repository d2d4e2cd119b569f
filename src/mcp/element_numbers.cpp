#include "mcp/element_numbers.h"

#include <algorithm>

#include "core/text.h"

namespace companyos::mcp {

void ElementNumbers::remember(Seen seen, std::string agent_view) {
  std::lock_guard lock(mutex_);
  auto same_window = std::find_if(entries_.begin(), entries_.end(),
                                  [&](const Entry& e) { return e.seen.window_id == seen.window_id; });
  if (same_window != entries_.end()) {
    same_window->seen = std::move(seen);
    same_window->order = next_order_++;
    same_window->agent_view = std::move(agent_view);
  } else {
    entries_.push_back(Entry{std::move(seen), next_order_++, std::move(agent_view)});
  }
}

std::optional<std::string> ElementNumbers::agent_view_of(const std::string& state) const {
  std::lock_guard lock(mutex_);
  for (const Entry& entry : entries_) {
    if (entry.seen.state == state && !entry.agent_view.empty()) return entry.agent_view;
  }
  return std::nullopt;
}

std::optional<ElementNumbers::Seen> ElementNumbers::latest(const std::string& app,
                                                           const std::optional<std::string>& window_id) const {
  std::lock_guard lock(mutex_);
  const Entry* best = nullptr;
  for (const Entry& entry : entries_) {
    if (!equals_ignoring_ascii_case(entry.seen.app, app)) continue;
    if (window_id && entry.seen.window_id != *window_id) continue;
    if (best == nullptr || entry.order > best->order) best = &entry;
  }
  if (best == nullptr) return std::nullopt;
  return best->seen;
}

Result<ElementNumbers::Seen> ElementNumbers::state_for(const std::string& app,
                                                      const std::optional<std::string>& window_id,
                                                      std::int64_t element,
                                                      const std::optional<std::string>& state) const {
  if (element < 0) {
    return make_error(ErrorCode::kInvalidArgs, "element numbers are 0 or more", {{"element", element}});
  }
  std::optional<Seen> seen;
  if (state) {
    std::lock_guard lock(mutex_);
    for (const Entry& entry : entries_) {
      if (entry.seen.state == *state) seen = entry.seen;
    }
    if (!seen) {
      return make_error(ErrorCode::kStaleRef, "state " + *state + " is not the newest state of its window",
                        {{"state", *state}}, std::string(kStaleNumberAdvice));
    }
    if (!equals_ignoring_ascii_case(seen->app, app)) {
      return make_error(ErrorCode::kInvalidArgs, "state " + *state + " is of app " + seen->app + ", not " + app,
                        {{"state", *state}, {"app", app}});
    }
  } else {
    seen = latest(app, window_id);
    if (!seen) {
      return make_error(ErrorCode::kElementNotFound, "no state of " + app + " has been read yet",
                        {{"app", app}}, "call get_app_state for the app first; element numbers come from it");
    }
  }
  return *seen;
}

std::string ElementNumbers::ref_in(const Seen& seen, std::int64_t element) {
  return "@" + seen.state + ":e" + std::to_string(element);
}

void ElementNumbers::remember_picture(Picture picture) {
  std::lock_guard lock(mutex_);
  auto same_window = std::find_if(pictures_.begin(), pictures_.end(), [&](const PictureEntry& e) {
    return e.picture.window_id == picture.window_id;
  });
  if (same_window != pictures_.end()) {
    same_window->picture = std::move(picture);
    same_window->order = next_order_++;
  } else {
    pictures_.push_back(PictureEntry{std::move(picture), next_order_++});
  }
}

Result<ElementNumbers::Picture> ElementNumbers::picture_of(const std::string& app,
                                                            const std::optional<std::string>& window_id) const {
  std::lock_guard lock(mutex_);
  const PictureEntry* best = nullptr;
  for (const PictureEntry& entry : pictures_) {
    if (!equals_ignoring_ascii_case(entry.picture.app, app)) continue;
    if (window_id && entry.picture.window_id != *window_id) continue;
    if (best == nullptr || entry.order > best->order) best = &entry;
  }
  if (best == nullptr) {
    return make_error(ErrorCode::kNotFound, "no picture of " + app + " has been shown yet", {{"app", app}},
                      "call get_app_state with screenshot true; x and y are read against its picture");
  }
  return best->picture;
}

}  // namespace companyos::mcp
