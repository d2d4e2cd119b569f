// Fair shares of the worker pool: work about one app goes in that app's lane, and at most
// `limit` items of a lane run at once; the rest wait in the lane, in order, without holding
// a thread. So an app that stops answering can hold at most `limit` workers while its
// requests run out their deadlines, and requests about other apps keep their latency.
// Work in no lane ("") is never held back. Used from one thread (the main loop's).
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace companyos::daemon {

template <typename Item>
class Lanes {
 public:
  explicit Lanes(std::size_t limit) : limit_(limit == 0 ? 1 : limit) {}

  // The item back when it may start now; nullopt when it was queued behind its lane.
  std::optional<Item> admit(const std::string& lane, Item item) {
    if (lane.empty()) return item;
    Lane& state = lanes_[lane];
    if (state.running < limit_) {
      ++state.running;
      return item;
    }
    state.waiting.push_back(std::move(item));
    return std::nullopt;
  }

  // An item of the lane has ended: the next one of the lane, to start now (it counts as
  // running), or nullopt.
  std::optional<Item> finish(const std::string& lane) {
    if (lane.empty()) return std::nullopt;
    const auto found = lanes_.find(lane);
    if (found == lanes_.end()) return std::nullopt;
    Lane& state = found->second;
    if (!state.waiting.empty()) {
      Item next = std::move(state.waiting.front());
      state.waiting.pop_front();
      return next;
    }
    if (state.running > 0) --state.running;
    if (state.running == 0) lanes_.erase(found);  // idle lanes cost nothing
    return std::nullopt;
  }

  // Everything waiting in the lane, in order, taken out of it (what is running stays).
  std::deque<Item> take_waiting(const std::string& lane) {
    const auto found = lanes_.find(lane);
    if (found == lanes_.end()) return {};
    return std::exchange(found->second.waiting, {});
  }

  std::size_t running(const std::string& lane) const {
    const auto found = lanes_.find(lane);
    return found == lanes_.end() ? 0 : found->second.running;
  }
  std::size_t waiting(const std::string& lane) const {
    const auto found = lanes_.find(lane);
    return found == lanes_.end() ? 0 : found->second.waiting.size();
  }

 private:
  struct Lane {
    std::size_t running = 0;
    std::deque<Item> waiting;
  };
  std::size_t limit_;
  std::map<std::string, Lane> lanes_;
};

}  // namespace companyos::daemon
