#include "a11y/action_engine.h"

#include <thread>

#include <atspi/atspi.h>

#include "companyos/reply_fields.h"
#include "a11y/act/action_call.h"
#include "a11y/act/activation_ledger.h"
#include "a11y/act/action_choice.h"
#include "a11y/act/action_live_read.h"
#include "a11y/act/cell_entry.h"
#include "a11y/action_policy.h"
#include "a11y/bus.h"
#include "a11y/live_resolve.h"
#include "a11y/read/cell_read.h"

namespace companyos::a11y {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr auto kFirstReadBackInterval = 1ms;
constexpr auto kReadBackInterval = 10ms;
constexpr auto kFocusWait = 3s;
constexpr auto kFocusRegrab = 500ms;

// Read-backs start close together, as most effects land within milliseconds of the app's
// answer, and slow down to kReadBackInterval so an app slow to apply one is not flooded.
class ReadBackPace {
 public:
  Clock::duration upcoming() const { return interval_; }
  void sleep() {
    std::this_thread::sleep_for(interval_);
    interval_ = std::min<Clock::duration>(interval_ * 2, kReadBackInterval);
  }

 private:
  Clock::duration interval_ = kFirstReadBackInterval;
};

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Error stale(std::string message, std::string kind = "saved_ref_absent") {
  return make_error(ErrorCode::kStaleRef, std::move(message), {{"kind", std::move(kind)}},
                    "take a new snapshot and use its refs");
}

// One action from resolution to reply; each phase leaves what later ones need in members.
class ActionRun {
 public:
  ActionRun(Observer& observer, ActivationLedger& activations, const ActionRequest& request,
            Deadline deadline)
      : observer_(observer), activations_(activations), request_(request), deadline_(deadline) {}

  Result<ActionReply> run();

 private:
  Status resolve();
  Status take_baselines();
  Status look_before_acting();
  Status choose();
  Status deliver();
  Status deliver_by_keyboard();
  Status deliver_to_cell();
  Status enter_as_typed();
  Status focus_for_keyboard();
  Status space_activation();
  void verify();

  Status ensure_app();
  Result<Pipeline> open_pipeline(Deadline deadline);
  Result<std::optional<int>> read_pid_live();
  FingerprintInput fingerprint_at_resolution() const;
  Status check_fingerprint() const;
  Status check_number();
  Status check_answer(const ActionCallOutcome& outcome);
  bool still_answers();
  LiveReadNeeds preflight_needs() const;
  Verification read_back_once(Pipeline& pipeline);
  std::optional<Verification> read_back_by_identity(Deadline until);
  std::optional<Verification> read_back();
  bool landed_otherwise(const Verification& verification) const;

  Error refuse(Error error) const { return marked(std::move(error), Delivery::kNotDelivered); }
  Error marked(Error error, Delivery delivery) const;
  Error read_failed(ReadStatus status, std::string_view while_doing) const;
  bool password() const { return is_password_role(target_->node.role); }
  bool secret() const { return request_.secret || password(); }
  const ElementReading& now() const { return preflight_.reading; }

  Observer& observer_;
  ActivationLedger& activations_;
  const ActionRequest& request_;
  KeyboardRoute keyboard_;  // the request's keyboard, or its keyboard_where_needed once chosen
  const Deadline deadline_;
  const Clock::time_point started_ = Clock::now();
  ActionReply reply_;
  std::optional<LiveTarget> target_;
  std::optional<AppChannel> app_;
  std::optional<ExpectationCheck> expectation_;
  std::optional<int> live_pid_;
  ReadResult preflight_;
  ChosenRoute route_;
  ActionCallArguments call_;
  std::optional<InputLine> input_line_;  // kCellEntry: the one the value went through
};

Error ActionRun::marked(Error error, Delivery delivery) const {
  Error result = with_delivery(std::move(error), delivery);
  if (target_) {
    result.details["target"] = {{"app", target_->app_name},
                                {"window", target_->window.id},
                                {"role", role_name(target_->node.role)},
                                {"name", target_->node.name}};
  }
  return result;
}

Status ActionRun::ensure_app() {
  if (app_) return ok_status();
  auto app = [&] {
    CallScope scope(deadline_);
    return observer_.bus().app_channel(scope, target_->bus_name);
  }();
  if (!app) return std::move(app).take_error();
  app_ = std::move(app).value();
  return ok_status();
}

Result<Pipeline> ActionRun::open_pipeline(Deadline deadline) {
  if (auto app = ensure_app(); !app) return std::move(app).take_error();
  return observer_.bus().pipeline(*app_, std::min(deadline, deadline_));
}

// The pid of the process that owns the app's bus name now, from the bus itself.
Result<std::optional<int>> ActionRun::read_pid_live() {
  CallScope scope(deadline_);
  auto bus = observer_.bus().bus_channel(scope);
  if (!bus) return std::move(bus).take_error();
  std::optional<int> pid;
  scope.call(Channel{bus->connection, "org.freedesktop.DBus", bus->router}, "/org/freedesktop/DBus",
             "org.freedesktop.DBus", "GetConnectionUnixProcessID",
             g_variant_new("(s)", target_->bus_name.c_str()),
             [&pid](GVariant* reply, const GError*) {
               if (reply != nullptr && g_variant_is_of_type(reply, G_VARIANT_TYPE("(u)"))) {
                 pid = static_cast<int>(g_variant_get_uint32(child_of(reply, 0).get()));
               }
             });
  if (!scope.wait()) {
    return make_error(ErrorCode::kBusUnavailable, "the accessibility bus did not answer in time");
  }
  return pid;
}

Error ActionRun::read_failed(ReadStatus status, std::string_view while_doing) const {
  switch (status) {
    case ReadStatus::kGone:
      return stale("the element went away");
    case ReadStatus::kDisconnected:
      return make_error(ErrorCode::kWindowNotFound, "the app closed its connection",
                        {{"kind", "window_gone"}, {"window", target_->window.id}},
                        "list windows again and take a new snapshot");
    case ReadStatus::kUnanswered:
    case ReadStatus::kRead:
      break;
  }
  return app_unresponsive(target_->app_name, target_->bus_name, started_, while_doing);
}

Status ActionRun::resolve() {
  // A selector has no earlier record to be stale against: strict mode compares it with
  // the bounds read at resolution.
  ResolveOptions options;
  options.read_bounds = request_.strict && !request_.expected_fingerprint &&
                        std::holds_alternative<Selector>(request_.target);
  auto target = resolve_live(observer_, request_.target, deadline_, options);
  if (!target) return refuse(std::move(target).take_error());
  target_ = std::move(target).value();
  const LiveTarget& t = *target_;
  reply_.target = ActionTargetSummary{t.ref,          t.app_name,          t.pid,
                                      t.window.id,    t.window.title,      role_name(t.node.role),
                                      t.node.name,    t.position,
                                      says_it_opens_something(t.node, t.stored)};
  reply_.timings.resolve_ms = milliseconds_since(started_);
  return ok_status();
}

// What must be read before acting but may take a while: the expectation's baseline and,
// in strict mode, the app's pid.
Status ActionRun::take_baselines() {
  if (request_.expect) {
    expectation_.emplace(observer_, *request_.expect, target_->window);
    if (auto baseline = expectation_->before(deadline_); !baseline) {
      return refuse(std::move(baseline).take_error());
    }
  }
  if (request_.strict) {
    auto pid = read_pid_live();
    if (!pid) return refuse(std::move(pid).take_error());
    live_pid_ = *pid;
  }
  return ok_status();
}

LiveReadNeeds ActionRun::preflight_needs() const {
  LiveReadNeeds needs;
  needs.identity = true;
  needs.states = true;
  needs.bounds = request_.strict;
  switch (request_.kind) {
    case ActionKind::kClick:
    case ActionKind::kToggle:
    case ActionKind::kExpand:
    case ActionKind::kCollapse:
    case ActionKind::kNamed:
      needs.actions = true;
      break;
    case ActionKind::kSelect:
      needs.actions = true;
      needs.index_in_parent = true;
      break;
    case ActionKind::kSetValue:
      needs.value_range = true;
      // What a cell shows before: a number set as its Value has landed once it shows other.
      needs.text = target_->node.cell.has_value() && !password();
      break;
    case ActionKind::kType:
      // Typed keys land at the end of the text; the accessibility route inserts at the caret.
      needs.caret = true;
      needs.character_count = true;
      needs.text = !password();
      break;
    case ActionKind::kFocus:
      break;
  }
  return needs;
}

// The last look before acting: nothing slow happens between it and the action. Its
// pipeline is closed before the action, so the action reuses its connection.
Status ActionRun::look_before_acting() {
  {
    auto pipeline = open_pipeline(deadline_);
    if (!pipeline) return refuse(std::move(pipeline).take_error());
    preflight_ = read_element_live(*pipeline, target_->node, preflight_needs(), app_->traits());
  }
  if (preflight_.status != ReadStatus::kRead) {
    return refuse(read_failed(preflight_.status, "reading the element before acting"));
  }
  if (!matches_identity(identity_of(target_->node), now().node)) {
    return refuse(stale("the element changed while it was resolved"));
  }
  if (request_.strict) {
    if (auto same = check_fingerprint(); !same) return refuse(std::move(same).take_error());
    reply_.fingerprint = fingerprint_sha256(fingerprint_at_resolution());
  }
  if (auto allowed = check_action_policy(request_.kind, now().node.role, now().node.states,
                                         request_.secret);
      !allowed) {
    return refuse(std::move(allowed).take_error());
  }
  return ok_status();
}

FingerprintInput ActionRun::fingerprint_at_resolution() const {
  if (request_.expected_fingerprint) return *request_.expected_fingerprint;
  if (target_->snapshot && target_->stored) {
    FingerprintInput input = fingerprint_input_of(*target_->snapshot, *target_->stored);
    // A snapshot reads ids only where the rest of an identity is shared; resolution read
    // it live, and that is the id the element had when it was resolved.
    if (!input.identity.accessible_id_known && target_->node.accessible_id_known) {
      input.identity.accessible_id = target_->node.accessible_id;
      input.identity.accessible_id_known = true;
    }
    return input;
  }
  return FingerprintInput{identity_of(target_->node), target_->window.id, target_->pid,
                          target_->node.bounds};
}

Status ActionRun::check_fingerprint() const {
  const FingerprintInput expected = fingerprint_at_resolution();
  const FingerprintInput actual{identity_of(now().node), target_->window.id, live_pid_,
                                now().node.bounds};
  return check_unchanged(expected, actual);
}

Status ActionRun::check_number() {
  const auto number = parse_number(request_.argument);
  if (!number) {
    return make_error(ErrorCode::kInvalidArgs, "the element takes a number, and value is not one",
                      {{"param", "value"}}, "give a decimal number such as 42 or 0.5");
  }
  const auto& minimum = now().minimum;
  const auto& maximum = now().maximum;
  if (minimum && maximum && *minimum <= *maximum && (*number < *minimum || *number > *maximum)) {
    return make_error(ErrorCode::kInvalidArgs, "value is outside the element's range",
                      {{"param", "value"},
                       {"reason", "out_of_range"},
                       {"minimum", *minimum},
                       {"maximum", *maximum}},
                      "give a number within the range");
  }
  call_.number = *number;
  return ok_status();
}

Status ActionRun::choose() {
  const Node& live = now().node;
  const ElementFacts facts{live.role, live.states, live.interfaces, live.actions};
  ContainerFacts parent;
  ContainerFacts grandparent;
  if (target_->parent) parent = {true, target_->parent->role, target_->parent->interfaces};
  if (target_->grandparent) {
    grandparent = {true, target_->grandparent->role, target_->grandparent->interfaces};
  }
  const ToolkitTraits& toolkit = app_->traits();
  const RouteRules rules{.container_selection = toolkit.selection_interface_reaches_the_app,
                         .editable_text = toolkit.editable_text_takes_effect};
  keyboard_ = request_.keyboard;
  auto route = keyboard_ ? choose_keyboard_route(request_.kind, facts, request_.argument)
                         : choose_route(request_.kind, facts, parent, grandparent, request_.argument, rules);
  if (!route && request_.keyboard_where_needed && only_the_keyboard_can(route.error())) {
    keyboard_ = request_.keyboard_where_needed;
    route = choose_keyboard_route(request_.kind, facts, request_.argument);
  }
  if (!route) return refuse(std::move(route).take_error());
  route_ = std::move(route).value();
  reply_.route = route_name(route_);

  call_.element_path = target_->node.path;
  call_.text = request_.argument;
  switch (route_.route) {
    case Route::kSetNumber:
      if (auto number = check_number(); !number) return refuse(std::move(number).take_error());
      break;
    case Route::kCellNumber:
      // No range: the keyboard has none, and Calc's cells claim DBL_MIN as their minimum.
      call_.number = plain_number(request_.argument).value_or(0);
      break;
    case Route::kSelectInParent:
    case Route::kSelectInGrandparent:
      call_.index = now().index_in_parent;
      call_.container_path = route_.route == Route::kSelectInParent ? target_->parent->path
                                                                     : target_->grandparent->path;
      if (call_.index < 0) return refuse(stale("the element is no longer in its container"));
      break;
    case Route::kInsertText: {
      const int caret = now().caret.value_or(-1);
      const int count = now().character_count.value_or(0);
      call_.insert_at = caret < 0 || caret > count ? count : caret;
      break;
    }
    case Route::kKeyboard:
      call_.insert_at = now().character_count.value_or(0);
      break;
    default:
      break;
  }
  return ok_status();
}

// The action goes out on a pipeline of its own that waits at most answer_timeout: an app
// may run the action's handler for long (a click that opens a modal dialog answers only
// when the dialog closes), and that must not pass for a hung app.
Status ActionRun::deliver() {
  if (route_.route == Route::kKeyboard) return deliver_by_keyboard();
  if (route_.route == Route::kCellEntry) return deliver_to_cell();
  const auto deliver_started = Clock::now();
  auto pipeline = open_pipeline(Clock::now() + request_.answer_timeout);
  if (!pipeline) return refuse(std::move(pipeline).take_error());
  pipeline->hand_over_when_done(observer_.bus().parking(target_->bus_name));
  const ActionCallOutcome outcome = send_action_call(*pipeline, route_, call_);
  if (auto answered = check_answer(outcome); !answered) return answered;
  reply_.answered = outcome.answered;
  reply_.timings.deliver_ms = milliseconds_since(deliver_started);
  return ok_status();
}

// GrabFocus, then the focused state read back: keys go to whatever has the focus, so none
// is typed until the element shows it has it. The wait is the focus's own, longer than a
// read-back's: in a multi-process browser the focus crosses from the page's process to the
// window's, and an app that has not yet seen its window activated may drop the grab, so it
// is sent again each kFocusRegrab until the element shows the focus or the wait ends.
Status ActionRun::focus_for_keyboard() {
  const Deadline until = std::min(deadline_, Clock::now() + std::max<Clock::duration>(kFocusWait, request_.verify_timeout));
  LiveReadNeeds needs;
  needs.states = true;
  for (;;) {
    {
      auto pipeline = open_pipeline(Clock::now() + request_.answer_timeout);
      if (!pipeline) return refuse(std::move(pipeline).take_error());
      const ActionCallOutcome outcome =
          send_action_call(*pipeline, ChosenRoute{Route::kGrabFocus, -1, {}, false}, call_);
      if (auto answered = check_answer(outcome); !answered) return refuse(std::move(answered).take_error());
    }
    const Deadline regrab = std::min(until, Clock::now() + kFocusRegrab);
    auto pipeline = open_pipeline(until);
    if (!pipeline) return refuse(std::move(pipeline).take_error());
    ReadBackPace pace;
    for (;;) {
      const ReadResult read = read_element_live(*pipeline, target_->node, needs, app_->traits());
      if (read.status == ReadStatus::kRead && has_state(read.reading.node.states, ATSPI_STATE_FOCUSED)) {
        return ok_status();
      }
      if (Clock::now() + pace.upcoming() >= until || pipeline->expired() || pipeline->disconnected()) {
        return refuse(make_error(ErrorCode::kActionNotSupported,
                                 "the element did not take the keyboard focus; nothing was typed",
                                 {{"kind", "focus_not_taken"}},
                                 "check that nothing covers it and that its window can take the focus"));
      }
      if (Clock::now() + pace.upcoming() >= regrab) break;
      pace.sleep();
    }
  }
}

// The caller's keyboard brings the window forward, lets the element take the focus, and
// types; its errors say how far it got.
Status ActionRun::deliver_by_keyboard() {
  const auto deliver_started = Clock::now();
  const KeyboardTyping typing{.window = target_->window,
                              .focus_element = [this] { return focus_for_keyboard(); },
                              .select_all = request_.kind == ActionKind::kSetValue,
                              .to_end = request_.kind == ActionKind::kType,
                              .keys = {},
                              .text = request_.argument};
  if (auto typed = keyboard_(typing); !typed) {
    Error error = std::move(typed).take_error();
    // Nothing was typed only when the keyboard says so or its error is safe to retry.
    const bool typed_nothing = error.details.value(reply_fields::outcome::kDelivery, "") == to_string(Delivery::kNotDelivered) ||
                               error.retry == Retry::kSafe;
    return marked(std::move(error), typed_nothing ? Delivery::kNotDelivered : Delivery::kDeliveredUnverified);
  }
  reply_.answered = true;
  reply_.timings.deliver_ms = milliseconds_since(deliver_started);
  return ok_status();
}

// The cell takes the cursor, the input line the text, and Accept commits it. Until the text
// is in the input line nothing has changed; after, a failure leaves it uncommitted there.
Status ActionRun::deliver_to_cell() {
  const auto deliver_started = Clock::now();
  std::optional<InputLine>& line = input_line_;
  if (target_->structure) line = find_input_line(*target_->structure);
  if (!line) {
    return refuse(make_error(ErrorCode::kActionNotSupported,
                             "the cell takes no text of its own, and its window shows no input line to enter it",
                             {{"kind", "no_input_line"}},
                             "show the app's formula bar (LibreOffice Calc: View > Formula Bar)"));
  }
  int accept_index = -1;
  std::string accept_action;
  {
    auto pipeline = open_pipeline(deadline_);
    if (!pipeline) return refuse(std::move(pipeline).take_error());
    LiveReadNeeds needs;
    needs.actions = true;
    const ReadResult accept = read_element_live(*pipeline, line->accept, needs, app_->traits());
    if (accept.status != ReadStatus::kRead) return refuse(read_failed(accept.status, "reading the input line"));
    const auto& actions = accept.reading.node.actions;
    for (const char* wanted : {"press", "click", "activate"}) {
      for (std::size_t i = 0; i < actions.size() && accept_index < 0; ++i) {
        if (actions[i] == wanted) {
          accept_index = static_cast<int>(i);
          accept_action = actions[i];
        }
      }
    }
  }
  if (accept_index < 0) {
    return refuse(make_error(ErrorCode::kActionNotSupported, "the input line's commit button lists no press",
                             {{"kind", "no_input_line"}}, "enter the value with --headed (physical input)"));
  }
  if (auto focused = focus_for_keyboard(); !focused) return focused;
  {
    auto pipeline = open_pipeline(Clock::now() + request_.answer_timeout);
    if (!pipeline) return refuse(std::move(pipeline).take_error());
    ActionCallArguments text;
    text.element_path = line->paragraph_path;
    text.text = request_.argument;
    const ActionCallOutcome outcome = send_action_call(*pipeline, ChosenRoute{Route::kSetText, -1, {}, false}, text);
    if (auto answered = check_answer(outcome); !answered) return answered;
  }
  auto pipeline = open_pipeline(Clock::now() + request_.answer_timeout);
  if (!pipeline) return marked(std::move(pipeline).take_error(), Delivery::kDeliveredUnverified);
  pipeline->hand_over_when_done(observer_.bus().parking(target_->bus_name));
  ActionCallArguments press;
  press.element_path = line->accept.path;
  const ActionCallOutcome outcome =
      send_action_call(*pipeline, ChosenRoute{Route::kDoAction, accept_index, accept_action, false}, press);
  if (auto answered = check_answer(outcome); !answered) {
    return marked(std::move(answered).take_error(), Delivery::kDeliveredUnverified);
  }
  reply_.answered = outcome.answered;
  reply_.timings.deliver_ms = milliseconds_since(deliver_started);
  return ok_status();
}

// The cell shows the number set as its Value otherwise than typed (a format of its own): it
// is entered again through the input line, as typed, and that entry is what is verified.
// The cell holds the Value's number already, so nothing here is "not delivered".
Status ActionRun::enter_as_typed() {
  const ActionTimings first = reply_.timings;
  reply_.first_route = reply_.route;
  route_ = ChosenRoute{Route::kCellEntry, -1, {}, false};
  reply_.route = route_name(route_);
  if (auto delivered = deliver_to_cell(); !delivered) {
    Error error = std::move(delivered).take_error();
    const bool nothing_more = error.details.value(reply_fields::outcome::kDelivery, "") == to_string(Delivery::kNotDelivered);
    return nothing_more ? marked(std::move(error), Delivery::kDeliveredUnverified) : error;
  }
  verify();
  reply_.timings.deliver_ms += first.deliver_ms;
  reply_.timings.verify_ms += first.verify_ms;
  return ok_status();
}

// A toolkit that drops a button's activation while it still shows the previous one gets
// the next no sooner than it can take effect; waiting past the deadline is refused. Runs
// before anything is read for the action, so the expectation's baseline and the look
// before acting see the button after its previous activation took effect. Decided by the
// kind, as the route is chosen only after the look: a focus, a value or typed text never
// activates a button, every other kind may.
Status ActionRun::space_activation() {
  switch (request_.kind) {
    case ActionKind::kFocus:
    case ActionKind::kSetValue:
    case ActionKind::kType:
      return ok_status();
    default:
      break;
  }
  if (!activates_like_a_button(target_->node.role)) return ok_status();
  if (auto app = ensure_app(); !app) return refuse(std::move(app).take_error());
  const auto spacing = app_->traits().button_activation_spacing;
  if (spacing <= Clock::duration::zero()) return ok_status();
  reply_.effect_delay = std::chrono::duration_cast<std::chrono::milliseconds>(spacing);
  const auto now = Clock::now();
  const auto wait = activations_.reserve(target_->bus_name + target_->node.path, now, spacing);
  if (wait <= Clock::duration::zero()) return ok_status();
  if (now + wait >= deadline_) {
    return refuse(make_error(
        ErrorCode::kTimeout, "the button's previous activation would still be under way",
        {{"kind", "activation_spacing"},
         {"wait_ms", std::chrono::duration_cast<std::chrono::milliseconds>(wait).count()}},
        "try again, or with a longer timeout"));
  }
  std::this_thread::sleep_for(wait);
  reply_.timings.spacing_ms = std::chrono::duration<double, std::milli>(wait).count();
  return ok_status();
}

Status ActionRun::check_answer(const ActionCallOutcome& outcome) {
  if (!outcome.sent) {
    return refuse(make_error(ErrorCode::kInternal, "the action could not be sent to the app",
                             {{"kind", "not_sent"}}, "try again"));
  }
  if (!outcome.answered) {
    if (outcome.disconnected) {
      return marked(make_error(ErrorCode::kWindowNotFound,
                               "the app closed its connection while acting",
                               {{"kind", "window_gone"}, {"window", target_->window.id}},
                               "check the app's state"),
                    Delivery::kDeliveredUnverified);
    }
    // Busy with the action itself (a read-back or the expectation may still show its
    // effect), or hung.
    if (still_answers()) return ok_status();
    return marked(app_unresponsive(target_->app_name, target_->bus_name, started_,
                                   "performing the action"),
                  Delivery::kDeliveredUnverified);
  }
  if (outcome.gone) return refuse(stale("the element went away before the action"));
  if (!outcome.error.empty()) {
    return refuse(make_error(ErrorCode::kActionNotSupported, "the app refused the action",
                             {{"kind", "toolkit_error"}, {"error", outcome.error}},
                             "take a new snapshot and check the element"));
  }
  if (outcome.accepted && !*outcome.accepted) {
    return refuse(make_error(ErrorCode::kActionNotSupported, "the app declined the action",
                             {{"kind", "toolkit_declined"}},
                             "check that the element can take it now"));
  }
  return ok_status();
}

// Whether the app still answers a plain read within answer_timeout.
bool ActionRun::still_answers() {
  auto pipeline = open_pipeline(Clock::now() + request_.answer_timeout);
  if (!pipeline) return false;
  LiveReadNeeds needs;
  needs.states = true;
  return read_element_live(*pipeline, target_->node, needs, app_->traits()).status ==
         ReadStatus::kRead;
}

Verification ActionRun::read_back_once(Pipeline& pipeline) {
  LiveReadNeeds needs;
  switch (route_.route) {
    case Route::kSetText:
    case Route::kInsertText:
    case Route::kKeyboard:
      needs.text = !password();
      needs.character_count = password();
      break;
    case Route::kSetNumber:
      needs.value = true;
      break;
    case Route::kCellEntry:
    case Route::kCellNumber: {
      needs.text = true;
      needs.states = true;
      // Calc answers for an edited cell with a new object: the table gives it afresh.
      Node entered = target_->node;
      if (entered.cell && target_->parent) {
        read_cell_path(pipeline, target_->parent->path, entered.cell->row, entered.cell->column,
                       [&entered](std::optional<std::string> path) {
                         if (path) entered.path = std::move(*path);
                       });
        pipeline.wait();
      }
      const ReadResult cell = read_element_live(pipeline, entered, needs, app_->traits());
      const bool read = cell.status == ReadStatus::kRead;
      // The formula, from the input line: the cursor stays on the cell, and Calc's Formula
      // attribute loses everything after a ":" (SUM(A1:A2)).
      std::optional<std::string> formula;
      if (read && request_.argument.starts_with('=') && input_line_ &&
          has_state(cell.reading.node.states, ATSPI_STATE_FOCUSED)) {
        Node paragraph;
        paragraph.path = input_line_->paragraph_path;
        paragraph.role = ATSPI_ROLE_PARAGRAPH;
        paragraph.states = StateSet{1} << ATSPI_STATE_MULTI_LINE;
        paragraph.interfaces = kInterfaceText | kInterfaceEditableText;
        LiveReadNeeds text;
        text.text = true;
        const ReadResult line = read_element_live(pipeline, paragraph, text, app_->traits());
        if (line.status == ReadStatus::kRead) formula = line.reading.text;
      }
      return verify_cell_entry(request_.argument, read ? cell.reading.text : std::nullopt, formula, secret());
    }
    case Route::kSelectInParent:
    case Route::kSelectInGrandparent:
      return verify_selected(call_.index,
                             read_child_selected(pipeline, call_.container_path, call_.index));
    default:
      needs.states = true;
      break;
  }
  const ReadResult read = read_element_live(pipeline, target_->node, needs, app_->traits());
  const bool ok = read.status == ReadStatus::kRead;
  const ElementReading& after = read.reading;
  const std::size_t asked = character_count(request_.argument);
  const auto before_count = static_cast<std::size_t>(std::max(0, now().character_count.value_or(0)));
  // The keyboard replaces the text for set-value and appends to it for type.
  const bool replaces = route_.route == Route::kSetText ||
                        (route_.route == Route::kKeyboard && request_.kind == ActionKind::kSetValue);
  if (replaces) {
    if (password()) return verify_character_count(asked, ok ? after.character_count : std::nullopt);
    return verify_text(request_.argument, ok ? after.text : std::nullopt, secret());
  }
  switch (route_.route) {
    case Route::kInsertText:
    case Route::kKeyboard:
      if (password()) {
        return verify_character_count(before_count + asked, ok ? after.character_count : std::nullopt);
      }
      return verify_text(text_after_insert(now().text.value_or(std::string()), call_.insert_at,
                                           request_.argument),
                         ok ? after.text : std::nullopt, secret());
    case Route::kSetNumber:
      return verify_number(call_.number, ok ? after.value : std::nullopt);
    default:
      break;
  }
  const std::optional<StateSet> states = ok ? std::optional(after.node.states) : std::nullopt;
  switch (request_.kind) {
    case ActionKind::kToggle:
      return verify_state(ATSPI_STATE_CHECKED, !has_state(now().node.states, ATSPI_STATE_CHECKED),
                          states);
    case ActionKind::kExpand:
      return verify_state(ATSPI_STATE_EXPANDED, true, states);
    case ActionKind::kCollapse:
      return verify_state(ATSPI_STATE_EXPANDED, false, states);
    case ActionKind::kFocus:
      return verify_state(ATSPI_STATE_FOCUSED, true, states);
    default:  // select through the element's own action
      return verify_state(ATSPI_STATE_SELECTED, true, states);
  }
}

// Reads the effect back until it matches or the verify timeout passes: toolkits may apply
// an action from their main loop a moment after answering the call. A click or a named
// action has nothing to read back. What did not match says the last reading that came: a
// last read cut off by the deadline does not erase what the ones before it saw.
std::optional<Verification> ActionRun::read_back() {
  if (request_.kind == ActionKind::kClick || request_.kind == ActionKind::kNamed) return std::nullopt;
  const Deadline until = std::min(deadline_, Clock::now() + request_.verify_timeout);
  auto pipeline = open_pipeline(until);
  if (!pipeline) return Verification{};
  ReadBackPace pace;
  std::optional<Verification> last_read;
  for (;;) {
    Verification verification = read_back_once(*pipeline);
    if (route_.picks_from_list && !verification.matched) {
      if (auto picked = read_back_by_identity(until); picked && picked->matched) return picked;
    }
    const bool read_nothing = std::holds_alternative<std::monostate>(verification.read);
    if (!read_nothing) last_read = verification;
    if (verification.matched || landed_otherwise(verification) || Clock::now() + pace.upcoming() >= until ||
        pipeline->expired() || pipeline->disconnected()) {
      return read_nothing && last_read ? *last_read : verification;
    }
    pace.sleep();
  }
}

// A number set as a cell's Value lands with the call's answer: once the cell shows anything
// but what it showed before, waiting longer cannot make it show the number as given, and the
// input line's entry as typed comes next.
bool ActionRun::landed_otherwise(const Verification& verification) const {
  if (route_.route != Route::kCellNumber || verification.matched || !now().text) return false;
  const auto* shown = std::get_if<std::string>(&verification.read);
  return shown != nullptr && *shown != *now().text;
}

// The picked copy goes with its list, and Gecko may leave its state as it was: the one
// element of the window with the target's identity once the list is gone (the option
// itself) must show it is selected. While the list is still there are two, and nothing
// is read.
std::optional<Verification> ActionRun::read_back_by_identity(Deadline until) {
  Selector selector;
  selector.app = target_->app_name;
  selector.role = target_->node.role;
  selector.name = target_->node.name;
  selector.window_id = target_->window.id;
  auto option = resolve_live(observer_, selector, until);
  if (!option) return std::nullopt;
  auto pipeline = open_pipeline(until);
  if (!pipeline) return std::nullopt;
  LiveReadNeeds needs;
  needs.states = true;
  const ReadResult read = read_element_live(*pipeline, option->node, needs, app_->traits());
  if (read.status != ReadStatus::kRead) return std::nullopt;
  return verify_state(ATSPI_STATE_SELECTED, true, read.reading.node.states);
}

// Only a read-back or a met expectation earns "verified".
void ActionRun::verify() {
  const auto verify_started = Clock::now();
  reply_.verification = read_back();
  bool verified = reply_.verification.has_value() || expectation_.has_value();
  if (reply_.verification) verified = verified && reply_.verification->matched;
  if (expectation_) {
    reply_.expectation_result = expectation_->after(deadline_);
    verified = verified && reply_.expectation_result->met;
  }
  reply_.delivery = verified ? Delivery::kDeliveredVerified : Delivery::kDeliveredUnverified;
  reply_.timings.verify_ms = milliseconds_since(verify_started);
}

Result<ActionReply> ActionRun::run() {
  reply_.kind = request_.kind;
  reply_.expectation = request_.expect;
  if (auto resolved = resolve(); !resolved) return std::move(resolved).take_error();
  if (auto spaced = space_activation(); !spaced) return std::move(spaced).take_error();
  const auto preflight_started = Clock::now();
  if (auto baselines = take_baselines(); !baselines) return std::move(baselines).take_error();
  if (auto looked = look_before_acting(); !looked) return std::move(looked).take_error();
  if (auto chosen = choose(); !chosen) return std::move(chosen).take_error();
  reply_.timings.preflight_ms = milliseconds_since(preflight_started);

  if (route_.route == Route::kAlreadyInState) {
    reply_.already = true;
    reply_.delivery = Delivery::kNotDelivered;
    reply_.verification = verify_state(ATSPI_STATE_EXPANDED, request_.kind == ActionKind::kExpand,
                                       now().node.states);
  } else {
    if (auto waiting = caller_still_waiting(request_.caller_gone, "the action"); !waiting) {
      return refuse(std::move(waiting).take_error());
    }
    if (auto delivered = deliver(); !delivered) return std::move(delivered).take_error();
    verify();
    if (route_.route == Route::kCellNumber && reply_.verification && !reply_.verification->matched &&
        !std::holds_alternative<std::monostate>(reply_.verification->read)) {
      if (auto entered = enter_as_typed(); !entered) return std::move(entered).take_error();
    }
  }
  reply_.milliseconds = milliseconds_since(started_);
  return std::move(reply_);
}

}  // namespace

ActionEngine::ActionEngine(Observer& observer)
    : observer_(observer), activations_(std::make_unique<ActivationLedger>()) {}

ActionEngine::~ActionEngine() = default;

Result<ActionReply> ActionEngine::perform(const ActionRequest& request, Deadline deadline) {
  ActionRun run(observer_, *activations_, request, deadline);
  return run.run();
}

}  // namespace companyos::a11y
