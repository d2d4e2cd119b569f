#include "mcp/instructions.h"

namespace companyos::mcp {

const char* const kInstructions =
    "companyOS drives the apps on this Linux desktop through their accessibility interfaces.\n"
    "How to work:\n"
    "- Look before you act: get_app_state shows one window as numbered lines (eN role \"name\" "
    "[states] actions=...). Act on an element by its number N with click, set_value, "
    "perform_action or insert_text.\n"
    "- Numbers belong to the state they came from. Every action answers with the window's new "
    "state; use the numbers of the newest state. A number that no longer fits is refused: read "
    "the state again and find the element by its label.\n"
    "- An action's answer lists only what changed since the state you acted on: '+ ' a new line, "
    "'~ ' a line replacing the one of its number, '- ' a line gone, '= eA-eB unchanged, were "
    "eC-eD' lines whose numbers moved, unmarked lines the containers of a change; every other "
    "line is as it was, with its number. Pass full: true for the whole state.\n"
    "- Prefer the element's own action (click, set_value) to keys (type, keypress) and to a click "
    "on a point of the picture (click with x and y): keys go to whatever has the focus, a point "
    "names no element, and both need the person's permission for physical input.\n"
    "- Read the first line of every answer. \"Done (...), and read back.\" means the effect was "
    "checked. \"...nothing confirmed the effect.\" means it was sent but not checked: look at the "
    "new state before you say it worked. \"Nothing was done: ...\" means nothing happened; the "
    "line says what to do.\n"
    "- Two elements that look the same (twin=N) are refused, never guessed: pass within, the "
    "number of an element above the one you mean that holds only it (a line ending "
    "\"twin=N within e5\" names it: within 5).\n"
    "- A spreadsheet's sheet is a table line (\"rows 1-46 of 1,048,576, columns A-O ... shown\") "
    "with one line per row of the cells on screen (\"row 3: A3 \\\"11\\\" | B3 ...\"). Act on any cell, "
    "shown or not, by the table's number with cell: \"B3\"; a formula is a value starting with =. "
    "get_app_state with cells: \"B3\" reads a cell's formula, cells: \"A1:C10\" a range.\n"
    "- App not running? open_app starts it and answers with its state.\n"
    "Rules that never bend:\n"
    "- Do not send, submit, buy, delete, or change an account or a setting unless the person "
    "asked for exactly that.\n"
    "- Password managers are off limits, and password text is never shown.\n"
    "- Never claim an effect that the state does not show.\n";

}  // namespace companyos::mcp
