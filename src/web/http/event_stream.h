// Server-sent events (the HTML standard's text/event-stream): what the dashboard's open
// pages hear while runs are active, so they redraw without being asked.
#pragma once

#include <string>
#include <string_view>

namespace companyos::web {

// One event: "event: NAME\ndata: LINE\n…\n\n", each line of data on its own data field (a
// carriage return or line feed inside data can never end the event early or start a field).
std::string sse_event(std::string_view name, std::string_view data);
// A comment line that keeps the connection alive and finds a client that went away.
inline constexpr std::string_view kSseKeepAlive = ": keep-alive\n\n";

}  // namespace companyos::web
