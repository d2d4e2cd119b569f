// Owning handles for sd-bus objects, so no path leaks or double-frees a connection or a
// message. A connection is closed without flushing: a peer that stopped reading must never
// block the thread that lets go of it.
#pragma once

#include <memory>

#include <systemd/sd-bus.h>

namespace companyos::a11y {

struct SdBusClose {
  void operator()(sd_bus* bus) const { sd_bus_close_unref(bus); }
};
struct SdBusMessageUnref {
  void operator()(sd_bus_message* message) const { sd_bus_message_unref(message); }
};

using SdBusPtr = std::unique_ptr<sd_bus, SdBusClose>;
using SdBusMessagePtr = std::unique_ptr<sd_bus_message, SdBusMessageUnref>;

}  // namespace companyos::a11y
