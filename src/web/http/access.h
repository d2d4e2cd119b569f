// Who may ask what of the dashboard: pure rules over a request's headers, decided before
// its body is read. The dashboard listens on 127.0.0.1 only; these rules keep other web
// sites (DNS rebinding, cross-site requests) and other local users' browsers out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace companyos::web {

enum class Route {
  kLogin,     // GET /login?token=…: a one-time token for a session cookie
  kSession,   // GET /api/session: the session's CSRF token
  kEvents,    // GET /events: server-sent events while runs are active
  kApi,       // POST /api/<method>
  kPage,      // GET a page file
};

struct RequestFacts {
  std::string_view method;                      // "GET", "POST", …
  std::string_view path;                        // as requested, e.g. "/api/automation.list"
  std::optional<std::string_view> host;         // Host
  std::optional<std::string_view> origin;       // Origin
  std::optional<std::string_view> fetch_site;   // Sec-Fetch-Site
  bool session = false;                         // the cookie names a live session
  bool csrf = false;                            // X-CSRF-Token is that session's
  std::uint16_t port = 0;                       // the port served
};

struct Verdict {
  int status = 200;               // 200: go on; otherwise the answer
  std::string_view reason = {};   // for the person, in the answer's body
  Route route = Route::kPage;
  bool allowed() const { return status == 200; }
};

Verdict judge(const RequestFacts& request);

// The method name of an API path ("/api/automation.list" → "automation.list"), or nullopt.
std::optional<std::string_view> api_method(std::string_view path);
// "127.0.0.1:8765" or "localhost:8765" for the port served (no DNS rebinding).
bool host_is_ours(std::string_view host, std::uint16_t port);
// "http://127.0.0.1:8765" or "http://localhost:8765".
bool origin_is_ours(std::string_view origin, std::uint16_t port);
// One cookie's value from a Cookie header, or nullopt.
std::optional<std::string_view> cookie_value(std::string_view header, std::string_view name);

inline constexpr std::string_view kSessionCookie = "companyos_session";
inline constexpr std::string_view kCsrfHeader = "X-CSRF-Token";

}  // namespace companyos::web
