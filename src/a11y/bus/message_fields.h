// Reads AT-SPI replies from sd-bus messages: Cache.GetItems' records of a whole app tree,
// and the fields live reads and detail reads need. Each reader consumes its part of the
// message from the current position; nullopt (INTERNAL for GetItems) when the message
// does not have the expected shape.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <systemd/sd-bus.h>

#include "a11y/model.h"
#include "companyos/result.h"

namespace companyos::a11y {

// One GetItems record, (so)(so)(so)iiassusau: path, app, parent, index in parent, child
// count, interfaces, name, role, description, states.
inline constexpr const char* kGetItemsRecord = "(so)(so)(so)iiassusau";

// At most max_items records are read (the reply covers the whole app, which may claim any
// number); the rest of the reply is left unread.
Result<std::vector<RawNode>> read_get_items(sd_bus_message* reply,
                                            std::size_t max_items = static_cast<std::size_t>(-1));

// (so) (an object reference, e.g. GetSelectedChild's) → the object's path.
std::optional<std::string> read_reference_path(sd_bus_message* message);
// a(so) (GetChildren) → the objects' paths, the first max_paths of them (an app may claim
// a million children; what is not kept is never copied out of the message).
std::optional<std::vector<std::string>> read_reference_paths(
    sd_bus_message* message, std::size_t max_paths = static_cast<std::size_t>(-1));
// as (GetInterfaces) → InterfaceBit set.
std::optional<std::uint32_t> read_interface_bits(sd_bus_message* message);
// au (GetState) → state bits.
std::optional<StateSet> read_state_set(sd_bus_message* message);
std::optional<std::string> read_string(sd_bus_message* message);
std::optional<std::uint32_t> read_uint32(sd_bus_message* message);
std::optional<std::int32_t> read_int32(sd_bus_message* message);
// (iiii) (Component.GetExtents), as sent.
std::optional<Bounds> read_extents(sd_bus_message* message);
// v (Properties.Get) holding the given basic type.
std::optional<std::string> read_variant_string(sd_bus_message* message);
std::optional<std::int32_t> read_variant_int32(sd_bus_message* message);
std::optional<double> read_variant_double(sd_bus_message* message);
// v holding (so) (Accessible's Parent property): the object's path.
std::optional<std::string> read_variant_reference_path(sd_bus_message* message);
// v holding (ii) (TableCell's Position property): row and column, as sent.
std::optional<std::pair<std::int32_t, std::int32_t>> read_variant_int32_pair(sd_bus_message* message);

// a(sss) (Action.GetActions): each action's localized name and description, in order.
struct LocalizedAction {
  std::string name;
  std::string description;
  friend bool operator==(const LocalizedAction&, const LocalizedAction&) = default;
};
std::optional<std::vector<LocalizedAction>> read_localized_actions(sd_bus_message* message);

// a{sv} (Properties.GetAll on org.a11y.atspi.Accessible): fills name, description,
// accessible id and child count where present; false when the shape is wrong.
bool read_accessible_properties(sd_bus_message* message, RawNode& node);

}  // namespace companyos::a11y
