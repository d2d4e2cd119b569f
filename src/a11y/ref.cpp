#include "a11y/ref.h"

#include <charconv>

namespace companyos::a11y {
namespace {

constexpr std::size_t kMaxSnapshotIdLength = 16;
constexpr int kMaxIndexDigits = 9;

Error bad_ref(std::string_view text, std::string why) {
  return make_error(ErrorCode::kInvalidArgs, "not an element ref: " + why,
                    {{"ref", std::string(text)}},
                    "refs look like @s1a:e12 (take one from a snapshot's output)");
}

}  // namespace

bool is_valid_snapshot_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxSnapshotIdLength) return false;
  for (char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

std::string format_ref(std::string_view snapshot_id, int index) {
  return "@" + std::string(snapshot_id) + ":e" + std::to_string(index);
}

Result<ElementRef> parse_ref(std::string_view text) {
  if (!text.starts_with('@')) return bad_ref(text, "it must start with '@'");
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return bad_ref(text, "missing ':e<N>'");
  const std::string_view id = text.substr(1, colon - 1);
  if (!is_valid_snapshot_id(id)) {
    return bad_ref(text, "the snapshot id must be 1-16 lower-case letters or digits");
  }
  std::string_view element = text.substr(colon + 1);
  if (!element.starts_with('e')) return bad_ref(text, "the element part must be e<N>");
  element.remove_prefix(1);
  if (element.empty() || element.size() > kMaxIndexDigits || element.front() < '1' ||
      element.front() > '9') {
    return bad_ref(text, "N must be a positive number without leading zeros");
  }
  int index = 0;
  const auto [end, ec] = std::from_chars(element.data(), element.data() + element.size(), index);
  if (ec != std::errc() || end != element.data() + element.size()) {
    return bad_ref(text, "N must be a positive number");
  }
  return ElementRef{std::string(id), index};
}

}  // namespace companyos::a11y
