#include "a11y/read/embedded_objects.h"

#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

const std::string kFffc = "\xEF\xBF\xBC";

Node node(std::optional<std::string> value, std::string name = {}, int parent = -1) {
  Node n;
  n.value = std::move(value);
  n.name = std::move(name);
  n.parent = parent;
  return n;
}

// nodes: a tree in depth-first order, each node's parent given; children filled here.
std::vector<Node> tree(std::vector<Node> nodes) {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].parent >= 0) nodes[static_cast<std::size_t>(nodes[i].parent)].children.push_back(static_cast<int>(i));
  }
  return nodes;
}

TEST(EmbeddedObjects, EachReplacementTakesItsChildsText) {
  struct Case {
    const char* what;
    std::vector<Node> nodes;
    std::optional<std::string> expected;  // node 0's value afterwards
  };
  const Case cases[] = {
      {"a link by its name", tree({node("Read the " + kFffc + " first."), node(std::nullopt, "terms", 0)}),
       "Read the terms first."},
      {"two children in order",
       tree({node(kFffc + " and " + kFffc), node(std::nullopt, "one", 0), node(std::nullopt, "two", 0)}),
       "one and two"},
      {"a child's value before its name",
       tree({node("[" + kFffc + "]"), node("typed", "Name", 0)}), "[typed]"},
      {"a nested section resolved first",
       tree({node("a " + kFffc), node(kFffc + "!", "", 0), node(std::nullopt, "deep", 1)}), "a deep!"},
      {"a nameless image leaves nothing", tree({node("x" + kFffc + "y"), node(std::nullopt, "", 0)}), "xy"},
      {"fewer children than replacements: dropped",
       tree({node(kFffc + "a" + kFffc), node(std::nullopt, "one", 0)}), "a"},
      {"no children read: dropped", tree({node(kFffc + kFffc + kFffc)}), ""},
      {"no replacement: unchanged", tree({node("plain"), node(std::nullopt, "child", 0)}), "plain"},
      {"no value: none", tree({node(std::nullopt, "frame"), node(std::nullopt, "child", 0)}), std::nullopt},
      {"other non-ASCII kept", tree({node("é " + kFffc + " ü"), node(std::nullopt, "ß", 0)}), "é ß ü"},
  };
  for (Case c : cases) {
    resolve_embedded_objects(c.nodes);
    EXPECT_EQ(c.nodes[0].value, c.expected) << c.what;
  }
}

TEST(EmbeddedObjects, DroppedFromAnyText) {
  EXPECT_EQ(without_object_replacements(kFffc + "a" + kFffc + kFffc + "b" + kFffc), "ab");
  EXPECT_EQ(without_object_replacements(""), "");
  EXPECT_EQ(without_object_replacements("\xEF\xBF\xBD"), "\xEF\xBF\xBD");  // U+FFFD stays
}

}  // namespace
}  // namespace companyos::a11y
