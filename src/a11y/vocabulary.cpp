#include "a11y/vocabulary.h"

#include <array>
#include <atspi/atspi.h>

#include "core/glib_handles.h"

namespace companyos::a11y {
namespace {

struct RoleTable {
  std::vector<std::string> names;
  RoleTable() {
    names.reserve(ATSPI_ROLE_LAST_DEFINED);
    for (int role = 0; role < ATSPI_ROLE_LAST_DEFINED; ++role) {
      GCharPtr name(atspi_role_get_name(static_cast<AtspiRole>(role)));
      names.emplace_back(name ? name.get() : "unknown");
    }
  }
};

const RoleTable& roles() {
  static const RoleTable table;  // built once, thread-safe (magic static)
  return table;
}

struct StateTable {
  std::array<std::string, 64> nicks;
  StateTable() {
    auto* enum_class = static_cast<GEnumClass*>(g_type_class_ref(ATSPI_TYPE_STATE_TYPE));
    for (guint i = 0; i < enum_class->n_values; ++i) {
      const GEnumValue& value = enum_class->values[i];
      if (value.value > 0 && value.value < ATSPI_STATE_LAST_DEFINED && value.value < 64) {
        nicks[static_cast<std::size_t>(value.value)] = value.value_nick;
      }
    }
    g_type_class_unref(enum_class);
  }
};

const StateTable& states_table() {
  static const StateTable table;
  return table;
}

}  // namespace

std::uint32_t interface_bit(std::string_view name) {
  constexpr std::string_view kPrefix = "org.a11y.atspi.";
  if (!name.starts_with(kPrefix)) return 0;
  name.remove_prefix(kPrefix.size());
  if (name == "Action") return kInterfaceAction;
  if (name == "Component") return kInterfaceComponent;
  if (name == "Text") return kInterfaceText;
  if (name == "EditableText") return kInterfaceEditableText;
  if (name == "Value") return kInterfaceValue;
  if (name == "Selection") return kInterfaceSelection;
  if (name == "Application") return kInterfaceApplication;
  if (name == "Collection") return kInterfaceCollection;
  if (name == "Table") return kInterfaceTable;
  return 0;
}

const std::string& role_name(std::uint32_t role) {
  static const std::string kUnknown = "unknown";
  const auto& names = roles().names;
  return role < names.size() ? names[role] : kUnknown;
}

std::int64_t role_from_name(std::string_view name) {
  const auto& names = roles().names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<std::int64_t>(i);
  }
  return -1;
}

std::vector<std::string> state_names(StateSet states) {
  std::vector<std::string> names;
  const auto& nicks = states_table().nicks;
  for (std::size_t bit = 0; bit < 64; ++bit) {
    if ((states >> bit) & 1u && !nicks[bit].empty()) names.push_back(nicks[bit]);
  }
  return names;
}

std::optional<int> state_from_name(std::string_view name) {
  if (name.empty()) return std::nullopt;
  const auto& nicks = states_table().nicks;
  for (std::size_t bit = 0; bit < nicks.size(); ++bit) {
    if (nicks[bit] == name) return static_cast<int>(bit);
  }
  return std::nullopt;
}

bool has_state(StateSet states, int atspi_state) {
  return atspi_state >= 0 && atspi_state < 64 && ((states >> atspi_state) & 1u) != 0;
}

StateSet state_set_from_words(const std::uint32_t* words, std::size_t count) {
  StateSet set = 0;
  if (count > 0) set |= words[0];
  if (count > 1) set |= static_cast<StateSet>(words[1]) << 32;
  return set;
}

bool is_password_role(std::uint32_t role) { return role == ATSPI_ROLE_PASSWORD_TEXT; }

}  // namespace companyos::a11y
