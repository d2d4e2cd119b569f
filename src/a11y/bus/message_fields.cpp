#include "a11y/bus/message_fields.h"

#include <cstring>

namespace companyos::a11y {
namespace {

// Enters a container on construction and leaves it on destruction, so every reader
// leaves the message positioned after what it read, whatever path it returns by.
class Container {
 public:
  Container(sd_bus_message* message, char type, const char* contents)
      : message_(message), entered_(sd_bus_message_enter_container(message, type, contents) > 0) {}
  ~Container() {
    if (entered_) sd_bus_message_exit_container(message_);
  }
  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;
  explicit operator bool() const { return entered_; }

 private:
  sd_bus_message* message_;
  bool entered_;
};

template <typename T>
std::optional<T> read_basic(sd_bus_message* message, char type) {
  T value{};
  if (sd_bus_message_read_basic(message, type, &value) <= 0) return std::nullopt;
  return value;
}

std::optional<std::string> read_text(sd_bus_message* message, char type) {
  const char* text = nullptr;
  if (sd_bus_message_read_basic(message, type, &text) <= 0 || text == nullptr) {
    return std::nullopt;
  }
  return std::string(text);
}

template <typename T>
std::optional<T> read_in_variant(sd_bus_message* message, char type) {
  const char contents[2] = {type, '\0'};
  Container variant(message, 'v', contents);
  if (!variant) return std::nullopt;
  return read_basic<T>(message, type);
}

}  // namespace

std::optional<std::string> read_reference_path(sd_bus_message* message) {
  const char* bus_name = nullptr;
  const char* path = nullptr;
  if (sd_bus_message_read(message, "(so)", &bus_name, &path) <= 0) return std::nullopt;
  return std::string(path);
}

std::optional<std::vector<std::string>> read_reference_paths(sd_bus_message* message, std::size_t max_paths) {
  Container array(message, 'a', "(so)");
  if (!array) return std::nullopt;
  std::vector<std::string> paths;
  while (paths.size() < max_paths) {
    auto path = read_reference_path(message);
    if (!path) break;
    paths.push_back(std::move(*path));
  }
  return paths;
}

std::optional<std::uint32_t> read_interface_bits(sd_bus_message* message) {
  Container array(message, 'a', "s");
  if (!array) return std::nullopt;
  std::uint32_t bits = 0;
  const char* name = nullptr;
  while (sd_bus_message_read_basic(message, 's', &name) > 0) bits |= interface_bit(name);
  return bits;
}

std::optional<StateSet> read_state_set(sd_bus_message* message) {
  const void* words = nullptr;
  std::size_t size = 0;
  if (sd_bus_message_read_array(message, 'u', &words, &size) < 0) return std::nullopt;
  return state_set_from_words(static_cast<const std::uint32_t*>(words),
                              size / sizeof(std::uint32_t));
}

std::optional<std::string> read_string(sd_bus_message* message) { return read_text(message, 's'); }

std::optional<std::uint32_t> read_uint32(sd_bus_message* message) {
  return read_basic<std::uint32_t>(message, 'u');
}

std::optional<std::int32_t> read_int32(sd_bus_message* message) {
  return read_basic<std::int32_t>(message, 'i');
}

std::optional<Bounds> read_extents(sd_bus_message* message) {
  Bounds bounds;
  if (sd_bus_message_read(message, "(iiii)", &bounds.x, &bounds.y, &bounds.width,
                          &bounds.height) <= 0) {
    return std::nullopt;
  }
  return bounds;
}

std::optional<std::string> read_variant_string(sd_bus_message* message) {
  Container variant(message, 'v', "s");
  if (!variant) return std::nullopt;
  return read_text(message, 's');
}

std::optional<std::int32_t> read_variant_int32(sd_bus_message* message) {
  return read_in_variant<std::int32_t>(message, 'i');
}

std::optional<double> read_variant_double(sd_bus_message* message) {
  return read_in_variant<double>(message, 'd');
}

std::optional<std::string> read_variant_reference_path(sd_bus_message* message) {
  Container variant(message, 'v', "(so)");
  if (!variant) return std::nullopt;
  return read_reference_path(message);
}

std::optional<std::pair<std::int32_t, std::int32_t>> read_variant_int32_pair(sd_bus_message* message) {
  Container variant(message, 'v', "(ii)");
  if (!variant) return std::nullopt;
  std::pair<std::int32_t, std::int32_t> pair;
  if (sd_bus_message_read(message, "(ii)", &pair.first, &pair.second) <= 0) return std::nullopt;
  return pair;
}

std::optional<std::vector<LocalizedAction>> read_localized_actions(sd_bus_message* message) {
  Container array(message, 'a', "(sss)");
  if (!array) return std::nullopt;
  std::vector<LocalizedAction> actions;
  const char* name = nullptr;
  const char* description = nullptr;
  const char* key_binding = nullptr;
  while (sd_bus_message_read(message, "(sss)", &name, &description, &key_binding) > 0) {
    actions.push_back({name, description});
  }
  return actions;
}

bool read_accessible_properties(sd_bus_message* message, RawNode& node) {
  Container dictionary(message, 'a', "{sv}");
  if (!dictionary) return false;
  for (;;) {
    Container entry(message, 'e', "sv");
    if (!entry) break;
    const char* key = nullptr;
    if (sd_bus_message_read_basic(message, 's', &key) <= 0) return false;
    const char* contents = nullptr;
    if (sd_bus_message_peek_type(message, nullptr, &contents) <= 0) return false;
    const bool is_string = std::strcmp(contents, "s") == 0;
    const bool is_int32 = std::strcmp(contents, "i") == 0;
    if (is_string && std::strcmp(key, "Name") == 0) {
      node.name = read_variant_string(message).value_or(std::string());
    } else if (is_string && std::strcmp(key, "Description") == 0) {
      node.description = read_variant_string(message).value_or(std::string());
    } else if (is_string && std::strcmp(key, "AccessibleId") == 0) {
      node.accessible_id = read_variant_string(message).value_or(std::string());
    } else if (is_int32 && std::strcmp(key, "ChildCount") == 0) {
      node.child_count = read_variant_int32(message).value_or(0);
    } else if (sd_bus_message_skip(message, "v") < 0) {
      return false;
    }
  }
  return true;
}

Result<std::vector<RawNode>> read_get_items(sd_bus_message* reply, std::size_t max_items) {
  auto malformed = [reply] {
    const char* signature = reply ? sd_bus_message_get_signature(reply, 1) : nullptr;
    return make_error(ErrorCode::kInternal, "GetItems reply has an unexpected shape",
                      {{"signature", signature ? signature : "none"}});
  };
  if (reply == nullptr || !sd_bus_message_has_signature(reply, "a((so)(so)(so)iiassusau)")) {
    return malformed();
  }
  Container items(reply, 'a', "((so)(so)(so)iiassusau)");
  if (!items) return malformed();
  std::vector<RawNode> nodes;
  while (nodes.size() < max_items) {
    Container record(reply, 'r', kGetItemsRecord);
    if (!record) break;
    RawNode node;
    const char* bus_name = nullptr;
    const char* path = nullptr;
    const char* app_bus_name = nullptr;
    const char* app_path = nullptr;
    const char* parent_bus_name = nullptr;
    const char* parent_path = nullptr;
    if (sd_bus_message_read(reply, "(so)(so)(so)ii", &bus_name, &path, &app_bus_name, &app_path,
                            &parent_bus_name, &parent_path, &node.index_in_parent,
                            &node.child_count) <= 0) {
      return malformed();
    }
    node.path = path;
    node.parent_path = parent_path;
    auto interfaces = read_interface_bits(reply);
    const char* name = nullptr;
    const char* description = nullptr;
    if (!interfaces ||
        sd_bus_message_read(reply, "sus", &name, &node.role, &description) <= 0) {
      return malformed();
    }
    auto states = read_state_set(reply);
    if (!states) return malformed();
    node.interfaces = *interfaces;
    node.name = name;
    node.description = description;
    node.states = *states;
    nodes.push_back(std::move(node));
  }
  return nodes;
}

}  // namespace companyos::a11y
