#include "a11y/cells.h"

#include <atspi/atspi.h>

#include <memory>

#include "a11y/act/cell_entry.h"
#include "a11y/bus.h"
#include "a11y/bus/message_fields.h"
#include "a11y/live_resolve.h"
#include "a11y/read/cell_read.h"
#include "a11y/read/details.h"
#include "a11y/read/live_read.h"

namespace companyos::a11y {
namespace {

// Characters of one cell's text a range read returns: a cell holds at most 32,767 in Calc.
constexpr std::int32_t kCellTextLimit = 32'767;

// Calls TEXT with the element's whole text (CharacterCount, then GetText), or nullopt.
void read_text(Pipeline& pipeline, const std::string& path, std::function<void(std::optional<std::string>)> done) {
  Pipeline* on = &pipeline;
  pipeline.call(path.c_str(), kPropertiesInterface, "Get",
                [on, path, done = std::move(done)](sd_bus_message* reply) mutable {
                  auto count = error_name(reply) == nullptr ? read_variant_int32(reply) : std::nullopt;
                  if (!count || *count < 0) {
                    done(std::nullopt);
                    return;
                  }
                  if (*count == 0) {
                    done(std::string());
                    return;
                  }
                  on->call(path.c_str(), kTextInterface, "GetText",
                           [done = std::move(done)](sd_bus_message* text) {
                             done(error_name(text) == nullptr ? read_string(text) : std::nullopt);
                           },
                           "ii", std::int32_t{0}, std::min(*count, kCellTextLimit));
                },
                "ss", kTextInterface, "CharacterCount");
}

// The "Formula" attribute: "" when the cell has none.
void read_formula_attribute(Pipeline& pipeline, const std::string& path, std::optional<std::string>& formula) {
  pipeline.call(path.c_str(), kAccessibleInterface, "GetAttributes", [&formula](sd_bus_message* reply) {
    if (error_name(reply) != nullptr) return;
    if (sd_bus_message_enter_container(reply, 'a', "{ss}") <= 0) return;
    const char* key = nullptr;
    const char* value = nullptr;
    formula = std::string();
    while (sd_bus_message_read(reply, "{ss}", &key, &value) > 0) {
      if (std::string_view(key) == "Formula" && value != nullptr) formula = value;
    }
    sd_bus_message_exit_container(reply);
  });
}

}  // namespace

Result<ElementDetails> get_cell(Observer& observer, const ActionTarget& target, Deadline deadline) {
  const auto started = std::chrono::steady_clock::now();
  auto resolved = resolve_live(observer, target, deadline);
  if (!resolved) return std::move(resolved).take_error();
  auto opened = observer.bus().app_pipeline(resolved->bus_name, deadline);
  if (!opened) return std::move(opened).take_error();
  Pipeline* pipeline = &opened->pipeline;
  std::vector<Node> read{resolved->node};
  DetailOptions options;
  options.accessible_id = false;
  options.text_values = TextValues::kAll;
  std::optional<std::string> attribute;
  read_formula_attribute(*pipeline, resolved->node.path, attribute);
  if (!read_details(*pipeline, read, options, opened->app.traits())) {
    return app_unresponsive(resolved->window.app_name, resolved->bus_name, started, "reading a cell");
  }
  ElementDetails details;
  details.ref = resolved->ref;
  details.window = resolved->window;
  details.node = std::move(read.front());
  details.text = details.node.value;
  if (attribute && !attribute->empty()) {
    if (!attribute->ends_with('\\')) {
      details.formula = "=" + *attribute;
    } else {
      // Cut at a ":" or ";". The input line shows the whole formula of the cell with the
      // cursor; of any other cell it is not known.
      details.formula_cut = true;
      auto line = resolved->structure ? find_input_line(*resolved->structure) : std::nullopt;
      if (line && has_state(details.node.states, ATSPI_STATE_FOCUSED)) {
        std::optional<std::string> whole;
        read_text(*pipeline, line->paragraph_path, [&whole](std::optional<std::string> text) { whole = std::move(text); });
        if (pipeline->wait() && whole && whole->starts_with('=')) {
          details.formula = std::move(*whole);
          details.formula_cut = false;
        }
      }
    }
  }
  return details;
}

Result<CellRows> get_cells(Observer& observer, const ActionTarget& target, const CellRange& range,
                           Deadline deadline) {
  const auto started = std::chrono::steady_clock::now();
  if (range.rows() * range.columns() > kMaxRangeCells) {
    return make_error(ErrorCode::kInvalidArgs,
                      "the range has " + with_thousands(range.rows() * range.columns()) + " cells; one read takes at most " +
                          with_thousands(kMaxRangeCells),
                      {{"param", "cells"}, {"cells", range.rows() * range.columns()}},
                      "read it in parts");
  }
  // The first corner's cell names the table (and checks it is one).
  ActionTarget first = target;
  std::visit([&](auto& t) { t.cell = range.first; }, first);
  auto corner = resolve_live(observer, first, deadline);
  if (!corner) return std::move(corner).take_error();
  if (!corner->parent) {
    return make_error(ErrorCode::kElementNotFound, "the cell's table is gone", {{"kind", "no_cell"}},
                      "take a new snapshot of the window");
  }
  const std::string table = corner->parent->path;
  auto opened = observer.bus().app_pipeline(corner->bus_name, deadline);
  if (!opened) return std::move(opened).take_error();
  Pipeline* pipeline = &opened->pipeline;

  CellRows out;
  out.window = corner->window;
  out.range = range;
  // The table's size as the corner's read checked its address: read once.
  const std::int64_t rows = corner->table_rows;
  const std::int64_t columns = corner->table_columns;
  out.table_rows = rows;
  out.table_columns = columns;
  if (range.last.row >= rows || range.last.column >= columns) {
    return make_error(ErrorCode::kElementNotFound,
                      "the table has no cell " + to_string(range.last) + ": it has " + with_thousands(rows) +
                          " rows and " + with_thousands(columns) + " columns",
                      {{"kind", "cell_outside_table"}, {"cell", to_string(range.last)}, {"rows", rows},
                       {"columns", columns}},
                      "give a range within the table");
  }
  out.rows.assign(static_cast<std::size_t>(range.rows()),
                  std::vector<std::optional<std::string>>(static_cast<std::size_t>(range.columns())));
  Pipeline* on = pipeline;
  for (std::int64_t r = 0; r < range.rows(); ++r) {
    for (std::int64_t c = 0; c < range.columns(); ++c) {
      std::optional<std::string>* slot = &out.rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
      read_cell_path(*pipeline, table, range.first.row + r, range.first.column + c,
                     [on, slot](std::optional<std::string> path) {
                       if (!path) return;
                       read_text(*on, *path, [slot](std::optional<std::string> text) { *slot = std::move(text); });
                     });
    }
  }
  if (!pipeline->wait()) {
    return app_unresponsive(corner->window.app_name, corner->bus_name, started, "reading cells");
  }
  return out;
}

}  // namespace companyos::a11y
