#include "x11/clipboard.h"

#include <algorithm>
#include <array>
#include <climits>

#include "core/text.h"
#include "x11/own_window.h"
#include "x11/properties.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::array<std::string_view, 8> kMetaTargets = {
    "TARGETS", "MULTIPLE", "TIMESTAMP", "DELETE", "SAVE_TARGETS", "INSERT_SELECTION", "INSERT_PROPERTY",
    "_GTK_TEXT_BUFFER_CONTENTS"};  // GTK's in-process rich text: a pointer, useless to keep

constexpr std::string_view kPlainUtf8 = "text/plain;charset=utf-8";
constexpr std::string_view kSecretHint = "x-kde-passwordManagerHint";

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

const SelectionTarget* find_target(const ClipboardContents& contents, std::string_view name) {
  for (const SelectionTarget& target : contents.targets) {
    if (target.name == name) return &target;
  }
  return nullptr;
}

struct Property {
  Atom type = None;
  int format = 8;
  std::string data;
};

// Reads and deletes `property` of `window`, whole.
std::optional<Property> take_property(Display* display, Window window, Atom property) {
  Atom type = None;
  int format = 0;
  unsigned long items = 0;
  unsigned long after = 0;
  unsigned char* raw = nullptr;
  if (XGetWindowProperty(display, window, property, 0, LONG_MAX / 4, True, AnyPropertyType, &type, &format, &items,
                         &after, &raw) != Success) {
    return std::nullopt;
  }
  XPtr<unsigned char> owned(raw);
  if (type == None) return std::nullopt;
  Property read{type, format == 0 ? 8 : format, {}};
  if (raw != nullptr) read.data.assign(reinterpret_cast<const char*>(raw), items * property_item_size(read.format));
  return read;
}

class Reader {
 public:
  Reader(Connection& connection, SteadyClock::time_point deadline)
      : connection_(connection), display_(connection.display()), window_(display_), deadline_(deadline),
        clipboard_(connection.atom("CLIPBOARD")), property_(connection.atom("_COMPANYOS_CLIPBOARD")),
        incr_(connection.atom("INCR")) {}

  // The target converted; nullopt when the owner refused it. TIMEOUT when it never answered.
  Result<std::optional<Property>> convert(const std::string& target, std::size_t budget) {
    const Atom target_atom = connection_.atom(target.c_str());
    XDeleteProperty(display_, window_.get(), property_);
    XConvertSelection(display_, clipboard_, target_atom, property_, window_.get(), CurrentTime);
    XFlush(display_);
    XEvent event{};
    if (!wait_for_window_event(connection_, window_.get(), SelectionNotify, deadline_, event, [&](const XEvent& e) {
          return e.xselection.selection == clipboard_ && e.xselection.target == target_atom;
        })) {
      return timed_out("the clipboard's owner did not answer for " + target + " in time", target);
    }
    if (event.xselection.property == None) return std::optional<Property>{};
    auto read = take_property(display_, window_.get(), property_);
    if (!read) return std::optional<Property>{};
    if (read->type != incr_) {
      if (read->data.size() > budget) return too_big();
      return read;
    }
    return incremental(target, budget);
  }

 private:
  static Error timed_out(std::string message, const std::string& target) {
    return make_error(ErrorCode::kTimeout, std::move(message), {{"target", target}},
                      "the app that owns the clipboard may be busy; try again");
  }

  static Error too_big() {
    return make_error(ErrorCode::kInvalidArgs,
                      "the clipboard holds more than " + std::to_string(kMaxClipboardBytes >> 20) + " MiB",
                      {{"reason", "too_big"}});
  }

  // ICCCM INCR: taking the INCR property started the transfer; each chunk arrives as a new
  // value of the property, and an empty one ends it. The whole transfer shares the read's
  // one deadline: an owner that drips a byte now and then cannot hold the read open.
  Result<std::optional<Property>> incremental(const std::string& target, std::size_t budget) {
    Property whole;
    for (;;) {
      XEvent event{};
      if (!wait_for_window_event(connection_, window_.get(), PropertyNotify, deadline_, event, [&](const XEvent& e) {
            return e.xproperty.atom == property_ && e.xproperty.state == PropertyNewValue;
          })) {
        return timed_out("the clipboard's owner did not finish sending " + target + " in time", target);
      }
      auto chunk = take_property(display_, window_.get(), property_);
      if (!chunk) continue;
      if (chunk->data.empty()) return std::optional<Property>{std::move(whole)};
      whole.type = chunk->type;
      whole.format = chunk->format;
      whole.data += chunk->data;
      if (whole.data.size() > budget) return too_big();
    }
  }

  Connection& connection_;
  Display* display_;
  OwnWindow window_;  // conversions and INCR chunks arrive as its properties
  SteadyClock::time_point deadline_;  // of the whole read, every target and chunk
  Atom clipboard_;
  Atom property_;
  Atom incr_;
};

// The atoms of a format 32 ATOM property, by name.
std::vector<std::string> atom_names(Connection& connection, const Property& property) {
  std::vector<std::string> names;
  if (property.format != 32) return names;
  const std::size_t count = property.data.size() / sizeof(long);
  for (std::size_t i = 0; i < count; ++i) {
    long atom = 0;
    std::copy_n(property.data.data() + i * sizeof(long), sizeof(long), reinterpret_cast<char*>(&atom));
    if (atom == None) continue;
    std::string name = atom_name(connection, static_cast<Atom>(atom));
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  return names;
}

}  // namespace

std::size_t property_item_size(int format) {
  if (format == 16) return sizeof(short);
  if (format == 32) return sizeof(long);
  return 1;
}

bool is_meta_target(std::string_view name) {
  return std::find(kMetaTargets.begin(), kMetaTargets.end(), name) != kMetaTargets.end();
}

ClipboardContents text_contents(std::string_view text) {
  ClipboardContents contents;
  contents.owned = true;
  const std::string bytes(text);
  contents.targets = {{"UTF8_STRING", "UTF8_STRING", 8, bytes},
                      {std::string(kPlainUtf8), std::string(kPlainUtf8), 8, bytes},
                      {"TEXT", "UTF8_STRING", 8, bytes}};
  if (is_ascii(text)) {
    contents.targets.push_back({"STRING", "STRING", 8, bytes});
    contents.targets.push_back({"text/plain", "text/plain", 8, bytes});
  }
  return contents;
}

std::optional<std::string> text_of(const ClipboardContents& contents) {
  for (std::string_view name : {std::string_view("UTF8_STRING"), kPlainUtf8}) {
    if (const SelectionTarget* target = find_target(contents, name); target && is_valid_utf8(target->data)) {
      return target->data;
    }
  }
  if (const SelectionTarget* target = find_target(contents, "STRING"); target && is_ascii(target->data)) {
    return target->data;
  }
  return std::nullopt;
}

bool marked_secret(const ClipboardContents& contents) {
  return find_target(contents, kSecretHint) != nullptr;
}

ConversionAnswer answer_conversion(const ClipboardContents& contents, std::string_view target, std::size_t max_bytes) {
  if (target == "TARGETS") return {ConversionAnswer::Kind::kTargets};
  if (target == "TIMESTAMP") return {ConversionAnswer::Kind::kTimestamp};
  if (is_meta_target(target)) return {};
  const SelectionTarget* found = find_target(contents, target);
  if (found == nullptr || found->data.size() > max_bytes) return {};
  return {ConversionAnswer::Kind::kData, found};
}

std::vector<std::string> offered_targets(const ClipboardContents& contents) {
  std::vector<std::string> names = {"TARGETS", "TIMESTAMP"};
  for (const SelectionTarget& target : contents.targets) names.push_back(target.name);
  return names;
}

Result<ClipboardContents> read_clipboard(Connection& connection, ClipboardRead what,
                                         std::chrono::steady_clock::time_point deadline) {
  if (auto alive = connection.check_alive(); !alive) return std::move(alive).take_error();
  Display* display = connection.display();
  ClipboardContents contents;
  contents.owned = XGetSelectionOwner(display, connection.atom("CLIPBOARD")) != None;
  if (!contents.owned) return contents;

  Reader reader(connection, deadline);
  // What the owner lists. Some owners (xclip) answer any target with their one content, so
  // only listed targets are asked for; an owner that lists nothing is asked for text anyway.
  auto listed = reader.convert("TARGETS", kMaxClipboardBytes);
  if (!listed) return std::move(listed).take_error();
  std::vector<std::string> names = *listed ? atom_names(connection, **listed) : std::vector<std::string>{};
  names.erase(std::remove_if(names.begin(), names.end(), [](const std::string& name) { return is_meta_target(name); }),
              names.end());
  const auto lists = [&](std::string_view name) { return std::find(names.begin(), names.end(), name) != names.end(); };
  std::vector<std::string> wanted;
  if (what == ClipboardRead::kAll) {
    wanted = names;
  } else {
    if (lists(kSecretHint)) wanted.emplace_back(kSecretHint);
    for (std::string_view text : {std::string_view("UTF8_STRING"), kPlainUtf8, std::string_view("STRING")}) {
      if (names.empty() || lists(text)) wanted.emplace_back(text);
    }
  }
  std::size_t budget = kMaxClipboardBytes;
  for (const std::string& name : wanted) {
    auto converted = reader.convert(name, budget);
    if (!converted) return std::move(converted).take_error();
    if (!*converted) {
      contents.unread.push_back(name);
      continue;
    }
    budget -= (*converted)->data.size();
    contents.targets.push_back(
        {name, atom_name(connection, (*converted)->type), (*converted)->format, std::move((*converted)->data)});
    // A text read needs one text target (the hint, when listed, comes first).
    if (what == ClipboardRead::kText && name != kSecretHint && text_of(contents)) break;
  }
  return contents;
}

}  // namespace companyos::x11
