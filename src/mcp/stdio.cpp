#include "mcp/stdio.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>

#include "mcp/server.h"

namespace companyos::mcp {

int run_stdio(const std::string& socket_path) {
  std::signal(SIGPIPE, SIG_IGN);  // a client gone mid-write ends the loop, not the process
  // Written by the sink (tool calls' threads, under the server's send lock), read here.
  std::atomic<bool> stdout_open{true};
  Server server(ServerOptions{socket_path, {}}, [&stdout_open](const std::string& line) {
    if (!stdout_open) return;
    if (std::fwrite(line.data(), 1, line.size(), stdout) != line.size() || std::fflush(stdout) != 0) {
      stdout_open = false;
    }
  });

  // Lines are split here rather than with getline so that an oversize line is refused
  // without being held in memory whole.
  std::string line;
  bool oversize = false;
  char chunk[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      const char c = chunk[i];
      if (c != '\n') {
        if (!oversize && line.size() < kMaxMessageBytes) {
          line.push_back(c);
        } else {
          oversize = true;
          line.clear();
        }
        continue;
      }
      if (oversize) {
        server.refuse_oversize_line();
        oversize = false;
      } else {
        server.handle_line(line);
      }
      line.clear();
    }
    if (!stdout_open) break;
  }
  if (!line.empty() && !oversize) server.handle_line(line);
  server.finish();
  return 0;
}

}  // namespace companyos::mcp
