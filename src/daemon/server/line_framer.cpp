#include "daemon/server/line_framer.h"

namespace companyos::daemon {

LineFramer::LineFramer(std::size_t max_line) : max_line_(max_line) {}

void LineFramer::emit(std::vector<FramedLine>& out) {
  if (discarding_) {
    out.push_back(FramedLine{{}, true});
  } else {
    if (!pending_.empty() && pending_.back() == '\r') pending_.pop_back();
    if (pending_.size() > max_line_) {
      out.push_back(FramedLine{{}, true});
    } else if (!pending_.empty()) {
      out.push_back(FramedLine{std::move(pending_), false});
    }
  }
  pending_.clear();
  discarding_ = false;
}

void LineFramer::feed(std::string_view bytes, std::vector<FramedLine>& out) {
  while (!bytes.empty()) {
    const auto newline = bytes.find('\n');
    const std::string_view chunk = bytes.substr(0, newline);
    if (!discarding_) {
      // One byte of slack for a CR; emit() applies the exact limit.
      if (pending_.size() + chunk.size() > max_line_ + 1) {
        discarding_ = true;
        pending_.clear();
        pending_.shrink_to_fit();
      } else {
        pending_.append(chunk);
      }
    }
    if (newline == std::string_view::npos) return;
    emit(out);
    bytes.remove_prefix(newline + 1);
  }
}

std::optional<FramedLine> LineFramer::finish() {
  std::vector<FramedLine> out;
  if (discarding_ || !pending_.empty()) emit(out);
  if (out.empty()) return std::nullopt;
  return std::move(out.front());
}

}  // namespace companyos::daemon
