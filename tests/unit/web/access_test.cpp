#include "web/http/access.h"

#include <gtest/gtest.h>

namespace companyos::web {
namespace {

constexpr std::uint16_t kPort = 8765;

struct JudgeCase {
  const char* what;
  RequestFacts request;
  int status;
  Route route = Route::kPage;
};

void PrintTo(const JudgeCase& c, std::ostream* os) { *os << c.what; }

RequestFacts facts(std::string_view method, std::string_view path, bool session = true, bool csrf = true) {
  return RequestFacts{.method = method, .path = path, .host = "127.0.0.1:8765", .origin = std::nullopt,
                      .fetch_site = std::nullopt, .session = session, .csrf = csrf, .port = kPort};
}

RequestFacts with_host(RequestFacts request, std::optional<std::string_view> host) {
  request.host = host;
  return request;
}
RequestFacts with_origin(RequestFacts request, std::string_view origin) {
  request.origin = origin;
  return request;
}
RequestFacts with_site(RequestFacts request, std::string_view site) {
  request.fetch_site = site;
  return request;
}

class Judge : public ::testing::TestWithParam<JudgeCase> {};

TEST_P(Judge, AllowsOnlyTheDashboardsOwnRequests) {
  const JudgeCase& c = GetParam();
  const Verdict verdict = judge(c.request);
  EXPECT_EQ(verdict.status, c.status) << c.what << ": " << verdict.reason;
  if (c.status == 200) {
    EXPECT_EQ(verdict.route, c.route) << c.what;
  } else {
    EXPECT_FALSE(verdict.reason.empty()) << c.what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, Judge,
    ::testing::Values(
        JudgeCase{"a page with a session", facts("GET", "/"), 200, Route::kPage},
        JudgeCase{"HEAD of a page", facts("HEAD", "/app.js"), 200, Route::kPage},
        JudgeCase{"an API call with session and CSRF", facts("POST", "/api/automation.list"), 200, Route::kApi},
        JudgeCase{"the session's CSRF token", facts("GET", "/api/session", true, false), 200, Route::kSession},
        JudgeCase{"login needs no session", facts("GET", "/login", false, false), 200, Route::kLogin},
        JudgeCase{"the event stream", facts("GET", "/events", true, false), 200, Route::kEvents},
        JudgeCase{"no session for the event stream", facts("GET", "/events", false, false), 401},
        JudgeCase{"the event stream by POST", facts("POST", "/events"), 405},
        JudgeCase{"another site's event stream", with_site(facts("GET", "/events"), "cross-site"), 403},
        JudgeCase{"localhost is ours too", with_host(facts("GET", "/"), "LocalHost:8765"), 200, Route::kPage},
        JudgeCase{"our own origin", with_origin(facts("POST", "/api/ping"), "http://127.0.0.1:8765"), 200, Route::kApi},
        JudgeCase{"the person's own navigation", with_site(facts("GET", "/login", false), "none"), 200, Route::kLogin},
        JudgeCase{"same-origin fetch", with_site(facts("POST", "/api/ping"), "same-origin"), 200, Route::kApi},
        // Refused.
        JudgeCase{"no session: 401", facts("GET", "/", false, false), 401},
        JudgeCase{"no session on the API: 401", facts("POST", "/api/ping", false, false), 401},
        JudgeCase{"no session for the CSRF token", facts("GET", "/api/session", false, false), 401},
        JudgeCase{"no Host", with_host(facts("GET", "/"), std::nullopt), 421},
        JudgeCase{"a rebinding site's name", with_host(facts("GET", "/"), "evil.example:8765"), 421},
        JudgeCase{"another port", with_host(facts("GET", "/"), "127.0.0.1:8766"), 421},
        JudgeCase{"no port", with_host(facts("GET", "/"), "127.0.0.1"), 421},
        JudgeCase{"a name ending like ours", with_host(facts("GET", "/"), "x127.0.0.1:8765"), 421},
        JudgeCase{"another address of this machine", with_host(facts("GET", "/"), "192.168.1.2:8765"), 421},
        JudgeCase{"the wrong host even at login", with_host(facts("GET", "/login", false), "evil.example:8765"), 421},
        JudgeCase{"another site's origin", with_origin(facts("POST", "/api/stop_all"), "http://evil.example"), 403},
        JudgeCase{"https is another origin", with_origin(facts("POST", "/api/stop_all"), "https://127.0.0.1:8765"), 403},
        JudgeCase{"the null origin", with_origin(facts("POST", "/api/stop_all"), "null"), 403},
        JudgeCase{"a cross-site fetch", with_site(facts("POST", "/api/stop_all"), "cross-site"), 403},
        JudgeCase{"a same-site fetch from another port", with_site(facts("POST", "/api/stop_all"), "same-site"), 403},
        JudgeCase{"a cross-site login", with_site(facts("GET", "/login", false), "cross-site"), 403},
        JudgeCase{"an API call without CSRF", facts("POST", "/api/stop_all", true, false), 403},
        JudgeCase{"an API call by GET", facts("GET", "/api/stop_all"), 405},
        JudgeCase{"login by POST", facts("POST", "/login", false), 405},
        JudgeCase{"the CSRF token by POST", facts("POST", "/api/session"), 405},
        JudgeCase{"a page by POST", facts("POST", "/"), 405},
        JudgeCase{"a method name with a slash", facts("POST", "/api/../etc"), 404},
        JudgeCase{"an empty method name", facts("POST", "/api/"), 404}));

TEST(ApiMethod, TakesPlainMethodNamesOnly) {
  EXPECT_EQ(api_method("/api/automation.list"), "automation.list");
  EXPECT_EQ(api_method("/api/stop_all"), "stop_all");
  EXPECT_EQ(api_method("/api/"), std::nullopt);
  EXPECT_EQ(api_method("/api/a/b"), std::nullopt);
  EXPECT_EQ(api_method("/api/Ping"), std::nullopt);
  EXPECT_EQ(api_method("/api/" + std::string(65, 'a')), std::nullopt);
  EXPECT_EQ(api_method("/other/ping"), std::nullopt);
}

TEST(CookieValue, FindsTheNamedCookieOnly) {
  EXPECT_EQ(cookie_value("companyos_session=abc", kSessionCookie), "abc");
  EXPECT_EQ(cookie_value("a=1; companyos_session=abc; b=2", kSessionCookie), "abc");
  EXPECT_EQ(cookie_value("  companyos_session = abc ;", kSessionCookie), "abc");
  EXPECT_EQ(cookie_value("xcompanyos_session=abc", kSessionCookie), std::nullopt);
  EXPECT_EQ(cookie_value("companyos_session", kSessionCookie), std::nullopt);
  EXPECT_EQ(cookie_value("", kSessionCookie), std::nullopt);
  EXPECT_EQ(cookie_value("companyos_session=", kSessionCookie), "");
}

TEST(Origin, OursIsHttpOnItsPort) {
  EXPECT_TRUE(origin_is_ours("http://127.0.0.1:8765", kPort));
  EXPECT_TRUE(origin_is_ours("http://localhost:8765", kPort));
  EXPECT_FALSE(origin_is_ours("http://127.0.0.1:8765/", kPort));
  EXPECT_FALSE(origin_is_ours("http://127.0.0.1", kPort));
  EXPECT_FALSE(origin_is_ours("http://127.0.0.1.evil.example:8765", kPort));
  EXPECT_FALSE(origin_is_ours("null", kPort));
}

}  // namespace
}  // namespace companyos::web
