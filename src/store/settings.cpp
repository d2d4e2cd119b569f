#include "store/settings.h"

#include <array>
#include <filesystem>
#include <string>

#include "store/database.h"

namespace companyos::store {
namespace {

constexpr std::array<SettingSpec, 7> kSpecs{{
    {"unattended", SettingKind::kBool, "false", "true or false",
     "allow scheduled runs of level-4 automations to start without a person"},
    {"max_level", SettingKind::kLevel, "3", "an integer from 1 to 4",
     "the highest level any automation may reach"},
    {"physical_input", SettingKind::kBool, "false", "true or false",
     "allow XTest pointer and keyboard input (requests must also say --headed)"},
    {"agent_desktop_path", SettingKind::kExecutablePath, "\"\"",
     "empty, or an absolute path to an existing regular file",
     "optional external agent-desktop program used for focus steps"},
    {"automations_enabled", SettingKind::kBool, "true", "true or false",
     "master switch; false stops every active run and disables every automation"},
    {"notifications", SettingKind::kBool, "true", "true or false",
     "post a desktop notification (with approve and deny) for each run that waits for approval"},
    {"dashboard_port", SettingKind::kPort, "0", "an integer from 0 to 65535",
     "serve the dashboard on 127.0.0.1 at this port whenever the daemon runs; 0: only after `companyos dashboard`"},
}};

Error invalid(const SettingSpec& spec, const nlohmann::json& value, std::string why) {
  return make_error(ErrorCode::kInvalidArgs,
                    "setting '" + std::string(spec.key) + "': " + why,
                    {{"key", spec.key}, {"allowed", spec.allowed}, {"got", value}},
                    "use " + std::string(spec.allowed));
}

}  // namespace

std::span<const SettingSpec> setting_specs() { return kSpecs; }

const SettingSpec* find_setting(std::string_view key) {
  for (const auto& spec : kSpecs) {
    if (spec.key == key) return &spec;
  }
  return nullptr;
}

Result<nlohmann::json> validate_setting(std::string_view key, const nlohmann::json& value) {
  const SettingSpec* spec = find_setting(key);
  if (spec == nullptr) {
    std::string keys;
    for (const auto& s : kSpecs) keys += (keys.empty() ? "" : ", ") + std::string(s.key);
    return make_error(ErrorCode::kInvalidArgs, "unknown setting '" + std::string(key) + "'",
                      {{"key", key}, {"known", keys}}, "known settings: " + keys);
  }
  switch (spec->kind) {
    case SettingKind::kBool:
      if (!value.is_boolean()) return invalid(*spec, value, "must be true or false");
      return value;
    case SettingKind::kLevel: {
      if (!value.is_number_integer()) return invalid(*spec, value, "must be an integer from 1 to 4");
      auto level = value.get<std::int64_t>();
      if (level == 5) return invalid(*spec, value, "level 5 is not built");
      if (level < 1 || level > 4) return invalid(*spec, value, "must be from 1 to 4");
      return value;
    }
    case SettingKind::kPort: {
      if (!value.is_number_integer()) return invalid(*spec, value, "must be an integer from 0 to 65535");
      const auto port = value.get<std::int64_t>();
      if (port < 0 || port > 65535) return invalid(*spec, value, "must be from 0 to 65535");
      return value;
    }
    case SettingKind::kExecutablePath: {
      if (!value.is_string()) return invalid(*spec, value, "must be a string");
      const auto& text = value.get_ref<const std::string&>();
      if (text.empty()) return value;
      // The file is checked, and later run, by its C string: a NUL would cut it short.
      if (text.find('\0') != std::string::npos) {
        return invalid(*spec, value, "must not contain a NUL character");
      }
      std::filesystem::path path(text);
      if (!path.is_absolute()) return invalid(*spec, value, "must be an absolute path");
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) {
        return invalid(*spec, value, "no regular file at " + text);
      }
      return value;
    }
  }
  return make_error(ErrorCode::kInternal, "unhandled setting kind");
}

Result<nlohmann::json> Settings::all() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& spec : kSpecs) out[std::string(spec.key)] = nlohmann::json::parse(spec.default_json);
  auto stmt = db_.prepare("SELECT key, value FROM settings");
  if (!stmt) return std::move(stmt).take_error();
  auto read = stmt->each_row([&out](Statement& row) {
    std::string key = row.column_text(0);
    // Rows for keys this version does not know are ignored rather than shown.
    if (find_setting(key) == nullptr) return ok_status();
    auto parsed = nlohmann::json::parse(row.column_text(1), nullptr, false);
    if (!parsed.is_discarded()) out[key] = std::move(parsed);
    return ok_status();
  });
  if (!read) return std::move(read).take_error();
  return out;
}

Result<nlohmann::json> Settings::get(std::string_view key) const {
  if (find_setting(key) == nullptr) {
    return validate_setting(key, nullptr);  // produces the unknown-key error
  }
  auto values = all();
  if (!values) return std::move(values).take_error();
  return (*values)[std::string(key)];
}

Result<nlohmann::json> Settings::set(std::string_view key, const nlohmann::json& value) {
  auto valid = validate_setting(key, value);
  if (!valid) return valid;
  auto status = db_.transaction([&]() -> Status {
    auto stmt = db_.prepare(
        "INSERT INTO settings (key, value, updated_at) VALUES (?1, ?2, ?3) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at");
    if (!stmt) return std::move(stmt).take_error();
    stmt->bind(1, key).bind(2, std::string_view(valid->dump())).bind(3, clock_.unix_seconds());
    return stmt->run();
  });
  if (!status) return std::move(status).take_error();
  return valid;
}

}  // namespace companyos::store
