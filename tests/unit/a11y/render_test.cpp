#include "a11y/render.h"

#include <gtest/gtest.h>

#include "snapshot_nodes.h"

namespace companyos::a11y {
namespace {

ViewOptions options(bool interactive, bool compact, std::optional<int> max_depth) {
  ViewOptions result;
  result.interactive = interactive;
  result.compact = compact;
  result.max_depth = max_depth;
  return result;
}

using testing::editor_nodes;
using testing::make_nodes;

Snapshot snapshot_of(std::vector<Node> nodes) {
  Snapshot snapshot;
  snapshot.id = "abc";
  snapshot.app_name = "editor";
  snapshot.window.id = "w0123456789ab";
  snapshot.window.title = "Editor";
  snapshot.nodes = std::move(nodes);
  return snapshot;
}

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
  const Case cases[] = {
      {"the issue's example", save, {}, R"(e12 push button "Save" [enabled,focusable] actions=click)"},
      {"value escaped, id", entry, {},
       R"(e12 text "Name" value="line \"one\"\nline two" id="name-entry")"},
      {"password withheld", password, {}, R"(e12 password text "Password" value=withheld)"},
      {"twin and bounds", twin, {.bounds = true}, R"(e12 push button "OK" twin=3 @10,20 30x40)"},
      {"bounds off by default", twin, {}, R"(e12 push button "OK" twin=3)"},
      {"nameless with description", nameless, {}, R"(e12 filler desc="holds things")"},
      {"value equal to the name is not repeated", label, {}, R"(e12 label "Same")"},
      {"long values are cut", long_value, {},
       "e12 text value=\"" + std::string(200, 'x') + "…\""},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(render_outline_line(c.node, c.options), c.expected) << c.what;
  }
}

TEST(Render, OutlineIndentsTheViewAndMarksCuts) {
  const auto snapshot = snapshot_of(editor_nodes());
  EXPECT_EQ(render_outline(snapshot, make_view(snapshot.nodes, options(true, true, std::nullopt))),
            "e1 frame \"Editor\" [active]\n"
            "  e3 panel \"Form\"\n"
            "    e5 push button \"Save\" [enabled,focusable] actions=click\n"
            "    e6 text \"Name\" [editable] actions=focus\n"
            "    e8 check box \"Bold\" actions=click\n");
  EXPECT_EQ(render_outline(snapshot, make_view(snapshot.nodes, options(false, false, 0))),
            "e1 frame \"Editor\" [active] (+7 hidden)\n");
  EXPECT_EQ(render_outline(snapshot_of({}), ViewNode{}), "");
}

TEST(Render, JsonIsCompleteAndFollowsTheView) {
  auto nodes = editor_nodes();
  nodes[5].value_withheld = true;  // pretend the text is a password field
  nodes[4].bounds = Bounds{1, 2, 3, 4};
  const auto snapshot = snapshot_of(nodes);
  const auto json = snapshot_to_json(snapshot, make_view(snapshot.nodes, options(false, false, 1)));
  EXPECT_EQ(json["snapshot"], "abc");
  EXPECT_EQ(json["window"]["id"], "w0123456789ab");
  EXPECT_EQ(json["node_count"], 8);
  const auto& root = json["tree"];
  EXPECT_EQ(root["ref"], "@abc:e1");
  EXPECT_EQ(root["role"], "frame");
  EXPECT_EQ(root["states"], nlohmann::json::array({"active"}));
  EXPECT_TRUE(root["bounds"].is_null());
  const auto& form = root["children"][0]["children"][0];
  EXPECT_EQ(form["ref"], "@abc:e3");
  EXPECT_EQ(form["hidden_descendants"], 5);
  EXPECT_TRUE(form["children"].empty());

  const auto full = snapshot_to_json(snapshot, make_view(snapshot.nodes, {}));
  const auto& save = full["tree"]["children"][0]["children"][0]["children"][1];
  EXPECT_EQ(save["name"], "Save");
  EXPECT_EQ(save["actions"], nlohmann::json::array({"click"}));
  EXPECT_EQ(save["bounds"], (nlohmann::json{{"x", 1}, {"y", 2}, {"width", 3}, {"height", 4}}));
  EXPECT_EQ(save["twin"], false);
  const auto& secret = full["tree"]["children"][0]["children"][0]["children"][2];
  EXPECT_TRUE(secret["value"].is_null());
  EXPECT_EQ(secret["value_withheld"], true);
}

}  // namespace
}  // namespace companyos::a11y
