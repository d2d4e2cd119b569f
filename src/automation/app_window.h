// The one X11 window of an app a focus, press or front-check step names. A window belongs
// to the app when its WM_CLASS class or instance is the name (as launch checks it), or when
// its _NET_WM_PID is the pid of an accessible app of that name. None → WINDOW_NOT_FOUND,
// several → AMBIGUOUS_TARGET with the candidates: a step never acts on a guess.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "a11y/observer.h"
#include "core/result.h"
#include "x11/connection.h"
#include "x11/windows.h"

namespace companyos::automation {

// Pids of the accessible apps named `app` (empty when none, or when the bus does not
// answer). POLICY_DENIED for a password manager.
Result<std::set<long>> accessible_app_pids(a11y::Observer& observer, const std::string& app,
                                           Deadline deadline);

bool belongs_to_app(const x11::WindowInfo& window, std::string_view app, const std::set<long>& pids);

Result<x11::WindowInfo> find_app_window(a11y::Observer& observer, const std::string& app,
                                        x11::Connection& connection, Deadline deadline);

}  // namespace companyos::automation
