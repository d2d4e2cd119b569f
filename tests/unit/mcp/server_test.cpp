#include "mcp/server.h"

#include <algorithm>
#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include "mcp/tool.h"

namespace companyos::mcp {
namespace {

using nlohmann::json;

// The daemon as a table: method → reply envelope; every request is recorded.
struct FakeDaemon {
  std::mutex mutex;
  std::map<std::string, json> replies;
  std::vector<std::pair<std::string, json>> requests;
};

class FakeContext final : public ToolContext {
 public:
  FakeContext(FakeDaemon& daemon, ElementNumbers& numbers, int cancel_fd, ServerOptions::Progress progress)
      : daemon_(daemon), numbers_(numbers), cancel_fd_(cancel_fd), progress_(std::move(progress)) {}
  CallOutcome call(std::string_view method, const json& params, std::chrono::milliseconds,
                   const std::function<void()>&) override {
    std::lock_guard lock(daemon_.mutex);
    daemon_.requests.emplace_back(std::string(method), params);
    auto it = daemon_.replies.find(std::string(method));
    if (it == daemon_.replies.end()) return {CallFailure::kUnreachable, "no such fake reply", nullptr};
    // The daemon writes a screenshot where it is asked to; these bytes stand in for a PNG.
    if (method == "screenshot" && it->second.value("ok", false)) std::ofstream(params["out"].get<std::string>()) << "png";
    return {CallFailure::kNone, {}, it->second};
  }
  bool sleep(std::chrono::milliseconds duration) override { return sleep_unless_cancelled(cancel_fd_, duration); }
  ElementNumbers& numbers() override { return numbers_; }
  void progress(double done, double total, const std::string& message) override {
    if (progress_) progress_(done, total, message);
  }

 private:
  FakeDaemon& daemon_;
  ElementNumbers& numbers_;
  int cancel_fd_;
  ServerOptions::Progress progress_;
};

class ServerTest : public ::testing::Test {
 protected:
  ServerTest()
      : server_(ServerOptions{"", [this](ElementNumbers& numbers, int cancel_fd, ServerOptions::Progress progress) {
                                return std::make_unique<FakeContext>(daemon_, numbers, cancel_fd, std::move(progress));
                              }},
                [this](const std::string& line) {
                  std::lock_guard lock(mutex_);
                  lines_.push_back(json::parse(line));
                  arrived_.notify_all();
                }) {
    daemon_.replies["snapshot"] = {{"ok", true},
                                   {"data",
                                    {{"snapshot", "s7"},
                                     {"window", {{"id", "w1"}, {"title", "Doc"}}},
                                     {"node_count", 3},
                                     {"outline", "e1 frame \"Doc\"\n  e2 push button \"Save\" actions=click\n"}}}};
    daemon_.replies["click"] = {{"ok", true}, {"data", {{"delivery", "delivered_unverified"}, {"route", "action:click"}}}};
  }

  // The next line the server sends (waits for a tool call's thread).
  json next_line() {
    std::unique_lock lock(mutex_);
    arrived_.wait_for(lock, std::chrono::seconds(10), [this] { return taken_ < lines_.size(); });
    if (taken_ >= lines_.size()) return nullptr;
    return lines_[taken_++];
  }
  json ask(const json& request) {
    server_.handle_line(request.dump());
    return next_line();
  }
  void initialize() {
    ask({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", {{"protocolVersion", "2025-11-25"}}}});
  }
  json call(int id, const std::string& tool, json arguments, json meta = nullptr) {
    json params = {{"name", tool}, {"arguments", std::move(arguments)}};
    if (!meta.is_null()) params["_meta"] = std::move(meta);
    return ask({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", params}});
  }

  FakeDaemon daemon_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<json> lines_;
  std::size_t taken_ = 0;
  Server server_;
};

json stateless_meta(const char* version = "2026-07-28") {
  return {{"io.modelcontextprotocol/protocolVersion", version}, {"io.modelcontextprotocol/clientCapabilities", json::object()}};
}

TEST_F(ServerTest, InitializeEchoesAKnownVersionAndOffersItsNewestOtherwise) {
  for (const auto& [asked, answered] : std::vector<std::pair<std::string, std::string>>{
           {"2025-11-25", "2025-11-25"}, {"2025-06-18", "2025-06-18"}, {"2024-11-05", "2025-11-25"}, {"", "2025-11-25"}}) {
    json reply = ask({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"protocolVersion", asked}}}});
    EXPECT_EQ(reply["result"]["protocolVersion"], answered) << asked;
    EXPECT_FALSE(reply["result"]["instructions"].get<std::string>().empty());
    EXPECT_FALSE(reply["result"].contains("resultType"));
  }
}

TEST_F(ServerTest, AnInitializeVersionOfAnotherTypeIsAnsweredWithTheNewest) {
  for (const json& asked : {json(20251125), json::array({"2025-11-25"}), json(nullptr)}) {
    json reply = ask({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"protocolVersion", asked}}}});
    EXPECT_EQ(reply["result"]["protocolVersion"], "2025-11-25") << asked.dump();
  }
}

TEST_F(ServerTest, StatelessRequestsNeedNoInitializeAndSayTheirResultType) {
  json discover = ask({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "server/discover"}, {"params", {{"_meta", stateless_meta()}}}});
  EXPECT_EQ(discover["result"]["resultType"], "complete");
  EXPECT_EQ(discover["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "companyos");
  EXPECT_EQ(discover["result"]["cacheScope"], "public");
  json list = ask({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}, {"params", {{"_meta", stateless_meta()}}}});
  EXPECT_EQ(list["result"]["resultType"], "complete");
  EXPECT_TRUE(list["result"]["ttlMs"].is_number_integer());
  json bad = ask({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/list"}, {"params", {{"_meta", stateless_meta("2099-01-01")}}}});
  EXPECT_EQ(bad["error"]["code"], kUnsupportedProtocolVersion);
  EXPECT_EQ(bad["error"]["data"]["requested"], "2099-01-01");
  json init = ask({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "initialize"}, {"params", {{"_meta", stateless_meta()}}}});
  EXPECT_EQ(init["error"]["code"], kInvalidRequest);
}

TEST_F(ServerTest, NotificationsAndResponsesAreNeverAnswered) {
  server_.handle_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  server_.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":42}})");
  server_.handle_line(R"({"jsonrpc":"2.0","id":9,"result":{}})");
  server_.handle_line("   ");
  json ping = ask({{"jsonrpc", "2.0"}, {"id", "p"}, {"method", "ping"}});
  EXPECT_EQ(ping["id"], "p");
  EXPECT_TRUE(ping.contains("result"));
}

TEST_F(ServerTest, BeforeInitializeOnlyPingAndDiscoverAnswer) {
  EXPECT_EQ(ask({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}})["error"]["code"], kInvalidRequest);
  initialize();
  EXPECT_TRUE(ask({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}})["result"]["tools"].is_array());
  EXPECT_EQ(ask({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "resources/list"}})["error"]["code"], kMethodNotFound);
}

TEST_F(ServerTest, BadToolCallsAreProtocolErrorsAndFailedActionsAreResults) {
  initialize();
  EXPECT_EQ(call(1, "nope", json::object())["error"]["code"], kInvalidParams);
  // Neither an element nor a point: the model is told what to give (a result, as the
  // specification asks of argument errors a model can correct).
  json no_target = call(2, "click", {{"app", "x"}});
  EXPECT_EQ(no_target["result"]["isError"], true);
  EXPECT_NE(no_target["result"]["content"][0]["text"].get<std::string>().find("element"), std::string::npos);
  EXPECT_EQ(ask({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"}, {"params", {{"name", "click"}, {"arguments", 4}}}})
                ["error"]["code"],
            kInvalidParams);
  // A number before any state was read: a result with isError, never a protocol error.
  json early = call(4, "click", {{"app", "doc"}, {"element", 2}});
  EXPECT_EQ(early["result"]["isError"], true);
}

TEST_F(ServerTest, ElementNumbersComeFromTheStateShownAndActionsAnswerWithTheNewOne) {
  initialize();
  json state = call(1, "get_app_state", {{"app", "doc"}, {"screenshot", false}});
  EXPECT_EQ(state["result"]["structuredContent"]["state"], "s7");
  EXPECT_NE(state["result"]["content"][0]["text"].get<std::string>().find("e2 push button \"Save\""), std::string::npos);
  json clicked = call(2, "click", {{"app", "doc"}, {"element", 2}});
  ASSERT_TRUE(clicked.contains("result")) << clicked.dump();
  EXPECT_EQ(clicked["result"]["content"][0]["text"], "The element's own action ran (click); nothing confirmed the effect.");
  EXPECT_EQ(clicked["result"]["isError"], false);
  EXPECT_EQ(clicked["result"]["structuredContent"]["delivery"], "delivered_unverified");
  EXPECT_EQ(clicked["result"]["structuredContent"]["state"], "s7");
  std::lock_guard lock(daemon_.mutex);
  const auto sent = std::find_if(daemon_.requests.begin(), daemon_.requests.end(),
                                 [](const auto& r) { return r.first == "click"; });
  ASSERT_NE(sent, daemon_.requests.end());
  EXPECT_EQ(sent->second["ref"], "@s7:e2");
}

// Every action asks the daemon for the state the app settled in and hands that on, with
// what settling said: no second read that could come before the app's reaction.
TEST_F(ServerTest, AnActionAnswersWithTheStateTheAppSettledIn) {
  initialize();
  call(1, "get_app_state", {{"app", "doc"}, {"screenshot", false}});
  daemon_.replies["click"] = {
      {"ok", true},
      {"data",
       {{"delivery", "delivered_unverified"},
        {"route", "action:click"},
        {"state",
         {{"settled", {{"waited_ms", 1500}, {"events", 60}, {"still_changing", true}, {"watched", true}}},
          {"snapshot", "s9"},
          {"window", {{"id", "w2"}, {"title", "Report"}}},
          {"node_count", 2},
          {"outline", "e1 frame \"Report\"\n  e2 push button \"OK\" actions=click\n"},
          {"handed_over_from", "w1"}}}}}};
  std::size_t snapshots_before = 0;
  {
    std::lock_guard lock(daemon_.mutex);
    snapshots_before = static_cast<std::size_t>(std::count_if(
        daemon_.requests.begin(), daemon_.requests.end(), [](const auto& r) { return r.first == "snapshot"; }));
  }
  json clicked = call(2, "click", {{"app", "doc"}, {"element", 2}});
  ASSERT_TRUE(clicked.contains("result")) << clicked.dump();
  EXPECT_EQ(clicked["result"]["structuredContent"]["state"], "s9");
  const std::string text = clicked["result"]["content"][1]["text"].get<std::string>();
  EXPECT_EQ(text.rfind("The window w1 closed; this is the app's window now in front.\n"
                       "The app was still changing 1500 ms after the action: this state may not be its last; "
                       "read it again with get_app_state.\nState s9 of doc window w2 \"Report\" (2 nodes).",
                       0),
            0u)
      << text;
  {
    std::lock_guard lock(daemon_.mutex);
    const auto sent = std::find_if(daemon_.requests.begin(), daemon_.requests.end(),
                                   [](const auto& r) { return r.first == "click"; });
    ASSERT_NE(sent, daemon_.requests.end());
    EXPECT_EQ(sent->second["settle"], true);
    EXPECT_EQ(static_cast<std::size_t>(std::count_if(daemon_.requests.begin(), daemon_.requests.end(),
                                                     [](const auto& r) { return r.first == "snapshot"; })),
              snapshots_before)
        << "no second read after the action";
  }
  // Its numbers are the new state's: element 2 is now @s9:e2.
  call(3, "click", {{"app", "doc"}, {"element", 2}, {"state", "s9"}});
  std::lock_guard lock(daemon_.mutex);
  std::vector<std::string> refs;
  for (const auto& [method, params] : daemon_.requests) {
    if (method == "click") refs.push_back(params["ref"]);
  }
  EXPECT_EQ(refs, (std::vector<std::string>{"@s7:e2", "@s9:e2"}));
}

// A twin is reached as the CLI's --within reaches it: by an element of the same state
// that holds only it.
TEST_F(ServerTest, WithinNamesAnAncestorOfTheSameState) {
  initialize();
  call(1, "get_app_state", {{"app", "doc"}, {"screenshot", false}});
  json clicked = call(2, "click", {{"app", "doc"}, {"element", 2}, {"within", 1}});
  ASSERT_TRUE(clicked.contains("result")) << clicked.dump();
  std::lock_guard lock(daemon_.mutex);
  const auto sent = std::find_if(daemon_.requests.begin(), daemon_.requests.end(),
                                 [](const auto& r) { return r.first == "click"; });
  ASSERT_NE(sent, daemon_.requests.end());
  EXPECT_EQ(sent->second["ref"], "@s7:e2");
  EXPECT_EQ(sent->second["within"], "@s7:e1");
}

TEST_F(ServerTest, ACellIsNamedByItsTablesNumberAndAddress) {
  initialize();
  call(1, "get_app_state", {{"app", "doc"}, {"screenshot", false}});
  json set = call(2, "set_value", {{"app", "doc"}, {"element", 2}, {"cell", "Z500"}, {"value", "=A1*2"}});
  ASSERT_TRUE(set.contains("result")) << set.dump();
  std::lock_guard lock(daemon_.mutex);
  const auto sent = std::find_if(daemon_.requests.begin(), daemon_.requests.end(),
                                 [](const auto& r) { return r.first == "set_value"; });
  ASSERT_NE(sent, daemon_.requests.end());
  EXPECT_EQ(sent->second["ref"], "@s7:e2");
  EXPECT_EQ(sent->second["cell"], "Z500");
  EXPECT_EQ(sent->second["value"], "=A1*2");
}

// get_app_state with cells reads cells instead of the state: one cell's text and formula,
// or a range's rows, of the table a number names or the window's one table.
TEST_F(ServerTest, CellsAreReadByAddressThroughGetAppState) {
  initialize();
  daemon_.replies["get"] = {{"ok", true},
                            {"data",
                             {{"name", "A3"},
                              {"text", "11"},
                              {"formula", "=A1*A2+SUM(A1:A2)"},
                              {"formula_cut", false},
                              {"window", {{"id", "w1"}, {"title", "Doc"}}}}}};
  json one = call(1, "get_app_state", {{"app", "doc"}, {"cells", "a3"}});
  ASSERT_TRUE(one.contains("result")) << one.dump();
  EXPECT_EQ(one["result"]["content"][0]["text"], "Cell A3 shows \"11\"; formula \"=A1*A2+SUM(A1:A2)\".\n");
  EXPECT_EQ(one["result"]["structuredContent"]["cells"]["formula"], "=A1*A2+SUM(A1:A2)");
  EXPECT_EQ(one["result"]["structuredContent"]["window_id"], "w1");
  {
    std::lock_guard lock(daemon_.mutex);
    EXPECT_EQ(daemon_.requests.back().first, "get");
    EXPECT_EQ(daemon_.requests.back().second, (json{{"app", "doc"}, {"cell", "a3"}}));
  }
  // A formula Calc gave only in part: said, never shown cut.
  daemon_.replies["get"]["data"]["formula"] = nullptr;
  daemon_.replies["get"]["data"]["formula_cut"] = true;
  json cut = call(6, "get_app_state", {{"app", "doc"}, {"cells", "A3"}});
  EXPECT_EQ(cut["result"]["content"][0]["text"],
            "Cell A3 shows \"11\"; it holds a formula the app gives whole only while the cell has the cursor (as "
            "right after set_value on it).\n");

  daemon_.replies["get"] = {{"ok", true},
                            {"data",
                             {{"range", "B2:C3"},
                              {"first_row", 2},
                              {"column_names", {"B", "C"}},
                              {"rows", {{"x \"y\"", ""}, {nullptr, "\x1b[2J"}}},
                              {"window", {{"id", "w1"}, {"title", "Doc"}}}}}};
  call(2, "get_app_state", {{"app", "doc"}, {"screenshot", false}});
  json range = call(3, "get_app_state", {{"app", "doc"}, {"cells", "B2:C3"}, {"element", 2}});
  EXPECT_EQ(range["result"]["content"][0]["text"],
            "Cells B2:C3 (empty cells left out):\nrow 2: B2 \"x \\\"y\\\"\"\nrow 3: C3 \"\\x1b[2J\"\n");
  {
    std::lock_guard lock(daemon_.mutex);
    EXPECT_EQ(daemon_.requests.back().second, (json{{"ref", "@s7:e2"}, {"cells", "B2:C3"}}));
  }
  // A number from no state shown is refused; the daemon's own refusal is passed on.
  json stale = call(4, "get_app_state", {{"app", "doc"}, {"cells", "B2"}, {"element", 99}, {"window_id", "w9"}});
  EXPECT_EQ(stale["result"]["isError"], true);
  daemon_.replies["get"] = {{"ok", false}, {"error", {{"code", "INVALID_ARGS"}, {"message", "not a cell address: \"B\""}}}};
  json bad = call(5, "get_app_state", {{"app", "doc"}, {"cells", "B"}});
  EXPECT_EQ(bad["result"]["isError"], true);
  EXPECT_NE(bad["result"]["content"][0]["text"].get<std::string>().find("not a cell address"), std::string::npos);
}

// What docs/mcp.md promises the model reads: each app's pid and whether it answers, each
// window's place on the desktop.
TEST_F(ServerTest, ListingsSayPidsAnswersAndBounds) {
  initialize();
  daemon_.replies["apps"] = {
      {"ok", true},
      {"data", {{"apps", json::array({{{"name", "doc"}, {"pid", 42}, {"toolkit", "GTK"}, {"window_count", 1},
                                        {"responsive", true}},
                                       {{"name", "stuck"}, {"pid", 43}, {"toolkit", "Qt"}, {"window_count", 2},
                                        {"responsive", false}}})}}}};
  json apps = call(1, "list_apps", json::object());
  EXPECT_EQ(apps["result"]["content"][0]["text"],
            "doc (pid 42) — GTK, 1 window(s), answering\nstuck (pid 43) — Qt, 2 window(s), not answering\n");
  daemon_.replies["windows"] = {
      {"ok", true},
      {"data", {{"windows", json::array({{{"id", "w1"}, {"app", "doc"}, {"title", "Doc"}, {"active", true},
                                           {"bounds", {{"x", 10}, {"y", 20}, {"width", 640}, {"height", 480}}}},
                                          {{"id", "w2"}, {"app", "doc"}, {"title", ""}, {"bounds", nullptr}}})}}}};
  json windows = call(2, "list_windows", json::object());
  EXPECT_EQ(windows["result"]["content"][0]["text"],
            "w1  doc  \"Doc\"  at 10,20 640×480  (active)\nw2  doc  \"\"\n");
}

// An app alone means its active window, else its only titled one: Chromium's untitled
// helper windows made get_app_state and type refuse as ambiguous.
// The default window is the daemon's rule (a11y::default_window_of, tested in Selection):
// the server names no window of its own, so the CLI and MCP mean the same window.
TEST_F(ServerTest, AnAppAloneLeavesTheWindowToTheDaemon) {
  initialize();
  const auto window_asked = [this](const std::string& method) {
    std::lock_guard lock(daemon_.mutex);
    json last = "never asked";
    for (const auto& [name, params] : daemon_.requests) {
      if (name == method) last = params.value("window", json(nullptr));
    }
    return last;
  };
  call(1, "get_app_state", {{"app", "Chromium"}, {"screenshot", false}});
  EXPECT_EQ(window_asked("snapshot"), nullptr);
  daemon_.replies["type_text"] = {{"ok", true}, {"data", {{"delivery", "delivered_unverified"}, {"typed", 1}}}};
  call(2, "type", {{"app", "Chromium"}, {"text", "x"}});
  EXPECT_EQ(window_asked("type_text"), nullptr);
  call(3, "type", {{"app", "Chromium"}, {"text", "x"}, {"window_id", "w2"}});
  EXPECT_EQ(window_asked("type_text"), "w2");
}

TEST_F(ServerTest, AnAppsStringsReachTheModelEscaped) {
  initialize();
  daemon_.replies["windows"] = {
      {"ok", true},
      {"data", {{"windows", json::array({{{"id", "w1"}, {"app", "doc"}, {"title", "\x1b]0;pwned\x07" "Doc\u202Efdp.exe"}}})}}}};
  json listed = call(1, "list_windows", {{"app", "doc"}});
  ASSERT_TRUE(listed.contains("result")) << listed.dump();
  const std::string text = listed["result"]["content"][0]["text"];
  EXPECT_NE(text.find("\\x1b]0;pwned\\x07Doc\\u202efdp.exe"), std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find("\u202E"), std::string::npos) << text;
}

TEST_F(ServerTest, APointIsClickedOnlyWithinTheLatestPictureOfItsWindow) {
  initialize();
  daemon_.replies["screenshot"] = {{"ok", true}, {"data", {{"width", 200}, {"height", 100}}}};
  daemon_.replies["click_at"] = {{"ok", true},
                                 {"data", {{"delivery", "delivered_unverified"}, {"route", "xtest:pointer"}}}};
  json before = call(1, "click", {{"app", "doc"}, {"x", 5}, {"y", 5}});
  EXPECT_EQ(before["result"]["isError"], true) << "no picture shown yet";
  EXPECT_EQ(before["result"]["content"][0]["text"].get<std::string>().rfind("Nothing was done: ", 0), 0u);
  call(2, "get_app_state", {{"app", "doc"}});
  EXPECT_EQ(call(3, "click", {{"app", "doc"}, {"x", 200}, {"y", 5}})["result"]["isError"], true);
  EXPECT_EQ(call(4, "click", {{"app", "doc"}, {"x", 5}})["result"]["isError"], true) << "x without y";
  EXPECT_EQ(call(5, "click", {{"app", "doc"}, {"element", 2}, {"x", 5}, {"y", 5}})["result"]["isError"], true);
  {
    std::lock_guard lock(daemon_.mutex);
    EXPECT_EQ(std::count_if(daemon_.requests.begin(), daemon_.requests.end(),
                            [](const auto& r) { return r.first == "click_at"; }),
              0)
        << "nothing is sent for a refused point";
  }
  json clicked = call(6, "click", {{"app", "doc"}, {"x", 199}, {"y", 99}});
  EXPECT_EQ(clicked["result"]["content"][0]["text"], "Input was posted (click at 199,99); nothing confirmed the effect.");
  std::lock_guard lock(daemon_.mutex);
  const auto sent = std::find_if(daemon_.requests.begin(), daemon_.requests.end(),
                                 [](const auto& r) { return r.first == "click_at"; });
  ASSERT_NE(sent, daemon_.requests.end());
  EXPECT_EQ(sent->second,
            json({{"app", "doc"}, {"window", "w1"}, {"x", 199}, {"y", 99}, {"headed", true}, {"settle", true}}));
}

TEST_F(ServerTest, TypeSendsKeysOrAPasteAndSaysItIsPhysicalInput) {
  initialize();
  daemon_.replies["type_text"] = {
      {"ok", true}, {"data", {{"delivery", "delivered_unverified"}, {"route", "xtest:keyboard"}, {"typed", 5}}}};
  json typed = call(1, "type", {{"app", "doc"}, {"text", "héllo"}});
  EXPECT_EQ(typed["result"]["content"][0]["text"], "Input was posted (type, 5 characters); nothing confirmed the effect.");
  EXPECT_EQ(typed["result"]["structuredContent"]["delivery"], "delivered_unverified");

  struct PasteCase {
    bool taken;
    const char* restore;
    const char* says;
  };
  const PasteCase pastes[] = {
      {true, "restored", "the app took the text, the clipboard was put back"},
      {true, "partly", "the app took the text, the clipboard was put back without some of its formats"},
      {false, "kept_newer", "the app never asked for the text, another app copied meanwhile"},
      {true, "emptied", "the clipboard's earlier content could not be read and it was left empty"},
  };
  int id = 10;
  for (const PasteCase& paste : pastes) {
    daemon_.replies["type_text"] = {{"ok", true},
                                    {"data",
                                     {{"delivery", "delivered_unverified"},
                                      {"route", "xtest:paste"},
                                      {"typed", 1},
                                      {"taken", paste.taken},
                                      {"clipboard", {{"restore", paste.restore}}}}}};
    json pasted = call(id++, "type", {{"app", "doc"}, {"text", "x"}, {"paste", true}});
    const std::string line = pasted["result"]["content"][0]["text"].get<std::string>();
    EXPECT_EQ(pasted["result"]["isError"], false) << paste.restore;
    EXPECT_EQ(line.rfind("Input was posted (type by paste, 1 characters", 0), 0u) << line;
    EXPECT_NE(line.find(paste.says), std::string::npos) << line;
    EXPECT_NE(line.find("nothing confirmed the effect."), std::string::npos) << line;
  }

  daemon_.replies["type_text"] = {
      {"ok", false},
      {"error", {{"code", "POLICY_DENIED"}, {"message", "physical input is off"}, {"retry", "safe"},
                 {"details", {{"reason", "physical_input_disabled"}, {"delivery", "not_delivered"}}}}}};
  json refused = call(3, "type", {{"app", "doc"}, {"text", "x"}});
  EXPECT_EQ(refused["result"]["isError"], true);
  EXPECT_EQ(refused["result"]["content"][0]["text"].get<std::string>().rfind("Nothing was done: physical input is off", 0), 0u);
  std::lock_guard lock(daemon_.mutex);
  std::vector<json> sent;
  for (const auto& [method, params] : daemon_.requests) {
    if (method == "type_text") sent.push_back(params);
  }
  ASSERT_EQ(sent.size(), 6u);
  EXPECT_EQ(sent[0], json({{"app", "doc"}, {"text", "héllo"}, {"headed", true}, {"settle", true}}));
  EXPECT_EQ(sent[1], json({{"app", "doc"}, {"text", "x"}, {"headed", true}, {"paste", true}, {"settle", true}}));
}

TEST_F(ServerTest, ACancelledCallIsNotAnsweredAndStopsAtOnce) {
  initialize();
  server_.handle_line(json({{"jsonrpc", "2.0"}, {"id", 8}, {"method", "tools/call"},
                            {"params", {{"name", "wait"}, {"arguments", {{"seconds", 30}}},
                                        {"_meta", {{"progressToken", "t"}}}}}})
                          .dump());
  json progress = next_line();  // the first second's progress
  ASSERT_EQ(progress["method"], "notifications/progress");
  EXPECT_EQ(progress["params"]["progressToken"], "t");
  EXPECT_EQ(progress["params"]["total"], 30);
  const auto started = std::chrono::steady_clock::now();
  server_.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}})");
  server_.finish();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  std::lock_guard lock(mutex_);
  for (std::size_t i = taken_; i < lines_.size(); ++i) EXPECT_NE(lines_[i].value("id", json()), 8) << lines_[i].dump();
}

TEST_F(ServerTest, TheAutomationToolMapsEachActionOntoItsMethod) {
  initialize();
  daemon_.replies["automation.list"] = {{"ok", true}, {"data", {{"automations", json::array()}}}};
  daemon_.replies["run.show"] = {{"ok", true}, {"data", {{"id", 5}, {"status", "succeeded"}}}};
  daemon_.replies["automation.create"] = {
      {"ok", false},
      {"error", {{"code", "INVALID_ARGS"}, {"message", "the definition has 1 problem"},
                 {"details", {{"problems", {{{"path", "/steps/0/type"}, {"message", "unknown step type"}}}}}}}}};
  json listed = call(1, "automation", {{"action", "list"}});
  EXPECT_EQ(listed["result"]["structuredContent"]["automations"], json::array());
  json run = call(2, "automation", {{"action", "run"}, {"runId", 5}});
  EXPECT_EQ(run["result"]["structuredContent"]["status"], "succeeded");
  json no_id = call(3, "automation", {{"action", "start"}});
  EXPECT_EQ(no_id["result"]["isError"], true);
  json bad = call(4, "automation", {{"action", "create"}, {"automation", {{"name", "x"}}}});
  EXPECT_EQ(bad["result"]["isError"], true);
  EXPECT_EQ(bad["result"]["content"][1]["text"], "/steps/0/type: unknown step type");
  EXPECT_EQ(call(5, "automation", {{"action", "promote"}, {"id", 1}})["error"]["code"], kInvalidParams);
  std::lock_guard lock(daemon_.mutex);
  ASSERT_GE(daemon_.requests.size(), 3U);
  EXPECT_EQ(daemon_.requests[1].first, "run.show");
  EXPECT_EQ(daemon_.requests[1].second, json({{"id", 5}}));
  EXPECT_EQ(daemon_.requests[2].first, "automation.create");
  EXPECT_EQ(daemon_.requests[2].second["definition"]["name"], "x");
}

TEST_F(ServerTest, OpenUrlSaysWhetherTheLaunchHappened) {
  initialize();
  daemon_.replies["open_link"] = {{"ok", false},
                                  {"error", {{"code", "POLICY_DENIED"}, {"message", "the scheme is refused"},
                                             {"retry", "safe"}}}};
  json refused = call(1, "open_url", {{"url", "javascript:alert(1)"}, {"app", "firefox-esr"}});
  EXPECT_EQ(refused["result"]["content"][0]["text"], "Nothing was done: the scheme is refused");
  daemon_.replies["open_link"] = {{"ok", false},
                                  {"error", {{"code", "TIMEOUT"}, {"message", "in-front check failed"},
                                             {"retry", "unsafe"}}}};
  json unsure = call(2, "open_url", {{"url", "https://example.org"}, {"app", "firefox-esr"}});
  EXPECT_EQ(unsure["result"]["content"][0]["text"],
            "The launcher ran (open_url) but the launch did not check out: in-front check failed");
  daemon_.replies["open_link"] = {{"ok", true}, {"data", {{"outcome", "in_front"}, {"entry", {{"id", "firefox-esr.desktop"}}}}}};
  json opened = call(3, "open_url", {{"url", "https://example.org"}, {"app", "firefox-esr"}});
  EXPECT_EQ(opened["result"]["isError"], false);
  EXPECT_NE(opened["result"]["content"][0]["text"].get<std::string>().find("firefox-esr.desktop"), std::string::npos);

  // Without app the daemon is asked without one (it picks the desktop's default), never
  // with an app the server made up.
  daemon_.replies["open_link"] = {
      {"ok", true},
      {"data", {{"outcome", "in_front"}, {"entry", {{"id", "chromium.desktop"}}}, {"default_app", "chromium.desktop"}}}};
  json by_default = call(4, "open_url", {{"url", "https://example.org"}});
  EXPECT_EQ(by_default["result"]["isError"], false);
  EXPECT_EQ(by_default["result"]["content"][0]["text"],
            "The link was opened in the desktop's default app (chromium.desktop), and its window is in front. "
            "Read it with get_app_state.");
  std::lock_guard lock(daemon_.mutex);
  EXPECT_EQ(daemon_.requests.back().first, "open_link");
  EXPECT_EQ(daemon_.requests.back().second, json({{"url", "https://example.org"}}));
}

// open_app starts the app through the daemon's launch rules and answers with the state of
// the window in front, so the agent acts next without another look.
TEST_F(ServerTest, OpenAppStartsTheAppAndAnswersWithItsState) {
  initialize();
  daemon_.replies["open_app"] = {{"ok", false},
                                 {"error", {{"code", "POLICY_DENIED"}, {"message", "the entry runs in a terminal"},
                                            {"details", {{"reason", "terminal_entry"}}}, {"retry", "safe"}}}};
  json refused = call(1, "open_app", {{"app", "htop"}});
  EXPECT_EQ(refused["result"]["isError"], true);
  EXPECT_EQ(refused["result"]["content"][0]["text"].get<std::string>().rfind("Nothing was done: the entry runs", 0), 0u);
  daemon_.replies["open_app"] = {{"ok", true}, {"data", {{"outcome", "in_front"}, {"entry", {{"id", "doc.desktop"}}}}}};
  daemon_.replies["windows"] = {
      {"ok", true}, {"data", {{"windows", json::array({{{"id", "w1"}, {"app", "doc"}, {"title", "Doc"}, {"active", true}}})}}}};
  json opened = call(2, "open_app", {{"app", "doc"}});
  ASSERT_TRUE(opened.contains("result")) << opened.dump();
  EXPECT_EQ(opened["result"]["isError"], false);
  EXPECT_EQ(opened["result"]["content"][0]["text"], "doc was started (doc.desktop), and its window is in front.");
  EXPECT_EQ(opened["result"]["content"][1]["text"].get<std::string>().rfind("State s7 of doc window w1", 0), 0u);
  EXPECT_EQ(opened["result"]["structuredContent"]["state"]["state"], "s7");
  std::lock_guard lock(daemon_.mutex);
  const auto sent = std::find_if(daemon_.requests.begin(), daemon_.requests.end(),
                                 [](const auto& r) { return r.first == "open_app"; });
  ASSERT_NE(sent, daemon_.requests.end());
  EXPECT_EQ(sent->second, json({{"app", "htop"}}));
}

}  // namespace
}  // namespace companyos::mcp
