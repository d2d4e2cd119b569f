#include "daemon/wire/a11y_replies.h"

#include "a11y/ref.h"
#include "a11y/render.h"
#include "a11y/cell_address.h"
#include "a11y/cells.h"
#include "a11y/vocabulary.h"
#include "companyos/reply_fields.h"

namespace companyos::wire {

using namespace a11y;

namespace {

// What a snapshot's node and a live element's details both say about an element.
nlohmann::json node_fields(const Node& node) {
  nlohmann::json json = {
      {"role", role_name(node.role)},
      {"name", node.name},
      {"description", node.description},
      {"accessible_id",
       node.accessible_id_known ? nlohmann::json(node.accessible_id) : nlohmann::json(nullptr)},
      {"value", node.value ? nlohmann::json(*node.value) : nlohmann::json(nullptr)},
      {"states", state_names(node.states)},
      {"actions", node.actions},
      {"bounds", bounds_to_json(node.bounds)},
  };
  if (node.value_withheld) json["value_withheld"] = true;
  // Rows and columns counted from 1, as the outline and cell addresses count them.
  if (node.shown) {
    const ShownRegion& shown = *node.shown;
    json["shown"] = {{"rows", shown.rows},           {"columns", shown.columns},
                     {"first_row", shown.first_row + 1}, {"row_count", shown.row_count},
                     {"first_column", shown.first_column + 1}, {"column_count", shown.column_count}};
  }
  if (node.cell) {
    json["cell"] = {{"row", node.cell->row + 1},
                    {"column", node.cell->column + 1},
                    {"address", to_string(CellAddress{node.cell->row, node.cell->column})}};
  }
  return json;
}

nlohmann::json view_to_json(const Snapshot& snapshot, const ViewNode& view) {
  nlohmann::json json = node_to_json(snapshot, snapshot.nodes[static_cast<std::size_t>(view.node)]);
  if (view.hidden > 0) json["hidden_descendants"] = view.hidden;
  if (view.not_showing > 0) json["not_showing_descendants"] = view.not_showing;
  auto children = nlohmann::json::array();
  for (const ViewNode& child : view.children) children.push_back(view_to_json(snapshot, child));
  json["children"] = std::move(children);
  return json;
}

nlohmann::json target_to_json(const ActionTargetSummary& target) {
  nlohmann::json json = {{"app", target.app},
                         {"pid", target.pid ? nlohmann::json(*target.pid) : nlohmann::json()},
                         {"window", {{"id", target.window_id}, {"title", target.window_title}}},
                         {"role", target.role},
                         {"name", target.name},
                         {"position", target.position}};
  if (!target.ref.empty()) json["ref"] = target.ref;
  return json;
}

nlohmann::json reading_to_json(const a11y::Reading& reading) {
  return std::visit(
      [](const auto& value) -> nlohmann::json {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return nullptr;
        } else if constexpr (std::is_same_v<T, a11y::Characters>) {
          return {{"characters", value.count}};
        } else if constexpr (std::is_same_v<T, a11y::StatePresence>) {
          return {{"state", value.state}, {"present", value.present}};
        } else if constexpr (std::is_same_v<T, a11y::ChildSelection>) {
          return {{"index", value.index}, {"selected", value.selected}};
        } else {
          return value;
        }
      },
      reading);
}

}  // namespace

nlohmann::json bounds_to_json(const std::optional<Bounds>& bounds) {
  if (!bounds) return nullptr;
  return {{"x", bounds->x}, {"y", bounds->y}, {"width", bounds->width}, {"height", bounds->height}};
}

nlohmann::json window_to_json(const WindowInfo& window) {
  namespace field = reply_fields::window;
  return {{field::kId, window.id},
          {field::kTitle, window.title},
          {field::kRole, window.role},
          {field::kApp, window.app_name},
          {field::kPid, window.pid ? nlohmann::json(*window.pid) : nlohmann::json(nullptr)},
          {field::kActive, window.active()},
          {field::kResponsive, window.responsive},
          {field::kStates, state_names(window.states)},
          {field::kBounds, bounds_to_json(window.bounds)}};
}

nlohmann::json node_to_json(const Snapshot& snapshot, const Node& node) {
  nlohmann::json json = node_fields(node);
  json["ref"] = format_ref(snapshot.id, node.ref);
  json["twin"] = node.twin;
  if (node.twin) json["twin_group"] = node.twin_group;
  if (node.twin && node.twin_scope >= 0) {
    json["twin_scope"] = format_ref(snapshot.id, snapshot.nodes[static_cast<std::size_t>(node.twin_scope)].ref);
  }
  return json;
}

nlohmann::json app_to_json(const AppInfo& app) {
  namespace field = reply_fields::app;
  auto windows = nlohmann::json::array();
  for (const WindowInfo& window : app.windows) windows.push_back(window_to_json(window));
  return {{field::kName, app.name},
          {field::kBusName, app.bus_name},
          {field::kPid, app.pid ? nlohmann::json(*app.pid) : nlohmann::json(nullptr)},
          {field::kToolkit, app.toolkit},
          {field::kToolkitVersion, app.toolkit_version},
          {field::kResponsive, app.responsive},
          {field::kPolicyDenied, app.policy_denied},
          {field::kWindowCount, app.windows.size()},
          {field::kWindowsNotListed, app.windows_not_listed},
          {field::kWindows, std::move(windows)}};
}

nlohmann::json snapshot_summary_to_json(const Snapshot& snapshot) {
  namespace field = reply_fields::snapshot;
  return {{field::kSnapshot, snapshot.id},
          {field::kApp, snapshot.app_name},
          {field::kPid, snapshot.pid ? nlohmann::json(*snapshot.pid) : nlohmann::json(nullptr)},
          {field::kWindow, window_to_json(snapshot.window)},
          {field::kNodeCount, snapshot.nodes.size()}};
}

nlohmann::json snapshot_to_json(const Snapshot& snapshot, const ViewNode& view, bool with_tree) {
  nlohmann::json json = snapshot_summary_to_json(snapshot);
  json["stats"] = {{"bulk", snapshot.stats.bulk},
                   {"bulk_items", snapshot.stats.bulk_items},
                   {"bulk_milliseconds", snapshot.stats.bulk_milliseconds},
                   {"peer_to_peer", snapshot.stats.peer_to_peer},
                   {"reconciled", snapshot.stats.reconciled},
                   {"walked_live", snapshot.stats.walked_live},
                   {"detail_calls", snapshot.stats.detail_calls},
                   {"truncated", snapshot.stats.truncated},
                   {"children_unread", snapshot.stats.children_unread},
                   {"shown_regions", snapshot.stats.shown_regions},
                   {"milliseconds", snapshot.stats.milliseconds}};
  if (!snapshot.within.empty()) json["within"] = snapshot.within;
  if (with_tree) {
    json["tree"] = snapshot.nodes.empty() ? nlohmann::json(nullptr) : view_to_json(snapshot, view);
  }
  return json;
}

nlohmann::json surface_to_json(const OpenSurface& open) {
  const Snapshot& snapshot = *open.snapshot;
  const Node& node = snapshot.nodes[static_cast<std::size_t>(open.surface.node)];
  nlohmann::json opener(nullptr);
  if (open.surface.opener >= 0) {
    const Node& by = snapshot.nodes[static_cast<std::size_t>(open.surface.opener)];
    opener = {{"ref", format_ref(snapshot.id, by.ref)}, {"role", role_name(by.role)}, {"name", by.name}};
  }
  return {{"ref", format_ref(snapshot.id, node.ref)},
          {"kind", to_string(open.surface.kind)},
          {"role", role_name(node.role)},
          {"name", node.name},
          {"items", open.surface.items},
          {"bounds", bounds_to_json(node.bounds)},
          {"window", {{"id", snapshot.window.id}, {"title", snapshot.window.title}}},
          {"snapshot", snapshot.id},
          {"opener", std::move(opener)}};
}

nlohmann::json element_details_to_json(const ElementDetails& details) {
  nlohmann::json json = node_fields(details.node);
  json["ref"] = details.ref;
  json["window"] = {{"id", details.window.id}, {"title", details.window.title}};
  json["text"] = details.text ? nlohmann::json(*details.text) : nlohmann::json(nullptr);
  if (details.node.cell) {
    json["formula"] = details.formula ? nlohmann::json(*details.formula) : nlohmann::json(nullptr);
    json["formula_cut"] = details.formula_cut;
  }
  return json;
}

nlohmann::json cell_rows_to_json(const CellRows& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : rows.rows) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& text : row) values.push_back(text ? nlohmann::json(*text) : nlohmann::json(nullptr));
    out.push_back(std::move(values));
  }
  // Where the rows start and the columns' letters: a reader names each cell without
  // parsing the range.
  nlohmann::json column_names = nlohmann::json::array();
  for (std::int64_t c = rows.range.first.column; c <= rows.range.last.column; ++c) column_names.push_back(column_name(c));
  return {{"range", to_string(rows.range)},
          {"first_row", rows.range.first.row + 1},
          {"column_names", std::move(column_names)},
          {"rows", std::move(out)},
          {"table_rows", rows.table_rows},
          {"table_columns", rows.table_columns},
          {"window", {{"id", rows.window.id}, {"title", rows.window.title}}}};
}

nlohmann::json found_element_to_json(const FoundElement& found) {
  nlohmann::json json = node_to_json(*found.snapshot, *found.node);
  json["window"] = {{"id", found.snapshot->window.id}, {"title", found.snapshot->window.title}};
  return json;
}

nlohmann::json verification_to_json(const Verification& verification) {
  return {{"check", verification.check},
          {"matched", verification.matched},
          {"expected", reading_to_json(verification.expected)},
          {"read", reading_to_json(verification.read)}};
}

nlohmann::json expectation_to_json(const Expectation& expectation, const ExpectationResult& result) {
  static constexpr const char* kKinds[] = {"window", "state", "text"};
  nlohmann::json json = {{"kind", kKinds[static_cast<int>(expectation.kind)]},
                         {"expected", expectation.text},
                         {"met", result.met},
                         {"reason", result.reason},
                         {"waited_ms", result.waited_ms},
                         {"timeout_ms", expectation.timeout.count()}};
  if (expectation.element) json["ref"] = describe(*expectation.element);
  if (result.observed) {
    json["observed"] = result.observed->error
                           ? nlohmann::json{{"error", std::string(to_string(*result.observed->error))}}
                           : nlohmann::json{{"matches", result.observed->matches.value_or(0)}};
  }
  return json;
}

nlohmann::json action_reply_to_json(const ActionReply& reply) {
  nlohmann::json json = {
      {"method", std::string(method_name(reply.kind))},
      {reply_fields::outcome::kDelivery, std::string(to_string(reply.delivery))},
      {"retry", std::string(to_string(retry_for(reply.delivery)))},
      {reply_fields::outcome::kRoute, reply.route},
      {"target", target_to_json(reply.target)},
      {"verification",
       reply.verification ? verification_to_json(*reply.verification) : nlohmann::json()},
      {"timings",
       {{"resolve_ms", reply.timings.resolve_ms},
        {"preflight_ms", reply.timings.preflight_ms},
        {"deliver_ms", reply.timings.deliver_ms},
        {"verify_ms", reply.timings.verify_ms}}},
      {"ms", reply.milliseconds},
  };
  if (reply.timings.spacing_ms > 0) json["timings"]["spacing_ms"] = reply.timings.spacing_ms;
  if (reply.first_route) json[reply_fields::outcome::kFirstRoute] = *reply.first_route;
  if (reply.already) json["already"] = true;
  if (!reply.answered) json["answered"] = false;
  if (reply.fingerprint) json["fingerprint"] = *reply.fingerprint;
  if (reply.expectation && reply.expectation_result) {
    json["expectation"] = expectation_to_json(*reply.expectation, *reply.expectation_result);
  }
  return json;
}

namespace {

template <typename T>
nlohmann::json or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

nlohmann::json wait_window_to_json(const a11y::WaitWindow& window) {
  return {{"id", window.id},
          {"title", or_null(window.title)},
          {"app", window.app},
          {"bus_name", window.bus_name},
          {"pid", or_null(window.pid)}};
}

struct EvidenceToJson {
  nlohmann::json operator()(const a11y::WindowAppearedEvidence& seen) const {
    return {{"window", wait_window_to_json(seen.window)}, {"seen_open_by", seen.seen_open_by}};
  }
  nlohmann::json operator()(const a11y::WindowClosedEvidence& seen) const {
    return {{"window", wait_window_to_json(seen.window)},
            {"seen_open_by", seen.seen_open_by},
            {"gone_by", seen.gone_by},
            {"gone_at_ms", seen.gone_at_ms}};
  }
  nlohmann::json operator()(const a11y::SurfaceOpenedEvidence& seen) const {
    return {{"window", {{"id", seen.window_id}, {"title", seen.window_title}}},
            {"ref", seen.ref.empty() ? nlohmann::json() : nlohmann::json(seen.ref)},
            {"kind", seen.kind},
            {"role", seen.role},
            {"name", seen.name},
            {"items", seen.items},
            {"opener", seen.opener_ref.empty() ? nlohmann::json() : nlohmann::json(seen.opener_ref)}};
  }
  nlohmann::json operator()(const a11y::TextAppearedEvidence& seen) const {
    return {{"window", {{"id", seen.window_id}, {"title", seen.window_title}}},
            {"ref", seen.ref.empty() ? nlohmann::json() : nlohmann::json(seen.ref)},
            {"role", seen.role},
            {"name", seen.name},
            {"field", seen.field}};
  }
  nlohmann::json operator()(const a11y::ElementEvidence& seen) const {
    nlohmann::json json = {{"ref", seen.ref}, {"presence", seen.presence}};
    if (seen.value) json["value"] = *seen.value;
    if (seen.state) {
      json["state"] = *seen.state;
      json["states"] = seen.states;
    }
    return json;
  }
};

}  // namespace

nlohmann::json wait_evidence_to_json(const a11y::WaitEvidence& evidence) {
  return std::visit(EvidenceToJson{}, evidence);
}

nlohmann::json wait_outcome_to_json(const WaitOutcome& outcome) {
  return {{"condition", outcome.condition},
          {"elapsed_ms", outcome.elapsed.count()},
          {"seen_by", outcome.seen_by},
          {"evidence", wait_evidence_to_json(outcome.evidence)},
          {"checks", outcome.checks},
          {"events", outcome.events},
          {"events_active", outcome.events_active}};
}

nlohmann::json pointer_click_to_json(const desktop::PointerClickReply& click) {
  nlohmann::json json = action_reply_to_json(click.action);
  json["point"] = {{"x", click.point.x}, {"y", click.point.y}};
  json["x11_window"] = click.x11_window;
  return json;
}

}  // namespace companyos::wire
