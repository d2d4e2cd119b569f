#include "a11y/observer.h"
#include "a11y/render.h"
#include "a11y/view.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "desktop/target_window.h"
#include "wire/a11y_replies.h"

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

}  // namespace

const MethodSpec kSnapshot{
    .decl = declared::kSnapshot,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      auto query = window_query_from(params);
      if (!query) return reply(std::move(query).take_error());
      a11y::ViewOptions view;
      view.interactive = params.value("interactive", false);
      view.compact = params.value("compact", false);
      if (params.contains("max_depth")) {
        view.max_depth = static_cast<int>(params["max_depth"].get<std::int64_t>());
      }
      auto format = snapshot_format(params.value("format", "both"));
      if (!format) return reply(std::move(format).take_error());
      a11y::OutlineOptions outline;
      outline.bounds = params.value("bounds", false);
      run_observation(params, ctx, std::move(reply),
                      [query = *query, view, outline, format = *format](
                          a11y::Observer& observer, Deadline deadline) -> Result<nlohmann::json> {
                        auto snapshot = observer.snapshot(query, deadline);
                        if (!snapshot) return std::move(snapshot).take_error();
                        const auto tree = a11y::make_view((*snapshot)->nodes, view);
                        auto json = wire::snapshot_to_json(**snapshot, tree, format.tree);
                        if (format.outline) json["outline"] = a11y::render_outline(**snapshot, tree, outline);
                        return json;
                      });
    },
};

}  // namespace companyos::daemon::methods
