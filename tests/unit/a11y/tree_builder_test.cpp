#include "a11y/read/tree_builder.h"

#include <gtest/gtest.h>

#include "recorded_items.h"

namespace companyos::a11y {
namespace {

using testing::editor_items;
using testing::path;

constexpr std::size_t kBound = 20000;

TreeBuilder builder_from_recording() {
  TreeBuilder builder;
  builder.add_all(testing::raw_nodes(editor_items()));
  return builder;
}

std::vector<std::string> paths_of(const std::vector<AssembledNode>& nodes) {
  std::vector<std::string> paths;
  for (const auto& node : nodes) paths.push_back(node.raw->path);
  return paths;
}

RawNode live_node(const std::string& node_path, const char* name) {
  RawNode node;
  node.path = node_path;
  node.name = name;
  node.role = ATSPI_ROLE_PANEL;
  return node;
}

TEST(TreeBuilder, AssemblesOneWindowDepthFirstInIndexOrder) {
  const auto builder = builder_from_recording();
  const auto nodes = builder.assemble(path(1), 1000);
  EXPECT_EQ(paths_of(nodes), (std::vector<std::string>{path(1), path(2), path(3), path(4),
                                                        path(5), path(6)}));
  EXPECT_EQ(nodes[0].parent, -1);
  EXPECT_EQ(nodes[1].children, (std::vector<int>{2, 3, 4, 5}));
  EXPECT_EQ(nodes[3].parent, 1);
}

TEST(TreeBuilder, RereadsNodesWhoseLiveCountDiffersFromTheListing) {
  const auto builder = builder_from_recording();
  // The filler says 5 children with 4 listed; the tree's -1 means "unknown".
  EXPECT_EQ(builder.missing(path(1), kBound).reread, (std::vector<std::string>{path(2), path(6)}));
  EXPECT_TRUE(builder.missing(path(1), kBound).unknown.empty());
  // The other window is not part of this one's decisions.
  EXPECT_TRUE(builder.missing(path(7), kBound).reread.empty());
}

// A read for what can be on screen leaves a node that is not showing as listed — unless it
// says it is defunct, which tells nothing (LibreOffice marks its input line's panel so).
TEST(TreeBuilder, AShowingOnlyReadLeavesWhatIsNotShowingAsListed) {
  const StateSet showing = StateSet{1} << ATSPI_STATE_SHOWING;
  const StateSet defunct = StateSet{1} << ATSPI_STATE_DEFUNCT;
  struct Case {
    const char* what;
    StateSet menu_states;
    bool showing_only;
    bool reread;
  };
  const Case cases[] = {
      {"a closed menu, read whole", 0, false, true},
      {"a closed menu, showing only", 0, true, false},
      {"an open menu, showing only", showing, true, true},
      {"a node calling itself defunct, showing only", defunct, true, true},
  };
  for (const Case& c : cases) {
    TreeBuilder builder;
    RawNode window = live_node("/w", "w");
    window.states = showing;
    window.child_count = 1;
    builder.add(window);
    RawNode menu = live_node("/m", "m");
    menu.parent_path = "/w";
    menu.index_in_parent = 0;
    menu.states = c.menu_states;
    menu.child_count = -1;  // unknown: its items must be read live
    builder.add(menu);
    const MissingParts missing = builder.missing("/w", kBound, c.showing_only);
    EXPECT_EQ(missing.reread, c.reread ? std::vector<std::string>{"/m"} : std::vector<std::string>{}) << c.what;
  }
}

TEST(TreeBuilder, ClashingIndicesMakeTheOrderAGuessAndAreRereadLive) {
  struct Case {
    const char* what;
    std::vector<int> indices;
    bool reread;
  };
  const Case cases[] = {
      {"in order", {0, 1, 2}, false},
      {"listed out of order, indices complete", {2, 0, 1}, false},
      {"duplicate index", {0, 0, 1}, true},
      {"gap", {0, 1, 3}, true},
      {"negative", {-1, 0, 1}, true},
  };
  for (const Case& c : cases) {
    TreeBuilder builder;
    RawNode parent = live_node("/p", "p");
    parent.child_count = static_cast<int>(c.indices.size());
    builder.add(parent);
    for (std::size_t i = 0; i < c.indices.size(); ++i) {
      RawNode child = live_node("/c" + std::to_string(i), "c");
      child.parent_path = "/p";
      child.index_in_parent = c.indices[i];
      builder.add(child);
    }
    EXPECT_EQ(builder.missing("/p", kBound).reread.size(), c.reread ? 1u : 0u) << c.what;
  }
}

// A table (or a node counting more children than a snapshot holds) is read live, which
// checks its size, whatever the bulk read listed under it; that listing is not walked.
TEST(TreeBuilder, ATableOrAHugeNodeIsRereadAndItsBulkListingSetAside) {
  struct Case {
    const char* what;
    std::uint32_t interfaces;
    int child_count;
    bool reread;
  };
  const Case cases[] = {
      {"a panel listing its two rows", 0, 2, false},
      {"a table listing its two rows", kInterfaceTable, 2, true},
      {"a list counting more than the bound", 0, static_cast<int>(kBound) + 1, true},
  };
  for (const Case& c : cases) {
    TreeBuilder builder;
    RawNode parent = live_node("/t", "t");
    parent.interfaces = c.interfaces;
    parent.child_count = c.child_count;
    builder.add(parent);
    for (int i = 0; i < 2; ++i) {
      RawNode row = live_node("/r" + std::to_string(i), "row");
      row.parent_path = "/t";
      row.index_in_parent = i;
      row.child_count = 1;
      builder.add(row);
      RawNode cell = live_node("/c" + std::to_string(i), "cell");
      cell.parent_path = "/r" + std::to_string(i);
      cell.index_in_parent = 0;
      builder.add(cell);
    }
    const MissingParts missing = builder.missing("/t", kBound);
    if (c.reread) {
      EXPECT_EQ(missing.reread, (std::vector<std::string>{"/t"})) << c.what;
      EXPECT_EQ(missing.set_aside, 4u) << c.what;  // two rows, two cells
    } else {
      EXPECT_EQ(missing.set_aside, 0u) << c.what;
      EXPECT_TRUE(missing.reread.empty()) << c.what;
    }
    // Read live, the table's children are what it shows; the rest is no longer walked.
    builder.set_live_children("/t", {});
    EXPECT_TRUE(builder.missing("/t", kBound).unknown.empty()) << c.what;
  }
}

TEST(TreeBuilder, LiveChildrenRevealAndOrderMissingRows) {
  auto builder = builder_from_recording();
  builder.set_live_children(path(2), {path(3), path(4), path(8), path(5), path(6)});
  builder.set_live_children(path(6), {});
  EXPECT_EQ(builder.missing(path(1), kBound).unknown, (std::vector<std::string>{path(8)}));
  RawNode row = live_node(path(8), "Row 1");
  row.child_count = 1;
  builder.add(row);
  builder.set_live_children(path(8), {path(9)});
  EXPECT_EQ(builder.missing(path(1), kBound).unknown, (std::vector<std::string>{path(9)}));
  builder.add(live_node(path(9), "Button 1"));
  builder.set_live_children(path(9), {});
  EXPECT_TRUE(builder.missing(path(1), kBound).reread.empty());
  EXPECT_TRUE(builder.missing(path(1), kBound).unknown.empty());
  EXPECT_EQ(paths_of(builder.assemble(path(1), 1000)),
            (std::vector<std::string>{path(1), path(2), path(3), path(4), path(8), path(9),
                                      path(5), path(6)}));
}

TEST(TreeBuilder, ALiveRecordReplacesTheBulkOneInPlace) {
  struct Case {
    const char* what;
    std::string parent_path;  // of the live record of path(3)
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      // A live read has no parent path: the node leaves its bulk parent's listing.
      {"live, no parent", "", {path(1), path(2), path(4), path(5), path(6)}},
      {"same parent", path(2), {path(1), path(2), path(3), path(4), path(5), path(6)}},
      {"moved under the window", path(1),
       {path(1), path(2), path(4), path(5), path(6), path(3)}},
  };
  for (const Case& c : cases) {
    auto builder = builder_from_recording();
    RawNode renamed = live_node(path(3), "Save as");
    renamed.parent_path = c.parent_path;
    renamed.index_in_parent = c.parent_path == path(1) ? 1 : 0;
    builder.add(renamed);
    const auto after = builder.assemble(path(1), 1000);
    EXPECT_EQ(paths_of(after), c.expected) << c.what;
    for (const AssembledNode& node : after) {
      if (node.raw->path == path(3)) {
        EXPECT_EQ(node.raw->name, "Save as") << c.what;
      }
    }
  }
}

TEST(TreeBuilder, LiveChildrenDropRemovedOnes) {
  auto builder = builder_from_recording();
  builder.set_live_children(path(2), {path(5), path(3)});
  EXPECT_EQ(paths_of(builder.assemble(path(1), 1000)),
            (std::vector<std::string>{path(1), path(2), path(5), path(3)}));
}

TEST(TreeBuilder, BoundsAndMalformedTrees) {
  struct Case {
    const char* what;
    std::vector<RawNode> nodes;
    std::string root;
    std::size_t max_nodes;
    std::size_t expected;
  };
  RawNode a = live_node("/a", "a");
  RawNode b = live_node("/b", "b");
  b.parent_path = "/a";
  RawNode self = live_node("/self", "self");
  self.parent_path = "/self";
  RawNode cycle_a = live_node("/ca", "ca");
  cycle_a.parent_path = "/cb";
  RawNode cycle_b = live_node("/cb", "cb");
  cycle_b.parent_path = "/ca";
  const Case cases[] = {
      {"missing root", {a, b}, "/none", 100, 0},
      {"cut at max nodes", {a, b}, "/a", 1, 1},
      {"zero max nodes", {a, b}, "/a", 0, 0},
      {"own parent", {self}, "/self", 100, 1},
      {"cycle", {cycle_a, cycle_b}, "/ca", 100, 2},
  };
  for (const Case& c : cases) {
    TreeBuilder builder;
    builder.add_all(c.nodes);
    EXPECT_EQ(builder.assemble(c.root, c.max_nodes).size(), c.expected) << c.what;
  }
}

TEST(TreeBuilder, NodesCarryRefsAndLinks) {
  const auto builder = builder_from_recording();
  const auto nodes = to_nodes(builder.assemble(path(1), 1000));
  ASSERT_EQ(nodes.size(), 6u);
  for (std::size_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(nodes[i].ref, static_cast<int>(i) + 1);
  EXPECT_EQ(nodes[2].name, "Save");
  EXPECT_EQ(nodes[2].parent, 1);
  EXPECT_EQ(nodes[2].path, path(3));
  EXPECT_EQ(nodes[1].children.size(), 4u);
}

}  // namespace
}  // namespace companyos::a11y
