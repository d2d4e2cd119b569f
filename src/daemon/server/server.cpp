#include "daemon/server/server.h"

#include <glib-unix.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <deque>

#include <spdlog/spdlog.h>

#include "companyos/protocol.h"
#include "companyos/result.h"
#include "daemon/server/flow_control.h"

namespace companyos::daemon {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
// Out of descriptors, accept() is retried this often: fast enough that a freed descriptor
// is used within a fraction of a second, slow enough to cost nothing while none is free.
constexpr guint kAcceptRetryMs = 200;
// At most one line about refused peers of another uid per this interval.
constexpr auto kRefusalLogInterval = std::chrono::seconds(10);

// Removes a GLib source when it goes out of scope or is replaced.
class SourceGuard {
 public:
  SourceGuard() = default;
  SourceGuard(const SourceGuard&) = delete;
  SourceGuard& operator=(const SourceGuard&) = delete;
  ~SourceGuard() { reset(); }
  void reset(guint id = 0) {
    if (id_ != 0) g_source_remove(id_);
    id_ = id;
  }
  bool active() const { return id_ != 0; }
  // For a source whose callback returned G_SOURCE_REMOVE: forget it without removing.
  void forget() { id_ = 0; }

 private:
  guint id_ = 0;
};

}  // namespace

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Server& server, std::uint64_t id, UniqueFd fd)
      : server_(server), id_(id), fd_(std::move(fd)), framer_(protocol::kMaxLineBytes) {}

  void start() { update_read_watch(); }
  void detach() {
    read_watch_.reset();
    write_watch_.reset();
    resume_.reset();
  }
  bool has_unfinished_work() const { return busy_ || !out_.empty() || !queue_.empty(); }

 private:
  static gboolean on_readable(gint, GIOCondition condition, gpointer self) {
    auto* conn = static_cast<Connection*>(self);
    conn->read_watch_.forget();
    conn->read_available(condition);
    return G_SOURCE_REMOVE;
  }
  static gboolean on_writable(gint, GIOCondition, gpointer self) {
    auto* conn = static_cast<Connection*>(self);
    conn->write_watch_.forget();
    conn->flush();
    // The client took some replies: requests held back for want of room may go on.
    if (!conn->closing_) {
      conn->process_queue();
      conn->update_read_watch();
      conn->maybe_close();
    }
    return G_SOURCE_REMOVE;
  }

  // The rest of a queue that had more than one turn's worth, after the other sources of
  // this priority (other connections' reads and writes) have had theirs.
  static gboolean on_resume(gpointer self) {
    auto* conn = static_cast<Connection*>(self);
    conn->resume_.forget();
    auto keep = conn->shared_from_this();
    if (!conn->closing_) {
      conn->process_queue();
      conn->update_read_watch();
      conn->maybe_close();
    }
    return G_SOURCE_REMOVE;
  }

  Backlog backlog() const { return Backlog{out_.size(), queue_.size(), queued_bytes_}; }
  bool reading_paused() const { return !may_read(backlog()); }

  void enqueue(std::vector<FramedLine>& lines) {
    for (auto& line : lines) {
      queued_bytes_ += line.text.size();
      queue_.push_back(std::move(line));
    }
    lines.clear();
  }

  void update_read_watch() {
    if (closing_ || read_watch_.active()) return;
    if (eof_) {
      // Nothing more to read, but a hang-up still tells that the client is gone while its
      // request is being answered.
      if (busy_ && !client_gone_.stop_requested()) {
        read_watch_.reset(g_unix_fd_add(fd_.get(), static_cast<GIOCondition>(G_IO_HUP | G_IO_ERR),
                                        &Connection::on_readable, this));
      }
      return;
    }
    if (reading_paused()) return;
    read_watch_.reset(g_unix_fd_add(fd_.get(), static_cast<GIOCondition>(G_IO_IN | G_IO_HUP | G_IO_ERR),
                                    &Connection::on_readable, this));
  }

  void read_available(GIOCondition condition) {
    auto keep = shared_from_this();
    // HUP on a stream socket means both directions are shut: the peer closed (or was
    // killed), not merely shut down its sending side.
    if ((condition & (G_IO_HUP | G_IO_ERR)) != 0) client_gone_.request_stop();
    if (eof_) {
      maybe_close();
      return;
    }
    char buffer[kReadChunk];
    std::vector<FramedLine> lines;
    // Stops while the queue is full, so a pipelining client waits in its own socket
    // buffer instead of in our memory.
    while (!reading_paused()) {
      ssize_t n = ::recv(fd_.get(), buffer, sizeof buffer, 0);
      if (n > 0) {
        framer_.feed(std::string_view(buffer, static_cast<std::size_t>(n)), lines);
        enqueue(lines);
        continue;
      }
      if (n == 0) {
        eof_ = true;
        if (auto last = framer_.finish()) lines.push_back(std::move(*last));
        enqueue(lines);
        break;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      spdlog::debug("client {}: read error: {}", id_, std::strerror(errno));
      fail();
      return;
    }
    process_queue();
    update_read_watch();
    maybe_close();
  }

  void process_queue() {
    if (in_dispatch_) return;  // a synchronous reply re-entered; the outer loop continues
    in_dispatch_ = true;
    const std::size_t quantum = FlowLimits{}.dispatch_quantum;
    std::size_t dispatched = 0;
    // Replies the client has not taken yet hold the rest back: answering them now would
    // only move the requests from the queue into unsent replies, which are larger.
    while (!busy_ && !queue_.empty() && !closing_ && may_dispatch(backlog())) {
      if (dispatched++ == quantum) {
        if (!resume_.active()) {
          resume_.reset(g_idle_add_full(G_PRIORITY_DEFAULT, &Connection::on_resume, this, nullptr));
        }
        break;
      }
      FramedLine line = std::move(queue_.front());
      queue_.pop_front();
      queued_bytes_ -= line.text.size();
      busy_ = true;
      std::weak_ptr<Connection> weak = weak_from_this();
      server_.handler_(line, client_gone_.get_token(), [weak](std::string reply) {
        if (auto conn = weak.lock()) conn->on_reply(std::move(reply));
      });
    }
    in_dispatch_ = false;
  }

  void on_reply(std::string reply) {
    busy_ = false;
    out_.append(reply);
    flush();
    if (closing_) return;
    process_queue();
    update_read_watch();
    maybe_close();
  }

  void flush() {
    auto keep = shared_from_this();
    while (!out_.empty()) {
      ssize_t n = ::send(fd_.get(), out_.data(), out_.size(), MSG_NOSIGNAL);
      if (n > 0) {
        out_.erase(0, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (!write_watch_.active()) {
          write_watch_.reset(g_unix_fd_add(fd_.get(), G_IO_OUT, &Connection::on_writable, this));
        }
        return;
      }
      spdlog::debug("client {}: write error: {}", id_, std::strerror(errno));
      fail();
      return;
    }
    update_read_watch();
    maybe_close();
  }

  void maybe_close() {
    if (eof_ && !has_unfinished_work()) fail();
  }

  void fail() {
    if (closing_) return;
    closing_ = true;
    client_gone_.request_stop();
    detach();
    server_.close_connection(id_);
  }

  Server& server_;
  std::uint64_t id_;
  UniqueFd fd_;
  LineFramer framer_;
  std::deque<FramedLine> queue_;
  std::size_t queued_bytes_ = 0;  // text of the lines in queue_
  std::string out_;
  SourceGuard read_watch_;
  SourceGuard write_watch_;
  SourceGuard resume_;
  bool busy_ = false;
  bool eof_ = false;
  bool closing_ = false;
  bool in_dispatch_ = false;
  std::stop_source client_gone_;
};

Server::Server(UniqueFd listen_fd, uid_t allowed_uid, LineHandler handler, const Clock& clock)
    : listen_fd_(std::move(listen_fd)),
      allowed_uid_(allowed_uid),
      refusal_log_(clock, kRefusalLogInterval),
      handler_(std::move(handler)) {
  listen_source_ = g_unix_fd_add(listen_fd_.get(), G_IO_IN, &Server::on_accept, this);
}

Server::~Server() {
  stop_accepting();
  if (refusal_summary_source_ != 0) g_source_remove(refusal_summary_source_);
  for (auto& [id, conn] : connections_) conn->detach();
}

void Server::stop_accepting() {
  if (listen_source_ != 0) {
    g_source_remove(listen_source_);
    listen_source_ = 0;
  }
  if (retry_source_ != 0) {
    g_source_remove(retry_source_);
    retry_source_ = 0;
  }
  listen_fd_.reset();
}

bool Server::has_unfinished_work() const {
  for (const auto& [id, conn] : connections_) {
    if (conn->has_unfinished_work()) return true;
  }
  return false;
}

gboolean Server::on_accept(gint, GIOCondition, gpointer self) {
  static_cast<Server*>(self)->accept_pending();
  return G_SOURCE_CONTINUE;
}

gboolean Server::on_accept_retry(gpointer self) {
  auto* server = static_cast<Server*>(self);
  server->retry_source_ = 0;
  server->listen_source_ = g_unix_fd_add(server->listen_fd_.get(), G_IO_IN, &Server::on_accept, server);
  server->accept_pending();
  return G_SOURCE_REMOVE;
}

void Server::pause_accepting(int error) {
  if (!accept_paused_) {
    accept_paused_ = true;
    spdlog::warn("cannot accept connections: {}; pausing new connections and retrying every {} ms "
                 "until a descriptor is free ({} connections open)",
                 std::strerror(error), kAcceptRetryMs, connections_.size());
  }
  if (listen_source_ != 0) {
    g_source_remove(listen_source_);
    listen_source_ = 0;
  }
  if (retry_source_ == 0) retry_source_ = g_timeout_add(kAcceptRetryMs, &Server::on_accept_retry, this);
}

void Server::accept_pending() {
  while (listen_fd_.valid()) {
    UniqueFd client(::accept4(listen_fd_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
    if (!client.valid()) {
      const int error = errno;
      if (error == EINTR) continue;
      if (error == EAGAIN || error == EWOULDBLOCK) return;
      // The peer gave up before we took it: the next one may be fine.
      if (error == ECONNABORTED || error == EPROTO) continue;
      // EMFILE, ENFILE, ENOBUFS, ENOMEM: nothing to accept with until something is freed;
      // anything else would fail the same way at once, so it waits the same way.
      pause_accepting(error);
      return;
    }
    if (accept_paused_) {
      accept_paused_ = false;
      spdlog::info("accepting connections again ({} open)", connections_.size());
    }
    ucred cred{};
    socklen_t len = sizeof(cred);
    if (::getsockopt(client.get(), SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
        cred.uid != allowed_uid_) {
      refuse(client, cred);
      continue;
    }
    const std::uint64_t id = next_id_++;
    auto conn = std::make_shared<Connection>(*this, id, std::move(client));
    connections_.emplace(id, conn);
    conn->start();
  }
}

void Server::refuse(const UniqueFd& client, const ucred& cred) {
  const auto verdict = refusal_log_.note();
  if (verdict.log) {
    spdlog::warn("refused a client of uid {} (pid {}): this daemon serves uid {} only{}", cred.uid,
                 cred.pid, allowed_uid_,
                 verdict.left_out_before == 0
                     ? std::string()
                     : " (" + std::to_string(verdict.left_out_before) + " more refused before, not logged)");
  } else if (refusal_summary_source_ == 0) {
    // The flood may stop here: a summary still reports what was left out.
    const auto interval = std::chrono::duration_cast<std::chrono::milliseconds>(kRefusalLogInterval);
    refusal_summary_source_ =
        g_timeout_add(static_cast<guint>(interval.count()), &Server::on_refusal_summary, this);
  }
  const std::string refusal = protocol::to_line(protocol::error_envelope(
      nullptr, make_error(ErrorCode::kPermDenied,
                          "this daemon serves only uid " + std::to_string(allowed_uid_))));
  (void)::send(client.get(), refusal.data(), refusal.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

gboolean Server::on_refusal_summary(gpointer self) {
  auto* server = static_cast<Server*>(self);
  if (auto count = server->refusal_log_.take_summary()) {
    spdlog::warn("refused {} more clients of other uids in the last {} s", *count,
                 std::chrono::duration_cast<std::chrono::seconds>(kRefusalLogInterval).count());
  }
  if (server->refusal_log_.left_out() > 0) return G_SOURCE_CONTINUE;
  server->refusal_summary_source_ = 0;
  return G_SOURCE_REMOVE;
}

void Server::close_connection(std::uint64_t id) {
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  // Destroy after the current callback returns: the caller is a member of the connection.
  auto doomed = std::make_unique<std::shared_ptr<Connection>>(std::move(it->second));
  connections_.erase(it);
  g_idle_add_full(
      G_PRIORITY_DEFAULT, [](gpointer) -> gboolean { return G_SOURCE_REMOVE; }, doomed.release(),
      [](gpointer p) { std::unique_ptr<std::shared_ptr<Connection>>(static_cast<std::shared_ptr<Connection>*>(p)); });
}

}  // namespace companyos::daemon
