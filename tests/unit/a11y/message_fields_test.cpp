#include "a11y/bus/message_fields.h"

#include <gtest/gtest.h>

#include "recorded_items.h"
#include "sd_bus_peer.h"

namespace companyos::a11y {
namespace {

using testing::editor_items;
using testing::MessageFactory;
using testing::path;

TEST(MessageFields, GetItemsReadsEveryFieldOfEveryItem) {
  MessageFactory factory;
  SdBusMessagePtr reply = factory.blank();
  testing::append_get_items(reply.get(), editor_items());
  MessageFactory::seal(reply.get());
  auto parsed = read_get_items(reply.get());
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->size(), 8u);
  const RawNode& entry = (*parsed)[3];
  EXPECT_EQ(entry.path, path(4));
  EXPECT_EQ(entry.parent_path, path(2));
  EXPECT_EQ(entry.index_in_parent, 1);
  EXPECT_EQ(entry.child_count, 0);
  EXPECT_EQ(entry.name, "Name");
  EXPECT_EQ(entry.role, static_cast<std::uint32_t>(ATSPI_ROLE_TEXT));
  EXPECT_EQ(entry.interfaces, kInterfaceAction | kInterfaceComponent | kInterfaceEditableText |
                                  kInterfaceText);
  EXPECT_TRUE(has_state(entry.states, ATSPI_STATE_EDITABLE));
  EXPECT_TRUE(has_state(entry.states, ATSPI_STATE_FOCUSABLE));
  EXPECT_FALSE(has_state(entry.states, ATSPI_STATE_VISIBLE));
  EXPECT_FALSE(entry.accessible_id.has_value());  // GetItems has none
  EXPECT_EQ((*parsed)[6].child_count, -1);
  // Read the same way as the test builds RawNodes directly.
  const auto expected = testing::raw_nodes(editor_items());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ((*parsed)[i].path, expected[i].path);
    EXPECT_EQ((*parsed)[i].states, expected[i].states) << i;
    EXPECT_EQ((*parsed)[i].interfaces, expected[i].interfaces) << i;
  }
}

TEST(MessageFields, GetItemsRejectsRepliesOfAnotherShape) {
  struct Case {
    const char* what;
    std::function<void(sd_bus_message*)> body;
  };
  const Case cases[] = {
      {"GetChildren's shape", [](sd_bus_message* m) { sd_bus_message_append(m, "a(so)", 0); }},
      {"a string", [](sd_bus_message* m) { sd_bus_message_append(m, "s", "not a list"); }},
      {"no body", [](sd_bus_message*) {}},
      {"the pre-2.x records with child lists",
       [](sd_bus_message* m) {
         sd_bus_message_open_container(m, 'a', "((so)(so)(so)a(so)assusau)");
         sd_bus_message_close_container(m);
       }},
  };
  MessageFactory factory;
  for (const Case& c : cases) {
    SdBusMessagePtr reply = factory.blank();
    c.body(reply.get());
    MessageFactory::seal(reply.get());
    auto parsed = read_get_items(reply.get());
    ASSERT_FALSE(parsed.ok()) << c.what;
    EXPECT_EQ(parsed.error().code, ErrorCode::kInternal) << c.what;
  }
  EXPECT_FALSE(read_get_items(nullptr).ok());
}

TEST(MessageFields, EmptyGetItemsIsAnEmptyTree) {
  MessageFactory factory;
  SdBusMessagePtr reply = factory.blank();
  testing::append_get_items(reply.get(), {});
  MessageFactory::seal(reply.get());
  auto parsed = read_get_items(reply.get());
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->empty());
}

TEST(MessageFields, ReferencesInterfacesAndStates) {
  MessageFactory factory;
  SdBusMessagePtr message = factory.blank();
  sd_bus_message_append(message.get(), "a(so)", 2, ":1.5", "/a", ":1.5", "/b");
  sd_bus_message_append(message.get(), "as", 3, "org.a11y.atspi.Action", "org.a11y.atspi.Hypertext",
                        "org.a11y.atspi.Text");
  sd_bus_message_append(message.get(), "au", 2, 1u << ATSPI_STATE_ENABLED,
                        1u << (ATSPI_STATE_READ_ONLY - 32));
  MessageFactory::seal(message.get());
  EXPECT_EQ(read_reference_paths(message.get()), (std::vector<std::string>{"/a", "/b"}));
  EXPECT_EQ(read_interface_bits(message.get()), kInterfaceAction | kInterfaceText);
  EXPECT_EQ(read_state_set(message.get()),
            (StateSet{1} << ATSPI_STATE_ENABLED) | (StateSet{1} << ATSPI_STATE_READ_ONLY));
  // Nothing is left to read.
  EXPECT_FALSE(read_reference_paths(message.get()).has_value());
  EXPECT_FALSE(read_string(message.get()).has_value());
}

TEST(MessageFields, ReadersRefuseTheWrongType) {
  MessageFactory factory;
  SdBusMessagePtr message = factory.blank();
  sd_bus_message_append(message.get(), "u", 7u);
  MessageFactory::seal(message.get());
  EXPECT_FALSE(read_string(message.get()).has_value());
  EXPECT_FALSE(read_reference_paths(message.get()).has_value());
  EXPECT_FALSE(read_interface_bits(message.get()).has_value());
  EXPECT_FALSE(read_extents(message.get()).has_value());
  EXPECT_FALSE(read_variant_string(message.get()).has_value());
  EXPECT_FALSE(read_localized_actions(message.get()).has_value());
  EXPECT_EQ(read_uint32(message.get()), 7u);
}

TEST(MessageFields, VariantsAndExtents) {
  struct Case {
    const char* what;
    std::function<void(sd_bus_message*)> body;
    std::function<void(sd_bus_message*)> check;
  };
  const Case cases[] = {
      {"string property", [](sd_bus_message* m) { sd_bus_message_append(m, "v", "s", "row-1"); },
       [](sd_bus_message* m) { EXPECT_EQ(read_variant_string(m), "row-1"); }},
      {"int32 property", [](sd_bus_message* m) { sd_bus_message_append(m, "v", "i", 42); },
       [](sd_bus_message* m) { EXPECT_EQ(read_variant_int32(m), 42); }},
      {"double property", [](sd_bus_message* m) { sd_bus_message_append(m, "v", "d", 0.25); },
       [](sd_bus_message* m) { EXPECT_EQ(read_variant_double(m), 0.25); }},
      {"int32 is not a double", [](sd_bus_message* m) { sd_bus_message_append(m, "v", "i", 1); },
       [](sd_bus_message* m) { EXPECT_FALSE(read_variant_double(m).has_value()); }},
      {"string is not an int32", [](sd_bus_message* m) { sd_bus_message_append(m, "v", "s", "1"); },
       [](sd_bus_message* m) { EXPECT_FALSE(read_variant_int32(m).has_value()); }},
      {"extents", [](sd_bus_message* m) { sd_bus_message_append(m, "(iiii)", 1, -2, 30, 40); },
       [](sd_bus_message* m) { EXPECT_EQ(read_extents(m), (Bounds{1, -2, 30, 40})); }},
  };
  MessageFactory factory;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    SdBusMessagePtr message = factory.blank();
    c.body(message.get());
    MessageFactory::seal(message.get());
    c.check(message.get());
  }
}

TEST(MessageFields, LocalizedActionsKeepOrder) {
  MessageFactory factory;
  SdBusMessagePtr message = factory.blank();
  sd_bus_message_append(message.get(), "a(sss)", 2, "Click", "Clicks the button", "<Space>",
                        "Activate", "", "");
  MessageFactory::seal(message.get());
  EXPECT_EQ(read_localized_actions(message.get()),
            (std::vector<LocalizedAction>{{"Click", "Clicks the button"}, {"Activate", ""}}));
}

TEST(MessageFields, AccessiblePropertiesFillWhatTheyHaveAndSkipTheRest) {
  MessageFactory factory;
  SdBusMessagePtr message = factory.blank();
  sd_bus_message_append(message.get(), "a{sv}", 6, "Name", "s", "Save", "Locale", "s", "C",
                        "Parent", "(so)", ":1.5", "/p", "ChildCount", "i", 3, "AccessibleId",
                        "s", "save-button", "Description", "s", "Saves");
  MessageFactory::seal(message.get());
  RawNode node;
  ASSERT_TRUE(read_accessible_properties(message.get(), node));
  EXPECT_EQ(node.name, "Save");
  EXPECT_EQ(node.description, "Saves");
  EXPECT_EQ(node.child_count, 3);
  EXPECT_EQ(node.accessible_id, "save-button");

  SdBusMessagePtr wrong = factory.blank();
  sd_bus_message_append(wrong.get(), "as", 1, "Name");
  MessageFactory::seal(wrong.get());
  RawNode untouched;
  EXPECT_FALSE(read_accessible_properties(wrong.get(), untouched));
  EXPECT_FALSE(untouched.accessible_id.has_value());
}

}  // namespace
}  // namespace companyos::a11y
