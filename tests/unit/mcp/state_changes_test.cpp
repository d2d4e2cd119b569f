#include "mcp/state_changes.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace companyos::mcp {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::optional<std::int64_t> leading_number(const std::string& line) {
  const std::size_t start = line.find_first_not_of(' ');
  if (start == std::string::npos || line[start] != 'e') return std::nullopt;
  std::int64_t number = 0;
  const char* begin = line.data() + start + 1;
  const char* end = line.data() + line.size();
  const auto [stop, error] = std::from_chars(begin, end, number);
  if (error != std::errc() || stop == begin || (stop != end && *stop != ' ')) return std::nullopt;
  return number;
}

std::string renumbered(const std::string& line, std::int64_t shift) {
  const std::size_t start = line.find_first_not_of(' ');
  const std::size_t end = std::min(line.find(' ', start), line.size());
  return line.substr(0, start) + "e" + std::to_string(*leading_number(line) + shift) + line.substr(end);
}

// An agent's reading of the changes, as docs/mcp.md tells it: the old state's lines with the
// changes applied. Independent of the writer: it knows only the marks.
std::string applied(const std::string& before, const std::string& changes) {
  const std::vector<std::string> old = lines_of(before);
  std::vector<std::string> out;
  std::size_t cursor = 0;
  const auto copy_until = [&](const auto& is_it) {
    std::size_t k = cursor;
    while (k < old.size() && !is_it(old[k])) ++k;
    if (k == old.size()) ADD_FAILURE() << "the changes name a line the old state lacks";
    out.insert(out.end(), old.begin() + static_cast<std::ptrdiff_t>(cursor), old.begin() + static_cast<std::ptrdiff_t>(k));
    cursor = k;
    return k < old.size();
  };
  for (const std::string& change : lines_of(changes)) {
    const std::string mark = change.substr(0, 2);
    const std::string body = change.substr(2);
    if (mark == "+ ") {
      out.push_back(body);
    } else if (mark == "- " || mark == "  ") {
      if (copy_until([&](const std::string& line) { return line == body; })) {
        if (mark == "  ") out.push_back(old[cursor]);
        ++cursor;
      }
    } else if (mark == "~ ") {
      const auto number = leading_number(body);
      if (copy_until([&](const std::string& line) { return leading_number(line) == number; })) {
        out.push_back(body);
        ++cursor;
      }
    } else if (mark == "= ") {
      // "eA-eB unchanged, were eC-eD" or "eA unchanged, was eC"
      std::vector<std::int64_t> numbers;
      for (std::size_t at = body.find('e'); at != std::string::npos; at = body.find('e', at + 1)) {
        std::int64_t number = 0;
        const auto [stop, error] = std::from_chars(body.data() + at + 1, body.data() + body.size(), number);
        if (error == std::errc() && stop != body.data() + at + 1) numbers.push_back(number);
      }
      if (numbers.size() != 2 && numbers.size() != 4) {
        ADD_FAILURE() << "cannot read " << change;
        continue;
      }
      const std::int64_t first_new = numbers[0];
      const std::int64_t first_old = numbers.size() == 2 ? numbers[1] : numbers[2];
      const std::int64_t last_old = numbers.size() == 2 ? numbers[1] : numbers[3];
      if (!copy_until([&](const std::string& line) { return leading_number(line) == first_old; })) continue;
      for (;;) {
        const auto number = leading_number(old[cursor]);
        out.push_back(number ? renumbered(old[cursor], first_new - first_old) : old[cursor]);
        ++cursor;
        if (number == last_old || cursor == old.size()) break;
      }
    } else {
      ADD_FAILURE() << "unknown mark in " << change;
    }
  }
  out.insert(out.end(), old.begin() + static_cast<std::ptrdiff_t>(cursor), old.end());
  std::string text;
  for (const std::string& line : out) text += line + "\n";
  return text;
}

struct Case {
  const char* what;
  std::string before;
  std::string after;
  std::optional<std::string> expected;  // the exact changes, where the case pins them
};

const std::string kCalculator =
    "e1 frame \"Calculator\"\n"
    "  e2 text \"display\" value=\"1\"\n"
    "  e3 panel \"keys\"\n"
    "    e4 push button \"1\"\n"
    "    e5 push button \"2\"\n"
    "    e6 push button \"=\"\n";

std::vector<Case> cases() {
  return {
      {"nothing changed", kCalculator, kCalculator, std::string()},
      {"one value changed: the line replaces its old one, its container shown",
       kCalculator,
       "e1 frame \"Calculator\"\n"
       "  e2 text \"display\" value=\"12\"\n"
       "  e3 panel \"keys\"\n"
       "    e4 push button \"1\"\n"
       "    e5 push button \"2\"\n"
       "    e6 push button \"=\"\n",
       "  e1 frame \"Calculator\"\n"
       "~   e2 text \"display\" value=\"12\"\n"},
      {"a menu opened in the middle: its items added, the rest renumbered as one run",
       "e1 frame \"Editor\"\n"
       "  e2 menu \"File\" (closed, 3 items)\n"
       "  e3 menu \"Edit\" (closed, 2 items)\n"
       "  e4 text \"body\"\n"
       "  e5 push button \"Save\"\n",
       "e1 frame \"Editor\"\n"
       "  e2 menu \"File\" [expanded]\n"
       "    e3 menu item \"New\"\n"
       "    e4 menu item \"Open\"\n"
       "    e5 menu item \"Quit\"\n"
       "  e6 menu \"Edit\" (closed, 2 items)\n"
       "  e7 text \"body\"\n"
       "  e8 push button \"Save\"\n",
       "  e1 frame \"Editor\"\n"
       "~   e2 menu \"File\" [expanded]\n"
       "+     e3 menu item \"New\"\n"
       "+     e4 menu item \"Open\"\n"
       "+     e5 menu item \"Quit\"\n"
       "=   e6-e8 unchanged, were e3-e5\n"},
      {"one element renumbered alone",
       "e1 frame \"A\"\n  e2 label \"x\"\n  e3 push button \"OK\"\n",
       "e1 frame \"A\"\n  e2 label \"y\"\n  e3 label \"z\"\n  e4 push button \"OK\"\n",
       "  e1 frame \"A\"\n"
       "~   e2 label \"y\"\n"
       "+   e3 label \"z\"\n"
       "=   e4 unchanged, was e3\n"},
      {"a dialog's lines removed",
       "e1 frame \"A\"\n  e2 dialog \"Tip\"\n    e3 push button \"Close\"\n  e4 text \"body\"\n",
       "e1 frame \"A\"\n  e2 text \"body\"\n",
       "  e1 frame \"A\"\n"
       "-   e2 dialog \"Tip\"\n"
       "-     e3 push button \"Close\"\n"
       "=   e2 unchanged, was e4\n"},
      {"everything different", "e1 frame \"A\"\n", "e1 dialog \"B\"\n  e2 push button \"C\"\n", std::nullopt},
      {"from nothing", "", "e1 frame \"A\"\n", "+ e1 frame \"A\"\n"},
      {"to nothing", "e1 frame \"A\"\n", "", "- e1 frame \"A\"\n"},
      {"lines without numbers keep their place",
       "e1 frame \"A\"\n  (3 more)\n  e2 push button \"B\"\n",
       "e1 frame \"A\"\n  (4 more)\n  e2 push button \"B\"\n", std::nullopt},
      {"a change deep down shows each container once, and a later one its own",
       "e1 frame \"A\"\n  e2 panel\n    e3 panel\n      e4 check box \"x\"\n    e5 label \"l\"\n  e6 panel\n    e7 entry \"n\" value=\"\"\n",
       "e1 frame \"A\"\n  e2 panel\n    e3 panel\n      e4 check box \"x\" [checked]\n    e5 label \"l\"\n  e6 panel\n    e7 entry \"n\" value=\"Ada\"\n",
       "  e1 frame \"A\"\n"
       "    e2 panel\n"
       "      e3 panel\n"
       "~       e4 check box \"x\" [checked]\n"
       "    e6 panel\n"
       "~     e7 entry \"n\" value=\"Ada\"\n"},
      {"twins that swap places",
       "e1 frame \"A\"\n  e2 push button \"x\" twin=2\n  e3 push button \"x\" twin=2\n  e4 label \"a\"\n",
       "e1 frame \"A\"\n  e2 label \"a\"\n  e3 push button \"x\" twin=2\n  e4 push button \"x\" twin=2\n",
       std::nullopt},
      {"replaced lines with crossing numbers are removed and added",
       "e1 frame \"A\"\n  e2 label \"p\"\n  e3 label \"q\"\n",
       "e1 frame \"A\"\n  e3 label \"r\"\n  e2 label \"s\"\n", std::nullopt},
      {"no trailing newline", "e1 frame \"A\"\n  e2 label \"p\"", "e1 frame \"A\"\n  e2 label \"q\"", std::nullopt},
  };
}

std::string with_final_newline(std::string text) {
  if (!text.empty() && text.back() != '\n') text.push_back('\n');
  return text;
}

TEST(OutlineChanges, ApplyingTheChangesToTheOldStateGivesTheNewOne) {
  for (const Case& c : cases()) {
    const auto changes = outline_changes(c.before, c.after);
    ASSERT_TRUE(changes.has_value()) << c.what;
    if (c.expected) {
      EXPECT_EQ(*changes, *c.expected) << c.what;
    }
    EXPECT_EQ(applied(with_final_newline(c.before), *changes), with_final_newline(c.after))
        << c.what << "\nchanges:\n" << *changes;
  }
}

// A generated pair: a long state, and one where lines were inserted, removed and changed
// at spread places, numbers following as a snapshot would number them.
std::string numbered_state(const std::vector<std::string>& bodies) {
  std::string text;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::size_t depth = bodies[i].size() % 3;
    text += std::string(depth * 2, ' ') + "e" + std::to_string(i + 1) + " " + bodies[i] + "\n";
  }
  return text;
}

TEST(OutlineChanges, LongStatesWithEditsEverywhereRoundTrip) {
  std::vector<std::string> bodies;
  for (int i = 0; i < 300; ++i) bodies.push_back("push button \"b" + std::to_string(i) + "\"");
  for (int seed = 1; seed <= 20; ++seed) {
    std::vector<std::string> edited = bodies;
    for (int k = 0; k < seed; ++k) {
      const std::size_t at = static_cast<std::size_t>((k * 37 + seed * 11) % static_cast<int>(edited.size()));
      switch ((k + seed) % 3) {
        case 0:
          edited.insert(edited.begin() + static_cast<std::ptrdiff_t>(at), "menu item \"new" + std::to_string(k) + "\"");
          break;
        case 1:
          edited.erase(edited.begin() + static_cast<std::ptrdiff_t>(at));
          break;
        default:
          edited[at] += " [checked]";
          break;
      }
    }
    const std::string before = numbered_state(bodies);
    const std::string after = numbered_state(edited);
    const auto changes = outline_changes(before, after);
    ASSERT_TRUE(changes.has_value()) << seed;
    EXPECT_EQ(applied(before, *changes), after) << "seed " << seed << "\n" << *changes;
    EXPECT_LT(changes->size(), after.size()) << "seed " << seed;
  }
}

TEST(OutlineChanges, StatesTooLargeToCompareAreNotCompared) {
  std::string before;
  std::string after;
  for (int i = 0; i < 2100; ++i) {
    before += "e" + std::to_string(i + 1) + " label \"a" + std::to_string(i) + "\"\n";
    after += "e" + std::to_string(i + 1) + " label \"b" + std::to_string(i) + "\"\n";
  }
  EXPECT_FALSE(outline_changes(before, after).has_value());
  // The same size with a shared start and end compares only the middle.
  EXPECT_TRUE(outline_changes(before, before).has_value());
}

}  // namespace
}  // namespace companyos::mcp
