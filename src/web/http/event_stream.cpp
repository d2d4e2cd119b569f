#include "web/http/event_stream.h"

namespace companyos::web {

std::string sse_event(std::string_view name, std::string_view data) {
  std::string event = "event: ";
  for (const char c : name) {
    if (c != '\r' && c != '\n') event.push_back(c);
  }
  event += '\n';
  std::size_t start = 0;
  while (true) {
    const std::size_t end = data.find_first_of("\r\n", start);
    event += "data: ";
    event.append(data.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    event += '\n';
    if (end == std::string_view::npos) break;
    start = end + ((data[end] == '\r' && end + 1 < data.size() && data[end + 1] == '\n') ? 2 : 1);
  }
  event += '\n';
  return event;
}

}  // namespace companyos::web
