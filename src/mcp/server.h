// The MCP server: takes one JSON-RPC line at a time, answers on the sink, and runs each
// tools/call on its own thread so a cancel or a ping is read while a wait goes on. It
// speaks 2026-07-28 (stateless: the version in every request's _meta, server/discover)
// and the initialize era (2025-11-25, 2025-06-18), chosen per request.
#pragma once

#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcp/element_numbers.h"
#include "mcp/jsonrpc.h"

namespace companyos::mcp {

inline constexpr std::string_view kStatelessVersion = "2026-07-28";
inline constexpr std::string_view kInitializeVersions[] = {"2025-11-25", "2025-06-18"};
// Tool calls running at once; one more is refused until one ends.
inline constexpr std::size_t kMaxCallsAtOnce = 8;

class ToolContext;

struct ServerOptions {
  std::string socket_path;
  // The context tool handlers get: the real one talks to the daemon; tests give a fake.
  // Null: the daemon at socket_path.
  using Progress = std::function<void(double done, double total, const std::string& message)>;
  std::function<std::unique_ptr<ToolContext>(ElementNumbers& numbers, int cancel_fd, Progress progress)>
      make_context;
};

class Server {
 public:
  using Sink = std::function<void(const std::string& line)>;  // called from several threads, one at a time
  Server(ServerOptions options, Sink sink);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  void handle_line(std::string_view line);
  // A line past kMaxMessageBytes, dropped unread by the reader: -32600 with a null id.
  void refuse_oversize_line();
  // Stdin ended: cancels the calls still running and waits for them.
  void finish();
  ElementNumbers& numbers() { return numbers_; }

 private:
  struct Call;
  void send(const nlohmann::json& message);
  void handle_request(const Message& request);
  void handle_notification(const Message& notification);
  void start_tool_call(const Message& request, bool stateless);
  void reap_finished();
  nlohmann::json finish_result(nlohmann::json result, bool stateless) const;

  ServerOptions options_;
  Sink sink_;
  std::mutex send_mutex_;
  ElementNumbers numbers_;
  bool initialized_ = false;
  std::mutex calls_mutex_;
  std::list<std::unique_ptr<Call>> calls_;
};

}  // namespace companyos::mcp
