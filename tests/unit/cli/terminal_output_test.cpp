#include "cli/terminal_output.h"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>

#include "cli/render.h"

namespace companyos::cli {
namespace {

TEST(EscapingBuffer, WritesEveryLineEscapedWithItsLineBreak) {
  struct Case {
    std::string what;
    std::vector<std::string> writes;
    std::string shown;
  };
  const Case cases[] = {
      {"plain lines pass", {"ID  TITLE\n", "w1  Untitled – Mousepad\n"}, "ID  TITLE\nw1  Untitled – Mousepad\n"},
      {"a title that retitles the terminal", {"w1  \x1b]0;pwned\x07" "Evil\n"}, "w1  \\x1b]0;pwned\\x07Evil\n"},
      {"a reversed name", {"e2 \"invoice\u202Efdp.exe\"\n"}, "e2 \"invoice\\u202efdp.exe\"\n"},
      {"a line written in pieces", {"a \x1b", "[2J b", "\n"}, "a \\x1b[2J b\n"},
      {"a character cut between writes", {"caf\xc3", "\xa9 \xc2", "\x9b\n"}, "café \\u009b\n"},
      {"the rest after the last line break", {"x\ny\x07"}, "x\ny\\x07"},
  };
  for (const Case& c : cases) {
    std::stringbuf sink;
    {
      EscapingBuffer buffer(&sink);
      std::ostream out(&buffer);
      for (const std::string& piece : c.writes) out << piece;
    }
    EXPECT_EQ(sink.str(), c.shown) << c.what;
  }
}

TEST(EscapingBuffer, FlushWritesAPartialLine) {
  std::stringbuf sink;
  EscapingBuffer buffer(&sink);
  std::ostream out(&buffer);
  out << "partial \x1b[31m";
  EXPECT_EQ(sink.str(), "");
  out.flush();
  EXPECT_EQ(sink.str(), "partial \\x1b[31m");
}

TEST(TerminalSafeOutput, EscapesStandardOutputAndErrorWhileItLives) {
  std::stringbuf out_sink;
  std::stringbuf err_sink;
  std::streambuf* out_before = std::cout.rdbuf(&out_sink);
  std::streambuf* err_before = std::cerr.rdbuf(&err_sink);
  {
    TerminalSafeOutput guard;
    std::cout << "title \x1b]0;x\x07\n";
    std::cerr << "error: \u202E\n";
  }
  std::cout << "\x07";  // restored: written as it is
  std::cout.flush();
  std::cout.rdbuf(out_before);
  std::cerr.rdbuf(err_before);
  EXPECT_EQ(out_sink.str(), "title \\x1b]0;x\\x07\n\x07");
  EXPECT_EQ(err_sink.str(), "error: \\u202e\n");
}

TEST(Plain, EscapesStringsItShows) {
  EXPECT_EQ(plain(nlohmann::json("a\nb\x1b")), "a\\nb\\x1b");
  EXPECT_EQ(plain(nlohmann::json::array({"x\ty", 1})), "x\\ty, 1");
  EXPECT_EQ(plain(nlohmann::json("Untitled 1")), "Untitled 1");
}

}  // namespace
}  // namespace companyos::cli
