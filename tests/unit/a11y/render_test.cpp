#include "a11y/render.h"
#include "a11y/vocabulary.h"
#include "a11y/read/identity.h"

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
