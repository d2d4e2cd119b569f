#include "a11y/act/action_live_read.h"

#include <limits>
#include <memory>

#include <atspi/atspi.h>

#include "a11y/bus.h"
#include "a11y/bus/message_fields.h"
#include "a11y/read/details.h"

namespace companyos::a11y {
namespace {

constexpr const char* kActionInterface = "org.a11y.atspi.Action";
constexpr const char* kValueInterface = "org.a11y.atspi.Value";
constexpr const char* kSelectionInterface = "org.a11y.atspi.Selection";

std::optional<bool> read_boolean(sd_bus_message* reply) {
  int value = 0;
  if (sd_bus_message_read_basic(reply, 'b', &value) <= 0) return std::nullopt;
  return value != 0;
}

std::optional<std::int32_t> read_int32(sd_bus_message* reply) {
  std::int32_t value = 0;
  if (sd_bus_message_read_basic(reply, 'i', &value) <= 0) return std::nullopt;
  return value;
}

bool is_int_min(int coordinate) { return coordinate == std::numeric_limits<std::int32_t>::min(); }

class ElementReader {
 public:
  ElementReader(Pipeline& pipeline, const Node& known, const ToolkitTraits& toolkit)
      : pipeline_(pipeline), known_(known), toolkit_(toolkit) {
    result_.reading.node.path = known.path;
  }

  ReadResult read(const LiveReadNeeds& needs) {
    if (needs.identity) read_identity();
    if (needs.states || needs.bounds) read_states();
    if (needs.bounds && (known_.interfaces & kInterfaceComponent)) read_bounds();
    if (needs.actions && (known_.interfaces & kInterfaceAction)) read_actions();
    if (needs.index_in_parent) {
      ask(kAccessibleInterface, "GetIndexInParent", [this](sd_bus_message* reply) {
        result_.reading.index_in_parent = read_int32(reply).value_or(-1);
      });
    }
    const bool text_allowed =
        (known_.interfaces & kInterfaceText) && !is_password_role(known_.role);
    if ((needs.text && text_allowed) || needs.character_count) read_count(needs.text && text_allowed);
    if (needs.caret && (known_.interfaces & kInterfaceText)) {
      get_property(kTextInterface, "CaretOffset", [this](sd_bus_message* reply) {
        result_.reading.caret = read_variant_int32(reply);
      });
    }
    if (known_.interfaces & kInterfaceValue) {
      if (needs.value) read_number("CurrentValue", result_.reading.value);
      if (needs.value_range) {
        read_number("MinimumValue", result_.reading.minimum);
        read_number("MaximumValue", result_.reading.maximum);
      }
    }
    const bool complete = pipeline_.wait();
    if (needs.identity) {
      Node& node = result_.reading.node;
      node.name = name_as_shown(toolkit_, node.role, std::move(node.name));
    }
    if (gone_) {
      result_.status = ReadStatus::kGone;
    } else if (!complete) {
      result_.status = pipeline_.disconnected() ? ReadStatus::kDisconnected : ReadStatus::kUnanswered;
    }
    if (needs.bounds) apply_bounds_rule();
    return std::move(result_);
  }

 private:
  // Sends one call; an error reply marks the element gone when it says so, and otherwise
  // leaves the field unset.
  template <typename Handler, typename... Args>
  void ask(const char* interface, const char* method, Handler handler, Args... args) {
    pipeline_.call(known_.path.c_str(), interface, method,
                   [this, handler](sd_bus_message* reply) {
                     if (reply_says_gone(reply)) gone_ = true;
                     if (error_name(reply) != nullptr) return;
                     handler(reply);
                   },
                   args...);
  }

  template <typename Handler>
  void get_property(const char* interface, const char* property, Handler handler) {
    ask(kPropertiesInterface, "Get", handler, "ss", interface, property);
  }

  void read_identity() {
    Node& node = result_.reading.node;
    ask(kAccessibleInterface, "GetRole",
        [&node](sd_bus_message* reply) { node.role = read_uint32(reply).value_or(0); });
    if (toolkit_.accessible_properties_in_one_call) {
      ask(kPropertiesInterface, "GetAll",
          [&node](sd_bus_message* reply) {
            RawNode raw;
            if (!read_accessible_properties(reply, raw)) return;
            node.name = std::move(raw.name);
            node.description = std::move(raw.description);
          },
          "s", kAccessibleInterface);
    } else {
      get_property(kAccessibleInterface, "Name", [&node](sd_bus_message* reply) {
        node.name = read_variant_string(reply).value_or(std::string());
      });
      get_property(kAccessibleInterface, "Description", [&node](sd_bus_message* reply) {
        node.description = read_variant_string(reply).value_or(std::string());
      });
    }
    // Asked apart from GetAll: not every bridge lists AccessibleId there.
    get_property(kAccessibleInterface, "AccessibleId", [&node](sd_bus_message* reply) {
      if (auto id = read_variant_string(reply)) {
        node.accessible_id = std::move(*id);
        node.accessible_id_known = true;
      }
    });
    ask(kAccessibleInterface, "GetInterfaces", [&node](sd_bus_message* reply) {
      node.interfaces = read_interface_bits(reply).value_or(0);
    });
  }

  void read_states() {
    ask(kAccessibleInterface, "GetState", [this](sd_bus_message* reply) {
      if (auto states = read_state_set(reply)) {
        result_.reading.node.states = *states;
        states_read_ = true;
      }
    });
  }

  void read_bounds() {
    ask("org.a11y.atspi.Component", "GetExtents",
        [this](sd_bus_message* reply) {
          auto bounds = read_extents(reply);
          // GTK3 reports offscreen elements at INT_MIN: no position to give.
          if (bounds && !is_int_min(bounds->x) && !is_int_min(bounds->y)) {
            result_.reading.node.bounds = bounds;
          }
        },
        "u", toolkit_.extents_coord_type);
  }

  // The snapshot's rule (plan_details) decides whether an element has bounds at all, so a
  // live read and a snapshot of the same element agree.
  void apply_bounds_rule() {
    Node probe = known_;
    if (states_read_) probe.states = result_.reading.node.states;
    if (!plan_details(probe, DetailOptions{}, toolkit_).bounds) result_.reading.node.bounds.reset();
  }

  void read_actions() {
    if (!toolkit_.action_list_in_one_call) {
      get_property(kActionInterface, "NActions", [this](sd_bus_message* reply) {
        const int count = read_variant_int32(reply).value_or(0);
        if (count > 0) read_action_names(std::min<std::size_t>(count, kMaxActionsPerNode));
      });
      return;
    }
    ask(kActionInterface, "GetActions", [this](sd_bus_message* reply) {
      auto localized = read_localized_actions(reply);
      if (localized) read_action_names(localized->size());
    });
  }

  void read_action_names(std::size_t count) {
    auto& names = result_.reading.node.actions;
    names.assign(count, std::string());
    for (std::size_t i = 0; i < count; ++i) {
      ask(kActionInterface, "GetName",
          [&names, i](sd_bus_message* name_reply) {
            if (auto name = read_string(name_reply); name && i < names.size()) names[i] = *name;
          },
          "i", static_cast<std::int32_t>(i));
    }
  }

  // CharacterCount, and the text: GetText(0,-1) at once where the toolkit returns all of
  // a single-line text for it, else GetText(0, count) once the count is known (never
  // INT_MAX: GTK3 labels read past their end).
  void read_count(bool with_text) {
    const bool whole_at_once =
        with_text && toolkit_.whole_text_with_minus_one && has_state(known_.states, ATSPI_STATE_SINGLE_LINE);
    get_property(kTextInterface, "CharacterCount", [this, with_text, whole_at_once](sd_bus_message* reply) {
      result_.reading.character_count = read_variant_int32(reply);
      if (!with_text || whole_at_once) return;
      const int count = result_.reading.character_count.value_or(-1);
      if (count < 0) return;
      if (count == 0) {
        result_.reading.text = std::string();
        return;
      }
      read_text(count);
    });
    if (whole_at_once) read_text(-1);
  }

  void read_text(std::int32_t end) {
    ask(kTextInterface, "GetText",
        [this](sd_bus_message* reply) { result_.reading.text = read_string(reply); }, "ii",
        std::int32_t{0}, end);
  }

  void read_number(const char* property, std::optional<double>& into) {
    get_property(kValueInterface, property,
                 [&into](sd_bus_message* reply) { into = read_variant_double(reply); });
  }

  Pipeline& pipeline_;
  const Node& known_;
  const ToolkitTraits& toolkit_;
  ReadResult result_;
  bool gone_ = false;
  bool states_read_ = false;
};

}  // namespace

ReadResult read_element_live(Pipeline& pipeline, const Node& known, const LiveReadNeeds& needs,
                             const ToolkitTraits& toolkit) {
  ElementReader reader(pipeline, known, toolkit);
  return reader.read(needs);
}

std::optional<bool> read_child_selected(Pipeline& pipeline, const std::string& container_path,
                                        int index) {
  std::optional<bool> selected;
  pipeline.call(container_path.c_str(), kSelectionInterface, "IsChildSelected",
                [&selected](sd_bus_message* reply) {
                  if (error_name(reply) == nullptr) selected = read_boolean(reply);
                },
                "i", static_cast<std::int32_t>(index));
  pipeline.wait();
  return selected;
}

}  // namespace companyos::a11y
