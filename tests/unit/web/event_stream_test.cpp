#include "web/http/event_stream.h"

#include <gtest/gtest.h>

namespace companyos::web {
namespace {

struct EventCase {
  const char* name;
  const char* data;
  const char* expected;
  friend void PrintTo(const EventCase& c, std::ostream* os) { *os << c.name << ": " << ::testing::PrintToString(std::string(c.data)); }
};

class SseEvent : public ::testing::TestWithParam<EventCase> {};

TEST_P(SseEvent, PutsEachLineInItsOwnDataField) {
  const EventCase& c = GetParam();
  EXPECT_EQ(sse_event(c.name, c.data), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Table, SseEvent,
    ::testing::Values(EventCase{"runs", R"({"active":[]})", "event: runs\ndata: {\"active\":[]}\n\n"},
                      EventCase{"runs", "", "event: runs\ndata: \n\n"},
                      EventCase{"runs", "a\nb", "event: runs\ndata: a\ndata: b\n\n"},
                      EventCase{"runs", "a\r\nb", "event: runs\ndata: a\ndata: b\n\n"},
                      EventCase{"runs", "a\rb", "event: runs\ndata: a\ndata: b\n\n"},
                      EventCase{"runs", "a\n\nevent: x", "event: runs\ndata: a\ndata: \ndata: event: x\n\n"},
                      EventCase{"ru\nns", "x", "event: runs\ndata: x\n\n"}));

}  // namespace
}  // namespace companyos::web
