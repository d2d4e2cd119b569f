#include "a11y/read/cells_at_address.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "a11y/read/cell_read.h"
#include "a11y/read/details.h"

namespace companyos::a11y {

Result<std::vector<std::size_t>> add_cells_at(Bus& bus, Snapshot& tree, const std::vector<std::size_t>& tables,
                                              const CellAddress& address, Deadline deadline) {
  std::vector<std::size_t> found;
  if (tables.empty()) return found;
  const auto started = std::chrono::steady_clock::now();
  auto opened = bus.app_pipeline(tree.bus_name, deadline);
  if (!opened) return std::move(opened).take_error();
  Pipeline& pipeline = opened->pipeline;
  const ToolkitTraits toolkit = opened->app.traits();
  std::vector<std::optional<CellRead>> reads(tables.size());
  for (std::size_t i = 0; i < tables.size(); ++i) {
    read_cell(pipeline, tree.nodes[tables[i]].path, address, toolkit,
              [&reads, i](CellRead read) { reads[i] = std::move(read); });
  }
  const bool answered = pipeline.wait();
  if (pipeline.disconnected()) {
    return make_error(ErrorCode::kWindowNotFound, "the window closed while its cells were read",
                      {{"window", tree.window.id}}, "list the app's windows");
  }
  if (!answered) return app_unresponsive(tree.app_name, tree.bus_name, started, "reading a cell");

  // Cells not in the snapshot, with the table each belongs to.
  std::vector<Node> added;
  std::vector<std::size_t> added_tables;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (!reads[i] || reads[i]->outcome != CellRead::Outcome::kRead) continue;
    const RawNode& raw = reads[i]->cell->node;
    auto held = std::find_if(tree.nodes.begin(), tree.nodes.end(),
                             [&raw](const Node& node) { return node.path == raw.path; });
    if (held != tree.nodes.end()) {
      found.push_back(static_cast<std::size_t>(held - tree.nodes.begin()));
      continue;
    }
    added.push_back(cell_node(raw, toolkit));
    added_tables.push_back(tables[i]);
  }
  if (added.empty()) return found;
  if (!read_details(pipeline, added, DetailOptions{.accessible_id = false}, toolkit)) {
    return app_unresponsive(tree.app_name, tree.bus_name, started, "reading a cell");
  }
  for (std::size_t i = 0; i < added.size(); ++i) {
    const std::size_t index = tree.nodes.size();
    Node& cell = tree.nodes.emplace_back(std::move(added[i]));
    cell.ref = static_cast<int>(index) + 1;
    cell.parent = static_cast<int>(added_tables[i]);
    tree.nodes[added_tables[i]].children.push_back(static_cast<int>(index));
    found.push_back(index);
  }
  return found;
}

}  // namespace companyos::a11y
