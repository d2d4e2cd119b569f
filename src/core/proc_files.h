// Reading /proc without exceptions. A process may exit between a listing of /proc and a
// read of its files; read(2) then fails (ESRCH), and std::ifstream's buffer turns that into
// an exception (libstdc++'s basic_filebuf::underflow throws on a read error) — which ended
// the step keeper with abort() and would end a run thread the same way. These helpers say
// "gone" instead.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace companyos {

// The file's bytes, at most `limit` of them; nullopt when it cannot be opened or read (the
// process it describes is gone, or another user's).
std::optional<std::string> read_small_file(const std::filesystem::path& path, std::size_t limit = 1 << 20);
// The same from an open descriptor, up to its end or `limit` bytes; nullopt on a read error.
std::optional<std::string> read_to_end(int fd, std::size_t limit);

// A pid as /proc and command lines spell it: a positive decimal number and nothing else.
std::optional<pid_t> parse_pid(std::string_view text);

// The pids /proc lists now (its entries that are positive numbers), in no order.
std::vector<pid_t> listed_pids();

}  // namespace companyos
