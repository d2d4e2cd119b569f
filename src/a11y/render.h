// Output forms of a snapshot view: an indented outline, one node per line, e.g.
//   e12 push button "Save" [focusable,enabled] actions=click
// (the JSON of a snapshot is the daemon's wire's).
#pragma once

#include <string>
#include <vector>

#include "a11y/model.h"
#include "a11y/view.h"

namespace companyos::a11y {

// A table's rows are never cut below this by OutlineOptions::outline_characters: a few
// rows of a sheet show even in a window whose other lines fill the aim.
inline constexpr std::size_t kFewestGridCharacters = 300;

struct OutlineOptions {
  bool bounds = false;  // append @x,y wxh
  // Left out of every line's actions= (the agent view: ones the toolkit lists everywhere).
  std::vector<std::string> hidden_actions;
  // Only values that are content: an editable node's, a slider's or spin button's (Value),
  // a leaf's text. Not a container's — the text of its children, as Chromium gives every
  // panel and label a Text interface — nor a button's, menu's or tab's, whose value only
  // repeats its state (LibreOffice's buttons: value="0", "1" when checked).
  bool content_values_only = false;
  // States left out of the list (the agent view: focusable, tooltips, orientation, …).
  std::vector<std::string> hidden_states;
  // The list leaves out "enabled", which nearly every node has, and says "disabled" on a
  // node without it: for toolkits that mark enabled (Snapshot::enabled_state_marked).
  bool disabled_instead_of_enabled = false;
  // A button (push, toggle, check, radio, menu button) whose one action is how it is
  // pressed lists no actions: its role says so, and the click tool takes that action. So
  // does a menu whose one action opens it.
  bool button_press_implied = false;
  // Three or more sibling buttons in a row without a name, children or folds, whose lines
  // differ only in their number, take one line: "e<A>,e<B>,e<C> <the line> (3 alike)".
  bool alike_unnamed_buttons_in_one_line = false;
  // In a tool bar, three or more sibling buttons in a row of one role, each line only its
  // number, role, name and states, take one line: "push buttons: e5 \"New\" | e7 \"Open\"
  // [disabled] | e8 \"Save\"". An office suite's tool bars are most of its window's view.
  bool tool_bar_buttons_in_rows = false;
  // The most characters the rows of one table read by what it shows take (0: no limit);
  // past them the rest are counted on one line. The agent view's stays a few thousand
  // characters with a spreadsheet full of text.
  std::size_t grid_characters = 0;
  // What the whole outline aims at (0: no aim): a table's rows then take what the rest of
  // the outline leaves of it, down to kFewestGridCharacters and up to grid_characters.
  std::size_t outline_characters = 0;
  // A cell in its row's line starts with its number ("e58 B3 \"x\""); without it, the cell
  // is reached by its table's number and address (the agent view: a screenful more cells).
  bool grid_cell_numbers = true;
};

// Line grammar (fields after the role appear only when they have content):
//   <indent>e<N> <role> ["<name>"] [<states>] actions=<a,b> value="<v>"|value=withheld
//   desc="<d>" id=<accessible id> twin=<group> [within e<S>] @<x>,<y> <w>x<h> (+<K> hidden)
// where e<S> is the twin's scope (Node::twin_scope): pass it as within to reach this twin.
// With alike_unnamed_buttons_in_one_line, a line may start with several numbers
// ("e40,e41,e43 push button (3 alike)"): each is one of the buttons. With
// tool_bar_buttons_in_rows, a line may list a tool bar's buttons ("push buttons: e5 \"New\"
// | e7 \"Open\" [disabled]"): each item is one button's line without its role.
// Two spaces of indent per view level. Strings are quoted with \" \\ \n \t escaped; values
// longer than 200 characters are cut and end in "…". States omit the ones nearly every
// node has (visible, showing, sensitive, opaque) — JSON lists them all.
std::string render_outline(const Snapshot& snapshot, const ViewNode& view,
                           const OutlineOptions& options = {});
std::string render_outline_line(const Node& node, const OutlineOptions& options = {},
                                const Node* twin_scope = nullptr);

}  // namespace companyos::a11y
