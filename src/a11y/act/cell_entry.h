// How a spreadsheet's cell takes a value: as a person enters one. LibreOffice Calc's cells
// offer Text and Value but no EditableText, and a Value set as a number cannot carry text
// or a formula; what Calc honours is its input line (measured on Calc 7.4): the cell takes
// the cursor (Component.GrabFocus, any cell, shown or not), the input line's paragraph
// takes the text (EditableText.SetTextContents), and the formula bar's Accept button
// commits it — a number, text or a formula alike, each parsed by Calc as if typed.
// The formula bar is found by its shape, not its (translated) names: the tool bar that
// holds an editable multi-line paragraph; Accept is its last push button of its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "a11y/act/action_readback.h"
#include "a11y/bus/pipeline.h"
#include "a11y/model.h"

namespace companyos::a11y {

struct InputLine {
  std::string paragraph_path;  // the text being entered
  Node accept;                 // commits it into the cell with the cursor
};

// The window's input line in a structure read of it, or nullopt when it shows none.
std::optional<InputLine> find_input_line(const Snapshot& window);

// What an entry shows it took: a formula (ASKED starts with "=") by the formula the input
// line shows for the cell (it keeps the cursor), anything else by the text the cell shows.
// secret: compared, never copied.
Verification verify_cell_entry(std::string_view asked, const std::optional<std::string>& shown,
                               const std::optional<std::string>& formula, bool secret);

}  // namespace companyos::a11y
