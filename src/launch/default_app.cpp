#include "launch/default_app.h"

#include "core/glib_handles.h"
#include "launch/refusal.h"

namespace companyos::launch {

Result<std::string> default_app_for_link(std::string_view url) {
  const std::string text(url);
  const GCharPtr scheme(g_uri_parse_scheme(text.c_str()));
  if (!scheme || text.find('\0') != std::string::npos) {
    return to_error(make_refusal(RefusalReason::kCannotTakeTarget, "the link has no scheme to find its app by",
                                 {{"problem", "unparseable"}}, "give a whole URL, e.g. https://example.org/"));
  }
  const GObjectPtr<GAppInfo> app(g_app_info_get_default_for_uri_scheme(scheme.get()));
  const char* id = app ? g_app_info_get_id(app.get()) : nullptr;
  if (id == nullptr) {
    const std::string name(scheme.get());
    return to_error(make_refusal(RefusalReason::kNoDefaultApp, "no app on this desktop opens " + name + " links",
                                 {{"scheme", name}},
                                 "name the app, or make one the default: xdg-mime default APP.desktop "
                                 "x-scheme-handler/" + name));
  }
  return std::string(id);
}

}  // namespace companyos::launch
