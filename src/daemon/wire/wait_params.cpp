#include "daemon/wire/wait_params.h"

#include <string_view>
#include <vector>

namespace companyos::wire {
namespace {

constexpr std::string_view kFormsHint =
    "one of: window TITLE, closed (with title T or none), text T, menu, surface KIND, or ref REF "
    "with predicate exists|gone|value|state";

std::optional<std::string> string_param(const nlohmann::json& params, const char* key) {
  const auto found = params.find(key);
  if (found == params.end() || found->is_null()) return std::nullopt;
  return found->get<std::string>();
}

Error invalid(std::string message, nlohmann::json details, std::string_view suggestion) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), std::move(details),
                    std::string(suggestion));
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

}  // namespace

Result<WaitRequest> parse_wait_request(const nlohmann::json& params) {
  WaitRequest request;
  if (params.contains("timeout_ms")) {
    request.timeout = std::chrono::milliseconds(params["timeout_ms"].get<std::int64_t>());
  }

  const auto app = string_param(params, "app");
  const auto window = string_param(params, "window");
  const auto title = string_param(params, "title");
  const auto text = string_param(params, "text");
  const auto ref = string_param(params, "ref");
  const auto predicate = string_param(params, "predicate");
  const auto value = string_param(params, "value");
  const bool closed = params.value("closed", false);
  const bool menu = params.value("menu", false);
  const auto surface = string_param(params, "surface");

  std::vector<std::string> forms;
  if (window) forms.emplace_back("window");
  if (closed) forms.emplace_back("closed");
  if (text) forms.emplace_back("text");
  if (menu) forms.emplace_back("menu");
  if (surface) forms.emplace_back("surface");
  if (ref) forms.emplace_back("ref");
  if (forms.empty()) {
    return invalid("wait needs a condition", {{"conflict", nlohmann::json::array()}}, kFormsHint);
  }
  if (forms.size() > 1) {
    return invalid("give one condition, not " + joined(forms), {{"conflict", forms}}, kFormsHint);
  }
  if (title && !closed) {
    return invalid("title goes with closed, not with " + forms.front(),
                   {{"conflict", {"title", forms.front()}}},
                   "to wait for a window to appear, give its title as window");
  }
  if (!ref && (predicate || value)) {
    return invalid(std::string(predicate ? "predicate" : "value") + " goes with ref, not with " +
                       forms.front(),
                   {{"conflict", {predicate ? "predicate" : "value", forms.front()}}},
                   "to wait for an element, give its ref (from snapshot or find)");
  }
  if (!ref && !app) {
    return invalid("a " + forms.front() + " wait needs the app", {{"param", "app"}},
                   "name the app as `apps` lists it");
  }

  if (window) {
    request.condition = a11y::WindowAppears{*app, *window};
  } else if (closed) {
    request.condition = a11y::WindowClosed{*app, title};
  } else if (text) {
    request.condition = a11y::TextAppears{*app, *text};
  } else if (menu) {
    request.condition = a11y::SurfaceOpens{*app, a11y::SurfaceKind::kMenu};
  } else if (surface) {
    auto kind = a11y::parse_surface_kind(*surface, "surface", true);
    if (!kind) return std::move(kind).take_error();
    request.condition = a11y::SurfaceOpens{*app, *kind};
  } else {
    a11y::ElementPredicate element{*ref, a11y::Predicate::kExists, value};
    if (predicate) {
      auto parsed = a11y::parse_predicate(*predicate);
      if (!parsed) return std::move(parsed).take_error();
      element.predicate = *parsed;
    }
    request.condition = std::move(element);
    request.app = app;
  }
  if (auto valid = a11y::validate_condition(request.condition); !valid) {
    return std::move(valid).take_error();
  }
  return request;
}

}  // namespace companyos::wire
