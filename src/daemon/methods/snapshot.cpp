#include "a11y/observer.h"
#include "a11y/render.h"
#include "a11y/view.h"
#include "daemon/methods/methods.h"
#include "companyos/reply_fields.h"
#include "daemon/methods/observation.h"
#include "daemon/methods/settled_state.h"
#include "desktop/target_window.h"
#include "daemon/wire/a11y_replies.h"
#include "daemon/wire/bare_ref.h"

namespace companyos::daemon::methods {
namespace {

// What the reply carries: at ~3,000 nodes the JSON tree is ~700 KB and the outline ~200 KB,
// so a client that reads one of them should not pay for building and parsing both.
struct SnapshotFormat {
  bool tree = true;
  bool outline = true;
};

Result<SnapshotFormat> snapshot_format(const std::string& name) {
  if (name == "both") return SnapshotFormat{true, true};
  if (name == "tree") return SnapshotFormat{true, false};
  if (name == "outline") return SnapshotFormat{false, true};
  return make_error(ErrorCode::kInvalidArgs, "unknown format \"" + name + "\"",
                    {{"param", "format"}, {"got", name}}, "use tree, outline or both");
}

// The innermost open surface of that kind (the last found: a submenu follows its menu).
Result<a11y::OpenSurface> innermost_surface(a11y::Observer& observer, const a11y::WindowQuery& query,
                                            std::optional<a11y::SurfaceKind> kind, const std::string& asked,
                                            Deadline deadline) {
  auto open = observer.surfaces(query, deadline);
  if (!open) return std::move(open).take_error();
  auto matching = a11y::of_kind(std::move(open).value(), kind);
  if (matching.empty()) {
    return make_error(ErrorCode::kElementNotFound,
                      "no " + (kind ? asked : std::string("menu, list or tooltip")) + " of app " + query.app +
                          " is open",
                      {{"kind", "no_open_surface"}, {"surface", asked}, {"app", query.app}},
                      "open it first (click or press what opens it), or wait for it: wait --app " +
                          query.app + " --surface " + asked);
  }
  return std::move(matching.back());
}

// The ref whose subtree is read: as given, or a bare e<N> bound to the newest snapshot of
// the app's window (and the window or title given), as an action's ref is.
Result<std::string> within_ref(const nlohmann::json& params, const a11y::SnapshotStore& store) {
  const auto given = params["within"].get<std::string>();
  if (given.starts_with('@')) return given;
  if (given.size() < 2 || given[0] != 'e' ||
      given.find_first_not_of("0123456789", 1) != std::string::npos) {
    return make_error(ErrorCode::kInvalidArgs, "within is not a ref: \"" + given + "\"",
                      {{"param", "within"}, {"got", given}}, "give @<snapshot>:e<N>, or e<N> with the app");
  }
  nlohmann::json as_ref = {{"ref", given}, {"app", params["app"]}};
  for (const char* key : {"window", "title"}) {
    if (params.contains(key)) as_ref[key] = params[key];
  }
  const auto stored = store.list();
  auto bound = wire::bind_bare_ref(as_ref, stored);
  if (!bound) return std::move(bound).take_error();
  if (!bound->contains("snapshot")) {
    return make_error(ErrorCode::kInvalidArgs, "within is not a ref: \"" + given + "\"",
                      {{"param", "within"}, {"got", given}}, "give @<snapshot>:e<N>, or e<N> with the app");
  }
  return "@" + (*bound)["snapshot"].get<std::string>() + ":" + given;
}

// The params with the deadline grown by what a first look may wait.
nlohmann::json with_first_look_budget(nlohmann::json params) {
  const std::int64_t given = params.value("timeout_ms", std::int64_t{declared::kDefaultObservationTimeout.count()});
  params["timeout_ms"] = std::min<std::int64_t>(given + a11y::FirstLookRule{}.bound.count() + 1000,
                                                declared::kMaxObservationTimeout.count());
  return params;
}

// A first look at a window that holds a web page: read again until the page is loaded and
// the app quiet since the read (FirstLookRule), within the deadline.
Result<std::shared_ptr<const a11y::Snapshot>> first_look(a11y::Observer& observer, const a11y::WindowQuery& query,
                                                          std::shared_ptr<const a11y::Snapshot> read,
                                                          Deadline deadline, nlohmann::json& said) {
  if (!a11y::holds_web_document(*read) && !a11y::web_document_expected(*read)) return read;
  const a11y::FirstLookRule rule;
  const auto started = std::chrono::steady_clock::now();
  // What the last read needs of the deadline, kept for it.
  const Deadline until = std::min(started + rule.bound, deadline - std::chrono::milliseconds(800));
  a11y::SettleWatch watch(observer, {read->bus_name}, until);
  a11y::WindowQuery same = query;
  same.window_id = read->window.id;
  for (;;) {
    const a11y::Settled since_read = watch.settle(a11y::SettleRule{rule.quiet, rule.bound, {}}, until);
    const bool time_left = std::chrono::steady_clock::now() < until;
    const auto step = a11y::first_look_step(a11y::web_document_incomplete(*read), since_read, time_left);
    if (step != a11y::FirstLookStep::kReadAgain) {
      said[reply_fields::snapshot::kLoading] = step == a11y::FirstLookStep::kStillLoading;
      break;
    }
    auto again = observer.snapshot(same, deadline);
    if (!again) return std::move(again).take_error();
    read = std::move(again).value();
  }
  said["first_look_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - started).count();
  return read;
}

}  // namespace

const MethodSpec kSnapshot{
    .decl = declared::kSnapshot,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto query = window_query_from(params);
      if (!query) return reply(std::move(query).take_error());
      a11y::ViewOptions view = a11y::filtered_view(
          params.value("interactive", false), params.value("compact", false),
          params.contains("max_depth") ? std::optional<int>(static_cast<int>(params["max_depth"].get<std::int64_t>()))
                                       : std::nullopt);
      auto format = snapshot_format(params.value("format", "both"));
      if (!format) return reply(std::move(format).take_error());
      a11y::OutlineOptions outline;
      outline.bounds = params.value("bounds", false);
      std::optional<std::string> surface;
      std::optional<a11y::SurfaceKind> surface_kind;
      if (params.contains("surface")) {
        surface = params["surface"].get<std::string>();
        auto kind = a11y::parse_surface_kind(*surface, "surface", true);
        if (!kind) return reply(std::move(kind).take_error());
        surface_kind = *kind;
      }
      const bool loaded = params.value("loaded", false);
      std::optional<std::string> within;
      if (params.contains("within")) {
        auto bound = within_ref(params, ctx.observer.store());
        if (!bound) return reply(std::move(bound).take_error());
        within = std::move(bound).value();
      }
      run_observation(loaded ? with_first_look_budget(params) : params, ctx, std::move(reply),
                      [query = *query, view, outline, format = *format, surface, surface_kind, within, loaded](
                          a11y::Observer& observer, Deadline deadline) mutable -> Result<nlohmann::json> {
                        std::shared_ptr<const a11y::Snapshot> snapshot;
                        nlohmann::json described;
                        nlohmann::json first_look_said = nlohmann::json::object();
                        if (surface) {
                          auto open = innermost_surface(observer, query, surface_kind, *surface, deadline);
                          if (!open) return std::move(open).take_error();
                          view.root = open->surface.node;
                          described = wire::surface_to_json(*open);
                          snapshot = open->snapshot;
                        } else if (within) {
                          auto taken = observer.snapshot_within(query, *within, deadline);
                          if (!taken) return std::move(taken).take_error();
                          snapshot = std::move(taken).value();
                        } else {
                          auto taken = observer.snapshot(query, deadline);
                          if (!taken) return std::move(taken).take_error();
                          snapshot = std::move(taken).value();
                          if (loaded) {
                            auto looked = first_look(observer, query, std::move(snapshot), deadline, first_look_said);
                            if (!looked) return std::move(looked).take_error();
                            snapshot = std::move(looked).value();
                          }
                        }
                        if (view.interactive && view.compact) fold_as_agent_view(view, outline, *snapshot);
                        const auto tree = a11y::make_view(snapshot->nodes, view);
                        auto json = wire::snapshot_to_json(*snapshot, tree, format.tree);
                        if (format.outline) json[reply_fields::snapshot::kOutline] = a11y::render_outline(*snapshot, tree, outline);
                        if (surface) json["surface"] = std::move(described);
                        json.update(first_look_said);
                        return json;
                      });
    },
};

// Read from the store alone: the apps are not asked, so it answers at once.
const MethodSpec kSnapshots{
    .decl = declared::kSnapshots,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      const std::string app = params.value("app", std::string());
      const auto stored = ctx.observer.store().list();
      nlohmann::json listed = nlohmann::json::array();
      for (auto it = stored.rbegin(); it != stored.rend(); ++it) {
        const a11y::Snapshot& snapshot = **it;
        if (!app.empty() && snapshot.app_name != app) continue;
        nlohmann::json entry = wire::snapshot_summary_to_json(snapshot);
        entry["within"] = snapshot.within.empty() ? nlohmann::json(nullptr) : nlohmann::json(snapshot.within);
        listed.push_back(std::move(entry));
      }
      reply(nlohmann::json{{"snapshots", std::move(listed)}});
    },
};

}  // namespace companyos::daemon::methods
