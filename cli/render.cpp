#include "cli/render.h"

#include <algorithm>
#include <utility>

#include "core/text.h"

namespace companyos::cli {
namespace {

void flatten(const nlohmann::json& value, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& rows) {
  if (value.is_object() && !value.empty()) {
    for (const auto& [key, child] : value.items()) {
      flatten(child, prefix.empty() ? key : prefix + "." + key, rows);
    }
    return;
  }
  rows.emplace_back(prefix, plain(value));
}

const nlohmann::json* lookup(const nlohmann::json& row, const std::string& dotted) {
  const nlohmann::json* node = &row;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    auto dot = dotted.find('.', start);
    std::string part = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object() || !node->contains(part)) return nullptr;
    node = &(*node)[part];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node;
}

}  // namespace

std::string plain(const nlohmann::json& value) {
  if (value.is_null()) return "-";
  // Strings may be an app's, a page's or a clipboard's: never let one drive the terminal.
  if (value.is_string()) return escape_for_terminal(value.get_ref<const std::string&>());
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_array()) {
    std::string joined;
    for (const auto& item : value) joined += (joined.empty() ? "" : ", ") + plain(item);
    return joined.empty() ? "-" : joined;
  }
  return value.dump();
}

void render_fields(std::ostream& out, const nlohmann::json& object) {
  std::vector<std::pair<std::string, std::string>> rows;
  flatten(object, "", rows);
  std::size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.first.size());
  for (const auto& [key, value] : rows) {
    out << key << std::string(width - key.size() + 2, ' ') << value << '\n';
  }
}

void render_table(std::ostream& out, const nlohmann::json& rows, const std::vector<Column>& columns) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> widths;
  for (const auto& column : columns) widths.push_back(column.header.size());
  for (const auto& row : rows) {
    std::vector<std::string> line;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const nlohmann::json* value = lookup(row, columns[i].key);
      line.push_back(value != nullptr ? plain(*value) : "-");
      widths[i] = std::max(widths[i], line.back().size());
    }
    cells.push_back(std::move(line));
  }
  auto print = [&](const std::vector<std::string>& line) {
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
      text += line[i];
      if (i + 1 < line.size()) text += std::string(widths[i] - line[i].size() + 2, ' ');
    }
    out << text << '\n';
  };
  std::vector<std::string> header;
  for (const auto& column : columns) header.push_back(column.header);
  print(header);
  for (const auto& line : cells) print(line);
}

void render_settled_state(std::ostream& out, const nlohmann::json& data) {
  if (!data.is_object() || !data.contains("state") || !data["state"].is_object()) return;
  const nlohmann::json& state = data["state"];
  const nlohmann::json settled = state.value("settled", nlohmann::json::object());
  out << "settled after " << plain(settled.value("waited_ms", nlohmann::json(0))) << " ms";
  if (settled.value("still_changing", false)) out << " (still changing: the bound ended the wait)";
  if (state.contains("opened_over")) {
    out << "; a new window opened in front of window " << plain(state["opened_over"]) << ", its state follows";
  }
  if (state.contains("handed_over_from")) {
    out << "; window " << plain(state["handed_over_from"]) << " closed, its app's window now in front follows";
  }
  if (!state.contains("snapshot")) {
    out << "; the state could not be read: " << plain(state.value("problem", nlohmann::json("")))  << '\n';
    return;
  }
  out << "\nsnapshot " << plain(state["snapshot"]) << ": window \""
      << plain(state.value("window", nlohmann::json::object()).value("title", nlohmann::json(""))) << "\", "
      << plain(state["node_count"]) << " nodes; refs are @" << plain(state["snapshot"]) << ":eN\n"
      << state.value("outline", std::string());
}

}  // namespace companyos::cli
