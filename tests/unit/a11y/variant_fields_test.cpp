#include "a11y/bus/variant_fields.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

#include "core/glib_handles.h"

namespace companyos::a11y {
namespace {

// g_variant_parse's result is already a full (not floating) reference.
VariantPtr parse(const char* type, const char* text) {
  return VariantPtr(
      g_variant_parse(type ? G_VARIANT_TYPE(type) : nullptr, text, nullptr, nullptr, nullptr));
}

TEST(VariantFields, ObjectPathsOfReferences) {
  auto refs = parse("a(so)", "[(':1.5', objectpath '/a'), (':1.5', '/b')]");
  EXPECT_EQ(object_paths_of(refs.get()), (std::vector<std::string>{"/a", "/b"}));
  auto wrong = parse(nullptr, "'x'");
  EXPECT_TRUE(object_paths_of(wrong.get()).empty());
  EXPECT_EQ(object_path_of(wrong.get()), "");
}

TEST(VariantFields, InterfacesStatesAndProperties) {
  struct Case {
    const char* what;
    const char* type;
    const char* text;
    std::uint32_t interfaces;
    StateSet states;
    const char* property;
  };
  const Case cases[] = {
      {"interface names", "as", "['org.a11y.atspi.Action', 'org.a11y.atspi.Hypertext']",
       kInterfaceAction, 0, ""},
      {"state words", "au", "[uint32 4, 0]", 0, StateSet{1} << 2, ""},
      {"string property", "(v)", "(<'GTK'>,)", 0, 0, "GTK"},
      {"not a string property", "(v)", "(<42>,)", 0, 0, ""},
      {"wrong shape for all", "s", "'x'", 0, 0, ""},
  };
  for (const Case& c : cases) {
    auto value = parse(c.type, c.text);
    ASSERT_TRUE(value) << c.what;
    EXPECT_EQ(interface_bits_of(value.get()), c.interfaces) << c.what;
    EXPECT_EQ(states_of(value.get()), c.states) << c.what;
    EXPECT_EQ(property_string(value.get()), c.property) << c.what;
  }
  EXPECT_EQ(property_string(nullptr), "");
}

}  // namespace
}  // namespace companyos::a11y
