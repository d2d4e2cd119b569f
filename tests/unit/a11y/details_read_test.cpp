// read_details against a fake app on the other end of a socket pair: which calls go out,
// and what comes back into the nodes.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <limits>
#include <map>

#include <atspi/atspi.h>

#include "a11y/read/details.h"
#include "sd_bus_peer.h"

namespace companyos::a11y {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct FakeAction {
  std::string localized;
  std::string description;
  std::string name;  // the stable name GetName gives
};

struct FakeNode {
  std::vector<FakeAction> actions = {};
  Bounds extents{1, 2, 3, 4};
  std::string text = {};
  std::string accessible_id = {};
  double value = 0;
  bool fails_get_name = false;  // answers GetName with an error (a node that just died)
  std::string name = {};            // the Name property
  std::string selected_child = {};  // GetSelectedChild(0)'s path; "" answers the null object
};

// Answers AT-SPI calls from a table of nodes by path, the way GTK3's bridge does
// (GetText(0, -1) is the whole text), and counts the calls by member.
class FakeApp {
 public:
  explicit FakeApp(std::map<std::string, FakeNode> nodes) : nodes_(std::move(nodes)) {}

  bool respond(sd_bus_message* call) {
    const std::string member = sd_bus_message_get_member(call);
    {
      std::lock_guard lock(mutex_);
      ++calls_[member];
    }
    auto found = nodes_.find(sd_bus_message_get_path(call));
    if (found == nodes_.end()) {
      sd_bus_reply_method_errorf(call, SD_BUS_ERROR_UNKNOWN_OBJECT, "gone");
      return true;
    }
    const FakeNode& node = found->second;
    if (member == "GetActions") {
      sd_bus_message* raw = nullptr;
      sd_bus_message_new_method_return(call, &raw);
      SdBusMessagePtr reply(raw);
      sd_bus_message_open_container(raw, 'a', "(sss)");
      for (const FakeAction& action : node.actions) {
        sd_bus_message_append(raw, "(sss)", action.localized.c_str(), action.description.c_str(),
                              "");
      }
      sd_bus_message_close_container(raw);
      sd_bus_send(nullptr, raw, nullptr);
    } else if (member == "GetName") {
      std::int32_t index = 0;
      sd_bus_message_read(call, "i", &index);
      if (node.fails_get_name || index < 0 || index >= static_cast<int>(node.actions.size())) {
        sd_bus_reply_method_errorf(call, SD_BUS_ERROR_UNKNOWN_OBJECT, "gone");
      } else {
        const FakeAction& action = node.actions[static_cast<std::size_t>(index)];
        sd_bus_reply_method_return(call, "s", action.name.c_str());
      }
    } else if (member == "GetExtents") {
      const Bounds& b = node.extents;
      sd_bus_reply_method_return(call, "(iiii)", b.x, b.y, b.width, b.height);
    } else if (member == "GetText") {
      std::int32_t start = 0;
      std::int32_t end = 0;
      sd_bus_message_read(call, "ii", &start, &end);
      const std::size_t stop = end < 0 ? node.text.size() : static_cast<std::size_t>(end);
      const std::string text = node.text.substr(static_cast<std::size_t>(start), stop);
      sd_bus_reply_method_return(call, "s", text.c_str());
    } else if (member == "GetSelectedChild") {
      const std::string child = node.selected_child.empty() ? "/org/a11y/atspi/null" : node.selected_child;
      sd_bus_reply_method_return(call, "(so)", ":1.1", child.c_str());
    } else if (member == "Get") {
      const char* interface = nullptr;
      const char* property = nullptr;
      sd_bus_message_read(call, "ss", &interface, &property);
      if (std::strcmp(property, "CharacterCount") == 0) {
        sd_bus_reply_method_return(call, "v", "i", static_cast<std::int32_t>(node.text.size()));
      } else if (std::strcmp(property, "Name") == 0) {
        sd_bus_reply_method_return(call, "v", "s", node.name.c_str());
      } else if (std::strcmp(property, "AccessibleId") == 0) {
        sd_bus_reply_method_return(call, "v", "s", node.accessible_id.c_str());
      } else {
        sd_bus_reply_method_return(call, "v", "d", node.value);
      }
    } else {
      sd_bus_reply_method_errorf(call, SD_BUS_ERROR_UNKNOWN_METHOD, "no %s", member.c_str());
    }
    return true;
  }

  int calls(const std::string& member) {
    std::lock_guard lock(mutex_);
    return calls_[member];
  }

 private:
  const std::map<std::string, FakeNode> nodes_;
  std::mutex mutex_;
  std::map<std::string, int> calls_;
};

Node node_at(const std::string& path, AtspiRole role, std::uint32_t interfaces,
             StateSet states = StateSet{1} << ATSPI_STATE_SHOWING, std::string name = "n") {
  Node node;
  node.path = path;
  node.role = role;
  node.interfaces = interfaces;
  node.states = states;
  node.name = std::move(name);
  return node;
}

const FakeAction kClick{"Click", "Clicks the button", "click"};
const FakeAction kActivate{"Activate", "Activates the entry", "activate"};
const ToolkitTraits kGtk3 = toolkit_traits("gtk", "3.24.38");
const ToolkitTraits kGtk4 = toolkit_traits("GTK", "4.8.3");

TEST(DetailsRead, NodesOfOneKindShareOneSetOfNameCalls) {
  std::map<std::string, FakeNode> fake;
  std::vector<Node> nodes;
  for (int i = 0; i < 50; ++i) {
    const std::string path = "/b" + std::to_string(i);
    fake[path] = FakeNode{{kClick}};
    nodes.push_back(node_at(path, ATSPI_ROLE_PUSH_BUTTON, kInterfaceAction));
  }
  // Same localized name, another role: another kind, asked separately.
  fake["/t"] = FakeNode{{{"Click", "Clicks the button", "press"}}};
  nodes.push_back(node_at("/t", ATSPI_ROLE_TOGGLE_BUTTON, kInterfaceAction));
  fake["/cell"] = FakeNode{{{"Expand or contract", "", "expand or contract"},
                           {"Edit", "", "edit"},
                           {"Activate", "", "activate"}}};
  nodes.push_back(node_at("/cell", ATSPI_ROLE_TABLE_CELL, kInterfaceAction));
  FakeApp app(fake);
  testing::Peer peer([&app](sd_bus_message* call) { return app.respond(call); });
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  DetailOptions options;
  options.accessible_id = false;
  ASSERT_TRUE(read_details(pipeline, nodes, options, kGtk3));
  for (int i = 0; i < 50; ++i) EXPECT_EQ(nodes[i].actions, std::vector<std::string>{"click"}) << i;
  EXPECT_EQ(nodes[50].actions, std::vector<std::string>{"press"});
  EXPECT_EQ(nodes[51].actions,
            (std::vector<std::string>{"expand or contract", "edit", "activate"}));
  EXPECT_EQ(app.calls("GetActions"), 52);
  EXPECT_EQ(app.calls("GetName"), 1 + 1 + 3);
}

TEST(DetailsRead, PerNodeNamesWhenAskedOrWhenTheSharedReadFails) {
  struct Case {
    const char* what;
    bool per_node;
    bool first_fails;
    int expected_get_name;
  };
  const Case cases[] = {
      {"shared", false, false, 1},
      {"per node when asked", true, false, 5},
      // The first node dies before answering GetName: the others ask for their own.
      {"first node fails", false, true, 1 + 4},
  };
  for (const Case& c : cases) {
    std::map<std::string, FakeNode> fake;
    std::vector<Node> nodes;
    for (int i = 0; i < 5; ++i) {
      const std::string path = "/b" + std::to_string(i);
      fake[path] = FakeNode{{kClick}};
      fake[path].fails_get_name = c.first_fails && i == 0;
      nodes.push_back(node_at(path, ATSPI_ROLE_PUSH_BUTTON, kInterfaceAction));
    }
    FakeApp app(fake);
    testing::Peer peer([&app](sd_bus_message* call) { return app.respond(call); });
    Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
    DetailOptions options;
    options.accessible_id = false;
    options.action_names_per_node = c.per_node;
    ASSERT_TRUE(read_details(pipeline, nodes, options, kGtk3)) << c.what;
    EXPECT_EQ(app.calls("GetName"), c.expected_get_name) << c.what;
    for (int i = c.first_fails ? 1 : 0; i < 5; ++i) {
      EXPECT_EQ(nodes[i].actions, std::vector<std::string>{"click"}) << c.what << " " << i;
    }
    if (c.first_fails) {
      EXPECT_TRUE(nodes[0].actions.empty()) << c.what;
    }
  }
}

TEST(DetailsRead, TextValuesBoundsAndIds) {
  const StateSet entry_states = (StateSet{1} << ATSPI_STATE_SHOWING) |
                                (StateSet{1} << ATSPI_STATE_EDITABLE) |
                                (StateSet{1} << ATSPI_STATE_SINGLE_LINE);
  const std::uint32_t entry = kInterfaceText | kInterfaceEditableText | kInterfaceComponent;
  struct Case {
    const char* what;
    FakeNode fake;
    Node node;
    const ToolkitTraits* toolkit;
    std::size_t text_limit;
    std::optional<std::string> value;
    std::optional<Bounds> bounds;
    int get_text_calls;
    int count_calls;
  };
  const int kMin = std::numeric_limits<std::int32_t>::min();
  const Node an_entry = node_at("/e", ATSPI_ROLE_TEXT, entry, entry_states);
  const Case cases[] = {
      {"GTK3 entry: one call", {{}, {5, 6, 7, 8}, "héllo"}, an_entry, &kGtk3, 65536, "héllo",
       Bounds{5, 6, 7, 8}, 1, 0},
      {"GTK3 entry cut at the limit (characters, not bytes)", {{}, {1, 2, 3, 4}, "héllo"},
       an_entry, &kGtk3, 2, "hé", Bounds{1, 2, 3, 4}, 1, 0},
      {"GTK4 entry: counted", {{}, {1, 2, 3, 4}, "typed"}, an_entry, &kGtk4, 65536, "typed",
       Bounds{1, 2, 3, 4}, 1, 1},
      {"GTK4 empty entry: no GetText", {{}, {1, 2, 3, 4}, ""}, an_entry, &kGtk4, 65536, "",
       Bounds{1, 2, 3, 4}, 0, 1},
      {"named label: nothing read", {{}, {1, 2, 3, 4}, "Row 1"},
       node_at("/l", ATSPI_ROLE_LABEL, kInterfaceText | kInterfaceComponent), &kGtk3, 65536,
       std::nullopt, Bounds{1, 2, 3, 4}, 0, 0},
      {"offscreen at INT_MIN: no bounds", {{}, {kMin, kMin, 10, 10}, ""},
       node_at("/p", ATSPI_ROLE_PANEL, kInterfaceComponent), &kGtk4, 65536, std::nullopt,
       std::nullopt, 0, 0},
  };
  for (const Case& c : cases) {
    FakeApp app({{c.node.path, c.fake}});
    testing::Peer peer([&app](sd_bus_message* call) { return app.respond(call); });
    Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
    DetailOptions options;
    options.accessible_id = false;
    options.text_limit = c.text_limit;
    std::vector<Node> nodes{c.node};
    ASSERT_TRUE(read_details(pipeline, nodes, options, *c.toolkit)) << c.what;
    EXPECT_EQ(nodes[0].value, c.value) << c.what;
    EXPECT_EQ(nodes[0].bounds, c.bounds) << c.what;
    EXPECT_EQ(app.calls("GetText"), c.get_text_calls) << c.what;
    EXPECT_EQ(app.calls("Get"), c.count_calls) << c.what;
  }

  // Ids only where asked; a value from Value; a password's text never.
  FakeApp app({{"/a", FakeNode{{}, {}, "", "row-1"}},
               {"/b", FakeNode{{}, {}, "", "row-2"}},
               {"/s", FakeNode{{}, {}, "50", "", 50}},
               {"/pw", FakeNode{{}, {}, "hunter2", ""}}});
  testing::Peer peer([&app](sd_bus_message* call) { return app.respond(call); });
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  std::vector<Node> nodes{node_at("/a", ATSPI_ROLE_PANEL, 0), node_at("/b", ATSPI_ROLE_PANEL, 0),
                          node_at("/s", ATSPI_ROLE_SPIN_BUTTON, kInterfaceValue | kInterfaceText),
                          node_at("/pw", ATSPI_ROLE_PASSWORD_TEXT, entry, entry_states)};
  ASSERT_TRUE(read_details(pipeline, nodes, DetailOptions{}, kGtk3, {true, false, false, false}));
  EXPECT_TRUE(nodes[0].accessible_id_known);
  EXPECT_EQ(nodes[0].accessible_id, "row-1");
  EXPECT_FALSE(nodes[1].accessible_id_known);
  EXPECT_EQ(nodes[2].value, "50");
  EXPECT_FALSE(nodes[3].value.has_value());
  EXPECT_TRUE(nodes[3].value_withheld);
  EXPECT_EQ(app.calls("GetText"), 0);
}

TEST(DetailsRead, AStoppedAppCostsTheDeadline) {
  FakeApp app({{"/b", FakeNode{{kClick}}}});
  testing::Peer peer([&app](sd_bus_message* call) { return app.respond(call); });
  peer.freeze();
  const auto started = Clock::now();
  Pipeline pipeline(peer.connect(), {}, started + 200ms);
  std::vector<Node> nodes{node_at("/b", ATSPI_ROLE_PUSH_BUTTON, kInterfaceAction)};
  EXPECT_FALSE(read_details(pipeline, nodes, DetailOptions{}, kGtk3));
  EXPECT_TRUE(pipeline.expired());
  EXPECT_LT(Clock::now() - started, 1s);
  EXPECT_TRUE(nodes[0].actions.empty());
}

TEST(DetailsRead, AComboBoxShowsItsSelectedChildsNameAsItsValue) {
  const std::uint32_t combo = kInterfaceSelection | kInterfaceAction | kInterfaceComponent;
  struct Case {
    const char* what;
    FakeNode fake;
    Node node;
    std::optional<std::string> value;
    int get_selected_child_calls;
  };
  const Case cases[] = {
      {"GTK 3: the active item's name", FakeNode{.selected_child = "/green"},
       node_at("/c", ATSPI_ROLE_COMBO_BOX, combo), "Green", 1},
      {"nothing selected: no value", FakeNode{}, node_at("/c", ATSPI_ROLE_COMBO_BOX, combo), std::nullopt, 1},
      {"the selected child went away: no value", FakeNode{.selected_child = "/gone"},
       node_at("/c", ATSPI_ROLE_COMBO_BOX, combo), std::nullopt, 1},
      {"a list with Selection is no combo box: not asked", FakeNode{.selected_child = "/green"},
       node_at("/c", ATSPI_ROLE_LIST_BOX, combo), std::nullopt, 0},
      {"Value wins over the selection", FakeNode{.value = 3, .selected_child = "/green"},
       node_at("/c", ATSPI_ROLE_COMBO_BOX, combo | kInterfaceValue), "3", 0},
  };
  for (const Case& c : cases) {
    FakeApp app({{c.node.path, c.fake}, {"/green", FakeNode{.name = "Green"}}});
    testing::Peer peer([&app](sd_bus_message* call) { return app.respond(call); });
    Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
    DetailOptions options;
    options.accessible_id = false;
    std::vector<Node> nodes{c.node};
    ASSERT_TRUE(read_details(pipeline, nodes, options, kGtk3)) << c.what;
    EXPECT_EQ(nodes[0].value, c.value) << c.what;
    EXPECT_EQ(app.calls("GetSelectedChild"), c.get_selected_child_calls) << c.what;
  }
}

}  // namespace
}  // namespace companyos::a11y
