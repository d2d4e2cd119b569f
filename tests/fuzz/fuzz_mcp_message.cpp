// The MCP server's side of stdio: each line of the input handed to mcp::Server as
// `companyos mcp` hands it stdin's lines (parse_message, both protocol eras, the tool table,
// every tool's argument check and handler), with a stand-in daemon that answers every
// request from a small table (a snapshot, a screenshot, a delivered action). Properties:
// nothing throws or crashes; every line the server writes is one JSON-RPC 2.0 object on
// one line; a reply carries the id it answers (or null), and exactly one of result and error.
//
// Input: the lines a client writes, at most 16 of them.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>

#include "fuzz_support.h"
#include "mcp/jsonrpc.h"
#include "mcp/server.h"
#include "mcp/tool.h"

namespace companyos::fuzz {
namespace {

constexpr std::size_t kMaxLines = 16;

class StandInDaemon final : public mcp::ToolContext {
 public:
  StandInDaemon(mcp::ElementNumbers& numbers, int cancel_fd) : numbers_(numbers), cancel_fd_(cancel_fd) {}
  CallOutcome call(std::string_view method, const nlohmann::json& params, std::chrono::milliseconds,
                   const std::function<void()>&) override {
    if (method == "snapshot") {
      return ok({{"snapshot", "s1"}, {"window", {{"id", "w1"}, {"title", "T"}}}, {"node_count", 2},
                 {"outline", "e1 frame \"T\"\n  e2 push button \"OK\" actions=click\n"}});
    }
    if (method == "screenshot" && params.contains("out") && params["out"].is_string()) {
      std::ofstream(params["out"].get<std::string>()) << "png";
      return ok({{"width", 100}, {"height", 50}});
    }
    if (method == "windows") return ok({{"windows", {{{"id", "w1"}, {"app", "a"}, {"active", true}}}}});
    return ok({{"delivery", "delivered_unverified"}, {"route", "action:click"}});
  }
  bool sleep(std::chrono::milliseconds) override { return mcp::sleep_unless_cancelled(cancel_fd_, {}); }
  mcp::ElementNumbers& numbers() override { return numbers_; }
  void progress(double, double, const std::string&) override {}

 private:
  static CallOutcome ok(nlohmann::json data) {
    return {CallFailure::kNone, {}, {{"ok", true}, {"data", std::move(data)}}};
  }
  mcp::ElementNumbers& numbers_;
  int cancel_fd_;
};

void check_written(const std::string& line) {
  FUZZ_CHECK(is_one_line(line));
  const nlohmann::json message = nlohmann::json::parse(line, nullptr, false);
  FUZZ_CHECK(message.is_object());
  FUZZ_CHECK(message.value("jsonrpc", nlohmann::json()) == "2.0");
  if (message.contains("method")) return;  // a notification the server sends (progress)
  FUZZ_CHECK(message.contains("id"));
  FUZZ_CHECK(message["id"].is_null() || message["id"].is_string() || message["id"].is_number_integer());
  FUZZ_CHECK(message.contains("result") != message.contains("error"));
}

}  // namespace
}  // namespace companyos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  mcp::ServerOptions options;
  options.make_context = [](mcp::ElementNumbers& numbers, int cancel_fd, mcp::ServerOptions::Progress) {
    return std::make_unique<fuzz::StandInDaemon>(numbers, cancel_fd);
  };
  mcp::Server server(std::move(options), [](const std::string& line) { fuzz::check_written(line); });
  for (const std::string& line : fuzz::fields(fuzz::as_text(data, size), fuzz::kMaxLines)) {
    (void)mcp::parse_message(line);
    server.handle_line(line);
  }
  server.finish();
  return 0;
}
