#include "x11/key_chord.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "core/text.h"

namespace companyos::x11 {
namespace {

enum class ModifierKind { kCtrl, kAlt, kShift, kSuper };

constexpr std::array<std::pair<std::string_view, ModifierKind>, 8> kModifierNames{{
    {"ctrl", ModifierKind::kCtrl},
    {"control", ModifierKind::kCtrl},
    {"cmdorctrl", ModifierKind::kCtrl},
    {"alt", ModifierKind::kAlt},
    {"shift", ModifierKind::kShift},
    {"super", ModifierKind::kSuper},
    {"meta", ModifierKind::kSuper},
    {"win", ModifierKind::kSuper},
}};

std::string lowercase(std::string_view text) {
  std::string lower(text);
  std::ranges::transform(lower, lower.begin(),
                         [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

std::optional<ModifierKind> modifier_named(std::string_view name) {
  const std::string lower = lowercase(name);
  for (const auto& [spelling, kind] : kModifierNames) {
    if (lower == spelling) return kind;
  }
  return std::nullopt;
}

bool& flag_for(Modifiers& modifiers, ModifierKind kind) {
  switch (kind) {
    case ModifierKind::kCtrl:
      return modifiers.ctrl;
    case ModifierKind::kAlt:
      return modifiers.alt;
    case ModifierKind::kShift:
      return modifiers.shift;
    case ModifierKind::kSuper:
      return modifiers.super;
  }
  return modifiers.ctrl;
}

std::string_view trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t";
  const auto first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(kSpace);
  return text.substr(first, last - first + 1);
}

std::vector<std::string_view> split_on_plus(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const auto plus = text.find('+', start);
    parts.push_back(trim(text.substr(start, plus - start)));
    if (plus == std::string_view::npos) return parts;
    start = plus + 1;
  }
}

std::optional<Keysym> single_character(std::string_view text) {
  const auto code_points = decode_utf8(text);
  if (!code_points || code_points->size() != 1) return std::nullopt;
  return keysym_for_code_point(code_points->front());
}

Error chord_error(std::string message, std::string_view chord, nlohmann::json details = {},
                  std::string suggestion = {}) {
  if (!details.is_object()) details = nlohmann::json::object();
  details["chord"] = std::string(chord);
  if (suggestion.empty()) suggestion = "write modifiers then one key, e.g. ctrl+shift+t";
  return make_error(ErrorCode::kInvalidArgs, std::move(message), std::move(details),
                    std::move(suggestion));
}

}  // namespace

Result<KeyChord> parse_key_chord(std::string_view text, const KeysymLookup& x_keysym) {
  const std::string quoted = "'" + std::string(text) + "'";
  if (trim(text).empty()) return chord_error("the key chord is empty", text);
  const auto parts = split_on_plus(text);
  if (std::ranges::any_of(parts, [](std::string_view part) { return part.empty(); })) {
    return chord_error("key chord " + quoted + " has an empty part", text, {},
                       "write keys such as '+' by name, e.g. ctrl+plus");
  }

  KeyChord chord;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    const auto kind = modifier_named(parts[i]);
    if (!kind) {
      return chord_error("'" + std::string(parts[i]) + "' in " + quoted + " is not a modifier",
                         text, {{"modifier", std::string(parts[i])}},
                         "modifiers are ctrl, alt, shift, super and cmdorctrl; the key comes last");
    }
    bool& flag = flag_for(chord.modifiers, *kind);
    if (flag) {
      return chord_error(
          "key chord " + quoted + " repeats the modifier '" + std::string(parts[i]) + "'", text,
          {{"modifier", std::string(parts[i])}});
    }
    flag = true;
  }

  const std::string_view key = parts.back();
  if (modifier_named(key)) {
    return chord_error("key chord " + quoted + " has modifiers but no key", text);
  }
  if (auto keysym = friendly_keysym(key)) {
    chord.key = *keysym;
  } else if (auto character = single_character(key)) {
    chord.key = *character;
  } else if (auto named = x_keysym(key)) {
    chord.key = *named;
  } else {
    return chord_error("unknown key '" + std::string(key) + "' in " + quoted, text,
                       {{"key", std::string(key)}},
                       "use enter, esc, tab, space, backspace, delete, arrows, home, end, "
                       "pageup, pagedown, f1…f24, one character, or an X keysym name");
  }
  return chord;
}

std::string to_string(const KeyChord& chord) {
  std::string text;
  if (chord.modifiers.ctrl) text += "ctrl+";
  if (chord.modifiers.alt) text += "alt+";
  if (chord.modifiers.shift) text += "shift+";
  if (chord.modifiers.super) text += "super+";
  return text + keysym_name(chord.key);
}

}  // namespace companyos::x11
