#include "a11y/bus/pipeline.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include "a11y/bus/connection_pool.h"
#include "sd_bus_peer.h"

namespace companyos::a11y {
namespace {

using namespace std::chrono_literals;
using testing::Peer;
using Clock = std::chrono::steady_clock;

// Echo answers with its argument, Fail with an error, Never not at all.
bool respond(sd_bus_message* call) {
  const char* member = sd_bus_message_get_member(call);
  if (std::strcmp(member, "Echo") == 0) {
    const char* text = nullptr;
    sd_bus_message_read(call, "s", &text);
    sd_bus_reply_method_return(call, "s", text);
    return true;
  }
  if (std::strcmp(member, "Fail") == 0) {
    sd_bus_reply_method_errorf(call, SD_BUS_ERROR_UNKNOWN_OBJECT, "no such object");
    return true;
  }
  return false;
}

std::string echoed(sd_bus_message* reply) {
  const char* text = nullptr;
  if (error_name(reply) != nullptr || sd_bus_message_read(reply, "s", &text) <= 0) return "!";
  return text;
}

TEST(Pipeline, ThousandsOfCallsInFlightAllAnswerInOrder) {
  Peer peer(respond);
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  constexpr int kCalls = 3000;
  std::vector<std::string> answers;
  for (int i = 0; i < kCalls; ++i) {
    pipeline.call("/t", "t.Peer", "Echo",
                  [&answers](sd_bus_message* reply) { answers.push_back(echoed(reply)); }, "s",
                  std::to_string(i).c_str());
  }
  EXPECT_TRUE(pipeline.wait());
  ASSERT_EQ(answers.size(), static_cast<std::size_t>(kCalls));
  for (int i = 0; i < kCalls; ++i) EXPECT_EQ(answers[i], std::to_string(i));
  EXPECT_EQ(pipeline.calls_started(), static_cast<std::size_t>(kCalls));
  EXPECT_FALSE(pipeline.expired());
  EXPECT_FALSE(pipeline.disconnected());
}

TEST(Pipeline, HandlersMayQueueMoreCalls) {
  Peer peer(respond);
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  std::vector<std::string> chain;
  std::function<void(sd_bus_message*)> next = [&](sd_bus_message* reply) {
    chain.push_back(echoed(reply));
    if (chain.size() < 5) {
      pipeline.call("/t", "t.Peer", "Echo", next, "s", std::to_string(chain.size()).c_str());
    }
  };
  pipeline.call("/t", "t.Peer", "Echo", next, "s", "0");
  EXPECT_TRUE(pipeline.wait());
  EXPECT_EQ(chain, (std::vector<std::string>{"0", "1", "2", "3", "4"}));
}

TEST(Pipeline, ErrorRepliesReachTheirHandlers) {
  Peer peer(respond);
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  std::string name;
  bool gone = false;
  pipeline.call("/t", "t.Peer", "Fail", [&](sd_bus_message* reply) {
    name = error_name(reply) ? error_name(reply) : "";
    gone = reply_says_gone(reply);
  });
  EXPECT_TRUE(pipeline.wait());
  EXPECT_EQ(name, SD_BUS_ERROR_UNKNOWN_OBJECT);
  EXPECT_TRUE(gone);
}

TEST(Pipeline, AnUnansweredCallCostsTheDeadlineAndNoMore) {
  Peer peer(respond);
  const auto started = Clock::now();
  Pipeline pipeline(peer.connect(), {}, started + 300ms);
  int answered = 0;
  pipeline.call("/t", "t.Peer", "Echo", [&](sd_bus_message*) { ++answered; }, "s", "x");
  pipeline.call("/t", "t.Peer", "Never", [&](sd_bus_message*) { ++answered; });
  EXPECT_FALSE(pipeline.wait());
  const auto took = Clock::now() - started;
  EXPECT_EQ(answered, 1);
  EXPECT_TRUE(pipeline.expired());
  EXPECT_FALSE(pipeline.disconnected());
  EXPECT_GE(took, 290ms);
  EXPECT_LT(took, 1s);
  // Past the deadline nothing more goes out.
  pipeline.call("/t", "t.Peer", "Echo", [&](sd_bus_message*) { ++answered; }, "s", "y");
  EXPECT_EQ(pipeline.calls_started(), 2u);
}

TEST(Pipeline, APeerThatStopsMidStreamCostsTheDeadline) {
  Peer peer(respond);
  const auto started = Clock::now();
  Pipeline pipeline(peer.connect(), {}, started + 300ms);
  int answered = 0;
  for (int i = 0; i < 1000; ++i) {
    pipeline.call("/t", "t.Peer", "Echo", [&](sd_bus_message*) { ++answered; }, "s", "x");
  }
  pipeline.call("/t", "t.Peer", "Never", nullptr);
  EXPECT_FALSE(pipeline.wait());
  EXPECT_EQ(answered, 1000);
  EXPECT_GE(Clock::now() - started, 290ms);
  EXPECT_LT(Clock::now() - started, 1s);
}

TEST(Pipeline, AFrozenPeerCostsTheDeadline) {
  Peer peer(respond);
  peer.freeze();
  const auto started = Clock::now();
  Pipeline pipeline(peer.connect(), {}, started + 200ms);
  for (int i = 0; i < 100; ++i) pipeline.call("/t", "t.Peer", "Echo", nullptr, "s", "x");
  EXPECT_FALSE(pipeline.wait());
  EXPECT_LT(Clock::now() - started, 1s);
}

TEST(Pipeline, APeerThatHangsUpEndsTheWaitAtOnce) {
  Peer peer(respond);
  const auto started = Clock::now();
  Pipeline pipeline(peer.connect(), {}, started + 5s);
  pipeline.call("/t", "t.Peer", "Never", nullptr);
  peer.hang_up();
  EXPECT_FALSE(pipeline.wait());
  EXPECT_TRUE(pipeline.disconnected());
  EXPECT_FALSE(pipeline.expired());
  EXPECT_LT(Clock::now() - started, 2s);
}

TEST(Pipeline, AThrowingHandlerDoesNotStopTheOthers) {
  Peer peer(respond);
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  int after = 0;
  pipeline.call("/t", "t.Peer", "Echo", [](sd_bus_message*) { throw std::runtime_error("boom"); },
                "s", "x");
  pipeline.call("/t", "t.Peer", "Echo", [&](sd_bus_message*) { ++after; }, "s", "y");
  EXPECT_TRUE(pipeline.wait());
  EXPECT_EQ(after, 1);
}

TEST(Pipeline, RecyclesOnlyAnIdleConnectionAndHandsOverAnActionsWhateverIsInFlight) {
  struct RecycleCase {
    const char* what;
    const char* member;
    bool hand_over;
    bool recycled;
    bool handed_over;
  };
  const RecycleCase cases[] = {
      {"all answered", "Echo", false, true, false},
      {"one left unanswered", "Never", false, false, false},
      {"answered, handed over (an action call)", "Echo", true, false, true},
      {"unanswered, handed over all the same", "Never", true, false, true}};
  for (const RecycleCase& c : cases) {
    Peer peer(respond);
    SdBusPtr returned;
    SdBusPtr kept;
    {
      Pipeline pipeline(peer.connect(), {}, Clock::now() + 200ms,
                        [&returned](SdBusPtr connection) { returned = std::move(connection); });
      if (c.hand_over) {
        pipeline.hand_over_when_done([&kept](SdBusPtr connection) { kept = std::move(connection); });
      }
      pipeline.call("/t", "t.Peer", c.member, nullptr, "s", "x");
      pipeline.wait();
    }
    EXPECT_EQ(returned != nullptr, c.recycled) << c.what;
    EXPECT_EQ(kept != nullptr, c.handed_over) << c.what;
    // A handed-over connection is still open: the peer sees no Disconnected.
    if (kept) {
      EXPECT_GT(sd_bus_is_open(kept.get()), 0) << c.what;
    }
  }
}

TEST(Pipeline, WithoutAConnectionNothingIsSent) {
  Pipeline pipeline(nullptr, {}, Clock::now() + 1s);
  bool ran = false;
  pipeline.call("/t", "t.Peer", "Echo", [&](sd_bus_message*) { ran = true; }, "s", "x");
  EXPECT_TRUE(pipeline.disconnected());
  EXPECT_FALSE(pipeline.wait());
  EXPECT_FALSE(ran);
  EXPECT_EQ(pipeline.calls_started(), 0u);
}

// A socket pair's peer is this very process.
const PeerIdentity us = own_user_peer(getpid());

TEST(ConnectionPool, ReusesGivenBackConnectionsAndForgetsDroppedOnes) {
  ConnectionPool pool;
  Peer peer(respond);
  SdBusPtr connection = peer.connect();
  sd_bus* raw = connection.get();
  pool.give_back("unix:path=/nonexistent/peer", std::move(connection));
  SdBusPtr again = pool.take("unix:path=/nonexistent/peer", false, us);
  EXPECT_EQ(again.get(), raw);
  pool.give_back("unix:path=/nonexistent/peer", std::move(again));
  pool.drop("unix:path=/nonexistent/peer");
  // Nothing idle any more, and nothing listens at that address.
  EXPECT_EQ(pool.take("unix:path=/nonexistent/peer", false, us), nullptr);
}

TEST(ConnectionPool, KeepsOnlyConnectionsToLiveAddresses) {
  ConnectionPool pool;
  Peer first(respond);
  Peer second(respond);
  pool.give_back("unix:path=/nonexistent/first", first.connect());
  pool.give_back("unix:path=/nonexistent/second", second.connect());
  pool.keep_only({"unix:path=/nonexistent/second"});
  EXPECT_EQ(pool.take("unix:path=/nonexistent/first", false, us), nullptr);
  EXPECT_NE(pool.take("unix:path=/nonexistent/second", false, us), nullptr);
}

TEST(ConnectionPool, BadAddressesGiveNoConnection) {
  ConnectionPool pool;
  for (const char* address : {"", "not an address", "unix:path=/nonexistent/socket"}) {
    EXPECT_EQ(pool.take(address, false, us), nullptr) << address;
  }
}

TEST(ConnectionPool, AConnectionToAnotherProcessOrUserIsNotHandedOut) {
  struct Case {
    const char* what;
    PeerIdentity expected;
    bool handed_out;
  };
  const Case cases[] = {
      {"another process of our user", own_user_peer(getpid() + 1), false},
      {"another user", PeerIdentity{getuid() + 1, std::nullopt}, false},
      {"any process of our user (a message bus)", own_user_peer(), true},
      {"this process", us, true},
  };
  for (const Case& c : cases) {
    ConnectionPool pool;
    Peer peer(respond);
    pool.give_back("unix:path=/nonexistent/peer", peer.connect());
    EXPECT_EQ(pool.take("unix:path=/nonexistent/peer", false, c.expected) != nullptr, c.handed_out)
        << c.what;
  }
}

TEST(ConnectionPool, AClosedIdleConnectionIsNotHandedOut) {
  ConnectionPool pool;
  Peer peer(respond);
  pool.give_back("unix:path=/nonexistent/peer", peer.connect());
  peer.hang_up();
  // The idle connection's socket has seen the hang-up; it is read before reuse.
  EXPECT_EQ(pool.take("unix:path=/nonexistent/peer", false, us), nullptr);
}

}  // namespace
}  // namespace companyos::a11y
