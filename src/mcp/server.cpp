#include "mcp/server.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "companyos/method_declaration.h"
#include "core/daemon_client.h"
#include "core/unique_fd.h"
#include "core/version.h"
#include "mcp/instructions.h"
#include "mcp/tool.h"
#include "mcp/tools.h"

namespace companyos::mcp {
namespace {

constexpr const char* kVersionKey = "io.modelcontextprotocol/protocolVersion";
constexpr const char* kCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
constexpr const char* kServerInfoKey = "io.modelcontextprotocol/serverInfo";
// tools/list and server/discover may be cached this long: the tool set changes only with
// the program.
constexpr int kCacheTtlMs = 3600000;

nlohmann::json server_info() {
  return {{"name", "companyos"}, {"title", "companyOS desktop automation"}, {"version", kVersion}};
}

nlohmann::json supported_versions() {
  nlohmann::json versions = {kStatelessVersion};
  for (std::string_view version : kInitializeVersions) versions.push_back(version);
  return versions;
}

// The context of one tool call against the daemon: its own connection, which the call's
// cancel pipe closes.
class DaemonContext final : public ToolContext {
 public:
  DaemonContext(std::string socket_path, ElementNumbers& numbers, int cancel_fd,
                std::function<void(double, double, const std::string&)> progress)
      // Every request says it comes from an agent: the daemon records it so and refuses it
      // what only the person may do.
      : client_(std::move(socket_path), protocol::Origin::kAgent), numbers_(numbers), cancel_fd_(cancel_fd), progress_(std::move(progress)) {}

  CallOutcome call(std::string_view method, const nlohmann::json& params, std::chrono::milliseconds timeout,
                   const std::function<void()>& each_second) override {
    return client_.call(method, params, timeout, cancel_fd_, each_second);
  }
  bool sleep(std::chrono::milliseconds duration) override { return sleep_unless_cancelled(cancel_fd_, duration); }
  ElementNumbers& numbers() override { return numbers_; }
  void progress(double done, double total, const std::string& message) override {
    if (progress_) progress_(done, total, message);
  }

 private:
  DaemonClient client_;
  ElementNumbers& numbers_;
  int cancel_fd_;
  std::function<void(double, double, const std::string&)> progress_;
};

}  // namespace

bool sleep_unless_cancelled(int cancel_fd, std::chrono::milliseconds duration) {
  pollfd pfd{cancel_fd, POLLIN, 0};
  return ::poll(&pfd, 1, static_cast<int>(duration.count())) == 0;
}

struct Server::Call {
  nlohmann::json id;
  UniqueFd cancel_read;
  UniqueFd cancel_write;
  std::atomic<bool> cancelled{false};
  std::atomic<bool> done{false};
  std::thread worker;

  void cancel() {
    if (cancelled.exchange(true)) return;
    const char byte = 1;
    [[maybe_unused]] auto written = ::write(cancel_write.get(), &byte, 1);
  }
};

Server::Server(ServerOptions options, Sink sink) : options_(std::move(options)), sink_(std::move(sink)) {}

Server::~Server() { finish(); }

void Server::send(const nlohmann::json& message) {
  std::lock_guard lock(send_mutex_);
  sink_(to_line(message));
}

void Server::handle_line(std::string_view line) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;  // blank lines carry nothing
  Parsed parsed = parse_message(line);
  if (parsed.error) {
    send(error_reply(parsed.id, *parsed.error));
    return;
  }
  const Message& message = *parsed.message;
  switch (message.kind) {
    case Message::Kind::kResponse: return;  // this server sends no requests
    case Message::Kind::kNotification: handle_notification(message); return;
    case Message::Kind::kRequest: handle_request(message); return;
  }
}

void Server::refuse_oversize_line() {
  send(error_reply(nullptr, {kInvalidRequest, "message longer than " + std::to_string(kMaxMessageBytes) + " bytes"}));
}

void Server::handle_notification(const Message& notification) {
  if (notification.method == "notifications/initialized") {
    initialized_ = true;
  } else if (notification.method == "notifications/cancelled") {
    const nlohmann::json id = notification.params.value("requestId", nlohmann::json(nullptr));
    std::lock_guard lock(calls_mutex_);
    for (auto& call : calls_) {
      if (call->id == id) call->cancel();
    }
  }
  // Any other notification is ignored, as the protocol asks; none is ever answered.
}

nlohmann::json Server::finish_result(nlohmann::json result, bool stateless) const {
  if (stateless) {
    result["resultType"] = "complete";
    result["_meta"][kServerInfoKey] = server_info();
  }
  return result;
}

void Server::handle_request(const Message& request) {
  const nlohmann::json meta = request.params.value("_meta", nlohmann::json::object());
  const bool stateless = meta.is_object() && meta.contains(kVersionKey);
  if (stateless) {
    const nlohmann::json& version = meta[kVersionKey];
    if (!version.is_string() || version.get<std::string>() != kStatelessVersion) {
      send(error_reply(request.id, {kUnsupportedProtocolVersion, "Unsupported protocol version",
                                    {{"supported", supported_versions()}, {"requested", version}}}));
      return;
    }
    if (!meta.contains(kCapabilitiesKey) || !meta[kCapabilitiesKey].is_object()) {
      send(error_reply(request.id, {kInvalidParams, std::string("_meta needs \"") + kCapabilitiesKey +
                                                        "\" (an object; {} for none)"}));
      return;
    }
  }

  if (request.method == "initialize") {
    if (stateless) {
      send(error_reply(request.id, {kInvalidRequest, "initialize belongs to the 2025 protocol; "
                                                     "under 2026-07-28 send server/discover"}));
      return;
    }
    // Whatever the client sent (even a number) is only compared: an unknown one gets our newest.
    const nlohmann::json asked = request.params.value("protocolVersion", nlohmann::json(nullptr));
    std::string_view chosen = kInitializeVersions[0];
    for (std::string_view version : kInitializeVersions) {
      if (asked.is_string() && asked.get<std::string>() == version) chosen = version;
    }
    initialized_ = true;
    send(result_reply(request.id, {{"protocolVersion", chosen},
                                   {"capabilities", {{"tools", {{"listChanged", false}}}}},
                                   {"serverInfo", server_info()},
                                   {"instructions", kInstructions}}));
    return;
  }
  if (request.method == "ping") {
    send(result_reply(request.id, finish_result(nlohmann::json::object(), stateless)));
    return;
  }
  if (request.method == "server/discover") {
    nlohmann::json result = {{"supportedVersions", supported_versions()},
                             {"capabilities", {{"tools", {{"listChanged", false}}}}},
                             {"instructions", kInstructions},
                             {"ttlMs", kCacheTtlMs},
                             {"cacheScope", "public"}};
    send(result_reply(request.id, finish_result(std::move(result), true)));
    return;
  }
  if (!stateless && !initialized_) {
    send(error_reply(request.id,
                     {kInvalidRequest, "send initialize first, or name the protocol version in _meta[\"" +
                                           std::string(kVersionKey) + "\"]",
                      {{"supported", supported_versions()}}}));
    return;
  }
  if (request.method == "tools/list") {
    nlohmann::json tools = nlohmann::json::array();
    for (const ToolDeclaration* tool : all_tools()) tools.push_back(describe_tool(*tool));
    nlohmann::json result = {{"tools", std::move(tools)}};
    if (stateless) {
      result["ttlMs"] = kCacheTtlMs;
      result["cacheScope"] = "public";
    }
    send(result_reply(request.id, finish_result(std::move(result), stateless)));
    return;
  }
  if (request.method == "tools/call") {
    start_tool_call(request, stateless);
    return;
  }
  send(error_reply(request.id, {kMethodNotFound, "unknown method " + request.method}));
}

void Server::start_tool_call(const Message& request, bool stateless) {
  const nlohmann::json name = request.params.value("name", nlohmann::json(nullptr));
  const ToolDeclaration* tool = name.is_string() ? find_tool(name.get<std::string>()) : nullptr;
  if (tool == nullptr) {
    send(error_reply(request.id, {kInvalidParams, "unknown tool " + (name.is_string() ? name.get<std::string>()
                                                                                      : std::string("(no name)"))}));
    return;
  }
  const nlohmann::json arguments = request.params.value("arguments", nlohmann::json::object());
  if (!arguments.is_object()) {
    send(error_reply(request.id, {kInvalidParams, "arguments must be an object"}));
    return;
  }
  if (auto checked = methods::check_params(tool->name, tool_params(*tool), arguments); !checked) {
    send(error_reply(request.id, {kInvalidParams, checked.error().message, checked.error().details}));
    return;
  }

  reap_finished();
  std::lock_guard lock(calls_mutex_);
  if (calls_.size() >= kMaxCallsAtOnce) {
    send(error_reply(request.id, {kInternalError, "too many tool calls at once (" +
                                                      std::to_string(kMaxCallsAtOnce) + "); wait for one to end"}));
    return;
  }
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    send(error_reply(request.id, {kInternalError, "cannot start the call: no pipe"}));
    return;
  }
  auto call = std::make_unique<Call>();
  call->id = request.id;
  call->cancel_read = UniqueFd(pipe_fds[0]);
  call->cancel_write = UniqueFd(pipe_fds[1]);
  const nlohmann::json meta = request.params.value("_meta", nlohmann::json::object());
  const nlohmann::json token = meta.is_object() ? meta.value("progressToken", nlohmann::json(nullptr))
                                                : nlohmann::json(nullptr);
  Call* raw = call.get();
  std::function<void(double, double, const std::string&)> progress;
  if (token.is_string() || token.is_number_integer()) {
    progress = [this, token, raw](double done, double total, const std::string& message) {
      if (raw->cancelled) return;
      nlohmann::json params = {{"progressToken", token}, {"progress", done}, {"message", message}};
      if (total > 0) params["total"] = total;
      send(notification("notifications/progress", std::move(params)));
    };
  }
  raw->worker = std::thread([this, raw, tool, arguments, stateless, progress = std::move(progress)]() mutable {
    std::unique_ptr<ToolContext> context =
        options_.make_context ? options_.make_context(numbers_, raw->cancel_read.get(), std::move(progress))
                              : std::make_unique<DaemonContext>(options_.socket_path, numbers_,
                                                                raw->cancel_read.get(), std::move(progress));
    ToolResult outcome = tool->handler(*context, arguments);
    // A cancelled request is not answered: the client has forgotten it.
    if (!raw->cancelled) {
      nlohmann::json result = {{"content", outcome.content}, {"isError", outcome.is_error}};
      if (!outcome.structured.is_null()) result["structuredContent"] = outcome.structured;
      send(result_reply(raw->id, finish_result(std::move(result), stateless)));
    }
    raw->done = true;
  });
  calls_.push_back(std::move(call));
}

void Server::reap_finished() {
  std::lock_guard lock(calls_mutex_);
  for (auto it = calls_.begin(); it != calls_.end();) {
    if ((*it)->done) {
      (*it)->worker.join();
      it = calls_.erase(it);
    } else {
      ++it;
    }
  }
}

void Server::finish() {
  std::list<std::unique_ptr<Call>> calls;
  {
    std::lock_guard lock(calls_mutex_);
    calls.swap(calls_);
  }
  for (auto& call : calls) call->cancel();
  for (auto& call : calls) {
    if (call->worker.joinable()) call->worker.join();
  }
}

}  // namespace companyos::mcp
