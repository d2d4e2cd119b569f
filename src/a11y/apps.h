// Lists the apps on the accessibility bus (the registry desktop's children) with their pid,
// toolkit and top-level windows. Every app is asked concurrently with one short deadline;
// an app that has not answered by then is listed with responsive=false (under the last
// name it reported, if any), so one hung app never delays the list.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "a11y/bus.h"
#include "a11y/model.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

struct ListOptions {
  std::chrono::milliseconds per_app_budget{80};
  // Only these bus names (all apps when unset).
  std::optional<std::vector<std::string>> only_bus_names;
  // Looking for apps of this name: apps that already reported another name are not asked
  // again (app names do not change), so a hung app of another name costs nothing.
  std::optional<std::string> name_hint;
};

Result<std::vector<AppInfo>> list_apps(Bus& bus, Deadline deadline, const ListOptions& options = {});

// Whether a top-level child with these states is a window a person can see: hidden
// toplevels (menus and tooltips GTK keeps around) are not listed.
bool is_listed_window(StateSet states);

// App names match case-insensitively (ASCII), as a person types them.
bool app_name_matches(std::string_view app_name, std::string_view wanted);

}  // namespace companyos::a11y
