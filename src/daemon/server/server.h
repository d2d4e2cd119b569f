// Serves JSON-lines clients on a listening socket from the GLib main loop.
// Non-blocking I/O per client: a slow client never blocks another. Each connection
// answers its requests in order, one at a time. Only clients of our own uid are served.
#pragma once

#include <sys/socket.h>
#include <sys/types.h>

#include <functional>
#include <map>
#include <memory>
#include <stop_token>
#include <string>

#include <glib.h>

#include "core/clock.h"
#include "core/unique_fd.h"
#include "daemon/server/line_framer.h"
#include "daemon/server/log_rate_limit.h"

namespace companyos::daemon {

class Connection;

class Server {
 public:
  // Answers one framed line; calls `done` exactly once with the reply line (newline included).
  // `client_gone` is requested when the client has closed its connection for good (a client
  // that only shut down its sending side still reads replies).
  using LineHandler = std::function<void(const FramedLine& line, std::stop_token client_gone,
                                         std::function<void(std::string)> done)>;

  // `clock` paces the log of refused peers; it must outlive the server.
  Server(UniqueFd listen_fd, uid_t allowed_uid, LineHandler handler, const Clock& clock);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Closes the listening socket; connections already open stay until they finish.
  void stop_accepting();
  // True while some reply has not been written out yet or a request is being answered.
  bool has_unfinished_work() const;
  std::size_t connection_count() const { return connections_.size(); }

 private:
  friend class Connection;
  static gboolean on_accept(gint fd, GIOCondition condition, gpointer self);
  static gboolean on_accept_retry(gpointer self);
  static gboolean on_refusal_summary(gpointer self);
  void accept_pending();
  // Out of descriptors: stop watching the listening socket (it stays readable, so the
  // watch would fire at once, forever) and try again on a timer.
  void pause_accepting(int error);
  void refuse(const UniqueFd& client, const ucred& cred);
  void close_connection(std::uint64_t id);

  UniqueFd listen_fd_;
  guint listen_source_ = 0;
  guint retry_source_ = 0;
  bool accept_paused_ = false;  // an EMFILE/ENFILE episode is under way (logged once)
  uid_t allowed_uid_;
  LogRateLimit refusal_log_;
  guint refusal_summary_source_ = 0;
  LineHandler handler_;
  std::uint64_t next_id_ = 1;
  std::map<std::uint64_t, std::shared_ptr<Connection>> connections_;
};

}  // namespace companyos::daemon
