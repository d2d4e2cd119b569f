// sd-bus helpers for tests, over socket pairs (no bus daemon):
// - MessageFactory builds sealed messages for the readers to read back;
// - Peer serves the other end of a connection from its own thread, answering each call
//   with a test-supplied responder (or not at all, like a hung app), and can hang up.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include "a11y/bus/sd_bus_handles.h"

namespace companyos::a11y::testing {

// A started client connection on one end of a socket pair: enough to create messages.
class MessageFactory {
 public:
  MessageFactory() {
    int fds[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    peer_fd_ = fds[1];
    sd_bus* raw = nullptr;
    EXPECT_GE(sd_bus_new(&raw), 0);
    bus_.reset(raw);
    EXPECT_GE(sd_bus_set_fd(raw, fds[0], fds[0]), 0);
    EXPECT_GE(sd_bus_start(raw), 0);
  }
  ~MessageFactory() {
    bus_.reset();
    close(peer_fd_);
  }

  // A message to append a body to; read it back after seal().
  SdBusMessagePtr blank() {
    sd_bus_message* raw = nullptr;
    EXPECT_GE(sd_bus_message_new_method_call(bus_.get(), &raw, nullptr, "/t", "t.T", "M"), 0);
    return SdBusMessagePtr(raw);
  }
  static void seal(sd_bus_message* message) {
    EXPECT_GE(sd_bus_message_seal(message, 1, 0), 0);
    EXPECT_GE(sd_bus_message_rewind(message, 1), 0);
  }

 private:
  int peer_fd_ = -1;
  SdBusPtr bus_;
};

// The server end of a peer-to-peer connection, served from its own thread. respond gets
// each method call and replies to it (sd_bus_reply_method_*) or returns false to leave it
// unanswered for good.
class Peer {
 public:
  using Responder = std::function<bool(sd_bus_message* call)>;

  explicit Peer(Responder respond) : respond_(std::move(respond)) {
    int fds[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    client_fd_ = fds[0];
    server_fd_ = fds[1];
    thread_ = std::thread([this] { serve(); });
  }
  ~Peer() {
    stop_ = true;
    thread_.join();
    if (client_fd_ >= 0) close(client_fd_);
  }

  // A client connection to this peer (once only: it takes the socket).
  SdBusPtr connect() {
    sd_bus* raw = nullptr;
    EXPECT_GE(sd_bus_new(&raw), 0);
    SdBusPtr bus(raw);
    EXPECT_GE(sd_bus_set_fd(raw, client_fd_, client_fd_), 0);
    client_fd_ = -1;
    EXPECT_GE(sd_bus_start(raw), 0);
    return bus;
  }
  // Stops reading without answering (a stopped app).
  void freeze() { frozen_ = true; }
  // Closes the server end (an app that exited) and returns once it is closed.
  void hang_up() {
    hang_up_ = true;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!closed_ && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  int calls_seen() const { return calls_seen_; }

 private:
  void serve() {
    sd_bus* raw = nullptr;
    if (sd_bus_new(&raw) < 0) return;
    SdBusPtr server(raw);
    sd_id128_t id;
    sd_id128_randomize(&id);
    sd_bus_set_fd(raw, server_fd_, server_fd_);
    sd_bus_set_server(raw, 1, id);
    sd_bus_set_anonymous(raw, 1);
    sd_bus_add_filter(raw, nullptr, &Peer::on_message, this);
    if (sd_bus_start(raw) < 0) return;
    std::vector<SdBusMessagePtr> unanswered;
    held_ = &unanswered;
    while (!stop_) {
      if (hang_up_) {
        server.reset();
        closed_ = true;
        while (!stop_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return;
      }
      if (frozen_) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      if (sd_bus_process(raw, nullptr) > 0) continue;
      sd_bus_wait(raw, 1000);
    }
  }
  static int on_message(sd_bus_message* message, void* data, sd_bus_error*) {
    auto* self = static_cast<Peer*>(data);
    if (!sd_bus_message_is_method_call(message, nullptr, nullptr)) return 0;
    ++self->calls_seen_;
    if (!self->respond_(message)) self->held_->emplace_back(sd_bus_message_ref(message));
    return 1;
  }

  Responder respond_;
  int client_fd_ = -1;
  int server_fd_ = -1;
  std::atomic<bool> stop_{false};
  std::atomic<bool> frozen_{false};
  std::atomic<bool> hang_up_{false};
  std::atomic<bool> closed_{false};
  std::atomic<int> calls_seen_{0};
  std::vector<SdBusMessagePtr>* held_ = nullptr;
  std::thread thread_;
};

}  // namespace companyos::a11y::testing
