// The input line a spreadsheet's cell is entered through, found in a window's structure by
// its shape, and how an entry is judged.
#include "a11y/act/cell_entry.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

#include "snapshot_nodes.h"

namespace companyos::a11y {
namespace {

using testing::Spec;

// Calc 7.4's formula bar as a snapshot reads it: the name box, buttons, then the input
// line's paragraph in a scroll pane — and another tool bar of buttons.
std::vector<Node> calc_window(bool with_paragraph = true, bool with_buttons = true) {
  std::vector<Spec> specs = {
      {-1, ATSPI_ROLE_FRAME, "Untitled 1 - LibreOffice Calc"},
      {0, ATSPI_ROLE_TOOL_BAR, "Standard"},
      {1, ATSPI_ROLE_PUSH_BUTTON, "Save", {"press"}},
      {0, ATSPI_ROLE_TOOL_BAR, "Formula Tool Bar"},
      {3, ATSPI_ROLE_TEXT, ""},
  };
  if (with_buttons) {
    specs.push_back({3, ATSPI_ROLE_PUSH_BUTTON, "Function Wizard", {"press"}});
    specs.push_back({3, ATSPI_ROLE_PUSH_BUTTON, "Cancel", {"press"}});
    specs.push_back({3, ATSPI_ROLE_PUSH_BUTTON, "Accept", {"press"}});
  }
  const int pane = static_cast<int>(specs.size());
  specs.push_back({3, ATSPI_ROLE_SCROLL_PANE, ""});
  specs.push_back({pane, ATSPI_ROLE_PANEL, "Input line"});
  if (with_paragraph) specs.push_back({pane + 1, ATSPI_ROLE_PARAGRAPH, ""});
  auto nodes = testing::make_nodes(specs);
  for (Node& node : nodes) {
    if (node.role == ATSPI_ROLE_PUSH_BUTTON) node.interfaces = kInterfaceAction | kInterfaceComponent;
    if (node.role == ATSPI_ROLE_PARAGRAPH) {
      node.interfaces = kInterfaceText | kInterfaceEditableText;
      node.states |= StateSet{1} << ATSPI_STATE_MULTI_LINE;
    }
  }
  return nodes;
}

TEST(CellEntry, TheInputLineIsTheToolBarWithAnEditableParagraph) {
  const Snapshot window = testing::snapshot_of(calc_window());
  const auto line = find_input_line(window);
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->paragraph_path, window.nodes.back().path);
  EXPECT_EQ(line->accept.name, "Accept");
}

TEST(CellEntry, NoInputLineWithoutItsParts) {
  EXPECT_FALSE(find_input_line(testing::snapshot_of(calc_window(false, true))).has_value());
  EXPECT_FALSE(find_input_line(testing::snapshot_of(calc_window(true, false))).has_value());
  // A paragraph that is not editable, or not in a tool bar, is no input line.
  auto plain = calc_window();
  plain.back().interfaces = kInterfaceText;
  EXPECT_FALSE(find_input_line(testing::snapshot_of(plain)).has_value());
  auto loose = calc_window();
  loose.back().parent = -1;
  for (Node& node : loose) {
    if (node.role == ATSPI_ROLE_TOOL_BAR) node.role = ATSPI_ROLE_PANEL;
  }
  EXPECT_FALSE(find_input_line(testing::snapshot_of(loose)).has_value());
}

TEST(CellEntry, TwoInputLinesAreAGuessAndRefused) {
  auto nodes = testing::make_nodes({{-1, ATSPI_ROLE_FRAME, "Calc"},
                                    {0, ATSPI_ROLE_TOOL_BAR, "one"},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "Accept"},
                                    {1, ATSPI_ROLE_PARAGRAPH, ""},
                                    {0, ATSPI_ROLE_TOOL_BAR, "two"},
                                    {4, ATSPI_ROLE_PUSH_BUTTON, "Accept"},
                                    {4, ATSPI_ROLE_PARAGRAPH, ""}});
  for (Node& node : nodes) {
    if (node.role == ATSPI_ROLE_PUSH_BUTTON) node.interfaces = kInterfaceAction;
    if (node.role == ATSPI_ROLE_PARAGRAPH) {
      node.interfaces = kInterfaceText | kInterfaceEditableText;
      node.states |= StateSet{1} << ATSPI_STATE_MULTI_LINE;
    }
  }
  EXPECT_FALSE(find_input_line(testing::snapshot_of(nodes)).has_value());
  nodes[6].states = 0;  // the second paragraph is single-line: one input line left
  const auto line = find_input_line(testing::snapshot_of(nodes));
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->paragraph_path, nodes[3].path);
}

// Only a number Calc's General format shows back exactly as given goes by the cell's Value.
TEST(CellEntry, APlainNumberIsOneShownBackAsGiven) {
  struct Case {
    const char* text;
    std::optional<double> number;
  };
  const Case cases[] = {
      {"2", 2.0},
      {"0", 0.0},
      {"-17", -17.0},
      {"1.5", 1.5},
      {"-0.25", -0.25},
      {"0.000123", 0.000123},
      {"123456789012345", 123456789012345.0},  // 15 significant digits
      {"0.000000000000001", 1e-15},
      {"1234567890123456", std::nullopt},  // 16: more than a double keeps
      {"1.50", std::nullopt},              // shown as 1.5
      {"1.", std::nullopt},
      {".5", std::nullopt},
      {"01", std::nullopt},
      {"-0", std::nullopt},  // shown as 0
      {"+1", std::nullopt},
      {"1e3", std::nullopt},
      {"1,5", std::nullopt},
      {" 1", std::nullopt},
      {"1 ", std::nullopt},
      {"", std::nullopt},
      {"-", std::nullopt},
      {"--1", std::nullopt},
      {"1.2.3", std::nullopt},
      {"inf", std::nullopt},
      {"nan", std::nullopt},
      {"0x10", std::nullopt},
      {"=1+1", std::nullopt},
      {"5%", std::nullopt},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(plain_number(c.text), c.number) << "\"" << c.text << "\"";
  }
}

TEST(CellEntry, AnEntryIsJudgedByWhatTheCellShowsOrItsFormula) {
  struct Case {
    const char* what;
    const char* asked;
    std::optional<std::string> shown;
    std::optional<std::string> formula;
    bool matched;
    const char* check;
  };
  const Case cases[] = {
      {"a number", "2", "2", std::nullopt, true, "text"},
      {"text", "far, far away", "far, far away", std::nullopt, true, "text"},
      {"shown otherwise (Calc's own format)", "1.50", "1.5", std::nullopt, false, "text"},
      {"a formula by the input line", "=A1*A2+SUM(A1:A2)", "11", "=A1*A2+SUM(A1:A2)", true, "formula"},
      {"a formula the app rewrote", "=sum(a1:a2)", "5", "=SUM(A1:A2)", false, "formula"},
      {"a formula not read", "=1+1", "2", std::nullopt, false, "formula"},
      {"nothing read", "2", std::nullopt, std::nullopt, false, "text"},
  };
  for (const Case& c : cases) {
    const Verification v = verify_cell_entry(c.asked, c.shown, c.formula, false);
    EXPECT_EQ(v.matched, c.matched) << c.what;
    EXPECT_EQ(v.check, c.check) << c.what;
  }
  const Verification secret = verify_cell_entry("=SECRET()", "x", "=SECRET()", true);
  EXPECT_TRUE(secret.matched);
  EXPECT_FALSE(std::holds_alternative<std::string>(secret.read));  // a count, never the text
  EXPECT_FALSE(std::holds_alternative<std::string>(secret.expected));
}

}  // namespace
}  // namespace companyos::a11y
