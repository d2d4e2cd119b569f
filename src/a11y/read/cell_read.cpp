#include "a11y/read/cell_read.h"

#include <memory>

#include "a11y/bus.h"
#include "a11y/bus/message_fields.h"

namespace companyos::a11y {
namespace {

// A cell's children are its own parts (a check box in a tree view's row); none is a table.
constexpr std::size_t kCellChildren = 64;

void fetch_cell(Pipeline& pipeline, const std::string& table_path, const CellAddress& address,
                const ToolkitTraits& toolkit, std::shared_ptr<CellRead> read, std::function<void(CellRead)> done) {
  Pipeline* on = &pipeline;
  read_cell_path(pipeline, table_path, address.row, address.column,
                 [on, address, toolkit, read, done = std::move(done)](std::optional<std::string> path) mutable {
                   if (!path) {
                     read->outcome = CellRead::Outcome::kNoCell;
                     done(std::move(*read));
                     return;
                   }
                   read_node_live(*on, *path, toolkit,
                                  [read, address, done = std::move(done)](std::optional<LiveNode> live) {
                                    if (!live) {
                                      read->outcome = CellRead::Outcome::kNoCell;
                                    } else {
                                      live->node.cell = CellPosition{address.row, address.column};
                                      read->outcome = CellRead::Outcome::kRead;
                                      read->cell = std::move(live);
                                    }
                                    done(std::move(*read));
                                  },
                                  kCellChildren);
                 });
}

}  // namespace

void read_cell_path(Pipeline& pipeline, const std::string& table_path, std::int64_t row, std::int64_t column,
                    std::function<void(std::optional<std::string>)> done) {
  pipeline.call(table_path.c_str(), kTableInterface, "GetAccessibleAt",
                [done = std::move(done)](sd_bus_message* reply) {
                  auto path = error_name(reply) == nullptr ? read_reference_path(reply) : std::nullopt;
                  if (path && *path == kNullObjectPath) path.reset();
                  done(std::move(path));
                },
                "ii", static_cast<std::int32_t>(row), static_cast<std::int32_t>(column));
}

void read_cell(Pipeline& pipeline, const std::string& table_path, const CellAddress& address,
               const ToolkitTraits& toolkit, std::function<void(CellRead)> done) {
  Pipeline* on = &pipeline;
  read_table_size(pipeline, table_path,
                  [on, table_path, address, toolkit, done = std::move(done)](
                      std::optional<std::int64_t> rows, std::optional<std::int64_t> columns) mutable {
                    auto read = std::make_shared<CellRead>();
                    if (!rows || !columns) {
                      read->outcome = CellRead::Outcome::kNotATable;
                      done(std::move(*read));
                      return;
                    }
                    read->rows = *rows;
                    read->columns = *columns;
                    if (address.row >= *rows || address.column >= *columns) {
                      read->outcome = CellRead::Outcome::kOutsideTable;
                      done(std::move(*read));
                      return;
                    }
                    fetch_cell(*on, table_path, address, toolkit, read, std::move(done));
                  });
}

Node cell_node(const RawNode& raw, const ToolkitTraits& toolkit) {
  Node node;
  node.role = raw.role;
  node.name = name_as_shown(toolkit, raw.role, raw.name);
  node.description = raw.description;
  node.accessible_id = raw.accessible_id.value_or(std::string());
  node.accessible_id_known = raw.accessible_id.has_value();
  node.states = raw.states;
  node.interfaces = raw.interfaces;
  node.path = raw.path;
  node.cell = raw.cell;
  return node;
}

}  // namespace companyos::a11y
