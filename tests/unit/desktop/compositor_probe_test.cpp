#include "desktop/compositor_probe.h"

#include <gtest/gtest.h>

namespace companyos::desktop {
namespace {

TEST(CompositorFromBusNames, NamesTheCompositorAndMuttersInterfaces) {
  struct Case {
    const char* what;
    std::vector<std::string> names;
    const char* compositor;
    bool remote_desktop;
    bool screen_cast;
  };
  const Case cases[] = {
      {"GNOME's mutter", {"org.freedesktop.DBus", "org.gnome.Mutter.DisplayConfig", "org.gnome.Mutter.RemoteDesktop",
                          "org.gnome.Mutter.ScreenCast", ":1.4"},
       "mutter", true, true},
      {"mutter without remote desktop", {"org.gnome.Mutter.DisplayConfig"}, "mutter", false, false},
      {"KDE's KWin", {"org.kde.KWin", "org.kde.plasmashell"}, "kwin", false, false},
      {"a compositor on no name we know", {"org.freedesktop.DBus", ":1.2"}, "", false, false},
      {"nothing listed", {}, "", false, false},
      {"a look-alike name is not mutter's", {"org.gnome.Mutter.DisplayConfigX", "org.gnome.Mutter"}, "", false, false},
      {"the interfaces without mutter's own name", {"org.gnome.Mutter.RemoteDesktop"}, "", true, false},
  };
  for (const Case& c : cases) {
    const CompositorFacts facts = compositor_from_bus_names(c.names);
    EXPECT_EQ(facts.compositor, c.compositor) << c.what;
    EXPECT_EQ(facts.mutter_remote_desktop, c.remote_desktop) << c.what;
    EXPECT_EQ(facts.mutter_screen_cast, c.screen_cast) << c.what;
    EXPECT_FALSE(facts.error.has_value()) << c.what;
  }
}

}  // namespace
}  // namespace companyos::desktop
