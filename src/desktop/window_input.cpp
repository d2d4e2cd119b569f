#include "desktop/window_input.h"

#include <mutex>

#include "core/delivery.h"
#include "core/text.h"
#include "desktop/input_lock.h"
#include "x11/activation.h"
#include "x11/keyboard.h"
#include "x11/pointer.h"

namespace companyos::desktop {
namespace {

// Bytes of the UTF-8 sequence that starts with `lead`; 1 for a byte that starts none.
std::size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

// How far typing got, and so what reached the app: safe to retry only when nothing did.
Error after_typing(Error error, std::size_t typed) {
  if (!error.details.is_object()) error.details = nlohmann::json::object();
  error.details["typed"] = typed;
  return with_delivery(std::move(error), typed == 0 ? Delivery::kNotDelivered : Delivery::kDeliveredUnverified);
}

Status confirm_active(x11::Connection& connection, x11::WindowId xid, std::size_t typed) {
  auto active = x11::active_window(connection);
  if (!active) return after_typing(std::move(active).take_error(), typed);
  if (*active && **active == xid) return ok_status();
  return after_typing(make_error(ErrorCode::kPolicyDenied,
                                 typed == 0 ? "the window is not the active one; nothing was typed"
                                            : "the window lost the focus after " + std::to_string(typed) +
                                                  " characters; the rest was not typed",
                                 {{"reason", "not_active"}}, "close whatever holds the focus, then retry"),
                      typed);
}

Error refused(Error error) { return with_delivery(std::move(error), Delivery::kNotDelivered); }

}  // namespace

std::vector<std::string_view> typing_chunks(std::string_view text, std::size_t per_chunk) {
  if (per_chunk == 0) per_chunk = 1;
  std::vector<std::string_view> chunks;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = start;
    for (std::size_t count = 0; count < per_chunk && end < text.size(); ++count) {
      end += sequence_length(static_cast<unsigned char>(text[end]));
    }
    if (end > text.size()) end = text.size();
    chunks.push_back(text.substr(start, end - start));
    start = end;
  }
  return chunks;
}

Status type_while_active(x11::Connection& connection, x11::WindowId xid, std::string_view text) {
  if (auto typable = x11::check_typable(text); !typable) return after_typing(std::move(typable).take_error(), 0);
  std::size_t typed = 0;
  for (std::string_view chunk : typing_chunks(text, kTypingChunk)) {
    if (auto st = confirm_active(connection, xid, typed); !st) return st;
    if (auto st = x11::type_text(connection, chunk); !st) {
      Error error = std::move(st).take_error();
      const std::size_t in_chunk =
          error.details.is_object() ? error.details.value("typed", std::size_t{0}) : std::size_t{0};
      return after_typing(std::move(error), typed + in_chunk);
    }
    typed += decode_utf8(chunk)->size();  // check_typable proved the text valid UTF-8
  }
  return ok_status();
}

std::optional<ScreenPoint> point_in_client_area(const Bounds& client_area, int x, int y) {
  if (x < 0 || y < 0 || x >= client_area.width || y >= client_area.height) return std::nullopt;
  return ScreenPoint{client_area.x + x, client_area.y + y};
}

Result<ScreenPoint> click_in_window(x11::Connection& connection, x11::WindowId xid, int x, int y, int button) {
  std::lock_guard lock(physical_input_mutex());
  if (auto st = x11::activate_window(connection, xid); !st) return refused(std::move(st).take_error());
  auto window = x11::describe_window(connection, xid);
  if (!window) return refused(std::move(window).take_error());
  if (!window->active) {
    return refused(make_error(ErrorCode::kPolicyDenied, "the target window did not stay active",
                              {{"reason", "not_active"}}, "close whatever holds the focus, then retry"));
  }
  const auto point = point_in_client_area(window->bounds, x, y);
  if (!point) {
    return refused(make_error(ErrorCode::kInvalidArgs,
                              "(" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the window's " +
                                  std::to_string(window->bounds.width) + "×" + std::to_string(window->bounds.height) +
                                  " client area",
                              {{"reason", "outside_window"},
                               {"width", window->bounds.width},
                               {"height", window->bounds.height}},
                              "take x and y from a screenshot of this window, from its top-left corner"));
  }
  auto shows = x11::shows_at(connection, xid, point->x, point->y);
  if (!shows) return refused(std::move(shows).take_error());
  if (!*shows) {
    return refused(make_error(ErrorCode::kPolicyDenied, "another window covers that point of the window",
                              {{"reason", "covered"}, {"point", {{"x", point->x}, {"y", point->y}}}},
                              "close the menu or dialog over it, then look again"));
  }
  if (auto moved = x11::move_pointer(connection, point->x, point->y); !moved) {
    return refused(std::move(moved).take_error());
  }
  if (auto clicked = x11::click_button(connection, button); !clicked) {
    return with_delivery(std::move(clicked).take_error(), Delivery::kDeliveredUnverified);
  }
  return *point;
}

}  // namespace companyos::desktop
