// settings.set and settings.get as the daemon runs them: the params checked against the
// method's declaration, the value validated (validate_setting) and stored in a real store
// (in memory), then read back. For every value accepted: reading it back gives it again,
// validating it again accepts it unchanged, and a path setting names exactly the file
// that was checked (the program the bridge would later run).
//
// Input: the params' JSON text, e.g. {"key":"max_level","value":2}.
#include <cstddef>
#include <cstdint>
#include <string>

#include "companyos/methods.h"
#include "core/clock.h"
#include "fuzz_support.h"
#include "store/database.h"
#include "store/settings.h"

namespace companyos::fuzz {
namespace {

store::Settings& settings() {
  static store::Database db = [] {
    auto opened = store::Database::open(":memory:");
    FUZZ_CHECK(opened.ok());
    return std::move(opened).value();
  }();
  static const SystemClock clock;
  static store::Settings built(db, clock);
  return built;
}

void check_get(const nlohmann::json& params) {
  if (!methods::check_params(methods::kSettingsGet, params)) return;
  if (params.contains("key")) {
    auto value = settings().get(params["key"].get<std::string>());
    FUZZ_CHECK(value.ok() || value.error().code == ErrorCode::kInvalidArgs);
    return;
  }
  auto values = settings().all();
  FUZZ_CHECK(values.ok());
  for (const auto& spec : store::setting_specs()) {
    FUZZ_CHECK(store::validate_setting(spec.key, (*values)[std::string(spec.key)]).ok());
  }
}

}  // namespace
}  // namespace companyos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  const auto params = fuzz::request_json(fuzz::as_text(data, size));
  if (!params || !params->is_object()) return 0;
  fuzz::check_get(*params);
  if (!methods::check_params(methods::kSettingsSet, *params)) return 0;

  const auto key = (*params)["key"].get<std::string>();
  const nlohmann::json& value = (*params)["value"];
  auto stored = fuzz::settings().set(key, value);
  if (!stored) {
    FUZZ_CHECK(stored.error().code == ErrorCode::kInvalidArgs);
    return 0;
  }
  FUZZ_CHECK(*stored == value);
  auto again = store::validate_setting(key, *stored);
  FUZZ_CHECK(again.ok() && *again == *stored);
  auto read = fuzz::settings().get(key);
  FUZZ_CHECK(read.ok() && *read == *stored);

  const store::SettingSpec* spec = store::find_setting(key);
  FUZZ_CHECK(spec != nullptr);
  if (spec->kind == store::SettingKind::kExecutablePath) {
    // The file checked is the file later run: the path as a C string is the whole path.
    FUZZ_CHECK(stored->get<std::string>().find('\0') == std::string::npos);
  }
  return 0;
}
