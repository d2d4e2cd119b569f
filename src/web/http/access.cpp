#include "web/http/access.h"

#include <algorithm>
#include <cctype>

namespace companyos::web {
namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// "127.0.0.1:8765" or "localhost:8765", exactly.
bool authority_is_ours(std::string_view authority, std::uint16_t port) {
  const auto colon = authority.rfind(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view name = authority.substr(0, colon);
  if (authority.substr(colon + 1) != std::to_string(port)) return false;
  return name == "127.0.0.1" || equal_ignoring_case(name, "localhost");
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

Verdict refuse(int status, std::string_view reason) { return Verdict{status, reason, Route::kPage}; }

}  // namespace

bool host_is_ours(std::string_view host, std::uint16_t port) { return authority_is_ours(host, port); }

bool origin_is_ours(std::string_view origin, std::uint16_t port) {
  constexpr std::string_view kScheme = "http://";
  return origin.starts_with(kScheme) && authority_is_ours(origin.substr(kScheme.size()), port);
}

std::optional<std::string_view> cookie_value(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const auto semicolon = header.find(';');
    const std::string_view pair = trim(header.substr(0, semicolon));
    header = semicolon == std::string_view::npos ? std::string_view{} : header.substr(semicolon + 1);
    const auto equals = pair.find('=');
    if (equals == std::string_view::npos) continue;
    if (trim(pair.substr(0, equals)) == name) return trim(pair.substr(equals + 1));
  }
  return std::nullopt;
}

std::optional<std::string_view> api_method(std::string_view path) {
  constexpr std::string_view kPrefix = "/api/";
  if (!path.starts_with(kPrefix)) return std::nullopt;
  const std::string_view name = path.substr(kPrefix.size());
  if (name.empty() || name.size() > 64) return std::nullopt;
  const bool plain = std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  });
  if (!plain) return std::nullopt;
  return name;
}

Verdict judge(const RequestFacts& request) {
  // A page of another site that resolves its own name to 127.0.0.1 (DNS rebinding) sends its
  // own name here; only ours is served.
  if (!request.host || !host_is_ours(*request.host, request.port)) {
    return refuse(421, "this server answers only to its own address, http://127.0.0.1:<port>");
  }
  // Browsers say where a request comes from; anything but this origin, or the person's own
  // navigation, is another site's.
  if (request.origin && !origin_is_ours(*request.origin, request.port)) {
    return refuse(403, "requests from other sites are refused");
  }
  if (request.fetch_site && *request.fetch_site != "same-origin" && *request.fetch_site != "none") {
    return refuse(403, "requests from other sites are refused");
  }
  const bool get = request.method == "GET" || request.method == "HEAD";
  if (request.path == "/login") {
    if (!get) return refuse(405, "use GET");
    return Verdict{200, {}, Route::kLogin};
  }
  if (!request.session) {
    return refuse(401, "not logged in: open the link `companyos dashboard` prints");
  }
  if (request.path == "/api/session") {
    if (!get) return refuse(405, "use GET");
    return Verdict{200, {}, Route::kSession};
  }
  if (request.path == "/events") {
    if (!get) return refuse(405, "use GET");
    return Verdict{200, {}, Route::kEvents};
  }
  if (request.path.starts_with("/api/")) {
    if (request.method != "POST") return refuse(405, "API calls are POST requests");
    if (!request.csrf) return refuse(403, "the request lacks this session's X-CSRF-Token");
    if (!api_method(request.path)) return refuse(404, "no such method");
    return Verdict{200, {}, Route::kApi};
  }
  if (!get) return refuse(405, "pages are read with GET");
  return Verdict{200, {}, Route::kPage};
}

}  // namespace companyos::web
