#include "a11y/render.h"

#include <atspi/atspi.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "a11y/ref.h"
#include "a11y/cell_address.h"
#include "a11y/toolkit/traits.h"
#include "a11y/vocabulary.h"
#include "core/text.h"

namespace companyos::a11y {
namespace {

constexpr std::size_t kOutlineValueLimit = 200;

// A quoted string of the outline: core/text.h's quote_for_terminal, appended.
void append_outline_quoted(std::string& out, std::string_view text, std::size_t limit = 0) {
  out += quote_for_terminal(text, limit);
}

// The object replacement character (Gecko puts one per embedded object in a frame's text)
// and the direction marks say nothing to a reader of the outline; JSON keeps them.
// Overrides and isolates are not dropped: they are shown escaped, so a name that would
// reorder its text is seen to.
std::string readable(std::string_view text) {
  static constexpr std::array<std::string_view, 3> kInvisible = {"\uFFFC", "\u200E", "\u200F"};
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    // Every mark starts with byte 0xE2 or 0xEF: other bytes are copied without a search.
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead != 0xE2 && lead != 0xEF) {
      out.push_back(text[i++]);
      continue;
    }
    const auto invisible = std::find_if(kInvisible.begin(), kInvisible.end(), [&](std::string_view mark) {
      return text.substr(i, mark.size()) == mark;
    });
    if (invisible != kInvisible.end()) {
      i += invisible->size();
      continue;
    }
    out.push_back(text[i++]);
  }
  return out;
}

bool is_noise_state(std::string_view state) {
  static constexpr std::array<std::string_view, 4> kNoise = {"visible", "showing", "sensitive",
                                                             "opaque"};
  for (std::string_view noise : kNoise) {
    if (state == noise) return true;
  }
  return false;
}

// Roles whose value only says what their states say (checked, selected, expanded).
bool value_repeats_state(std::uint32_t role) {
  if (activates_like_a_button(role)) return true;
  switch (role) {
    case ATSPI_ROLE_MENU:
    case ATSPI_ROLE_MENU_ITEM:
    case ATSPI_ROLE_CHECK_MENU_ITEM:
    case ATSPI_ROLE_RADIO_MENU_ITEM:
    case ATSPI_ROLE_PAGE_TAB:
      return true;
    default:
      return false;
  }
}

const Node* twin_scope_of(const Snapshot& snapshot, const Node& node) {
  return node.twin_scope >= 0 ? &snapshot.nodes[static_cast<std::size_t>(node.twin_scope)] : nullptr;
}

// The line of an unnamed, childless, unfolded button without its leading "e<N>", or ""
// for any other node: equal texts mean buttons alike but for their number.
std::string alike_key(const Snapshot& snapshot, const ViewNode& view, const OutlineOptions& options) {
  const Node& node = snapshot.nodes[static_cast<std::size_t>(view.node)];
  if (!view.children.empty() || view.hidden > 0 || view.not_showing > 0 || view.same_as >= 0 ||
      !activates_like_a_button(node.role) || !readable(node.name).empty()) {
    return {};
  }
  const std::string line = render_outline_line(node, options, twin_scope_of(snapshot, node));
  return line.substr(line.find(' '));
}

constexpr std::size_t kFewestAlikeInOneLine = 3;

// A tool bar's button as an item of its row — its line without the role, "e5 \"New\"
// [disabled]" — or "" when its line says more than number, role, name and states (an
// action of its own, a value, a description, an id, a twin) or the button holds or folds
// anything: such a button keeps a line of its own.
std::string tool_bar_item(const Snapshot& snapshot, const ViewNode& view, const OutlineOptions& options) {
  const Node& node = snapshot.nodes[static_cast<std::size_t>(view.node)];
  if (!view.children.empty() || view.hidden > 0 || view.not_showing > 0 || view.same_as >= 0 ||
      !activates_like_a_button(node.role) || readable(node.name).empty()) {
    return {};
  }
  const std::string line = render_outline_line(node, options, nullptr);
  const std::string number = "e" + std::to_string(node.ref) + " ";
  std::string named;
  append_outline_quoted(named, readable(node.name));
  const std::string head = number + role_name(node.role) + " " + named;
  if (!line.starts_with(head)) return {};
  const std::string_view rest = std::string_view(line).substr(head.size());
  // Nothing after the name, or only its states.
  if (!rest.empty() && !(rest.starts_with(" [") && rest.ends_with("]") && rest.find("] ") == std::string_view::npos)) {
    return {};
  }
  return number + named + std::string(rest);
}

std::string plural_of_role(std::uint32_t role) {
  const std::string& name = role_name(role);
  return name + (name.ends_with('x') ? "es" : "s");
}
// A cell's text in a row of the grid: enough to tell cells apart, short enough that a
// screenful of a spreadsheet stays a few thousand characters.
constexpr std::size_t kGridValueLimit = 60;

// What part of a table or list too large to list a snapshot holds, for its line.
std::string describe_region(const ShownRegion& region) {
  if (region.columns > 0) {
    if (region.row_count == 0) {
      return with_thousands(region.rows) + " rows × " + with_thousands(region.columns) +
             " columns; no cell on screen could be read";
    }
    const CellRange shown{{region.first_row, region.first_column},
                          {region.first_row + region.row_count - 1,
                           region.first_column + std::max<std::int64_t>(region.column_count, 1) - 1}};
    return describe_shown(shown, region.rows, region.columns) + " shown; empty cells left out";
  }
  if (region.row_count == 0) return with_thousands(region.rows) + " items; none on screen could be read";
  return "items " + std::to_string(region.first_row + 1) + "–" +
         std::to_string(region.first_row + region.row_count) + " of " + with_thousands(region.rows) + " shown";
}

// One cell in its row's line: "e58 B3 \"text\"" — its shown text, else its name when that
// is more than its address; "" for an empty cell.
std::string grid_cell(const Node& node, bool numbered) {
  const std::string address = to_string(CellAddress{node.cell->row, node.cell->column});
  const std::string name = readable(node.name);
  const std::string value = node.value_withheld ? std::string() : readable(node.value.value_or(std::string()));
  const std::string& text = !value.empty() ? value : (name != address ? name : value);
  if (text.empty() && !node.value_withheld) return {};
  std::string out = numbered ? "e" + std::to_string(node.ref) + " " + address : address;
  if (node.value_withheld) return out + " withheld";
  out.push_back(' ');
  append_outline_quoted(out, text, kGridValueLimit);
  return out;
}

void render_view(const Snapshot& snapshot, const ViewNode& view, int depth,
                 const OutlineOptions& options, std::string& out);

// The cells of a table read by what it shows, one line per row: "row 3: e58 A3 \"x\" | …".
// Other children (headers, a caption) are listed as usual after the rows.
void render_grid(const Snapshot& snapshot, const ViewNode& view, int depth, const OutlineOptions& options,
                 std::string& out) {
  std::int64_t row = -1;
  std::string line;
  bool any = false;
  std::size_t written = 0;
  std::size_t rows_left_out = 0;
  // The row of the cell with the cursor is shown past the budget: the cell an action just
  // set is seen with what it shows.
  std::int64_t cursor_row = -1;
  for (const ViewNode& child : view.children) {
    const Node& node = snapshot.nodes[static_cast<std::size_t>(child.node)];
    if (node.cell && has_state(node.states, ATSPI_STATE_FOCUSED)) cursor_row = node.cell->row;
  }
  auto flush = [&] {
    if (!line.empty()) {
      std::string text(static_cast<std::size_t>(depth) * 2, ' ');
      text += "row " + std::to_string(row + 1) + ": " + line + "\n";
      const bool over = options.grid_characters > 0 &&
                        (rows_left_out > 0 || written + text.size() > options.grid_characters);
      if (over && row != cursor_row) {
        ++rows_left_out;
      } else {
        out += text;
        written += text.size();
      }
      any = true;
    }
    line.clear();
  };
  std::vector<const ViewNode*> others;
  for (const ViewNode& child : view.children) {
    const Node& node = snapshot.nodes[static_cast<std::size_t>(child.node)];
    if (!node.cell) {
      others.push_back(&child);
      continue;
    }
    if (node.cell->row != row) {
      flush();
      row = node.cell->row;
    }
    const std::string cell = grid_cell(node, options.grid_cell_numbers);
    if (cell.empty()) continue;
    if (!line.empty()) line += " | ";
    line += cell;
  }
  flush();
  if (rows_left_out > 0) {
    out.append(static_cast<std::size_t>(depth) * 2, ' ');
    out += "(+" + std::to_string(rows_left_out) + " more rows with content; read or set any cell by its address)\n";
  }
  const Node& table = snapshot.nodes[static_cast<std::size_t>(view.node)];
  if (!any && table.shown->row_count > 0) {
    out.append(static_cast<std::size_t>(depth) * 2, ' ');
    out += "(every cell shown is empty)\n";
  }
  for (const ViewNode* other : others) render_view(snapshot, *other, depth, options, out);
}


void render_children(const Snapshot& snapshot, const ViewNode& view, int depth, const OutlineOptions& options,
                     std::string& out) {
  const auto& children = view.children;
  // Each child's key, worked out once (a button's line is rendered for it); none without
  // the option.
  std::vector<std::string> keys;
  if (options.alike_unnamed_buttons_in_one_line) {
    for (const ViewNode& child : children) keys.push_back(alike_key(snapshot, child, options));
  }
  // Each child's item in its tool bar's row of buttons, "" when it keeps a line.
  std::vector<std::string> items;
  if (options.tool_bar_buttons_in_rows &&
      snapshot.nodes[static_cast<std::size_t>(view.node)].role == ATSPI_ROLE_TOOL_BAR) {
    for (const ViewNode& child : children) items.push_back(tool_bar_item(snapshot, child, options));
  }
  auto role_of = [&](std::size_t i) { return snapshot.nodes[static_cast<std::size_t>(children[i].node)].role; };
  std::size_t k = 0;
  while (k < children.size()) {
    if (k < items.size() && !items[k].empty()) {
      std::size_t end = k + 1;
      while (end < items.size() && !items[end].empty() && role_of(end) == role_of(k)) ++end;
      if (end - k >= kFewestAlikeInOneLine) {
        out.append(static_cast<std::size_t>(depth) * 2, ' ');
        out += plural_of_role(role_of(k)) + ": ";
        for (std::size_t i = k; i < end; ++i) {
          if (i > k) out += " | ";
          out += items[i];
        }
        out.push_back('\n');
        k = end;
        continue;
      }
    }
    if (k < keys.size() && !keys[k].empty()) {
      const std::string& key = keys[k];
      std::size_t end = k + 1;
      while (end < keys.size() && keys[end] == key) ++end;
      if (end - k >= kFewestAlikeInOneLine) {
        out.append(static_cast<std::size_t>(depth) * 2, ' ');
        for (std::size_t i = k; i < end; ++i) {
          if (i > k) out.push_back(',');
          out += "e" + std::to_string(snapshot.nodes[static_cast<std::size_t>(children[i].node)].ref);
        }
        out += key + " (" + std::to_string(end - k) + " alike)\n";
        k = end;
        continue;
      }
    }
    render_view(snapshot, children[k], depth, options, out);
    ++k;
  }
}

void render_view(const Snapshot& snapshot, const ViewNode& view, int depth,
                 const OutlineOptions& options, std::string& out) {
  out.append(static_cast<std::size_t>(depth) * 2, ' ');
  const Node& shown = snapshot.nodes[static_cast<std::size_t>(view.node)];
  out += render_outline_line(shown, options, twin_scope_of(snapshot, shown));
  if (view.hidden > 0) out += " (+" + std::to_string(view.hidden) + " hidden)";
  if (view.same_as >= 0) {
    out += " (the same menus as e" + std::to_string(snapshot.nodes[static_cast<std::size_t>(view.same_as)].ref) + ")";
  }
  if (view.not_showing > 0) {
    const std::string count = std::to_string(view.not_showing);
    out += shown.role == ATSPI_ROLE_MENU ? " (closed, " + count + " items)" : " (+" + count + " not showing)";
  }
  if (shown.shown) out += " " + describe_region(*shown.shown);
  out.push_back('\n');
  if (shown.shown && shown.shown->columns > 0) {
    render_grid(snapshot, view, depth + 1, options, out);
    return;
  }
  render_children(snapshot, view, depth + 1, options, out);
}

}  // namespace

std::string render_outline_line(const Node& node, const OutlineOptions& options, const Node* twin_scope) {
  std::string line = "e" + std::to_string(node.ref) + " " + role_name(node.role);
  const std::string name = readable(node.name);
  if (!name.empty()) {
    line.push_back(' ');
    append_outline_quoted(line, name);
  }
  std::string states;
  if (options.disabled_instead_of_enabled && !has_state(node.states, ATSPI_STATE_ENABLED)) states = "disabled";
  for (const std::string& state : state_names(node.states)) {
    if (is_noise_state(state)) continue;
    if (options.disabled_instead_of_enabled && state == "enabled") continue;
    const auto& hidden = options.hidden_states;
    if (std::find(hidden.begin(), hidden.end(), state) != hidden.end()) continue;
    if (!states.empty()) states.push_back(',');
    states += state;
  }
  if (!states.empty()) line += " [" + states + "]";
  std::string actions;
  std::size_t listed = 0;
  for (const std::string& action : node.actions) {
    const auto& hidden = options.hidden_actions;
    if (std::find(hidden.begin(), hidden.end(), action) != hidden.end()) continue;
    if (!actions.empty()) actions.push_back(',');
    actions += escape_for_terminal(action);  // an app's word too
    ++listed;
  }
  const bool implied = options.button_press_implied &&
                       (activates_like_a_button(node.role) || node.role == ATSPI_ROLE_MENU) && listed == 1;
  if (!actions.empty() && !implied) line += " actions=" + actions;
  const bool value_shown = !options.content_values_only || has_state(node.states, ATSPI_STATE_EDITABLE) ||
                           (!value_repeats_state(node.role) &&
                            ((node.interfaces & kInterfaceValue) != 0 || node.children.empty()));
  if (node.value_withheld) {
    line += " value=withheld";
  } else if (node.value && value_shown) {
    const std::string value = readable(*node.value);
    if (!value.empty() && value != name) {
      line += " value=";
      append_outline_quoted(line, value, kOutlineValueLimit);
    }
  }
  // A description that repeats the name says nothing more.
  if (!node.description.empty() && readable(node.description) != name) {
    line += " desc=";
    append_outline_quoted(line, node.description, kOutlineValueLimit);
  }
  if (!node.accessible_id.empty()) {
    line += " id=";
    append_outline_quoted(line, node.accessible_id);
  }
  if (node.twin) {
    line += " twin=" + std::to_string(node.twin_group);
    if (twin_scope != nullptr) line += " within e" + std::to_string(twin_scope->ref);
  }
  if (options.bounds && node.bounds) {
    const Bounds& b = *node.bounds;
    line += " @" + std::to_string(b.x) + "," + std::to_string(b.y) + " " +
            std::to_string(b.width) + "x" + std::to_string(b.height);
  }
  return line;
}

std::string render_outline(const Snapshot& snapshot, const ViewNode& view,
                           const OutlineOptions& options) {
  std::string out;
  if (snapshot.nodes.empty()) return out;
  const bool has_grid = std::any_of(snapshot.nodes.begin(), snapshot.nodes.end(), [](const Node& node) {
    return node.shown && node.shown->columns > 0;
  });
  if (options.outline_characters == 0 || !has_grid) {
    render_view(snapshot, view, 0, options, out);
    return out;
  }
  // The rest of the outline, measured with every row counted instead of shown (a row
  // costs at least one character), sets what the rows may take.
  OutlineOptions measured = options;
  measured.grid_characters = 1;
  measured.outline_characters = 0;
  render_view(snapshot, view, 0, measured, out);
  const std::size_t rest = out.size();
  out.clear();
  OutlineOptions fitted = options;
  const std::size_t left = options.outline_characters > rest ? options.outline_characters - rest : 0;
  fitted.grid_characters = std::max(left, kFewestGridCharacters);
  if (options.grid_characters > 0) fitted.grid_characters = std::min(fitted.grid_characters, options.grid_characters);
  render_view(snapshot, view, 0, fitted, out);
  return out;
}

}  // namespace companyos::a11y
