// How a spreadsheet's cell takes a value: as a person enters one. LibreOffice Calc's cells
// offer Text and Value but no EditableText, and a Value set as a number cannot carry text
// or a formula; what Calc honours is its input line (measured on Calc 7.4): the cell takes
// the cursor (Component.GrabFocus, any cell, shown or not), the input line's paragraph
// takes the text (EditableText.SetTextContents), and the formula bar's Accept button
// commits it — a number, text or a formula alike, each parsed by Calc as if typed.
// The formula bar is found by its shape, not its (translated) names: the tool bar that
// holds an editable multi-line paragraph; Accept is its last push button of its own.
// A plain number goes faster by the cell's Value: Calc 7.4 sets it as an edit of the
// document (undoable, dependents recalculated) without entering edit mode, whose tool bar
// rebuild costs Calc about 55 ms an entry. Typed, a number takes the cell's format too;
// where the cell then shows anything but the number as given (5 in a percent cell shows
// 500%), the input line enters it again as typed, so the cell ends as the keyboard leaves it.
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

// The number TEXT spells when Calc's General format shows it back exactly as given: an
// optional "-", an integer without leading zeros, an optional "." and digits not ending
// in 0, at most 15 significant digits (all a double keeps). nullopt for anything else —
// "+1", "1.50", "1e3", "-0", "1,5", " 1" — which goes through the input line as typed.
std::optional<double> plain_number(std::string_view text);

// The window's input line in a structure read of it, or nullopt when it shows none.
std::optional<InputLine> find_input_line(const Snapshot& window);

// What an entry shows it took: a formula (ASKED starts with "=") by the formula the input
// line shows for the cell (it keeps the cursor), anything else by the text the cell shows.
// secret: compared, never copied.
Verification verify_cell_entry(std::string_view asked, const std::optional<std::string>& shown,
                               const std::optional<std::string>& formula, bool secret);

}  // namespace companyos::a11y
