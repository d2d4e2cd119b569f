// focus-window, close-window, press, type-text (typed or pasted) and click-at: actions on a whole window through the window
// manager (EWMH) and XTest. X11 only.
#include <mutex>
#include <thread>

#include "a11y/observer.h"
#include "companyos/reply_fields.h"
#include "a11y/policy.h"
#include "daemon/wire/a11y_replies.h"
#include "core/delivery.h"
#include "daemon/methods/settled_state.h"
#include "daemon/context.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "daemon/methods/physical_input.h"
#include "desktop/target_window.h"
#include "daemon/server/worker_pool.h"
#include "desktop/input_lock.h"
#include "launch/agent_desktop_bridge.h"
#include "launch/bridge_arguments.h"
#include "store/settings.h"
#include "x11/activation.h"
#include "x11/key_chord.h"
#include "x11/keyboard.h"
#include "desktop/clipboard.h"
#include "desktop/window_input.h"
#include "core/text.h"
#include "x11/session_chord.h"

namespace companyos::daemon::methods {
namespace {

nlohmann::json target_json(const desktop::TargetWindow& target) {
  return {{"app", target.window.app_name},
          {"role", target.window.role},
          {"window", wire::window_to_json(target.window)},
          {"x11_window", target.xid}};
}

// Activates the window and confirms it is the active one; nothing else is sent.
Result<nlohmann::json> focus_window(x11::Connection& connection, const desktop::TargetWindow& target) {
  if (auto st = x11::activate_window(connection, target.xid); !st) {
    return with_delivery(std::move(st).take_error(), Delivery::kDeliveredUnverified);
  }
  auto active = x11::active_window(connection);
  const bool verified = active && *active && **active == target.xid;
  return nlohmann::json{{reply_fields::outcome::kDelivery, to_string(verified ? Delivery::kDeliveredVerified : Delivery::kDeliveredUnverified)},
                        {"target", target_json(target)}};
}

Result<nlohmann::json> close_window(x11::Connection& connection, const desktop::TargetWindow& target,
                                    Deadline deadline) {
  if (auto st = x11::close_window(connection, target.xid); !st) return std::move(st).take_error();
  // The app may refuse or ask to save: closed is only what the window list shows.
  bool gone = false;
  while (!gone && std::chrono::steady_clock::now() < deadline) {
    gone = !x11::describe_window(connection, target.xid).ok();
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return nlohmann::json{{reply_fields::outcome::kDelivery, to_string(gone ? Delivery::kDeliveredVerified : Delivery::kDeliveredUnverified)},
                        {"closed", gone},
                        {"target", target_json(target)}};
}

// Activates the window, confirms it stayed active, then types; nothing is typed elsewhere.
Result<nlohmann::json> press_chord(x11::Connection& connection, const desktop::TargetWindow& target,
                                   const x11::KeyChord& chord) {
  std::lock_guard lock(desktop::physical_input_mutex());
  if (auto st = x11::activate_window(connection, target.xid); !st) {
    return std::move(st).take_error();  // nothing was typed
  }
  auto active = x11::active_window(connection);
  if (!active || !*active || **active != target.xid) {
    return make_error(ErrorCode::kPolicyDenied, "the target window did not stay active",
                      {{"reason", "not_active"}});
  }
  if (auto st = x11::send_key_chord(connection, chord); !st) {
    return with_delivery(std::move(st).take_error(), Delivery::kDeliveredUnverified);
  }
  return nlohmann::json{{reply_fields::outcome::kDelivery, to_string(Delivery::kDeliveredUnverified)},
                        {"chord", x11::to_string(chord)},
                        {"target", target_json(target)}};
}

constexpr const char* kKeyboardRoute = "xtest:keyboard";
constexpr const char* kPointerRoute = "xtest:pointer";

Error about(Error error, const desktop::TargetWindow& target, const char* route) {
  if (!error.details.is_object()) error.details = nlohmann::json::object();
  error.details["target"] = target_json(target);
  error.details["route"] = route;
  return error;
}

// Activates the window, then types chunk by chunk while it stays active. The reply counts
// characters and never holds the text.
Result<nlohmann::json> type_into_window(x11::Connection& connection, const desktop::TargetWindow& target,
                                        const std::string& text, std::size_t characters) {
  std::lock_guard lock(desktop::physical_input_mutex());
  if (auto st = x11::activate_window(connection, target.xid); !st) {
    return about(with_delivery(std::move(st).take_error(), Delivery::kNotDelivered), target, kKeyboardRoute);
  }
  if (auto st = desktop::type_while_active(connection, target.xid, text); !st) {
    return about(std::move(st).take_error(), target, kKeyboardRoute);
  }
  return nlohmann::json{{reply_fields::outcome::kDelivery, to_string(Delivery::kDeliveredUnverified)},
                        {"route", kKeyboardRoute},
                        {"typed", characters},
                        {"target", target_json(target)}};
}

// Runs `act` on the target window; with settle, the app is watched from before it and the
// reply carries the state the app settled in (settled_state.h).
Result<nlohmann::json> act_and_settle(std::string_view what, a11y::Observer& observer, Deadline deadline,
                                      const a11y::WindowQuery& query, bool settle, const desktop::WindowAct& act) {
  std::optional<a11y::SettleWatch> watch;
  std::vector<std::string> windows_before;
  if (settle) {
    auto bus_names = bus_names_of(observer, query.app, deadline);
    windows_before = known_window_ids(observer, bus_names);
    watch.emplace(observer, std::move(bus_names), deadline);
  }
  std::optional<std::string> window_id;
  auto done = desktop::act_on_target_window(
      what, observer, deadline, query,
      [&](x11::Connection& connection, const desktop::TargetWindow& target) -> Result<nlohmann::json> {
        window_id = target.window.id;
        return act(connection, target);
      });
  if (!done || !watch) return done;
  (*done)["state"] = settled_state(observer, *watch, a11y::SettleRule{}, query.app, window_id, windows_before, deadline);
  return done;
}

constexpr const char* kPasteRoute = "xtest:paste";

// Activates the window, then pastes through the clipboard; the reply says whether the app
// took the text and what became of the clipboard's earlier content.
Result<nlohmann::json> paste_into_window(x11::Connection& connection, const desktop::TargetWindow& target,
                                         desktop::Clipboard& clipboard, const std::string& text,
                                         std::size_t characters, const std::stop_token& caller_gone) {
  std::lock_guard lock(desktop::physical_input_mutex());
  if (auto st = x11::activate_window(connection, target.xid); !st) {
    return about(with_delivery(std::move(st).take_error(), Delivery::kNotDelivered), target, kPasteRoute);
  }
  auto pasted = clipboard.paste(connection, target.xid, text, caller_gone);
  if (!pasted) return about(std::move(pasted).take_error(), target, kPasteRoute);
  return nlohmann::json{{reply_fields::outcome::kDelivery, to_string(Delivery::kDeliveredUnverified)},
                        {"route", kPasteRoute},
                        {"typed", characters},
                        {"taken", pasted->taken},
                        {"clipboard",
                         {{"restore", desktop::to_string(pasted->restore)},
                          {"lost_targets", pasted->lost},
                          {"why", pasted->why.empty() ? nlohmann::json(nullptr) : nlohmann::json(pasted->why)}}},
                        {"target", target_json(target)}};
}

// Text pasted: any UTF-8 up to the clipboard's limit; control characters are the app's
// business, as when a person pastes.
Result<std::size_t> pastable_characters(const std::string& text) {
  if (auto st = desktop::check_clipboard_text(text); !st) return std::move(st).take_error();
  return decode_utf8(text)->size();
}

Result<nlohmann::json> click_window_point(x11::Connection& connection, const desktop::TargetWindow& target, int x,
                                          int y, int button) {
  auto point = desktop::click_in_window(connection, target.xid, x, y, button);
  if (!point) return about(std::move(point).take_error(), target, kPointerRoute);
  return nlohmann::json{{reply_fields::outcome::kDelivery, to_string(Delivery::kDeliveredUnverified)},
                        {"route", kPointerRoute},
                        {"point", {{"x", point->x}, {"y", point->y}}},
                        {"button", button},
                        {"target", target_json(target)}};
}

// The characters of a text type_text may type, or why it may not.
Result<std::size_t> typable_characters(const std::string& text) {
  if (auto st = x11::check_typable(text); !st) return with_delivery(std::move(st).take_error(), Delivery::kNotDelivered);
  const std::size_t characters = decode_utf8(text)->size();
  if (characters > static_cast<std::size_t>(declared::kMaxTypedCharacters)) {
    return make_error(ErrorCode::kInvalidArgs,
                      "the text has " + with_thousands(static_cast<std::int64_t>(characters)) +
                          " characters; type_text types " +
                          declared::length_text({declared::kMaxTypedCharacters, declared::LengthUnit::kCharacters}),
                      {{"param", "text"}, {"characters", characters}, {"max", declared::kMaxTypedCharacters}},
                      "type it in parts, or paste it");
  }
  return characters;
}

// The agent_desktop_path setting: empty when the bridge is off.
Result<std::string> bridge_program(DaemonContext& ctx) {
  auto path = ctx.settings.get("agent_desktop_path");
  if (!path) return std::move(path).take_error();
  return path->get<std::string>();
}

void focus_through_bridge(DaemonContext& ctx, const std::string& program, const a11y::WindowQuery& query,
                          Reply reply) {
  // The built-in path refuses password managers while resolving the app; the bridge never
  // resolves it, so refuse here before the program runs.
  if (auto allowed = a11y::check_observation_allowed(query.app); !allowed) {
    return reply(std::move(allowed).take_error());
  }
  if (query.window_id || query.title) {
    return reply(make_error(ErrorCode::kInvalidArgs,
                            "the agent-desktop bridge focuses an app by name; --window and --title cannot be used with it",
                            {{"reason", "bridge_by_app_only"}}));
  }
  ctx.workers.run(
      [program, app = query.app]() -> Result<nlohmann::json> {
        auto report = launch::focus_via_bridge(launch::BridgeOptions{program}, app);
        if (!report) return std::move(report).take_error();
        // Exit status 0 is all the bridge tells us; the effect is not read back here.
        return nlohmann::json{{reply_fields::outcome::kDelivery, to_string(Delivery::kDeliveredUnverified)},
                              {"via", "agent_desktop"},
                              {"windows", report->windows},
                              {"calls", launch::bridge_calls_to_json(report->calls)},
                              {"target", {{"app", app}}}};
      },
      std::move(reply));
}

}  // namespace

const MethodSpec kFocusWindow{
    .decl = declared::kFocusWindow,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto query = window_query_from(params);
      if (!query) return reply(std::move(query).take_error());
      auto program = bridge_program(ctx);
      if (!program) return reply(std::move(program).take_error());
      if (!program->empty()) return focus_through_bridge(ctx, *program, *query, std::move(reply));
      run_observation(params, ctx, std::move(reply),
                      [query = *query](a11y::Observer& observer, Deadline deadline) -> Result<nlohmann::json> {
                        return desktop::act_on_target_window(
                            "focus-window", observer, deadline, query,
                            [&](x11::Connection& connection, const desktop::TargetWindow& target) {
                              return focus_window(connection, target);
                            });
                      });
    },
};

const MethodSpec kCloseWindow{
    .decl = declared::kCloseWindow,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto query = window_query_from(params);
      if (!query) return reply(std::move(query).take_error());
      run_observation(params, ctx, std::move(reply),
                      [query = *query](a11y::Observer& observer, Deadline deadline) -> Result<nlohmann::json> {
                        return desktop::act_on_target_window(
                            "close-window", observer, deadline, query,
                            [&](x11::Connection& connection, const desktop::TargetWindow& target) {
                              return close_window(connection, target, deadline);
                            });
                      });
    },
};

const MethodSpec kPress{
    .decl = declared::kPress,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto query = window_query_from(params);
      if (!query) return reply(std::move(query).take_error());
      const auto chord_text = params["chord"].get<std::string>();
      if (auto st = launch::check_key_chord(chord_text); !st) return reply(std::move(st).take_error());
      auto chord = x11::parse_key_chord(chord_text);
      if (!chord) return reply(std::move(chord).take_error());
      // A press always uses XTest, but a bridge setting that names no program blocks it.
      auto program = bridge_program(ctx);
      if (!program) return reply(std::move(program).take_error());
      if (!program->empty()) {
        if (auto st = launch::check_bridge_program(*program); !st) return reply(std::move(st).take_error());
      }
      if (x11::is_session_chord(*chord) && !params.value("force", false)) {
        return reply(make_error(ErrorCode::kPolicyDenied,
                                x11::to_string(*chord) + " ends, locks or switches the session; refused without force",
                                {{"reason", "session_chord"}, {"chord", x11::to_string(*chord)}},
                                "pass --force if you really mean it"));
      }
      if (auto st = check_physical_input(ctx.settings, params.value("headed", false)); !st) {
        return reply(std::move(st).take_error());
      }
      std::stop_token caller_gone = reply.client_gone();
      const bool settle = params.value("settle", false);
      run_observation(with_settle_budget(params), ctx, std::move(reply),
                      [query = *query, chord = *chord, caller_gone, settle](a11y::Observer& observer, Deadline deadline)
                          -> Result<nlohmann::json> {
                        return act_and_settle(
                            "press", observer, deadline, query, settle,
                            [&](x11::Connection& connection, const desktop::TargetWindow& target)
                                -> Result<nlohmann::json> {
                              if (auto st = caller_still_waiting(caller_gone, "the input"); !st) return std::move(st).take_error();
                              return press_chord(connection, target, chord);
                            });
                      });
    },
};

const MethodSpec kTypeText{
    .decl = declared::kTypeText,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto query = window_query_from(params);
      if (!query) return reply(std::move(query).take_error());
      std::string text = params["text"].get<std::string>();
      const bool paste = params.value("paste", false);
      auto characters = paste ? pastable_characters(text) : typable_characters(text);
      if (!characters) return reply(std::move(characters).take_error());
      if (auto st = check_physical_input(ctx.settings, params.value("headed", false)); !st) {
        return reply(std::move(st).take_error());
      }
      std::stop_token caller_gone = reply.client_gone();
      const bool settle = params.value("settle", false);
      run_observation(with_settle_budget(params), ctx, std::move(reply),
                      [query = *query, text = std::move(text), characters = *characters, paste,
                       &clipboard = ctx.clipboard, caller_gone, settle](a11y::Observer& observer, Deadline deadline)
                          -> Result<nlohmann::json> {
                        return act_and_settle(
                            "type-text", observer, deadline, query, settle,
                            [&](x11::Connection& connection, const desktop::TargetWindow& target)
                                -> Result<nlohmann::json> {
                              if (paste) {
                                return paste_into_window(connection, target, clipboard, text, characters, caller_gone);
                              }
                              if (auto st = caller_still_waiting(caller_gone, "the input"); !st) return std::move(st).take_error();
                              return type_into_window(connection, target, text, characters);
                            });
                      });
    },
};

const MethodSpec kClickAt{
    .decl = declared::kClickAt,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto query = window_query_from(params);
      if (!query) return reply(std::move(query).take_error());
      const int x = params["x"].get<int>();
      const int y = params["y"].get<int>();
      const int button = params.value("button", 1);
      if (auto st = check_physical_input(ctx.settings, params.value("headed", false)); !st) {
        return reply(std::move(st).take_error());
      }
      std::stop_token caller_gone = reply.client_gone();
      const bool settle = params.value("settle", false);
      run_observation(with_settle_budget(params), ctx, std::move(reply),
                      [query = *query, x, y, button, caller_gone, settle](a11y::Observer& observer, Deadline deadline)
                          -> Result<nlohmann::json> {
                        return act_and_settle(
                            "click-at", observer, deadline, query, settle,
                            [&](x11::Connection& connection, const desktop::TargetWindow& target)
                                -> Result<nlohmann::json> {
                              if (auto st = caller_still_waiting(caller_gone, "the input"); !st) return std::move(st).take_error();
                              return click_window_point(connection, target, x, y, button);
                            });
                      });
    },
};

}  // namespace companyos::daemon::methods
