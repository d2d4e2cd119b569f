// The observation model: apps, windows, and a numbered snapshot of one window's tree.
// Plain values; a Snapshot is immutable once taken and shared by the snapshot store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "a11y/vocabulary.h"
#include "core/geometry.h"

namespace companyos::a11y {

struct WindowInfo {
  std::string id;  // opaque, stable for the window's life (see read/window_id.h)
  std::string title;
  std::string role;
  StateSet states = 0;
  std::optional<Bounds> bounds;
  std::string app_name;
  std::string bus_name;  // the app's unique name on the accessibility bus
  std::string path;      // the window's object path
  std::optional<int> pid;
  // false: the app did not answer this listing, so this is the window as last listed.
  bool responsive = true;
  bool active() const;
};

struct AppInfo {
  std::string name;  // as AT-SPI reports it (for GTK the program name)
  std::string bus_name;
  std::optional<int> pid;
  std::string toolkit;
  std::string toolkit_version;
  bool responsive = true;       // false: did not answer within the per-app deadline
  bool policy_denied = false;   // a password manager: windows are withheld
  std::vector<WindowInfo> windows;
  std::size_t windows_not_listed = 0;  // past kMaxWindowsPerApp: counted, never read
};

// The most top-level windows of one app a listing reads (each costs four calls): an app
// that claims more is listed this far, and says how many it left out.
inline constexpr std::size_t kMaxWindowsPerApp = 1000;

// A table or list with more children than a snapshot walks (a spreadsheet's million rows,
// a list of 50,000 items) is read by what is on screen: the rows and columns shown, counted
// from 0, and how many there are in all. A list is one column of rows (columns == 0).
struct ShownRegion {
  std::int64_t rows = 0;
  std::int64_t columns = 0;
  std::int64_t first_row = 0;
  std::int64_t row_count = 0;  // 0: nothing shown could be read
  std::int64_t first_column = 0;
  std::int64_t column_count = 0;
  friend bool operator==(const ShownRegion&, const ShownRegion&) = default;
};

// Where a cell of a table read by what is shown sits, counted from 0.
struct CellPosition {
  std::int64_t row = 0;
  std::int64_t column = 0;
  friend bool operator==(const CellPosition&, const CellPosition&) = default;
};

// One accessible as read in bulk (GetItems) or live, before per-node details.
struct RawNode {
  std::string path;
  std::string parent_path;
  int index_in_parent = -1;
  int child_count = 0;  // live at read time, also in GetItems replies
  std::uint32_t interfaces = 0;
  std::uint32_t role = 0;
  std::string name;
  std::string description;
  StateSet states = 0;
  std::optional<std::string> accessible_id;  // read live only
  std::optional<ShownRegion> shown;          // children read by what is on screen
  std::optional<CellPosition> cell;          // a cell of such a table
};

struct Node {
  int ref = 0;  // N of e<N>: 1-based depth-first position in the full tree
  std::uint32_t role = 0;
  std::string name;
  std::string description;
  std::string accessible_id;
  bool accessible_id_known = false;  // read (see AccessibleIds); "" then means "none set"
  std::optional<std::string> value;  // Value.CurrentValue, else the Text content
  bool value_withheld = false;       // password text: never read
  StateSet states = 0;
  std::vector<std::string> actions;
  std::optional<Bounds> bounds;  // screen coordinates; nullopt when offscreen or unknown
  std::uint32_t interfaces = 0;
  int parent = -1;             // index into Snapshot::nodes
  std::vector<int> children;   // indices into Snapshot::nodes, in order
  bool twin = false;
  int twin_group = 0;          // 1-based; equal for nodes of one identity
  // For a twin: the index of an ancestor that holds no other twin of its group and is no
  // twin itself, so "this identity within that ancestor" names exactly this node; -1 when
  // none does (or the group is too large to look).
  int twin_scope = -1;
  std::string path;            // object path, for later live resolution
  // A table or list whose children are only those on screen (see ShownRegion), and a cell
  // of such a table.
  std::optional<ShownRegion> shown;
  std::optional<CellPosition> cell;
};

struct SnapshotStats {
  bool bulk = false;              // GetItems answered (else the live walk)
  bool peer_to_peer = false;      // the app's own connection was used
  std::size_t bulk_items = 0;     // items in the GetItems reply (whole app)
  double bulk_milliseconds = 0;   // waiting for that reply: the app's own time, mostly
  std::size_t reconciled = 0;     // nodes whose children were re-read live
  std::size_t walked_live = 0;    // nodes read live (missing from the bulk reply)
  std::size_t detail_calls = 0;   // per-node calls for actions, bounds, values
  bool truncated = false;         // the window had more nodes than SnapshotOptions::max_nodes
  std::size_t children_unread = 0;  // nodes that answered but whose children did not
  std::size_t shown_regions = 0;    // tables and lists too large to list, read by what they show
  double milliseconds = 0;
};

struct Snapshot {
  std::string id;
  WindowInfo window;
  std::string app_name;
  std::string bus_name;
  std::optional<int> pid;
  std::vector<Node> nodes;  // nodes[i].ref == i + 1; nodes[0] is the window, or the element
  std::string within;       // the ref whose subtree this is; "" for the whole window
  SnapshotStats stats;
  // The app's toolkit marks what is on screen with the showing state (ToolkitTraits).
  bool showing_means_on_screen = false;
  // Actions its toolkit lists on every node (ToolkitTraits::actions_on_every_node).
  std::vector<std::string> actions_on_every_node;
  bool enabled_state_marked = false;  // ToolkitTraits::enabled_state_marked
  bool frames_show_web_pages = false;  // ToolkitTraits::frames_show_web_pages
};

// Whether the window holds a web document (a browser's page) it shows, and whether one is
// not complete yet: busy (still loading), empty, with controls read without their
// actions, or with controls none of which is showing. Firefox answers a page's controls with no
// actions for a moment after the page appears (measured: the form's entry, check box and
// button all without actions at 0.7 s, with them at 1.4 s), and before it paints the page
// none of them is showing; an agent view drops both.
// A browser's main window (Snapshot::frames_show_web_pages, a frame) that holds no page
// yet counts as incomplete too.
bool holds_web_document(const Snapshot& tree);
bool web_document_expected(const Snapshot& tree);
bool web_document_incomplete(const Snapshot& tree);

// True when the node at INDEX of TREE lies under the node at ANCESTOR (never itself).
bool lies_under(const Snapshot& tree, std::size_t index, std::size_t ancestor);

}  // namespace companyos::a11y
