#include "a11y/render.h"
#include "a11y/vocabulary.h"
#include "a11y/read/identity.h"
#include "a11y/cell_address.h"

#include <gtest/gtest.h>

#include "snapshot_nodes.h"

namespace companyos::a11y {
namespace {

using testing::editor_nodes;
using testing::snapshot_of;
using testing::view_options;
using testing::make_nodes;

TEST(Render, OutlineLines) {
  struct Case {
    const char* what;
    Node node;
    OutlineOptions options;
    std::string expected;
  };
  auto node = [](AtspiRole role, std::string name) {
    Node n = make_nodes({{-1, role, std::move(name)}})[0];
    n.ref = 12;
    return n;
  };
  Node save = node(ATSPI_ROLE_PUSH_BUTTON, "Save");
  save.states = (StateSet{1} << ATSPI_STATE_FOCUSABLE) | (StateSet{1} << ATSPI_STATE_ENABLED) |
                (StateSet{1} << ATSPI_STATE_VISIBLE) | (StateSet{1} << ATSPI_STATE_SHOWING) |
                (StateSet{1} << ATSPI_STATE_SENSITIVE);
  save.actions = {"click"};
  Node entry = node(ATSPI_ROLE_TEXT, "Name");
  entry.value = "line \"one\"\nline two";
  entry.accessible_id = "name-entry";
  Node password = node(ATSPI_ROLE_PASSWORD_TEXT, "Password");
  password.value_withheld = true;
  Node twin = node(ATSPI_ROLE_PUSH_BUTTON, "OK");
  twin.twin = true;
  twin.twin_group = 3;
  twin.bounds = Bounds{10, 20, 30, 40};
  Node nameless = node(ATSPI_ROLE_FILLER, "");
  nameless.description = "holds things";
  Node label = node(ATSPI_ROLE_LABEL, "Same");
  label.value = "Same";
  Node long_value = node(ATSPI_ROLE_TEXT, "");
  long_value.value = std::string(250, 'x');
  // Chromium: a panel with children and a Text interface, listing its toolkit's actions.
  Node panel = node(ATSPI_ROLE_PANEL, "");
  panel.value = "BackForwardReload";
  panel.children = {1, 2};
  panel.actions = {"doDefault", "showContextMenu"};
  Node button = node(ATSPI_ROLE_PUSH_BUTTON, "Go");
  button.actions = {"press", "showContextMenu"};
  Node editable = node(ATSPI_ROLE_ENTRY, "Name");
  editable.value = "old";
  editable.children = {3};
  editable.states = StateSet{1} << ATSPI_STATE_EDITABLE;
  Node slider = node(ATSPI_ROLE_SLIDER, "Zoom");
  slider.value = "40";
  slider.children = {4};
  slider.interfaces = kInterfaceValue;
  Node toggle = node(ATSPI_ROLE_TOGGLE_BUTTON, "Bold");
  toggle.value = "1";
  toggle.interfaces = kInterfaceValue;
  toggle.states = StateSet{1} << ATSPI_STATE_CHECKED;
  OutlineOptions agent;
  agent.hidden_actions = {"doDefault", "showContextMenu"};
  agent.content_values_only = true;
  OutlineOptions states_for_agent;
  states_for_agent.hidden_states = {"focusable"};
  states_for_agent.disabled_instead_of_enabled = true;
  Node cut = node(ATSPI_ROLE_PUSH_BUTTON, "Cut");
  cut.states = StateSet{1} << ATSPI_STATE_FOCUSABLE;
  OutlineOptions focusable_hidden;
  focusable_hidden.hidden_states = {"focusable"};
  OutlineOptions press_implied;
  press_implied.button_press_implied = true;
  Node two_actions = node(ATSPI_ROLE_PUSH_BUTTON, "Menu");
  two_actions.actions = {"press", "showMenu"};
  Node link = node(ATSPI_ROLE_LINK, "terms");
  link.actions = {"jump"};
  OutlineOptions agent_pressing = agent;
  agent_pressing.button_press_implied = true;
  OutlineOptions with_bounds;
  with_bounds.bounds = true;
  const Case cases[] = {
      {"the issue's example", save, {}, R"(e12 push button "Save" [enabled,focusable] actions=click)"},
      {"value escaped, id", entry, {},
       R"(e12 text "Name" value="line \"one\"\nline two" id="name-entry")"},
      {"password withheld", password, {}, R"(e12 password text "Password" value=withheld)"},
      {"twin and bounds", twin, with_bounds, R"(e12 push button "OK" twin=3 @10,20 30x40)"},
      {"bounds off by default", twin, {}, R"(e12 push button "OK" twin=3)"},
      {"nameless with description", nameless, {}, R"(e12 filler desc="holds things")"},
      {"value equal to the name is not repeated", label, {}, R"(e12 label "Same")"},
      {"long values are cut", long_value, {},
       "e12 text value=\"" + std::string(200, 'x') + "…\""},
      {"a container's value by default", panel, {},
       R"(e12 panel actions=doDefault,showContextMenu value="BackForwardReload")"},
      {"agent: no toolkit-wide actions, no container value", panel, agent, "e12 panel"},
      {"agent: the button's own action stays", button, agent, R"(e12 push button "Go" actions=press)"},
      {"agent: an editable container keeps its value", editable, agent,
       R"(e12 entry "Name" [editable] value="old")"},
      {"agent: a Value keeps its value", slider, agent, R"(e12 slider "Zoom" value="40")"},
      {"agent: a leaf keeps its value", long_value, agent, "e12 text value=\"" + std::string(200, 'x') + "…\""},
      {"agent: a button's value repeats its state", toggle, agent, R"(e12 toggle button "Bold" [checked])"},
      {"a button's value by default", toggle, {}, R"(e12 toggle button "Bold" [checked] value="1")"},
      {"agent: enabled goes without saying", save, states_for_agent, R"(e12 push button "Save" actions=click)"},
      {"agent: what lacks enabled is disabled", cut, states_for_agent, R"(e12 push button "Cut" [disabled])"},
      {"GTK 4 marks no enabled: nothing is called disabled", cut, focusable_hidden, R"(e12 push button "Cut")"},
      {"by default the states as read", cut, {}, R"(e12 push button "Cut" [focusable])"},
      {"agent: a button's one press goes without saying", button, press_implied, R"(e12 push button "Go" actions=press,showContextMenu)"},
      {"agent: a button's only action is implied", save, press_implied, R"(e12 push button "Save" [enabled,focusable])"},
      {"agent: Chromium's button with its press alone", button, agent_pressing, R"(e12 push button "Go")"},
      {"agent: two actions are listed", two_actions, press_implied, R"(e12 push button "Menu" actions=press,showMenu)"},
      {"agent: a link's action is listed", link, press_implied, R"(e12 link "terms" actions=jump)"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(render_outline_line(c.node, c.options), c.expected) << c.what;
  }
}

TEST(Render, OutlineIndentsTheViewAndMarksCuts) {
  const auto snapshot = snapshot_of(editor_nodes());
  EXPECT_EQ(render_outline(snapshot, make_view(snapshot.nodes, view_options(true, true, std::nullopt))),
            "e1 frame \"Editor\" [active]\n"
            "  e3 panel \"Form\"\n"
            "    e5 push button \"Save\" [enabled,focusable] actions=click\n"
            "    e6 text \"Name\" [editable] actions=focus\n"
            "    e8 check box \"Bold\" actions=click\n");
  EXPECT_EQ(render_outline(snapshot, make_view(snapshot.nodes, view_options(false, false, 0))),
            "e1 frame \"Editor\" [active] (+7 hidden)\n");
  EXPECT_EQ(render_outline(snapshot_of({}), ViewNode{}), "");
}

TEST(Render, TheOutlineDropsInvisibleCharactersAndSaysWhatIsFolded) {
  auto nodes = testing::make_nodes({{-1, ATSPI_ROLE_FRAME, "W", {}, {ATSPI_STATE_SHOWING}},
                                    {0, ATSPI_ROLE_MENU, "File", {"click"}, {ATSPI_STATE_SHOWING}},
                                    {1, ATSPI_ROLE_MENU_ITEM, "New", {"click"}},
                                    {0, ATSPI_ROLE_DOCUMENT_WEB, "\u200EPage\uFFFC", {"click"}, {ATSPI_STATE_SHOWING}}});
  nodes[3].value = "\uFFFC\uFFFC";
  const Snapshot snapshot = testing::snapshot_of(nodes);
  ViewOptions agent = testing::view_options(true, true, std::nullopt);
  agent.fold_not_showing = true;
  const std::string outline = render_outline(snapshot, make_view(snapshot.nodes, agent));
  EXPECT_NE(outline.find("e2 menu \"File\" actions=click (closed, 1 items)"), std::string::npos) << outline;
  EXPECT_NE(outline.find("e4 document web \"Page\" actions=click\n"), std::string::npos) << outline;
}

TEST(Render, AnAppsNamesCannotDriveTheTerminalOrReorderTheOutline) {
  auto nodes = testing::make_nodes(
      {{-1, ATSPI_ROLE_FRAME, "\x1b]0;pwned\x07W", {}, {ATSPI_STATE_SHOWING}},
       {0, ATSPI_ROLE_PUSH_BUTTON, "invoice\u202Efdp.exe", {"click"}, {ATSPI_STATE_SHOWING}},
       {0, ATSPI_ROLE_PUSH_BUTTON, "line\none \"quoted\" \\ \xc2\x9b" "2J", {"click"}, {ATSPI_STATE_SHOWING}}});
  nodes[1].description = "\x1b[2J";
  const Snapshot snapshot = testing::snapshot_of(nodes);
  const std::string outline =
      render_outline(snapshot, make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt)));
  EXPECT_NE(outline.find("e1 frame \"\\x1b]0;pwned\\x07W\""), std::string::npos) << outline;
  EXPECT_NE(outline.find("push button \"invoice\\u202efdp.exe\""), std::string::npos) << outline;
  EXPECT_NE(outline.find("desc=\"\\x1b[2J\""), std::string::npos) << outline;
  EXPECT_NE(outline.find("push button \"line\\none \\\"quoted\\\" \\\\ \\u009b2J\""), std::string::npos)
      << outline;
  for (char c : outline) {
    EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << outline;
  }
  EXPECT_EQ(outline.find("\u202E"), std::string::npos);
  EXPECT_EQ(outline.find("\xc2\x9b"), std::string::npos);
}

}  // namespace
}  // namespace companyos::a11y

namespace companyos::a11y {
namespace {

TEST(Render, ATwinsLineNamesTheScopeThatReachesIt) {
  auto nodes = testing::make_nodes({{-1, ATSPI_ROLE_FRAME, "W"},
                                    {0, ATSPI_ROLE_PANEL, "Left"},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "Save", {"click"}},
                                    {0, ATSPI_ROLE_PUSH_BUTTON, "Save", {"click"}}});
  mark_twins(nodes);
  const Snapshot snapshot = testing::snapshot_of(nodes);
  const std::string outline =
      render_outline(snapshot, make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt)));
  EXPECT_NE(outline.find("e3 push button \"Save\" actions=click twin=1 within e2\n"), std::string::npos) << outline;
  EXPECT_NE(outline.find("e4 push button \"Save\" actions=click twin=1\n"), std::string::npos) << outline;
}

}  // namespace
}  // namespace companyos::a11y

namespace companyos::a11y {
namespace {

TEST(Render, AlikeUnnamedButtonsShareOneLineInTheAgentView) {
  // 0 frame; 1 panel; 2-5 four unnamed buttons alike; 6 a named one; 7-8 two unnamed (too
  // few); 9 panel; 10-12 three unnamed, the middle one checked (not alike).
  auto nodes = testing::make_nodes({{-1, ATSPI_ROLE_FRAME, "W", {}, {ATSPI_STATE_SHOWING}},
                                    {0, ATSPI_ROLE_PANEL, "Keys"},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "", {"press"}},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "", {"press"}},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "", {"press"}},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "", {"press"}},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "OK", {"press"}},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "", {"press"}},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "", {"press"}},
                                    {0, ATSPI_ROLE_PANEL, "Toggles"},
                                    {9, ATSPI_ROLE_TOGGLE_BUTTON, "", {"press"}},
                                    {9, ATSPI_ROLE_TOGGLE_BUTTON, "", {"press"}, {ATSPI_STATE_CHECKED}},
                                    {9, ATSPI_ROLE_TOGGLE_BUTTON, "", {"press"}}});
  const Snapshot snapshot = testing::snapshot_of(nodes);
  const ViewNode view = make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt));
  OutlineOptions agent;
  agent.alike_unnamed_buttons_in_one_line = true;
  EXPECT_EQ(render_outline(snapshot, view, agent),
            "e1 frame \"W\"\n"
            "  e2 panel \"Keys\"\n"
            "    e3,e4,e5,e6 push button actions=press (4 alike)\n"
            "    e7 push button \"OK\" actions=press\n"
            "    e8 push button actions=press\n"
            "    e9 push button actions=press\n"
            "  e10 panel \"Toggles\"\n"
            "    e11 toggle button actions=press\n"
            "    e12 toggle button [checked] actions=press\n"
            "    e13 toggle button actions=press\n");
  // Without the option (the CLI's outline), one line each.
  const std::string each = render_outline(snapshot, view);
  EXPECT_NE(each.find("    e3 push button actions=press\n    e4 push button"), std::string::npos) << each;
}

}  // namespace
}  // namespace companyos::a11y

namespace companyos::a11y {
namespace {

TEST(Render, AToolBarsPlainButtonsShareRowsInTheAgentView) {
  // 0 frame; 1 tool bar: 2-4 three plain push buttons (one disabled), 5 a toggle button
  // (another role ends the row), 6-7 two push buttons (too few), 8 a toggle; 9 a panel
  // (not a tool bar) with three push buttons; 13 a tool bar: three push buttons, the middle
  // with a description (keeps its line, so no row of three).
  auto nodes = testing::make_nodes({{-1, ATSPI_ROLE_FRAME, "W", {}, {ATSPI_STATE_SHOWING}},
                                    {0, ATSPI_ROLE_TOOL_BAR, "Standard"},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "New", {"press"}},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "Open \"x\"", {"press"}},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "Paste", {"press"}, {ATSPI_STATE_ARMED}},
                                    {1, ATSPI_ROLE_TOGGLE_BUTTON, "Preview", {"press"}, {ATSPI_STATE_CHECKED}},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "Cut", {"press"}},
                                    {1, ATSPI_ROLE_PUSH_BUTTON, "Copy", {"press"}},
                                    {1, ATSPI_ROLE_TOGGLE_BUTTON, "Find", {"press"}},
                                    {0, ATSPI_ROLE_PANEL, "Keys"},
                                    {9, ATSPI_ROLE_PUSH_BUTTON, "1", {"press"}},
                                    {9, ATSPI_ROLE_PUSH_BUTTON, "2", {"press"}},
                                    {9, ATSPI_ROLE_PUSH_BUTTON, "3", {"press"}},
                                    {0, ATSPI_ROLE_TOOL_BAR, "Formatting"},
                                    {13, ATSPI_ROLE_PUSH_BUTTON, "Bold", {"press"}},
                                    {13, ATSPI_ROLE_PUSH_BUTTON, "Italic", {"press"}},
                                    {13, ATSPI_ROLE_PUSH_BUTTON, "Under", {"press"}}});
  nodes[15].description = "Underline";
  nodes[2].description = "New";  // repeats the name: not shown, so the button stays in its row
  const Snapshot snapshot = testing::snapshot_of(nodes);
  const ViewNode view = make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt));
  OutlineOptions agent;
  agent.button_press_implied = true;
  agent.tool_bar_buttons_in_rows = true;
  EXPECT_EQ(render_outline(snapshot, view, agent),
            "e1 frame \"W\"\n"
            "  e2 tool bar \"Standard\"\n"
            "    push buttons: e3 \"New\" | e4 \"Open \\\"x\\\"\" | e5 \"Paste\" [armed]\n"
            "    e6 toggle button \"Preview\" [checked]\n"
            "    e7 push button \"Cut\"\n"
            "    e8 push button \"Copy\"\n"
            "    e9 toggle button \"Find\"\n"
            "  e10 panel \"Keys\"\n"
            "    e11 push button \"1\"\n"
            "    e12 push button \"2\"\n"
            "    e13 push button \"3\"\n"
            "  e14 tool bar \"Formatting\"\n"
            "    e15 push button \"Bold\"\n"
            "    e16 push button \"Italic\" desc=\"Underline\"\n"
            "    e17 push button \"Under\"\n");
  // A button whose line lists its actions (press not implied) keeps its line.
  agent.button_press_implied = false;
  const std::string listed = render_outline(snapshot, view, agent);
  EXPECT_EQ(listed.find("push buttons:"), std::string::npos) << listed;
}

TEST(Render, AMenusOneActionIsImpliedLikeAButtons) {
  const auto nodes = testing::make_nodes({{-1, ATSPI_ROLE_MENU, "File", {"click"}},
                                          {-1, ATSPI_ROLE_MENU, "Edit", {"click", "expand"}},
                                          {-1, ATSPI_ROLE_MENU_ITEM, "Open", {"click"}}});
  OutlineOptions agent;
  agent.button_press_implied = true;
  EXPECT_EQ(render_outline_line(nodes[0], agent), "e1 menu \"File\"");
  EXPECT_EQ(render_outline_line(nodes[1], agent), "e2 menu \"Edit\" actions=click,expand");
  EXPECT_EQ(render_outline_line(nodes[2], agent), "e3 menu item \"Open\" actions=click");
  EXPECT_EQ(render_outline_line(nodes[0]), "e1 menu \"File\" actions=click");
}

TEST(Render, ADescriptionThatRepeatsTheNameIsLeftOut) {
  auto nodes = testing::make_nodes({{-1, ATSPI_ROLE_TOOL_BAR, "Styles"}, {-1, ATSPI_ROLE_TOOL_BAR, "Styles"}});
  nodes[0].description = "Styles";
  nodes[1].description = "Paragraph styles";
  EXPECT_EQ(render_outline_line(nodes[0]), "e1 tool bar \"Styles\"");
  EXPECT_EQ(render_outline_line(nodes[1]), "e2 tool bar \"Styles\" desc=\"Paragraph styles\"");
}

// A sheet of 3 rows × 3 columns shown (B2:D4) out of Calc's size, cells named by address
// as Calc names them; and a long list showing 2 items.
Snapshot sheet_snapshot() {
  std::vector<testing::Spec> specs = {{-1, ATSPI_ROLE_FRAME, "Calc"}, {0, ATSPI_ROLE_TABLE, "Sheet Sheet1"}};
  for (int r = 1; r <= 3; ++r) {
    for (int c = 1; c <= 3; ++c) {
      specs.push_back({1, ATSPI_ROLE_TABLE_CELL, to_string(CellAddress{r, c})});
    }
  }
  specs.push_back({1, ATSPI_ROLE_TABLE_COLUMN_HEADER, "B"});
  auto nodes = testing::make_nodes(specs);
  nodes[1].shown = ShownRegion{1'048'576, 16'384, 1, 3, 1, 3};
  for (std::size_t i = 2; i < 11; ++i) {
    nodes[i].cell = CellPosition{1 + static_cast<std::int64_t>(i - 2) / 3, 1 + static_cast<std::int64_t>(i - 2) % 3};
  }
  nodes[2].value = "Name";         // B2
  nodes[4].value = "11";           // D2
  nodes[7].value = "x \"y\"\n";   // C3 ... row 3 has one cell
  nodes[9].value = std::string(100, 'z');  // C4
  return testing::snapshot_of(nodes);
}

TEST(Render, ATableReadByWhatItShowsIsAGridOfRows) {
  const Snapshot snapshot = sheet_snapshot();
  const std::string outline =
      render_outline(snapshot, make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt)));
  const std::string expected =
      "e1 frame \"Calc\"\n"
      "  e2 table \"Sheet Sheet1\" rows 2–4 of 1,048,576, columns B–D of 16,384 shown; empty cells left out\n"
      "    row 2: e3 B2 \"Name\" | e5 D2 \"11\"\n"
      "    row 3: e8 D3 \"x \\\"y\\\"\\n\"\n"
      "    row 4: e10 C4 \"" + std::string(60, 'z') + "…\"\n"
      "    e12 table column header \"B\"\n";
  EXPECT_EQ(outline, expected);
}

TEST(Render, TheGridsRowsStopAtTheirBudgetAndTheRestAreCounted) {
  const Snapshot snapshot = sheet_snapshot();
  OutlineOptions options;
  options.grid_characters = 40;  // room for row 2 alone
  const std::string outline =
      render_outline(snapshot, make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt)), options);
  EXPECT_NE(outline.find("    row 2: e3 B2 \"Name\" | e5 D2 \"11\"\n"
                         "    (+2 more rows with content; read or set any cell by its address)\n"),
            std::string::npos)
      << outline;
  EXPECT_EQ(outline.find("row 3:"), std::string::npos) << outline;

  // The row of the cell with the cursor shows past the budget.
  Snapshot focused = sheet_snapshot();
  focused.nodes[9].states |= std::uint64_t{1} << ATSPI_STATE_FOCUSED;  // C4
  const std::string with_cursor =
      render_outline(focused, make_view(focused.nodes, testing::view_options(false, false, std::nullopt)), options);
  EXPECT_NE(with_cursor.find("    row 2: e3 B2 \"Name\" | e5 D2 \"11\"\n    row 4: e10 C4"), std::string::npos)
      << with_cursor;
  EXPECT_NE(with_cursor.find("(+1 more rows with content"), std::string::npos) << with_cursor;
}

TEST(Render, TheAgentsGridNamesCellsByAddressAlone) {
  const Snapshot snapshot = sheet_snapshot();
  OutlineOptions options;
  options.grid_cell_numbers = false;
  const std::string outline =
      render_outline(snapshot, make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt)), options);
  EXPECT_NE(outline.find("    row 2: B2 \"Name\" | D2 \"11\"\n    row 3: D3 \"x"), std::string::npos) << outline;
  // The table's other children keep their numbers.
  EXPECT_NE(outline.find("    e12 table column header \"B\"\n"), std::string::npos) << outline;
}

// A sheet of ROWS rows × 3 columns, every cell filled with 20 characters.
Snapshot full_sheet(int rows) {
  std::vector<testing::Spec> specs = {{-1, ATSPI_ROLE_FRAME, "Calc"}, {0, ATSPI_ROLE_TABLE, "Sheet Sheet1"}};
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < 3; ++c) specs.push_back({1, ATSPI_ROLE_TABLE_CELL, to_string(CellAddress{r, c})});
  }
  specs.push_back({0, ATSPI_ROLE_PUSH_BUTTON, "Save", {"press"}});
  auto nodes = testing::make_nodes(specs);
  nodes[1].shown = ShownRegion{1'048'576, 16'384, 0, rows, 0, 3};
  for (int i = 0; i < rows * 3; ++i) {
    Node& cell = nodes[static_cast<std::size_t>(i) + 2];
    cell.cell = CellPosition{i / 3, i % 3};
    cell.value = std::string(20, static_cast<char>('a' + i % 26));
  }
  return testing::snapshot_of(nodes);
}

std::size_t rows_shown(const std::string& outline) {
  std::size_t count = 0;
  for (std::size_t at = outline.find("    row "); at != std::string::npos; at = outline.find("    row ", at + 1)) ++count;
  return count;
}

TEST(Render, TheGridTakesWhatTheOutlinesAimLeaves) {
  const Snapshot snapshot = full_sheet(60);  // 60 rows of about 100 characters each
  const ViewNode view = make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt));
  const std::string whole = render_outline(snapshot, view);
  ASSERT_EQ(rows_shown(whole), 60u);
  const std::size_t row = (whole.size() / 60) + 20;  // more than any one row's line
  OutlineOptions counted;
  counted.grid_characters = 1;  // every row counted, none shown: the rest of the outline
  const std::size_t rest = render_outline(snapshot, view, counted).size();
  struct Case {
    std::size_t aim;
    std::size_t cap;
    std::size_t rows_at_most;   // characters the rows may take
  };
  const Case cases[] = {
      {100'000, 0, 100'000},               // room for all: nothing cut
      {rest + 1'200, 0, 1'200},            // what the aim leaves
      {rest + 1'200, 600, 600},            // the cap is lower than what is left
      {10, 0, kFewestGridCharacters},      // the aim is spent: the floor
      {10, 300, 300},                      // a cap below the floor still holds
  };
  for (const Case& c : cases) {
    OutlineOptions options;
    options.outline_characters = c.aim;
    options.grid_characters = c.cap;
    const std::string outline = render_outline(snapshot, view, options);
    const std::size_t rows = outline.size() - rest;
    EXPECT_LE(rows, c.rows_at_most) << c.aim << "\n" << outline;
    if (c.rows_at_most < whole.size()) {
      EXPECT_GT(rows + row, c.rows_at_most) << c.aim << "\n" << outline;
      EXPECT_NE(outline.find("more rows with content"), std::string::npos) << outline;
    } else {
      EXPECT_EQ(outline, whole);
    }
    EXPECT_NE(outline.find("e" + std::to_string(snapshot.nodes.back().ref) + " push button \"Save\""),
              std::string::npos);
  }
}

TEST(Render, ATableShowingNothingReadableSaysSo) {
  Snapshot snapshot = sheet_snapshot();
  for (Node& node : snapshot.nodes) node.value.reset();
  std::string outline =
      render_outline(snapshot, make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt)));
  EXPECT_NE(outline.find("columns B–D of 16,384 shown; empty cells left out\n    (every cell shown is empty)\n"),
            std::string::npos)
      << outline;
  snapshot.nodes[1].shown->row_count = 0;
  outline = render_outline(snapshot, make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt)));
  EXPECT_NE(outline.find("e2 table \"Sheet Sheet1\" 1,048,576 rows × 16,384 columns; no cell on screen could be read\n"),
            std::string::npos)
      << outline;
}

TEST(Render, AGenericTablesCellsShowTheirNames) {
  Snapshot snapshot = sheet_snapshot();
  snapshot.nodes[2].name = "Alice";  // a tree view's cell: named by its text, no value
  snapshot.nodes[2].value.reset();
  snapshot.nodes[3].value_withheld = true;
  const std::string outline =
      render_outline(snapshot, make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt)));
  EXPECT_NE(outline.find("row 2: e3 B2 \"Alice\" | e4 C2 withheld | e5 D2 \"11\"\n"), std::string::npos) << outline;
}

TEST(Render, AListReadByWhatItShowsListsItsItems) {
  auto nodes = testing::make_nodes({{-1, ATSPI_ROLE_FRAME, "Files"},
                                    {0, ATSPI_ROLE_LIST, "files"},
                                    {1, ATSPI_ROLE_LIST_ITEM, "a.txt"},
                                    {1, ATSPI_ROLE_LIST_ITEM, "b.txt"}});
  nodes[1].shown = ShownRegion{50'000, 0, 1199, 2, 0, 0};
  const Snapshot snapshot = testing::snapshot_of(nodes);
  EXPECT_EQ(render_outline(snapshot, make_view(snapshot.nodes, testing::view_options(false, false, std::nullopt))),
            "e1 frame \"Files\"\n"
            "  e2 list \"files\" items 1200–1201 of 50,000 shown\n"
            "    e3 list item \"a.txt\"\n"
            "    e4 list item \"b.txt\"\n");
  auto none = nodes;
  none[1].shown->row_count = 0;
  const Snapshot empty = testing::snapshot_of(none);
  EXPECT_NE(render_outline(empty, make_view(empty.nodes, testing::view_options(false, false, std::nullopt)))
                .find("e2 list \"files\" 50,000 items; none on screen could be read\n"),
            std::string::npos);
}

}  // namespace
}  // namespace companyos::a11y
