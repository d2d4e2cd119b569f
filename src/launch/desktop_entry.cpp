#include "launch/desktop_entry.h"

#include <gio/gdesktopappinfo.h>

#include "core/glib_handles.h"

namespace companyos::launch {
namespace {

constexpr const char* kGroup = G_KEY_FILE_DESKTOP_GROUP;
constexpr std::string_view kSchemeHandlerPrefix = "x-scheme-handler/";

std::string string_key(GKeyFile* key_file, const char* key) {
  GCharPtr value(g_key_file_get_string(key_file, kGroup, key, nullptr));
  return value ? std::string(value.get()) : std::string();
}

std::vector<std::string> list_key(GKeyFile* key_file, const char* key) {
  StrvPtr values(g_key_file_get_string_list(key_file, kGroup, key, nullptr, nullptr));
  std::vector<std::string> result;
  for (gchar** value = values.get(); value && *value; ++value) {
    if (**value != '\0') result.emplace_back(*value);
  }
  return result;
}

bool bool_key(GKeyFile* key_file, const char* key) {
  return g_key_file_get_boolean(key_file, kGroup, key, nullptr) != FALSE;
}

Error unusable(const std::filesystem::path& file, const std::string& why) {
  return make_error(ErrorCode::kInvalidArgs, why, {{"kind", "unusable"}, {"file", file.string()}});
}

}  // namespace

std::string desktop_id_stem(std::string_view id) {
  constexpr std::string_view kSuffix = ".desktop";
  if (id.size() > kSuffix.size() && id.substr(id.size() - kSuffix.size()) == kSuffix) {
    id.remove_suffix(kSuffix.size());
  }
  return std::string(id);
}

std::string DesktopEntry::id_stem() const { return desktop_id_stem(id); }

std::vector<std::string> DesktopEntry::handled_schemes() const {
  std::vector<std::string> schemes;
  for (const std::string& type : mime_types) {
    if (type.size() <= kSchemeHandlerPrefix.size() ||
        g_ascii_strncasecmp(type.c_str(), kSchemeHandlerPrefix.data(),
                            kSchemeHandlerPrefix.size()) != 0) {
      continue;
    }
    GCharPtr scheme(g_ascii_strdown(type.c_str() + kSchemeHandlerPrefix.size(), -1));
    schemes.emplace_back(scheme.get());
  }
  return schemes;
}

Result<DesktopEntry> read_desktop_entry(const std::filesystem::path& file, std::string id,
                                        int level, const std::string& locale) {
  KeyFilePtr key_file(g_key_file_new());
  ErrorSlot error;
  // Keeps every Name[xx]: without the flag GKeyFile drops translations for other locales.
  if (!g_key_file_load_from_file(key_file.get(), file.c_str(), G_KEY_FILE_KEEP_TRANSLATIONS,
                                 error.out())) {
    return unusable(file, std::string("cannot be read: ") + error.message());
  }
  GKeyFile* keys = key_file.get();
  if (!g_key_file_has_group(keys, kGroup)) {
    return unusable(file, "has no [Desktop Entry] group");
  }
  if (bool_key(keys, G_KEY_FILE_DESKTOP_KEY_HIDDEN)) {
    return make_error(ErrorCode::kNotFound, "Hidden=true",
                      {{"kind", "hidden"}, {"file", file.string()}});
  }
  if (const std::string type = string_key(keys, G_KEY_FILE_DESKTOP_KEY_TYPE);
      type != "Application") {
    return unusable(file, "Type is '" + type + "', not Application");
  }
  // GLib checks TryExec and that the Exec program exists, exactly as `gio launch` will.
  GObjectPtr<GDesktopAppInfo> info(g_desktop_app_info_new_from_keyfile(keys));
  if (!info) return unusable(file, "GLib cannot load it (TryExec or the Exec program is missing)");

  DesktopEntry entry;
  entry.id = std::move(id);
  entry.file = file;
  entry.level = level;
  entry.name = string_key(keys, G_KEY_FILE_DESKTOP_KEY_NAME);
  GCharPtr localized(g_key_file_get_locale_string(keys, kGroup, G_KEY_FILE_DESKTOP_KEY_NAME,
                                                  locale.empty() ? nullptr : locale.c_str(),
                                                  nullptr));
  entry.localized_name = localized ? localized.get() : entry.name;
  entry.startup_wm_class = string_key(keys, G_KEY_FILE_DESKTOP_KEY_STARTUP_WM_CLASS);
  entry.exec = string_key(keys, G_KEY_FILE_DESKTOP_KEY_EXEC);
  entry.mime_types = list_key(keys, G_KEY_FILE_DESKTOP_KEY_MIME_TYPE);
  entry.categories = list_key(keys, G_KEY_FILE_DESKTOP_KEY_CATEGORIES);
  entry.terminal = bool_key(keys, G_KEY_FILE_DESKTOP_KEY_TERMINAL);
  entry.no_display = bool_key(keys, G_KEY_FILE_DESKTOP_KEY_NO_DISPLAY);
  return entry;
}

}  // namespace companyos::launch
