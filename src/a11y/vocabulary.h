// AT-SPI vocabulary: role and state names (from libatspi's enums), and the interface set a
// bridge lists for an accessible, kept as bits so per-node checks are cheap.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace companyos::a11y {

using StateSet = std::uint64_t;  // bit i = AtspiStateType i, as GetState/GetItems send it

enum InterfaceBit : std::uint32_t {
  kInterfaceAction = 1u << 0,
  kInterfaceComponent = 1u << 1,
  kInterfaceText = 1u << 2,
  kInterfaceEditableText = 1u << 3,
  kInterfaceValue = 1u << 4,
  kInterfaceSelection = 1u << 5,
  kInterfaceApplication = 1u << 6,
  kInterfaceCollection = 1u << 7,
  kInterfaceTable = 1u << 8,
};

// "org.a11y.atspi.Action" → kInterfaceAction; interfaces we do not use map to 0.
std::uint32_t interface_bit(std::string_view dbus_interface_name);

// "push button" for ATSPI_ROLE_PUSH_BUTTON; "unknown" for values libatspi does not know.
const std::string& role_name(std::uint32_t role);
// Inverse of role_name, for queries by role; -1 when no role has that name.
std::int64_t role_from_name(std::string_view name);

// State nicks in enum order, e.g. {"enabled", "focusable", "multi-line"}.
std::vector<std::string> state_names(StateSet states);
// Inverse of state_names for one state: the AtspiStateType of a state name as snapshots
// print it ("checked", "multi-line"); nullopt for any other name ("Checked", "invalid",
// "last-defined").
std::optional<int> state_from_name(std::string_view name);
bool has_state(StateSet states, int atspi_state);
// Two 32-bit words as sent on the wire (low word first).
StateSet state_set_from_words(const std::uint32_t* words, std::size_t count);

bool is_password_role(std::uint32_t role);

}  // namespace companyos::a11y
