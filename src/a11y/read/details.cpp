#include "a11y/read/details.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <unordered_map>

#include <atspi/atspi.h>
#include <glib.h>

#include "a11y/bus.h"
#include "a11y/bus/message_fields.h"

namespace companyos::a11y {
namespace {

constexpr const char* kActionInterface = "org.a11y.atspi.Action";
constexpr const char* kSelectionInterface = "org.a11y.atspi.Selection";

bool is_content_role(std::uint32_t role) {
  switch (role) {
    case ATSPI_ROLE_TEXT:
    case ATSPI_ROLE_ENTRY:
    case ATSPI_ROLE_TERMINAL:
    case ATSPI_ROLE_PARAGRAPH:
    case ATSPI_ROLE_EDITBAR:
    case ATSPI_ROLE_DOCUMENT_FRAME:
    case ATSPI_ROLE_DOCUMENT_TEXT:
    case ATSPI_ROLE_DOCUMENT_WEB:
    case ATSPI_ROLE_DOCUMENT_EMAIL:
    case ATSPI_ROLE_DOCUMENT_SPREADSHEET:
    case ATSPI_ROLE_DOCUMENT_PRESENTATION:
      return true;
    default:
      return false;
  }
}

// At most limit characters of text (UTF-8), cut at a character boundary.
std::string first_characters(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;  // bytes >= characters
  if (static_cast<std::size_t>(g_utf8_strlen(text.data(), static_cast<gssize>(text.size()))) <=
      limit) {
    return text;
  }
  const char* end = g_utf8_offset_to_pointer(text.data(), static_cast<glong>(limit));
  text.resize(static_cast<std::size_t>(end - text.data()));
  return text;
}

// Nodes whose GetActions answers are identical (role, localized names and descriptions)
// are one kind of control of one toolkit, and their stable names are the same: GetName is
// asked of one of them, and the others wait for its answer instead of asking too.
struct ControlKind {
  enum class State { kReading, kKnown, kPerNode };
  State state = State::kReading;
  const Node* asked = nullptr;  // the node GetName went to
  std::vector<std::string> names;
  std::size_t outstanding = 0;
  bool failed = false;
  std::vector<Node*> waiting;
};

// Starts the planned reads of nodes on one pipeline; nodes of one kind share their GetName
// reads. A node must stay in place until the pipeline's wait() has returned.
class DetailReader {
 public:
  DetailReader(Pipeline& pipeline, const DetailOptions& options, const ToolkitTraits& toolkit)
      : pipeline_(pipeline), options_(options), toolkit_(toolkit) {}

  void start(Node& node, const DetailPlan& plan) {
    if (plan.bounds) read_bounds(node);
    if (plan.actions) read_actions(node);
    if (plan.accessible_id) read_accessible_id(node);
    switch (plan.value) {
      case ValueSource::kWithheld:
        node.value_withheld = true;
        break;
      case ValueSource::kValue:
        read_value(node);
        break;
      case ValueSource::kText:
        if (plan.whole_text_in_one_call) {
          read_whole_text(node);
        } else {
          read_counted_text(node);
        }
        break;
      case ValueSource::kSelectedChild:
        read_selected_child_name(node);
        break;
      case ValueSource::kNone:
        break;
    }
  }

 private:
  void read_bounds(Node& node) {
    pipeline_.call(node.path.c_str(), "org.a11y.atspi.Component", "GetExtents",
                   [&node](sd_bus_message* reply) {
                     if (error_name(reply) != nullptr) return;
                     auto bounds = read_extents(reply);
                     // GTK3 reports offscreen nodes at INT_MIN: no position to give.
                     if (bounds && bounds->x != std::numeric_limits<std::int32_t>::min() &&
                         bounds->y != std::numeric_limits<std::int32_t>::min()) {
                       node.bounds = bounds;
                     }
                   },
                   "u", toolkit_.extents_coord_type);
  }

  void read_actions(Node& node) {
    if (!toolkit_.action_list_in_one_call) {
      pipeline_.call(node.path.c_str(), kPropertiesInterface, "Get",
                     [this, &node](sd_bus_message* reply) {
                       if (error_name(reply) != nullptr) return;
                       const int count = read_variant_int32(reply).value_or(0);
                       if (count > 0) read_names_of(node, std::min<std::size_t>(count, kMaxActionsPerNode));
                     },
                     "ss", kActionInterface, "NActions");
      return;
    }
    pipeline_.call(node.path.c_str(), kActionInterface, "GetActions",
                   [this, &node](sd_bus_message* reply) {
                     if (error_name(reply) != nullptr) return;
                     auto localized = read_localized_actions(reply);
                     if (!localized || localized->empty()) return;
                     if (options_.action_names_per_node || !toolkit_.action_names_shared_by_kind) {
                       read_names_of(node, localized->size());
                     } else {
                       on_kind(node, *localized);
                     }
                   });
  }

  void on_kind(Node& node, const std::vector<LocalizedAction>& localized) {
    std::string key = std::to_string(node.role);
    for (const LocalizedAction& action : localized) {
      key.push_back('\0');
      key += action.name;
      key.push_back('\x1f');
      key += action.description;
    }
    auto [found, added] = kinds_.try_emplace(std::move(key));
    ControlKind& kind = found->second;
    if (added) {
      read_kind_names(kind, node, localized.size());
      return;
    }
    switch (kind.state) {
      case ControlKind::State::kKnown:
        node.actions = kind.names;
        break;
      case ControlKind::State::kReading:
        kind.waiting.push_back(&node);
        break;
      case ControlKind::State::kPerNode:
        read_names_of(node, localized.size());
        break;
    }
  }

  // GetName(i) of one node of the kind; once all have answered, every node of the kind
  // gets the names — or, if that node failed to answer (it may have just gone away), each
  // other node asks for its own.
  void read_kind_names(ControlKind& kind, Node& node, std::size_t count) {
    kind.asked = &node;
    kind.names.assign(count, std::string());
    kind.outstanding = count;
    kind.waiting.push_back(&node);
    for (std::size_t i = 0; i < count; ++i) {
      pipeline_.call(node.path.c_str(), kActionInterface, "GetName",
                     [this, &kind, i, count](sd_bus_message* reply) {
                       auto name = error_name(reply) ? std::nullopt : read_string(reply);
                       if (name) {
                         kind.names[i] = std::move(*name);
                       } else {
                         kind.failed = true;
                       }
                       if (--kind.outstanding > 0) return;
                       const std::vector<Node*> waiting = std::exchange(kind.waiting, {});
                       kind.state = kind.failed ? ControlKind::State::kPerNode
                                                : ControlKind::State::kKnown;
                       for (Node* member : waiting) {
                         if (!kind.failed) {
                           member->actions = kind.names;
                         } else if (member != kind.asked) {
                           read_names_of(*member, count);
                         }
                       }
                     },
                     "i", static_cast<std::int32_t>(i));
    }
  }

  void read_names_of(Node& node, std::size_t count) {
    node.actions.assign(count, std::string());
    for (std::size_t i = 0; i < count; ++i) {
      pipeline_.call(node.path.c_str(), kActionInterface, "GetName",
                     [&node, i](sd_bus_message* reply) {
                       if (error_name(reply) != nullptr) return;
                       if (auto name = read_string(reply); name && i < node.actions.size()) {
                         node.actions[i] = std::move(*name);
                       }
                     },
                     "i", static_cast<std::int32_t>(i));
    }
  }

  void read_accessible_id(Node& node) {
    pipeline_.call(node.path.c_str(), kPropertiesInterface, "Get",
                   [&node](sd_bus_message* reply) {
                     if (error_name(reply) != nullptr) return;
                     node.accessible_id = read_variant_string(reply).value_or(std::string());
                     node.accessible_id_known = true;
                   },
                   "ss", kAccessibleInterface, "AccessibleId");
  }

  void read_value(Node& node) {
    pipeline_.call(node.path.c_str(), kPropertiesInterface, "Get",
                   [&node](sd_bus_message* reply) {
                     if (error_name(reply) != nullptr) return;
                     if (auto value = read_variant_double(reply)) node.value = format_value(*value);
                   },
                   "ss", "org.a11y.atspi.Value", "CurrentValue");
  }

  // Selection.GetSelectedChild(0), then that child's name: two calls, so one element read
  // alone (get) has it as a snapshot does.
  void read_selected_child_name(Node& node) {
    pipeline_.call(node.path.c_str(), kSelectionInterface, "GetSelectedChild",
                   [this, &node](sd_bus_message* reply) {
                     if (error_name(reply) != nullptr) return;
                     auto child = read_reference_path(reply);
                     if (!child || *child == kNullObjectPath) return;
                     pipeline_.call(child->c_str(), kPropertiesInterface, "Get",
                                    [&node](sd_bus_message* name) {
                                      if (error_name(name) != nullptr) return;
                                      if (auto read = read_variant_string(name)) node.value = std::move(*read);
                                    },
                                    "ss", kAccessibleInterface, "Name");
                   },
                   "i", std::int32_t{0});
  }

  void read_whole_text(Node& node) {
    pipeline_.call(node.path.c_str(), kTextInterface, "GetText",
                   [this, &node](sd_bus_message* reply) {
                     if (error_name(reply) != nullptr) return;
                     if (auto text = read_string(reply)) {
                       node.value = first_characters(std::move(*text), options_.text_limit);
                     }
                   },
                   "ii", std::int32_t{0}, std::int32_t{-1});
  }

  void read_counted_text(Node& node) {
    pipeline_.call(node.path.c_str(), kPropertiesInterface, "Get",
                   [this, &node](sd_bus_message* reply) {
                     if (error_name(reply) != nullptr) return;
                     const int characters = read_variant_int32(reply).value_or(-1);
                     if (characters < 0) return;
                     if (characters == 0) {
                       node.value = std::string();
                       return;
                     }
                     const auto end = static_cast<std::int32_t>(std::min<std::size_t>(
                         static_cast<std::size_t>(characters), options_.text_limit));
                     pipeline_.call(node.path.c_str(), kTextInterface, "GetText",
                                    [&node](sd_bus_message* text) {
                                      if (error_name(text) != nullptr) return;
                                      if (auto read = read_string(text)) {
                                        node.value = std::move(*read);
                                      }
                                    },
                                    "ii", std::int32_t{0}, end);
                   },
                   "ss", kTextInterface, "CharacterCount");
  }

  Pipeline& pipeline_;
  const DetailOptions& options_;
  const ToolkitTraits& toolkit_;
  std::unordered_map<std::string, ControlKind> kinds_;
};

}  // namespace

std::string format_value(double value) {
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return ec == std::errc() ? std::string(text, end) : std::string();
}

ValueSource value_source(std::uint32_t role, std::uint32_t interfaces) {
  if (is_password_role(role)) return ValueSource::kWithheld;
  // A spreadsheet's cell offers both: its Value is the number behind it (0 for a cell of
  // text, or an empty one), its Text what it shows.
  if (role == ATSPI_ROLE_TABLE_CELL && (interfaces & kInterfaceText)) return ValueSource::kText;
  if (interfaces & kInterfaceValue) return ValueSource::kValue;
  if (interfaces & kInterfaceText) return ValueSource::kText;
  if (role == ATSPI_ROLE_COMBO_BOX && (interfaces & kInterfaceSelection)) return ValueSource::kSelectedChild;
  return ValueSource::kNone;
}

bool text_is_value(std::uint32_t role, std::uint32_t interfaces, StateSet states,
                   std::string_view name) {
  if (!(interfaces & kInterfaceText) || is_password_role(role)) return false;
  if ((interfaces & kInterfaceEditableText) || has_state(states, ATSPI_STATE_EDITABLE)) {
    return true;
  }
  return is_content_role(role) || name.empty();
}

DetailPlan plan_details(const Node& node, const DetailOptions& options,
                        const ToolkitTraits& toolkit) {
  DetailPlan plan;
  plan.bounds = (node.interfaces & kInterfaceComponent) &&
                (!toolkit.showing_means_on_screen || has_state(node.states, ATSPI_STATE_SHOWING));
  plan.actions = (node.interfaces & kInterfaceAction) != 0;
  plan.accessible_id = options.accessible_id;
  plan.value = value_source(node.role, node.interfaces);
  if (plan.value == ValueSource::kText && options.text_values == TextValues::kWhereTextIsTheValue &&
      !text_is_value(node.role, node.interfaces, node.states, node.name)) {
    plan.value = value_source(node.role, node.interfaces & ~kInterfaceText);
  }
  // Only single-line text: a document can be far longer than the limit, and only a
  // counted read stops at the limit inside the app.
  plan.whole_text_in_one_call = plan.value == ValueSource::kText &&
                                toolkit.whole_text_with_minus_one &&
                                has_state(node.states, ATSPI_STATE_SINGLE_LINE);
  return plan;
}

bool read_details(Pipeline& pipeline, std::vector<Node>& nodes, const DetailOptions& options,
                  const ToolkitTraits& toolkit, const std::vector<bool>& read_ids) {
  DetailReader reader(pipeline, options, toolkit);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    DetailPlan plan = plan_details(nodes[i], options, toolkit);
    if (i < read_ids.size()) plan.accessible_id = read_ids[i];
    reader.start(nodes[i], plan);
  }
  const bool complete = pipeline.wait();
  // Names stay at their action's index; only empty ones at the end are dropped.
  for (Node& node : nodes) {
    while (!node.actions.empty() && node.actions.back().empty()) node.actions.pop_back();
  }
  return complete;
}

}  // namespace companyos::a11y
