#include "web/dashboard.h"

#include <libsoup/soup.h>

#include <algorithm>
#include <vector>

#include <spdlog/spdlog.h>

#include "companyos/methods.h"
#include "companyos/protocol.h"
#include "core/glib_handles.h"
#include "core/json_depth.h"
#include "core/text.h"
#include "web/http/access.h"
#include "web/http/event_stream.h"
#include "web/http/page_files.h"
#include "web/http/sessions.h"

namespace companyos::web {
namespace {

// An API call's body holds one method's params: a definition is the largest, far below.
constexpr goffset kMaxBodyBytes = 1024 * 1024;
// How often listening pages' activity is read, and how often a quiet stream says it lives.
constexpr guint kActivityIntervalMs = 250;
constexpr int kKeepAliveTicks = 60;  // 15 s
// Pages listening at once; another is refused (each is one open connection).
constexpr std::size_t kMaxListeners = 32;
// How long a stopped server may go on answering what it took.
constexpr std::chrono::seconds kRetireLimit{5};

using SoupServerHandle = GObjectPtr<SoupServer>;

// No script or style but the dashboard's own files, nothing from another origin, no framing.
constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

std::optional<std::string_view> header(SoupServerMessage* msg, const char* name) {
  const char* value = soup_message_headers_get_one(soup_server_message_get_request_headers(msg), name);
  if (value == nullptr) return std::nullopt;
  return std::string_view(value);
}

void secure_headers(SoupServerMessage* msg) {
  SoupMessageHeaders* headers = soup_server_message_get_response_headers(msg);
  soup_message_headers_replace(headers, "Content-Security-Policy", kContentSecurityPolicy);
  soup_message_headers_replace(headers, "X-Content-Type-Options", "nosniff");
  soup_message_headers_replace(headers, "X-Frame-Options", "DENY");
  soup_message_headers_replace(headers, "Referrer-Policy", "no-referrer");
  soup_message_headers_replace(headers, "Cache-Control", "no-store");
  soup_message_headers_replace(headers, "Cross-Origin-Opener-Policy", "same-origin");
  soup_message_headers_replace(headers, "Cross-Origin-Resource-Policy", "same-origin");
}

void respond(SoupServerMessage* msg, int status, std::string_view content_type, std::string_view body) {
  secure_headers(msg);
  soup_server_message_set_status(msg, static_cast<guint>(status), nullptr);
  soup_server_message_set_response(msg, std::string(content_type).c_str(), SOUP_MEMORY_COPY, body.data(),
                                   body.size());
}

void respond_text(SoupServerMessage* msg, int status, std::string_view text) {
  respond(msg, status, "text/plain; charset=utf-8", std::string(text) + "\n");
}

void respond_json(SoupServerMessage* msg, int status, const nlohmann::json& body) {
  respond(msg, status, "application/json", body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void respond_error(SoupServerMessage* msg, int status, const Error& error) {
  respond_json(msg, status, protocol::error_envelope(nullptr, error));
}

// Set on a message whose client went away, so a late answer is not written to it.
constexpr const char* kGoneKey = "companyos-client-gone";

void on_disconnected(SoupServerMessage* msg, gpointer) {
  g_object_set_data(G_OBJECT(msg), kGoneKey, GINT_TO_POINTER(1));
}

}  // namespace

struct Dashboard::Server {
  Server(const Clock& clock, CallMethod& call, Activity& activity, PageFiles pages)
      : sessions(clock), call(call), activity(activity), pages(std::move(pages)) {}

  ~Server() {
    if (ticker != 0) g_source_remove(ticker);
    end_listeners();
    if (soup) {
      g_signal_handlers_disconnect_by_data(soup.get(), this);
      soup_server_disconnect(soup.get());
    }
  }

  // Counts each request from its start to its end (answered, or its client gone), so a
  // stopped server is freed only once nothing of it is in flight.
  static void on_request_started(SoupServer*, SoupServerMessage*, gpointer self) {
    ++static_cast<Server*>(self)->in_flight;
  }
  static void on_request_ended(SoupServer*, SoupServerMessage*, gpointer self) {
    --static_cast<Server*>(self)->in_flight;
  }

  // Ends the sessions and the event streams and refuses every new request (503); what was
  // taken is still answered — the request that stopped it among them — before the
  // destructor closes the port and the connections.
  void close() {
    closed = true;
    closed_at = std::chrono::steady_clock::now();
    sessions.clear();
    if (ticker != 0) g_source_remove(ticker);
    ticker = 0;
    end_listeners();
  }

  void end_listeners() {
    // None may call back into this server once it is gone.
    const auto listening = std::move(listeners);
    listeners.clear();
    for (const auto& listener : listening) {
      g_signal_handlers_disconnect_by_data(listener.get(), this);
      soup_message_body_complete(soup_server_message_get_response_body(listener.get()));
      soup_server_message_unpause(listener.get());
    }
  }

  static void early(SoupServer*, SoupServerMessage* msg, const char* path, GHashTable*, gpointer self) {
    auto* server = static_cast<Server*>(self);
    if (server->closed) return respond_text(msg, 503, "the dashboard is stopping");
    const Verdict verdict = server->judge(msg, path);
    if (!verdict.allowed()) {
      respond_text(msg, verdict.status, verdict.reason);
      return;
    }
    // Every body is read whole before the handler runs: only a bounded one is read at all.
    SoupMessageHeaders* headers = soup_server_message_get_request_headers(msg);
    if (soup_message_headers_get_encoding(headers) != SOUP_ENCODING_CONTENT_LENGTH &&
        soup_message_headers_get_encoding(headers) != SOUP_ENCODING_NONE) {
      respond_text(msg, 411, "send a request body with a Content-Length");
    } else if (soup_message_headers_get_content_length(headers) > kMaxBodyBytes) {
      respond_text(msg, 413, "a request body larger than 1 MiB");
    }
  }

  static void handle(SoupServer*, SoupServerMessage* msg, const char* path, GHashTable* query, gpointer self) {
    auto* server = static_cast<Server*>(self);
    if (server->closed) return respond_text(msg, 503, "the dashboard is stopping");
    const Verdict verdict = server->judge(msg, path);
    if (!verdict.allowed()) return respond_text(msg, verdict.status, verdict.reason);
    switch (verdict.route) {
      case Route::kLogin: return server->login(msg, query);
      case Route::kSession: return server->session(msg);
      case Route::kEvents: return server->listen(msg);
      case Route::kApi: return server->api(msg, path);
      case Route::kPage: return server->page(msg, path);
    }
  }

  // The live session the request's cookie names, or nullptr.
  const Session* session_of(SoupServerMessage* msg) {
    const auto cookies = header(msg, "Cookie");
    const auto id = cookies ? cookie_value(*cookies, kSessionCookie) : std::nullopt;
    return id ? sessions.find(*id) : nullptr;
  }

  Verdict judge(SoupServerMessage* msg, const char* path) {
    const Session* live = session_of(msg);
    const auto csrf = header(msg, std::string(kCsrfHeader).c_str());
    return web::judge(RequestFacts{
        .method = soup_server_message_get_method(msg),
        .path = path,
        .host = header(msg, "Host"),
        .origin = header(msg, "Origin"),
        .fetch_site = header(msg, "Sec-Fetch-Site"),
        .session = live != nullptr,
        .csrf = live != nullptr && csrf && same_secret(*csrf, live->csrf),
        .port = port,
    });
  }

  void login(SoupServerMessage* msg, GHashTable* query) {
    const char* token = query == nullptr ? nullptr : static_cast<const char*>(g_hash_table_lookup(query, "token"));
    const auto id = token == nullptr ? std::nullopt : sessions.redeem(token);
    if (!id) {
      return respond_text(msg, 401, "this link was used already or is older than ten minutes: "
                                    "`companyos dashboard` prints a new one");
    }
    SoupMessageHeaders* headers = soup_server_message_get_response_headers(msg);
    const std::string cookie = std::string(kSessionCookie) + "=" + *id + "; Path=/; HttpOnly; SameSite=Strict";
    soup_message_headers_replace(headers, "Set-Cookie", cookie.c_str());
    // The token leaves the address bar and the history with this redirect.
    soup_message_headers_replace(headers, "Location", "/");
    respond_text(msg, 303, "logged in");
  }

  void session(SoupServerMessage* msg) {
    const Session* live = session_of(msg);
    nlohmann::json served = nlohmann::json::array();
    for (const methods::MethodDeclaration* method : methods::all()) {
      if ((method->flags & methods::kFlagDashboard) != 0) served.push_back(method->name);
    }
    respond_json(msg, 200, {{"csrf", live == nullptr ? "" : live->csrf}, {"methods", std::move(served)}});
  }

  void api(SoupServerMessage* msg, std::string_view path) {
    const std::string name(*api_method(path));
    const methods::MethodDeclaration* method = methods::find(name);
    if (method == nullptr || (method->flags & methods::kFlagDashboard) == 0) {
      return respond_error(msg, 404, make_error(ErrorCode::kInvalidArgs, "the dashboard serves no method \"" + name + "\"",
                                                {{"method", name}}, "GET /api/session lists the methods it serves"));
    }
    BytesPtr body(soup_message_body_flatten(soup_server_message_get_request_body(msg)));
    gsize size = 0;
    const auto* data = static_cast<const char*>(g_bytes_get_data(body.get(), &size));
    const std::string_view text = size == 0 ? std::string_view("{}") : std::string_view(data, size);
    if (!is_valid_utf8_without_nul(text) || json_nesting_depth(text) > protocol::kMaxJsonDepth) {
      return respond_error(msg, 400, make_error(ErrorCode::kInvalidArgs, "params must be UTF-8 JSON, not too deep"));
    }
    auto params = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (params.is_discarded() || !params.is_object()) {
      return respond_error(msg, 400, make_error(ErrorCode::kInvalidArgs, "params must be one JSON object",
                                                {}, R"(send e.g. {"id": 3})"));
    }
    // The answer may come later: the message waits, held, and a client that went away in
    // the meantime gets nothing written.
    soup_server_message_pause(msg);
    g_signal_connect(msg, "disconnected", G_CALLBACK(on_disconnected), nullptr);
    std::shared_ptr<SoupServerMessage> held(static_cast<SoupServerMessage*>(g_object_ref(msg)), GObjectUnref{});
    call(*method, params, [held, alive = std::weak_ptr<bool>(alive)](Result<nlohmann::json> result) {
      if (alive.expired() || g_object_get_data(G_OBJECT(held.get()), kGoneKey) != nullptr) return;
      respond_json(held.get(), 200,
                   result ? protocol::ok_envelope(nullptr, std::move(*result))
                          : protocol::error_envelope(nullptr, result.error()));
      soup_server_message_unpause(held.get());
    });
  }

  // A page listening for runs: the stream stays open; each change of the activity is sent
  // to every listener, with a keep-alive comment when nothing changed for a while.
  void listen(SoupServerMessage* msg) {
    if (listeners.size() >= kMaxListeners) return respond_text(msg, 503, "too many pages listening");
    secure_headers(msg);
    soup_server_message_set_status(msg, 200, nullptr);
    SoupMessageHeaders* headers = soup_server_message_get_response_headers(msg);
    soup_message_headers_replace(headers, "Content-Type", "text/event-stream");
    soup_message_headers_set_encoding(headers, SOUP_ENCODING_CHUNKED);
    SoupMessageBody* body = soup_server_message_get_response_body(msg);
    soup_message_body_set_accumulate(body, FALSE);
    const std::string first = sse_event("runs", last_activity.is_null() ? read_activity().dump() : last_activity.dump());
    soup_message_body_append(body, SOUP_MEMORY_COPY, first.data(), first.size());
    g_signal_connect(msg, "finished", G_CALLBACK(&Server::on_listener_finished), this);
    g_signal_connect(msg, "disconnected", G_CALLBACK(&Server::on_listener_finished), this);
    listeners.emplace_back(static_cast<SoupServerMessage*>(g_object_ref(msg)), GObjectUnref{});
    if (ticker == 0) ticker = g_timeout_add(kActivityIntervalMs, &Server::on_tick, this);
  }

  nlohmann::json read_activity() {
    last_activity = activity ? activity() : nlohmann::json::object();
    return last_activity;
  }

  static void on_listener_finished(SoupServerMessage* msg, gpointer self) {
    auto* server = static_cast<Server*>(self);
    // Disconnected first: the last reference may go with the erase.
    g_signal_handlers_disconnect_by_data(msg, self);
    std::erase_if(server->listeners, [msg](const auto& listener) { return listener.get() == msg; });
  }

  static gboolean on_tick(gpointer self) {
    auto* server = static_cast<Server*>(self);
    if (server->listeners.empty()) {
      server->ticker = 0;
      server->last_activity = nullptr;
      return G_SOURCE_REMOVE;
    }
    const nlohmann::json before = server->last_activity;
    const nlohmann::json now = server->read_activity();
    std::string chunk;
    if (now != before) {
      chunk = sse_event("runs", now.dump());
      server->quiet_ticks = 0;
    } else if (++server->quiet_ticks >= kKeepAliveTicks) {
      chunk = kSseKeepAlive;
      server->quiet_ticks = 0;
    }
    if (!chunk.empty()) {
      // A copy: a listener that finishes while being written to leaves the list.
      const auto listening = server->listeners;
      for (const auto& listener : listening) {
        soup_message_body_append(soup_server_message_get_response_body(listener.get()), SOUP_MEMORY_COPY,
                                 chunk.data(), chunk.size());
        soup_server_message_unpause(listener.get());
      }
    }
    return G_SOURCE_CONTINUE;
  }

  void page(SoupServerMessage* msg, std::string_view path) {
    const PageFile* file = pages.find(path);
    if (file == nullptr) return respond_text(msg, 404, "no such page");
    respond(msg, 200, file->content_type, file->bytes);
  }

  Sessions sessions;
  CallMethod& call;
  Activity& activity;
  PageFiles pages;
  std::filesystem::path pages_dir;  // where pages came from
  std::vector<std::shared_ptr<SoupServerMessage>> listeners;  // GET /events streams open
  nlohmann::json last_activity;                               // what they were told last
  guint ticker = 0;
  int quiet_ticks = 0;
  int in_flight = 0;    // requests started and not yet ended
  bool closed = false;  // stopped: answers only what it took
  std::chrono::steady_clock::time_point closed_at{};
  SoupServerHandle soup;
  std::uint16_t port = 0;
  // Expires with the server: an answer that arrives after stop() is dropped.
  std::shared_ptr<bool> alive = std::make_shared<bool>(true);
};

Dashboard::Dashboard(const Clock& clock, CallMethod call, Activity activity)
    : clock_(clock), call_(std::move(call)), activity_(std::move(activity)) {}

Dashboard::~Dashboard() {
  stop();
  if (reaper_ != 0) g_source_remove(reaper_);
  // Whatever is left has had its chance (finish); the connections go with the servers.
  retiring_.clear();
}

Result<std::uint16_t> Dashboard::serve(std::uint16_t port, const std::filesystem::path& pages_dir) {
  if (server_ && (port == 0 || port == server_->port)) return server_->port;
  auto pages = PageFiles::load(pages_dir);
  if (!pages) return std::move(pages).take_error();
  auto server = std::make_unique<Server>(clock_, call_, activity_, std::move(*pages));
  server->pages_dir = pages_dir;
  server->soup.reset(SOUP_SERVER(g_object_new(SOUP_TYPE_SERVER, "server-header", "companyos", nullptr)));
  soup_server_add_early_handler(server->soup.get(), nullptr, &Server::early, server.get(), nullptr);
  soup_server_add_handler(server->soup.get(), nullptr, &Server::handle, server.get(), nullptr);
  g_signal_connect(server->soup.get(), "request-started", G_CALLBACK(&Server::on_request_started), server.get());
  g_signal_connect(server->soup.get(), "request-finished", G_CALLBACK(&Server::on_request_ended), server.get());
  g_signal_connect(server->soup.get(), "request-aborted", G_CALLBACK(&Server::on_request_ended), server.get());
  GError* raw_error = nullptr;
  // Loopback only, IPv4: the one address the Host check and the printed link name.
  if (!soup_server_listen_local(server->soup.get(), port, SOUP_SERVER_LISTEN_IPV4_ONLY, &raw_error)) {
    ErrorPtr error(raw_error);
    return make_error(ErrorCode::kInvalidArgs,
                      "the dashboard cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + error->message,
                      {{"port", port}}, "choose another port: companyos settings set dashboard_port <port>");
  }
  GSList* uris = soup_server_get_uris(server->soup.get());
  server->port = uris == nullptr ? 0 : static_cast<std::uint16_t>(g_uri_get_port(static_cast<GUri*>(uris->data)));
  g_slist_free_full(uris, reinterpret_cast<GDestroyNotify>(g_uri_unref));
  if (server_) retire();  // answers what it took, on its old port, then goes
  server_ = std::move(server);
  spdlog::info("dashboard: serving http://127.0.0.1:{}/", server_->port);
  return server_->port;
}

void Dashboard::stop() {
  if (!server_) return;
  spdlog::info("dashboard: stopped serving port {}", server_->port);
  retire();
}

void Dashboard::retire() {
  server_->close();
  retiring_.push_back(std::move(server_));
  if (reaper_ == 0) reaper_ = g_timeout_add(50, &Dashboard::reap, this);
}

gboolean Dashboard::reap(gpointer self) {
  auto* dashboard = static_cast<Dashboard*>(self);
  // A client that never lets its request end does not keep a stopped server for ever.
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(dashboard->retiring_, [now](const auto& server) {
    return server->in_flight <= 0 || now - server->closed_at > kRetireLimit;
  });
  if (!dashboard->retiring_.empty()) return G_SOURCE_CONTINUE;
  dashboard->reaper_ = 0;
  return G_SOURCE_REMOVE;
}

void Dashboard::finish(std::chrono::milliseconds limit) {
  stop();
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until &&
         std::any_of(retiring_.begin(), retiring_.end(), [](const auto& server) { return server->in_flight > 0; })) {
    g_main_context_iteration(nullptr, FALSE);
  }
  if (reaper_ != 0) g_source_remove(reaper_);
  reaper_ = 0;
  retiring_.clear();
}

std::optional<std::uint16_t> Dashboard::port() const {
  if (!server_) return std::nullopt;
  return server_->port;
}

std::optional<std::filesystem::path> Dashboard::pages_dir() const {
  if (!server_) return std::nullopt;
  return server_->pages_dir;
}

Result<std::string> Dashboard::login_link() {
  if (!server_) return make_error(ErrorCode::kConflict, "the dashboard is not serving", {}, "companyos dashboard");
  return "http://127.0.0.1:" + std::to_string(server_->port) + "/login?token=" + server_->sessions.mint_login();
}

std::optional<std::filesystem::path> find_page_files() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  const std::filesystem::path directory = self.parent_path();
  for (const auto& candidate : {directory / "dashboard",
                                (directory / ".." / "share" / "companyos" / "dashboard").lexically_normal()}) {
    if (std::filesystem::is_regular_file(candidate / "index.html", error)) return candidate;
  }
  return std::nullopt;
}

}  // namespace companyos::web
