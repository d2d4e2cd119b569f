// `companyos mcp`: the server on stdin/stdout. JSON-RPC lines in and out, nothing else on
// stdout (logs go to stderr); returns when stdin ends, after the running calls stop.
#pragma once

#include <string>

namespace companyos::mcp {

int run_stdio(const std::string& socket_path);

}  // namespace companyos::mcp
