// Tables and lists too large to list: when read_node_live refuses to list children, and
// what read_shown_region reads instead — against a fake spreadsheet and a fake long list on
// the other end of a socket pair, whose GetChildren must never be called.
#include <gtest/gtest.h>

#include <atspi/atspi.h>

#include <cstring>
#include <limits>
#include <map>
#include <mutex>

#include "a11y/read/live_read.h"
#include "a11y/read/shown_region.h"
#include "sd_bus_peer.h"

namespace companyos::a11y {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr std::int32_t kMaxInt32 = std::numeric_limits<std::int32_t>::max();

TEST(TooManyChildren, ByCountOrByCells) {
  struct Case {
    const char* what;
    std::int64_t count;
    std::optional<std::int64_t> rows;
    std::optional<std::int64_t> columns;
    std::optional<TooManyChildren> expected;
  };
  const Case cases[] = {
      {"a few children", 12, std::nullopt, std::nullopt, std::nullopt},
      {"exactly the bound", 100, std::nullopt, std::nullopt, std::nullopt},
      {"one past the bound", 101, std::nullopt, std::nullopt, TooManyChildren{101, 0}},
      {"a spreadsheet", kMaxInt32, 1'048'576, 16'384, TooManyChildren{1'048'576, 16'384}},
      {"a web table: few rows as children, many cells", 60, 60, 3, TooManyChildren{60, 3}},
      {"a small table", 12, 4, 3, std::nullopt},
      {"a table whose size is unknown, many children", 500, std::nullopt, std::nullopt, TooManyChildren{500, 0}},
      {"a negative table size is no size", 500, -1, 4, TooManyChildren{500, 0}},
      {"a negative size and few children", 5, 4, -3, std::nullopt},
      {"the largest a bridge can claim", kMaxInt32, kMaxInt32, kMaxInt32, TooManyChildren{kMaxInt32, kMaxInt32}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(too_many_children(c.count, c.rows, c.columns, 100), c.expected) << c.what;
  }
}

TEST(ShownArea, TheTablesExtentsWithinTheWindow) {
  struct Case {
    const char* what;
    Bounds extents;
    std::optional<Bounds> clip;
    std::optional<Bounds> expected;
  };
  const Case cases[] = {
      {"inside", {10, 20, 100, 50}, Bounds{0, 0, 800, 600}, Bounds{10, 20, 100, 50}},
      {"no window known", {10, 20, 100, 50}, std::nullopt, Bounds{10, 20, 100, 50}},
      {"a list taller than the window", {0, -5000, 300, 100000}, Bounds{0, 0, 800, 600}, Bounds{0, 0, 300, 600}},
      {"scrolled out entirely", {0, 700, 300, 100}, Bounds{0, 0, 800, 600}, std::nullopt},
      {"no size", {10, 20, 0, 50}, Bounds{0, 0, 800, 600}, std::nullopt},
      {"a negative size", {10, 20, -100, 50}, std::nullopt, std::nullopt},
      {"GTK3's offscreen INT_MIN", {std::numeric_limits<int>::min(), std::numeric_limits<int>::min(), 10, 10},
       Bounds{0, 0, 800, 600}, std::nullopt},
      {"near INT_MAX", {kMaxInt32 - 5, 0, kMaxInt32, 10}, std::nullopt, Bounds{kMaxInt32 - 5, 0, kMaxInt32, 10}},
  };
  for (const Case& c : cases) EXPECT_EQ(shown_area(c.extents, c.clip), c.expected) << c.what;
}

TEST(RegionBetween, TheCornersGiveTheRowsAndColumnsShown) {
  const TooManyChildren sheet{1'048'576, 16'384};
  const TooManyChildren list{50'000, 0};
  struct Case {
    const char* what;
    TooManyChildren size;
    std::optional<CellPosition> top_left;
    std::optional<CellPosition> bottom_right;
    std::size_t max_cells;
    ShownRegion expected;
  };
  const Case cases[] = {
      {"Calc's first screen", sheet, CellPosition{0, 0}, CellPosition{43, 14}, 20000,
       {1'048'576, 16'384, 0, 44, 0, 15}},
      {"scrolled", sheet, CellPosition{499, 25}, CellPosition{530, 33}, 20000, {1'048'576, 16'384, 499, 32, 25, 9}},
      {"corners the wrong way round", sheet, CellPosition{10, 9}, CellPosition{5, 2}, 20000,
       {1'048'576, 16'384, 5, 6, 2, 8}},
      {"only the top-left cell found", sheet, CellPosition{3, 4}, std::nullopt, 20000, {1'048'576, 16'384, 3, 1, 4, 1}},
      {"only the bottom-right cell found", sheet, std::nullopt, CellPosition{3, 4}, 20000,
       {1'048'576, 16'384, 3, 1, 4, 1}},
      {"nothing found", sheet, std::nullopt, std::nullopt, 20000, {1'048'576, 16'384, 0, 0, 0, 0}},
      {"no budget left", sheet, CellPosition{0, 0}, CellPosition{43, 14}, 0, {1'048'576, 16'384, 0, 0, 0, 0}},
      {"a budget of a few rows", sheet, CellPosition{0, 0}, CellPosition{43, 14}, 100,
       {1'048'576, 16'384, 0, 6, 0, 15}},
      {"a budget of less than a row", sheet, CellPosition{0, 0}, CellPosition{43, 14}, 7,
       {1'048'576, 16'384, 0, 1, 0, 7}},
      {"more rows than any screen", sheet, CellPosition{0, 0}, CellPosition{100'000, 2}, 1'000'000,
       {1'048'576, 16'384, 0, kMaxShownRows, 0, 3}},
      {"more columns than any screen", sheet, CellPosition{0, 0}, CellPosition{1, 16'000}, 1'000'000,
       {1'048'576, 16'384, 0, 2, 0, kMaxShownColumns}},
      {"a list", list, CellPosition{120, 0}, CellPosition{149, 0}, 20000, {50'000, 0, 120, 30, 0, 0}},
      {"a narrow table is read across", TooManyChildren{50'000, 3}, CellPosition{10, 1}, CellPosition{30, 1}, 20000,
       {50'000, 3, 10, 21, 0, 3}},
      {"a list within a budget", list, CellPosition{120, 0}, CellPosition{149, 0}, 10, {50'000, 0, 120, 10, 0, 0}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(region_between(c.size, c.top_left, c.bottom_right, c.max_cells), c.expected) << c.what;
  }
}

TEST(ProbePoint, CornersThenFurtherIn) {
  const Bounds area{100, 200, 640, 400};
  EXPECT_EQ(probe_point(area, 0, 0), (std::pair{102, 202}));
  EXPECT_EQ(probe_point(area, 1, 0), (std::pair{737, 597}));
  EXPECT_EQ(probe_point(area, 0, 1), (std::pair{102 + 40, 202 + 25}));
  EXPECT_EQ(probe_point(area, 1, 3), (std::pair{737 - 160, 597 - 100}));
  EXPECT_EQ(probe_point(area, 0, 99), probe_point(area, 0, 3));
  EXPECT_EQ(probe_point(Bounds{5, 5, 1, 1}, 1, 0), (std::pair{5, 5}));
}

// A spreadsheet of ROWS × COLUMNS cells of 64 × 20 pixels drawn at (100, 200), showing
// SHOWN_ROWS × SHOWN_COLUMNS of them from FIRST_ROW; or, without columns, a list of ROWS
// items of 20 pixels. Paths: /t (the table or list), /c/<row>/<column>. Answers the way
// LibreOffice's bridge does, and counts every call by member.
class FakeGrid {
 public:
  // WEB: as a browser's table does, a point of the table gives the text inside its cell
  // (/x/<row>/<column>, even rows; its Parent is the cell) or its row (/r/<row>, odd rows;
  // a point of the row gives its cell), and a cell says its Position (TableCell) while its
  // index in its parent is its column.
  // LAGGING: a point of the table gives the table itself, as Chromium's first answer does;
  // TOP_BORDER: so do its top 5 pixels. BLIND_BOTTOM: its bottom 30 pixels give no object
  // at all, as a Qt table view's do. Every cell gives its extents.
  FakeGrid(std::int32_t rows, std::int32_t columns, std::int32_t first_row, std::int32_t shown_rows,
           std::int32_t shown_columns, bool header = false, bool web = false, bool lagging = false,
           bool top_border = false, bool blind_bottom = false)
      : rows_(rows), columns_(columns), first_row_(first_row), shown_rows_(shown_rows),
        shown_columns_(shown_columns), header_(header), web_(web), lagging_(lagging), top_border_(top_border),
        blind_bottom_(blind_bottom) {}

  bool respond(sd_bus_message* call) {
    const std::string member = sd_bus_message_get_member(call);
    const std::string path = sd_bus_message_get_path(call);
    {
      std::lock_guard lock(mutex_);
      ++calls_[member];
    }
    const bool table = columns_ > 0;
    if (path == "/t") {
      if (member == "GetRole") return reply(call, "u", table ? ATSPI_ROLE_TABLE : ATSPI_ROLE_LIST);
      if (member == "GetState") return reply(call, "au", 2, 0u, 0u);
      if (member == "GetInterfaces") {
        return table ? reply(call, "as", 3, "org.a11y.atspi.Accessible", "org.a11y.atspi.Component",
                             "org.a11y.atspi.Table")
                     : reply(call, "as", 2, "org.a11y.atspi.Accessible", "org.a11y.atspi.Component");
      }
      if (member == "GetAll") {
        return reply(call, "a{sv}", 2, "Name", "s", "Sheet1", "ChildCount", "i",
                     table ? kMaxInt32 : rows_);
      }
      if (member == "Get") {
        const char* interface = nullptr;
        const char* property = nullptr;
        sd_bus_message_read(call, "ss", &interface, &property);
        if (std::strcmp(property, "NRows") == 0) return reply(call, "v", "i", rows_);
        if (std::strcmp(property, "NColumns") == 0) return reply(call, "v", "i", columns_);
        if (std::strcmp(property, "ChildCount") == 0) return reply(call, "v", "i", table ? kMaxInt32 : rows_);
      }
      if (member == "GetExtents") return reply(call, "(iiii)", 100, 200, 64 * shown_columns_, 20 * shown_rows_);
      if (member == "GetAccessibleAtPoint") {
        std::int32_t x = 0;
        std::int32_t y = 0;
        sd_bus_message_read(call, "ii", &x, &y);
        if (lagging_ || (top_border_ && y < 205)) return reply(call, "(so)", ":1.1", "/t");
        if (blind_bottom_ && y >= 200 + 20 * shown_rows_ - 30) return reply(call, "(so)", ":1.1", "/org/a11y/atspi/null");
        // GTK's tree view: the first 20 pixels are its column headers, the cells below.
        if (header_ && y < 220) return reply(call, "(so)", ":1.1", ("/h/" + std::to_string((x - 100) / 64)).c_str());
        const int row = first_row_ + (y - 200 - (header_ ? 20 : 0)) / 20;
        if (web_ && row % 2 == 0) {
          return reply(call, "(so)", ":1.1", ("/x/" + std::to_string(row) + "/" + std::to_string((x - 100) / 64)).c_str());
        }
        if (web_) return reply(call, "(so)", ":1.1", ("/r/" + std::to_string(row)).c_str());
        return reply(call, "(so)", ":1.1", cell_path(row, table ? (x - 100) / 64 : 0).c_str());
      }
      if (member == "GetRowAtIndex" || member == "GetColumnAtIndex") {
        std::int32_t index = 0;
        sd_bus_message_read(call, "i", &index);
        // With headers, their cells come first and are row -1.
        if (header_ && member == "GetRowAtIndex") return reply(call, "i", index / columns_ - 1);
        return reply(call, "i", member == "GetRowAtIndex" ? index / columns_ : index % columns_);
      }
      if (member == "GetAccessibleAt") {
        std::int32_t row = 0;
        std::int32_t column = 0;
        sd_bus_message_read(call, "ii", &row, &column);
        return reply(call, "(so)", ":1.1", cell_path(row, column).c_str());
      }
      if (member == "GetChildAtIndex") {
        std::int32_t index = 0;
        sd_bus_message_read(call, "i", &index);
        return reply(call, "(so)", ":1.1", cell_path(index, 0).c_str());
      }
    } else if (member == "GetExtents" && path.starts_with("/c/")) {
      int row = 0;
      int column = 0;
      std::sscanf(path.c_str(), "/c/%d/%d", &row, &column);
      return reply(call, "(iiii)", 100 + 64 * column, 200 + (header_ ? 20 : 0) + 20 * (row - first_row_), 64, 20);
    } else if (web_ && member == "GetAccessibleAtPoint" && path.starts_with("/r/")) {
      std::int32_t x = 0;
      std::int32_t y = 0;
      sd_bus_message_read(call, "ii", &x, &y);
      return reply(call, "(so)", ":1.1", cell_path(std::stoi(path.substr(3)), (x - 100) / 64).c_str());
    } else if (web_ && member == "Get" && path.starts_with("/x/")) {
      const char* interface = nullptr;
      const char* property = nullptr;
      sd_bus_message_read(call, "ss", &interface, &property);
      if (std::strcmp(property, "Parent") == 0) return reply(call, "v", "(so)", ":1.1", ("/c/" + path.substr(3)).c_str());
    } else if (web_ && member == "Get" && path.starts_with("/c/")) {
      int row = 0;
      int column = 0;
      std::sscanf(path.c_str(), "/c/%d/%d", &row, &column);
      return reply(call, "v", "(ii)", row, column);
    } else if (member == "GetIndexInParent") {
      int row = 0;
      int column = 0;
      if (std::sscanf(path.c_str(), "/h/%d", &column) == 1) return reply(call, "i", column);
      if (std::sscanf(path.c_str(), "/r/%d", &row) == 1) return reply(call, "i", row);
      std::sscanf(path.c_str(), "/c/%d/%d", &row, &column);
      if (web_) return reply(call, "i", column);
      const int header_cells = header_ ? columns_ : 0;
      return reply(call, "i", table ? header_cells + row * columns_ + column : row);
    }
    sd_bus_reply_method_errorf(call, SD_BUS_ERROR_UNKNOWN_METHOD, "no %s", member.c_str());
    return true;
  }

  int calls(const std::string& member) {
    std::lock_guard lock(mutex_);
    return calls_[member];
  }

  static std::string cell_path(int row, int column) {
    return "/c/" + std::to_string(row) + "/" + std::to_string(column);
  }

 private:
  template <typename... Args>
  static bool reply(sd_bus_message* call, const char* types, Args... args) {
    sd_bus_reply_method_return(call, types, args...);
    return true;
  }

  const std::int32_t rows_;
  const std::int32_t columns_;
  const std::int32_t first_row_;
  const std::int32_t shown_rows_;
  const std::int32_t shown_columns_;
  const bool header_;
  const bool web_;
  const bool lagging_;
  const bool top_border_;
  const bool blind_bottom_;
  std::mutex mutex_;
  std::map<std::string, int> calls_;
};

const ToolkitTraits kGtk3 = toolkit_traits("gtk", "3.24.38");

std::optional<LiveNode> read_live(Pipeline& pipeline, std::size_t bound) {
  std::optional<LiveNode> read;
  read_node_live(pipeline, "/t", kGtk3, [&read](std::optional<LiveNode> live) { read = std::move(live); }, bound);
  EXPECT_TRUE(pipeline.wait());
  return read;
}

ShownRead read_region(Pipeline& pipeline, const TooManyChildren& size, std::optional<Bounds> clip,
                      std::size_t max_cells) {
  ShownRead read;
  bool called = false;
  read_shown_region(pipeline, "/t", size, clip, max_cells, [&](ShownRead shown) {
    read = std::move(shown);
    called = true;
  });
  EXPECT_TRUE(pipeline.wait());
  EXPECT_TRUE(called);
  return read;
}

TEST(ShownRegionRead, ASpreadsheetIsNeverListedAndShowsItsScreenful) {
  FakeGrid sheet(1'048'576, 16'384, 0, 44, 15);
  testing::Peer peer([&sheet](sd_bus_message* call) { return sheet.respond(call); });
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  auto live = read_live(pipeline, 20000);
  ASSERT_TRUE(live.has_value());
  EXPECT_EQ(live->too_many, (TooManyChildren{1'048'576, 16'384}));
  EXPECT_TRUE(live->children.empty());
  EXPECT_FALSE(live->children_unread);

  // The window cuts the sheet's last four rows off.
  const ShownRead shown = read_region(pipeline, *live->too_many, Bounds{0, 0, 2000, 200 + 40 * 20}, 20000);
  EXPECT_EQ(shown.region, (ShownRegion{1'048'576, 16'384, 0, 40, 0, 15}));
  ASSERT_EQ(shown.children.size(), 40u * 15u);
  EXPECT_EQ(shown.children[0].path, "/c/0/0");
  EXPECT_EQ(shown.children[16].path, "/c/1/1");
  EXPECT_EQ(shown.children[16].cell, (CellPosition{1, 1}));
  EXPECT_EQ(shown.children.back().cell, (CellPosition{39, 14}));
  EXPECT_EQ(sheet.calls("GetChildren"), 0);
  EXPECT_EQ(sheet.calls("GetAccessibleAt"), 40 * 15);
}

TEST(ShownRegionRead, AScrolledSheetWithinABudget) {
  FakeGrid sheet(1'048'576, 16'384, 500, 30, 10);
  testing::Peer peer([&sheet](sd_bus_message* call) { return sheet.respond(call); });
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  const ShownRead shown = read_region(pipeline, {1'048'576, 16'384}, std::nullopt, 25);
  EXPECT_EQ(shown.region, (ShownRegion{1'048'576, 16'384, 500, 2, 0, 10}));
  ASSERT_EQ(shown.children.size(), 20u);
  EXPECT_EQ(shown.children[0].cell, (CellPosition{500, 0}));
  EXPECT_EQ(sheet.calls("GetChildren"), 0);
}

TEST(ShownRegionRead, AListShowsItsItemsOnScreen) {
  FakeGrid list(50'000, 0, 1200, 25, 1);
  testing::Peer peer([&list](sd_bus_message* call) { return list.respond(call); });
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  auto live = read_live(pipeline, 20000);
  ASSERT_TRUE(live.has_value());
  EXPECT_EQ(live->too_many, (TooManyChildren{50'000, 0}));
  const ShownRead shown = read_region(pipeline, *live->too_many, std::nullopt, 20000);
  EXPECT_EQ(shown.region, (ShownRegion{50'000, 0, 1200, 25, 0, 0}));
  ASSERT_EQ(shown.children.size(), 25u);
  EXPECT_EQ(shown.children[0].path, "/c/1200/0");
  EXPECT_FALSE(shown.children[0].cell.has_value());
  EXPECT_EQ(list.calls("GetChildren"), 0);
  EXPECT_EQ(list.calls("GetChildAtIndex"), 25);
}

TEST(ShownRegionRead, ATreeViewsHeadersAreLookedPastAndItsColumnsReadAcross) {
  // 50,000 rows of 3 columns, headers over 19 rows of cells from row 300, 2 columns wide on
  // screen (the third is right of the window).
  FakeGrid view(50'000, 3, 300, 20, 2, true);
  testing::Peer peer([&view](sd_bus_message* call) { return view.respond(call); });
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  const ShownRead shown = read_region(pipeline, {50'000, 3}, std::nullopt, 20000);
  EXPECT_EQ(shown.region.first_row, 300);
  EXPECT_EQ(shown.region.first_column, 0);
  EXPECT_EQ(shown.region.column_count, 3);
  EXPECT_GE(shown.region.row_count, 18);
  EXPECT_LE(shown.region.row_count, 19);
  ASSERT_FALSE(shown.children.empty());
  EXPECT_EQ(shown.children[0].path, "/c/300/0");
  EXPECT_EQ(view.calls("GetChildren"), 0);
}

TEST(ShownRegionRead, AWebTablesCellsSayTheirPositionOneLevelBelowItsRows) {
  // 10,000 rows of 3 columns from row 4,000, 26 rows on screen: the top corner lands on a
  // cell's text, the bottom one on a row.
  FakeGrid table(10'000, 3, 4'000, 26, 3, false, true);
  testing::Peer peer([&table](sd_bus_message* call) { return table.respond(call); });
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  const ShownRead shown = read_region(pipeline, {10'000, 3}, std::nullopt, 20000);
  EXPECT_EQ(shown.region, (ShownRegion{10'000, 3, 4'000, 26, 0, 3}));
  ASSERT_EQ(shown.children.size(), 78u);
  EXPECT_EQ(shown.children[0].path, "/c/4000/0");
  EXPECT_EQ(shown.children.back().cell, (CellPosition{4'025, 2}));
  // Its index in its row would have named the wrong row: it is never asked.
  EXPECT_EQ(table.calls("GetIndexInParent"), 0);
  EXPECT_EQ(table.calls("GetChildren"), 0);
}

TEST(ShownRegionRead, WithoutACellAtAPointTheRowsAreFoundByTheirExtents) {
  struct Case {
    const char* what;
    std::int32_t rows, columns, first_row, shown_rows, shown_columns;
    std::optional<Bounds> clip;
    ShownRegion expected;
  };
  const Case cases[] = {
      {"a web table read across", 10'000, 3, 4'000, 26, 3, std::nullopt, {10'000, 3, 4'000, 26, 0, 3}},
      {"a sheet, its columns too", 1'048'576, 16'384, 500, 30, 10, std::nullopt, {1'048'576, 16'384, 500, 30, 0, 10}},
      {"cut by the window", 10'000, 3, 0, 40, 3, Bounds{0, 0, 2000, 200 + 10 * 20}, {10'000, 3, 0, 10, 0, 3}},
  };
  for (const Case& c : cases) {
    FakeGrid table(c.rows, c.columns, c.first_row, c.shown_rows, c.shown_columns, false, false, true);
    testing::Peer peer([&table](sd_bus_message* call) { return table.respond(call); });
    Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
    const ShownRead shown = read_region(pipeline, {c.rows, c.columns}, c.clip, 20000);
    EXPECT_EQ(shown.region, c.expected) << c.what;
    EXPECT_EQ(table.calls("GetChildren"), 0) << c.what;
    // Bisection, not a walk: a few dozen extents for 10,000 or a million rows.
    EXPECT_LE(table.calls("GetExtents"), 1 + 2 * 21 + 2 * 15) << c.what;
  }
}

TEST(ShownRegionRead, ATopCornerFoundFurtherInIsMovedUpToTheFirstRowOnScreen) {
  // 100 rows on screen from row 300 under a border that gives no cell: 1/16 further in the
  // top probe lands five rows down; the rows above it are searched by their extents. Past
  // a header (a tree view's) they are not: there the probe's row stands.
  struct Case {
    const char* what;
    bool header;
    bool border;
    std::int64_t first_row;
  };
  const Case cases[] = {{"a border", false, true, 300}, {"a header", true, false, 305}};
  for (const Case& c : cases) {
    FakeGrid view(50'000, 3, 300, 100, 3, c.header, false, false, c.border);
    testing::Peer peer([&view](sd_bus_message* call) { return view.respond(call); });
    Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
    const ShownRead shown = read_region(pipeline, {50'000, 3}, std::nullopt, 20000);
    EXPECT_EQ(shown.region.first_row, c.first_row) << c.what;
    EXPECT_GE(shown.region.first_row + shown.region.row_count, 399) << c.what;
  }
}

TEST(ShownRegionRead, ABottomCornerFoundFurtherInIsMovedDownToTheLastRowOnScreen) {
  // 100 rows on screen from row 300 (or 99 under a header), the bottom 30 pixels blind:
  // 1/16 further in the bottom probe lands rows short of the last; the rows below it are
  // searched by their extents, to row 399 (398 under the header, where the top corner
  // stands as found: see above). A table whose last row is shown stays as it is.
  struct Case {
    const char* what;
    std::int32_t rows;
    bool header;
    std::int64_t first_row;
    std::int64_t row_count;
  };
  const Case cases[] = {{"no header", 50'000, false, 300, 100},
                        {"a header", 50'000, true, 305, 94},
                        {"the table's end on screen", 400, false, 300, 100}};
  for (const Case& c : cases) {
    FakeGrid view(c.rows, 3, 300, 100, 3, c.header, false, false, false, true);
    testing::Peer peer([&view](sd_bus_message* call) { return view.respond(call); });
    Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
    const ShownRead shown = read_region(pipeline, {c.rows, 3}, std::nullopt, 20000);
    EXPECT_EQ(shown.region.first_row, c.first_row) << c.what;
    EXPECT_EQ(shown.region.row_count, c.row_count) << c.what;
    // Bisection, not a walk.
    EXPECT_LE(view.calls("GetExtents"), 1 + 2 * 17) << c.what;
  }
}

TEST(ShownRegionRead, ATableOutsideTheWindowShowsNothing) {
  FakeGrid sheet(1'048'576, 16'384, 0, 44, 15);
  testing::Peer peer([&sheet](sd_bus_message* call) { return sheet.respond(call); });
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  const ShownRead shown = read_region(pipeline, {1'048'576, 16'384}, Bounds{0, 0, 50, 50}, 20000);
  EXPECT_EQ(shown.region, (ShownRegion{1'048'576, 16'384, 0, 0, 0, 0}));
  EXPECT_TRUE(shown.children.empty());
  EXPECT_EQ(sheet.calls("GetAccessibleAtPoint"), 0);
}

TEST(ShownRegionRead, AListWithinTheBoundIsListed) {
  FakeGrid list(30, 0, 0, 25, 1);
  testing::Peer peer([&list](sd_bus_message* call) { return list.respond(call); });
  Pipeline pipeline(peer.connect(), {}, Clock::now() + 10s);
  auto live = read_live(pipeline, 20000);
  ASSERT_TRUE(live.has_value());
  EXPECT_FALSE(live->too_many.has_value());
  // The fake has no GetChildren: asked, it answers an error, so the children are unknown.
  EXPECT_TRUE(live->children_unread);
  EXPECT_EQ(list.calls("GetChildren"), 1);
}

}  // namespace
}  // namespace companyos::a11y
