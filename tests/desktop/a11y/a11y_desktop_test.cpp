// Desktop tests of the observation engine against the GTK3 fixture, run inside
// scripts/desktop-session. Effects are checked from outside where possible: the pid is the
// one we spawned, window geometry is compared with what the X server says (xwininfo), and
// the fixture's own layout (rows, twins, password entry) is known from its options.
#include <algorithm>
#include <cstdio>
#include <future>
#include <regex>
#include <set>
#include <thread>

#include <atspi/atspi.h>
#include <glib/gstdio.h>
#include <gtest/gtest.h>

#include "a11y/render.h"
#include "a11y/view.h"
#include "fixture_process.h"

namespace companyos::a11y {
namespace {

using namespace std::chrono_literals;
using testing::FixtureProcess;
using testing::in;
using testing::wait_for_app;


const Node* find_node(const Snapshot& snapshot, std::string_view role, std::string_view name) {
  for (const Node& node : snapshot.nodes) {
    if (role_name(node.role) == role && node.name == name) return &node;
  }
  return nullptr;
}

std::size_t count_nodes(const Snapshot& snapshot, std::string_view role, std::string_view prefix) {
  return static_cast<std::size_t>(std::count_if(
      snapshot.nodes.begin(), snapshot.nodes.end(), [&](const Node& node) {
        return role_name(node.role) == role && std::string_view(node.name).starts_with(prefix);
      }));
}

bool inside(const Bounds& inner, const Bounds& outer) {
  return inner.x >= outer.x && inner.y >= outer.y &&
         inner.x + inner.width <= outer.x + outer.width &&
         inner.y + inner.height <= outer.y + outer.height;
}

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The X server's view of a top-level window (xwininfo), for checks from outside AT-SPI.
std::optional<Bounds> x11_geometry(const std::string& title) {
  const std::string command = "xwininfo -name '" + title + "'";
  gchar* out = nullptr;
  gint status = 0;
  if (!g_spawn_command_line_sync(command.c_str(), &out, nullptr, &status, nullptr) || status != 0) {
    g_free(out);
    return std::nullopt;
  }
  const GCharPtr owned(out);
  const std::string text(out);
  auto field = [&text](const char* label) -> std::optional<int> {
    std::smatch match;
    if (!std::regex_search(text, match, std::regex(std::string(label) + ":\\s+(-?\\d+)"))) {
      return std::nullopt;
    }
    return std::stoi(match[1]);
  };
  auto x = field("Absolute upper-left X");
  auto y = field("Absolute upper-left Y");
  auto w = field("Width");
  auto h = field("Height");
  if (!x || !y || !w || !h) return std::nullopt;
  return Bounds{*x, *y, *w, *h};
}

// Sets an editable text through AT-SPI, as a person typing would leave it.
bool set_text(Observer& observer, const std::string& bus_name, const std::string& path,
              const char* text) {
  CallScope scope(in(2s));
  auto bus = observer.bus().bus_channel(scope);
  if (!bus) return false;
  VariantPtr reply(g_dbus_connection_call_sync(
      bus->connection.get(), bus_name.c_str(), path.c_str(), "org.a11y.atspi.EditableText",
      "SetTextContents", g_variant_new("(s)", text), nullptr, G_DBUS_CALL_FLAGS_NONE, 2000, nullptr,
      nullptr));
  return reply != nullptr;
}

class A11yDesktop : public ::testing::Test {
 protected:
  // Starts a fixture named app_class and waits until its window is listed.
  AppInfo start(FixtureProcess& fixture, const std::string& app_class) {
    EXPECT_TRUE(fixture.running()) << "fixture did not start: " << testing::fixture_path("");
    auto app = wait_for_app(observer_, fixture.pid());
    EXPECT_TRUE(app.has_value()) << app_class << " never appeared on the accessibility bus";
    return app.value_or(AppInfo{});
  }

  std::shared_ptr<const Snapshot> snapshot(const std::string& app, Deadline deadline = in(10s)) {
    auto taken = observer_.snapshot(WindowQuery{app, std::nullopt, std::nullopt}, deadline);
    EXPECT_TRUE(taken.ok()) << (taken.ok() ? "" : taken.error().message);
    return taken.ok() ? *taken : nullptr;
  }

  Observer observer_;
};

using Apps = A11yDesktop;
using Snapshots = A11yDesktop;

TEST_F(Apps, ListsTheFixtureWithItsPidToolkitAndWindow) {
  FixtureProcess fixture({"--class", "a11y-apps", "--title", "Apps Fixture"});
  const AppInfo app = start(fixture, "a11y-apps");
  EXPECT_EQ(app.name, "a11y-apps");
  EXPECT_EQ(app.pid, fixture.pid());
  EXPECT_TRUE(app.responsive);
  EXPECT_EQ(app.toolkit, "gtk");
  EXPECT_TRUE(app.toolkit_version.starts_with("3.")) << app.toolkit_version;
  ASSERT_EQ(app.windows.size(), 1u);
  WindowInfo window = app.windows.front();
  EXPECT_EQ(window.title, "Apps Fixture");
  EXPECT_EQ(window.role, "frame");
  EXPECT_EQ(window.pid, fixture.pid());
  EXPECT_TRUE(std::regex_match(window.id, std::regex("w[0-9a-f]{12}"))) << window.id;
  ASSERT_TRUE(window.bounds.has_value());

  // The X server's client window lies within the AT-SPI frame, which GTK3 reports with
  // the window manager's decorations (title bar, border) included.
  // The window manager reparents and places the window after it is mapped, so both views
  // are re-read until they settle (or the deadline passes and the last pair is judged).
  auto x11 = x11_geometry("Apps Fixture");
  for (const auto give_up = std::chrono::steady_clock::now() + 10s;
       !(x11 && inside(*x11, *window.bounds)) && std::chrono::steady_clock::now() < give_up;) {
    std::this_thread::sleep_for(50ms);
    x11 = x11_geometry("Apps Fixture");
    if (auto again = wait_for_app(observer_, fixture.pid(), 2s)) {
      if (again->windows.size() == 1 && again->windows.front().bounds) window = again->windows.front();
    }
  }
  ASSERT_TRUE(x11.has_value()) << "xwininfo does not see the window";
  EXPECT_TRUE(inside(*x11, *window.bounds))
      << "X " << x11->x << "," << x11->y << " " << x11->width << "x" << x11->height
      << " vs AT-SPI " << window.bounds->x << "," << window.bounds->y << " "
      << window.bounds->width << "x" << window.bounds->height;
  EXPECT_LT(window.bounds->width - x11->width, 40);
  EXPECT_LT(window.bounds->height - x11->height, 80);

  // The id is stable while the window lives, and windows(app) agrees.
  auto windows = observer_.windows(std::string("A11Y-APPS"), in(2s));
  ASSERT_TRUE(windows.ok()) << windows.error().message;
  ASSERT_EQ(windows->size(), 1u);
  EXPECT_EQ(windows->front().id, window.id);
  auto missing = observer_.windows(std::string("no-such-app"), in(2s));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kAppNotFound);
}

TEST_F(Apps, ProbeSeesTheBusAndRegistry) {
  EXPECT_TRUE(observer_.probe(in(2s)).ok());
}

TEST_F(Snapshots, HasTheEntryAndButtonWithRolesNamesActionsAndBounds) {
  FixtureProcess fixture({"--class", "a11y-snap", "--title", "Snapshot Fixture"});
  const AppInfo app = start(fixture, "a11y-snap");
  auto snapshot = this->snapshot("a11y-snap");
  ASSERT_TRUE(snapshot);
  EXPECT_EQ(snapshot->window.title, "Snapshot Fixture");
  EXPECT_TRUE(snapshot->stats.bulk);
  // GetItems lists the app (GTK 3 leaves some children out: reconciliation finds them), in
  // a time within the whole read's.
  EXPECT_GT(snapshot->stats.bulk_items, 0u);
  EXPECT_GT(snapshot->stats.bulk_milliseconds, 0.0);
  EXPECT_LE(snapshot->stats.bulk_milliseconds, snapshot->stats.milliseconds);
  const Node& window = snapshot->nodes.front();
  EXPECT_EQ(role_name(window.role), "frame");
  ASSERT_TRUE(window.bounds.has_value());

  const Node* entry = find_node(*snapshot, "text", "Text");
  ASSERT_NE(entry, nullptr) << render_outline(*snapshot, make_view(snapshot->nodes, {}));
  EXPECT_TRUE(contains(entry->actions, "activate")) << entry->actions.size();
  ASSERT_TRUE(entry->bounds.has_value());
  EXPECT_TRUE(inside(*entry->bounds, *window.bounds));

  const Node* button = find_node(*snapshot, "push button", "Write effect");
  ASSERT_NE(button, nullptr);
  EXPECT_TRUE(contains(button->actions, "click"));
  ASSERT_TRUE(button->bounds.has_value());
  EXPECT_TRUE(inside(*button->bounds, *window.bounds));
  EXPECT_GT(button->bounds->width, 0);
  EXPECT_FALSE(button->twin);

  // Refs are numbered depth-first from 1 and point back at their nodes.
  std::set<int> refs;
  for (std::size_t i = 0; i < snapshot->nodes.size(); ++i) {
    EXPECT_EQ(snapshot->nodes[i].ref, static_cast<int>(i) + 1);
    refs.insert(snapshot->nodes[i].ref);
  }
  EXPECT_EQ(refs.size(), snapshot->nodes.size());
  auto stored = observer_.store().lookup({snapshot->id, button->ref});
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->node->name, "Write effect");

  // The interactive outline keeps the button and drops the plain label.
  const std::string outline =
      render_outline(*snapshot, make_view(snapshot->nodes, filtered_view(true, false, std::nullopt)));
  EXPECT_NE(outline.find("push button \"Write effect\""), std::string::npos) << outline;
  EXPECT_NE(outline.find("actions=click"), std::string::npos) << outline;
  EXPECT_EQ(outline.find("label \"Text\""), std::string::npos) << outline;
  EXPECT_EQ(format_ref(snapshot->id, snapshot->nodes.front().ref), "@" + snapshot->id + ":e1");
}

TEST_F(Snapshots, MaxDepthAndCompactSayWhatTheyHide) {
  FixtureProcess fixture({"--class", "a11y-depth"});
  start(fixture, "a11y-depth");
  auto snapshot = this->snapshot("a11y-depth");
  ASSERT_TRUE(snapshot);
  const ViewNode shallow = make_view(snapshot->nodes, filtered_view(false, false, 1));
  std::size_t shown = 0;
  std::size_t hidden = 0;
  std::function<void(const ViewNode&)> count = [&](const ViewNode& view) {
    ++shown;
    hidden += view.hidden;
    for (const ViewNode& child : view.children) count(child);
  };
  count(shallow);
  EXPECT_EQ(shown + hidden, snapshot->nodes.size());
  EXPECT_GT(hidden, 0u);
  // --compact drops exactly the nameless single-child wrappers, nothing else.
  std::size_t wrappers = 0;
  for (const Node& node : snapshot->nodes) {
    if (node.ref != 1 && node.name.empty() && node.children.size() == 1 &&
        is_wrapper_role(node.role) && !is_actionable(node)) {
      ++wrappers;
    }
  }
  auto lines = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
  const std::string full = render_outline(*snapshot, make_view(snapshot->nodes, {}));
  const std::string compact =
      render_outline(*snapshot, make_view(snapshot->nodes, filtered_view(false, true, std::nullopt)));
  EXPECT_EQ(lines(full) - lines(compact), static_cast<long>(wrappers)) << compact;
  EXPECT_EQ(static_cast<std::size_t>(lines(full)), snapshot->nodes.size());
}

TEST_F(Snapshots, MarksTwinsInAmbiguousMode) {
  FixtureProcess fixture({"--class", "a11y-twins", "--ambiguous"});
  start(fixture, "a11y-twins");
  auto snapshot = this->snapshot("a11y-twins");
  ASSERT_TRUE(snapshot);
  std::vector<const Node*> buttons;
  for (const Node& node : snapshot->nodes) {
    if (role_name(node.role) == "push button" && node.name == "Write effect") buttons.push_back(&node);
  }
  ASSERT_EQ(buttons.size(), 2u);
  EXPECT_TRUE(buttons[0]->twin);
  EXPECT_TRUE(buttons[1]->twin);
  EXPECT_EQ(buttons[0]->twin_group, buttons[1]->twin_group);
  EXPECT_NE(buttons[0]->ref, buttons[1]->ref);
  const Node* entry = find_node(*snapshot, "text", "Text");
  ASSERT_NE(entry, nullptr);
  EXPECT_FALSE(entry->twin);
  // A twin's ref does not resolve: it could mean either button.
  auto resolved = observer_.resolve(format_ref(snapshot->id, buttons[0]->ref), in(5s));
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().code, ErrorCode::kAmbiguousTarget);
  EXPECT_EQ(resolved.error().details["kind"], "identity_not_unique");
}

TEST_F(Snapshots, RowsPackedAfterStartAppear) {
  // gtk_box_pack_start rows never enter GTK3's cache: only reconciliation finds them.
  FixtureProcess fixture({"--class", "a11y-rows", "--rows", "3", "--add-rows-after", "500", "4"});
  start(fixture, "a11y-rows");
  std::shared_ptr<const Snapshot> snapshot;
  const auto give_up = std::chrono::steady_clock::now() + 15s;
  while (std::chrono::steady_clock::now() < give_up) {
    snapshot = this->snapshot("a11y-rows");
    ASSERT_TRUE(snapshot);
    if (count_nodes(*snapshot, "label", "Row ") == 7) break;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(count_nodes(*snapshot, "label", "Row "), 7u);
  EXPECT_EQ(count_nodes(*snapshot, "push button", "Button "), 7u);
  for (int row = 1; row <= 7; ++row) {
    const Node* button = find_node(*snapshot, "push button", "Button " + std::to_string(row));
    ASSERT_NE(button, nullptr) << row;
    EXPECT_TRUE(contains(button->actions, "click")) << row;
  }
  EXPECT_GT(snapshot->stats.reconciled, 0u);
  EXPECT_GT(snapshot->stats.walked_live, 0u);

  // The pipelined live walk (for bridges without GetItems) sees the same tree.
  SnapshotOptions live_only;
  live_only.use_bulk = false;
  auto walked = read_window(observer_.bus(), snapshot->window, in(10s), live_only);
  ASSERT_TRUE(walked.ok()) << walked.error().message;
  EXPECT_FALSE(walked->stats.bulk);
  EXPECT_EQ(walked->stats.bulk_items, 0u);
  EXPECT_EQ(walked->stats.bulk_milliseconds, 0.0);
  ASSERT_EQ(walked->nodes.size(), snapshot->nodes.size());
  for (std::size_t i = 0; i < walked->nodes.size(); ++i) {
    EXPECT_EQ(walked->nodes[i].name, snapshot->nodes[i].name) << i;
    EXPECT_EQ(walked->nodes[i].role, snapshot->nodes[i].role) << i;
  }
}

TEST_F(Snapshots, AKnownWindowIdIsReadDirectlyUntilTheWindowCloses) {
  const GCharPtr dir(g_dir_make_tmp("companyos-a11y-XXXXXX", nullptr));
  ASSERT_TRUE(dir);
  const std::string control = std::string(dir.get()) + "/close";
  FixtureProcess fixture({"--class", "a11y-byid", "--title", "By Id", "--rows", "2",
                          "--close-after-control", control});
  const AppInfo app = start(fixture, "a11y-byid");
  ASSERT_EQ(app.windows.size(), 1u);
  const WindowInfo& window = app.windows.front();

  auto by_app = snapshot("a11y-byid");
  auto by_id = observer_.snapshot(WindowQuery{"A11Y-BYID", window.id, std::nullopt}, in(10s));
  ASSERT_TRUE(by_app && by_id.ok()) << (by_id.ok() ? "" : by_id.error().message);
  EXPECT_EQ((*by_id)->window.id, window.id);
  EXPECT_EQ((*by_id)->window.title, "By Id");
  EXPECT_EQ((*by_id)->window.pid, fixture.pid());
  EXPECT_TRUE((*by_id)->window.bounds.has_value());
  ASSERT_EQ((*by_id)->nodes.size(), by_app->nodes.size());
  for (std::size_t i = 0; i < by_app->nodes.size(); ++i) {
    EXPECT_EQ((*by_id)->nodes[i].name, by_app->nodes[i].name) << i;
    EXPECT_EQ((*by_id)->nodes[i].actions, by_app->nodes[i].actions) << i;
  }
  // The id names this app's window only.
  auto other_app = observer_.snapshot(WindowQuery{"no-such-app", window.id, std::nullopt}, in(5s));
  ASSERT_FALSE(other_app.ok());
  EXPECT_EQ(other_app.error().code, ErrorCode::kAppNotFound);

  // Once the window is gone, its id finds nothing (the app exits with its window).
  ASSERT_TRUE(g_file_set_contents(control.c_str(), "close", -1, nullptr));
  std::optional<Error> last;
  const auto give_up = std::chrono::steady_clock::now() + 15s;
  while (!last && std::chrono::steady_clock::now() < give_up) {
    auto gone = observer_.snapshot(WindowQuery{"a11y-byid", window.id, std::nullopt}, in(5s));
    if (!gone.ok()) last = gone.error();
  }
  g_unlink(control.c_str());
  g_rmdir(dir.get());
  ASSERT_TRUE(last.has_value()) << "the closed window was still read";
  EXPECT_TRUE(last->code == ErrorCode::kWindowNotFound || last->code == ErrorCode::kAppNotFound)
      << last->message;
}

TEST_F(Snapshots, SeveralThreadsAtOnce) {
  FixtureProcess first({"--class", "a11y-threads-a", "--rows", "20"});
  FixtureProcess second({"--class", "a11y-threads-b"});
  start(first, "a11y-threads-a");
  start(second, "a11y-threads-b");
  std::vector<std::future<std::vector<std::string>>> workers;
  for (int thread = 0; thread < 4; ++thread) {
    workers.push_back(std::async(std::launch::async, [this, thread] {
      std::vector<std::string> ids;
      const std::string app = thread % 2 ? "a11y-threads-b" : "a11y-threads-a";
      for (int i = 0; i < 5; ++i) {
        auto taken = observer_.snapshot(WindowQuery{app, std::nullopt, std::nullopt}, in(10s));
        if (!taken) return std::vector<std::string>{"error: " + taken.error().message};
        ids.push_back((*taken)->id);
        if (!observer_.apps(in(2s))) return std::vector<std::string>{"error: apps"};
      }
      return ids;
    }));
  }
  std::set<std::string> all;
  for (auto& worker : workers) {
    for (const std::string& id : worker.get()) {
      EXPECT_FALSE(id.starts_with("error")) << id;
      all.insert(id);
    }
  }
  EXPECT_EQ(all.size(), 20u);  // every snapshot got its own id
}

TEST_F(Snapshots, Gtk4FixtureWithoutItsOwnConnection) {
  if (!g_file_test(testing::fixture_path("companyos-fixture-gtk4").c_str(), G_FILE_TEST_IS_EXECUTABLE)) {
    GTEST_SKIP() << "companyos-fixture-gtk4 is not built";
  }
  FixtureProcess fixture({"--class", "a11y-gtk4", "--ambiguous"}, "companyos-fixture-gtk4");
  const AppInfo app = start(fixture, "a11y-gtk4");
  EXPECT_TRUE(app.toolkit_version.starts_with("4.")) << app.toolkit << " " << app.toolkit_version;
  auto snapshot = this->snapshot("a11y-gtk4");
  ASSERT_TRUE(snapshot);
  EXPECT_FALSE(snapshot->stats.peer_to_peer);  // GTK 4.8 offers no address of its own
  const Node* entry = find_node(*snapshot, "text", "Text");
  ASSERT_NE(entry, nullptr) << render_outline(*snapshot, make_view(snapshot->nodes, {}));
  std::vector<const Node*> buttons;
  for (const Node& node : snapshot->nodes) {
    if (role_name(node.role) == "push button" && node.name == "Write effect") buttons.push_back(&node);
  }
  ASSERT_EQ(buttons.size(), 2u);
  EXPECT_TRUE(contains(buttons[0]->actions, "click"));
  EXPECT_TRUE(buttons[0]->twin && buttons[1]->twin);
  const Node* password = find_node(*snapshot, "password text", "Password");
  ASSERT_NE(password, nullptr);
  EXPECT_TRUE(password->value_withheld);
}

TEST_F(Snapshots, PasswordValueIsWithheld) {
  FixtureProcess fixture({"--class", "a11y-secret"});
  start(fixture, "a11y-secret");
  auto first = this->snapshot("a11y-secret");
  ASSERT_TRUE(first);
  const Node* password = find_node(*first, "password text", "Password");
  const Node* entry = find_node(*first, "text", "Text");
  ASSERT_NE(password, nullptr);
  ASSERT_NE(entry, nullptr);
  ASSERT_TRUE(set_text(observer_, first->bus_name, password->path, "hunter2-secret"));
  ASSERT_TRUE(set_text(observer_, first->bus_name, entry->path, "plain words"));

  auto snapshot = this->snapshot("a11y-secret");
  ASSERT_TRUE(snapshot);
  const Node* withheld = find_node(*snapshot, "password text", "Password");
  ASSERT_NE(withheld, nullptr);
  EXPECT_FALSE(withheld->value.has_value());
  EXPECT_TRUE(withheld->value_withheld);
  const Node* plain = find_node(*snapshot, "text", "Text");
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->value, "plain words");  // values are read, just not this one
  // What is never read cannot be written: the daemon's JSON of a withheld node has no value
  // (tests/unit/daemon/wire/a11y_replies_test.cpp), nor has the outline.
  const std::string outline = render_outline(*snapshot, make_view(snapshot->nodes, {}));
  EXPECT_EQ(outline.find("hunter2"), std::string::npos);
  EXPECT_NE(outline.find("value=withheld"), std::string::npos);

  auto details = observer_.get(format_ref(snapshot->id, withheld->ref), in(5s));
  ASSERT_TRUE(details.ok()) << details.error().message;
  EXPECT_FALSE(details->node.value.has_value());
  EXPECT_FALSE(details->text.has_value());
}

using FindGet = A11yDesktop;

TEST_F(FindGet, FindsByRoleNameAndIdAndGetsFreshState) {
  FixtureProcess fixture({"--class", "a11y-find"});
  start(fixture, "a11y-find");
  FindQuery by_name;
  by_name.target.app = "a11y-find";
  by_name.role = "push button";
  by_name.name = "Write effect";
  auto found = observer_.find(by_name, in(10s));
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_EQ(found->size(), 1u);
  EXPECT_TRUE(std::regex_match(found->front().ref, std::regex("@[a-z0-9]+:e[1-9][0-9]*")));

  FindQuery by_id;
  by_id.target.app = "a11y-find";
  by_id.accessible_id = "text-entry";
  auto entries = observer_.find(by_id, in(10s));
  ASSERT_TRUE(entries.ok());
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ(entries->front().node->name, "Text");

  FindQuery wrong_case = by_name;
  wrong_case.name = "write effect";
  EXPECT_TRUE(observer_.find(wrong_case, in(10s))->empty());
  wrong_case.ignore_case = true;
  EXPECT_EQ(observer_.find(wrong_case, in(10s))->size(), 1u);

  // get reads live: a text set after the snapshot shows up.
  const std::string entry_ref = entries->front().ref;
  ASSERT_TRUE(set_text(observer_, entries->front().snapshot->bus_name, entries->front().node->path,
                       "typed later"));
  auto details = observer_.get(entry_ref, in(5s));
  ASSERT_TRUE(details.ok()) << details.error().message;
  EXPECT_EQ(role_name(details->node.role), "text");
  EXPECT_EQ(details->node.name, "Text");
  EXPECT_EQ(details->text, "typed later");
  EXPECT_EQ(details->node.value, "typed later");
  EXPECT_TRUE(contains(details->node.actions, "activate"));
  EXPECT_TRUE(details->node.bounds.has_value());
  EXPECT_TRUE(has_state(details->node.states, ATSPI_STATE_EDITABLE));

  auto bad = observer_.get("@nosuch:e1", in(1s));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kStaleRef);
  EXPECT_EQ(observer_.get("not-a-ref", in(1s)).error().code, ErrorCode::kInvalidArgs);

  // Once the app is gone, its refs are stale.
  fixture.stop();
  auto gone = observer_.get(entry_ref, in(5s));
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().code, ErrorCode::kStaleRef) << gone.error().message;
}

using Policy = A11yDesktop;

TEST_F(Policy, PasswordManagersAreNotObserved) {
  FixtureProcess fixture({"--class", "KeePassXC", "--title", "Passwords.kdbx"});
  ASSERT_TRUE(fixture.running());
  // Listed (so a person sees it is there), but without windows or titles.
  std::optional<AppInfo> listed;
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  while (!listed && std::chrono::steady_clock::now() < give_up) {
    if (auto apps = observer_.apps(in(2s))) {
      for (const AppInfo& app : *apps) {
        if (app.pid == fixture.pid() && !app.name.empty()) listed = app;
      }
    }
    if (!listed) std::this_thread::sleep_for(50ms);
  }
  ASSERT_TRUE(listed.has_value());
  EXPECT_TRUE(listed->policy_denied);
  EXPECT_TRUE(listed->windows.empty());
  auto taken = observer_.snapshot(WindowQuery{"keepassxc", std::nullopt, std::nullopt}, in(5s));
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.error().code, ErrorCode::kPolicyDenied);
  EXPECT_EQ(observer_.windows(std::string("KeePassXC"), in(2s)).error().code,
            ErrorCode::kPolicyDenied);
  FindQuery query;
  query.target.app = "KeePassXC";
  EXPECT_EQ(observer_.find(query, in(2s)).error().code, ErrorCode::kPolicyDenied);
}

using Hung = A11yDesktop;

TEST_F(Hung, AStoppedAppCostsOnlyItsOwnDeadline) {
  FixtureProcess hung({"--class", "a11y-hung"});
  FixtureProcess alive({"--class", "a11y-alive"});
  start(hung, "a11y-hung");
  start(alive, "a11y-alive");
  ASSERT_TRUE(snapshot("a11y-hung"));  // its connection is open and cached now
  ASSERT_TRUE(snapshot("a11y-alive"));

  hung.pause();
  // While a snapshot of the hung app waits out its deadline on another thread, requests
  // about the other app and the app list still answer quickly.
  const auto started = std::chrono::steady_clock::now();
  auto waiting = std::async(std::launch::async, [this] {
    return observer_.snapshot(WindowQuery{"a11y-hung", std::nullopt, std::nullopt}, in(2s));
  });
  std::this_thread::sleep_for(100ms);

  const auto apps_started = std::chrono::steady_clock::now();
  auto apps = observer_.apps(in(2s));
  const auto apps_took = std::chrono::steady_clock::now() - apps_started;
  ASSERT_TRUE(apps.ok());
  EXPECT_LT(apps_took, 500ms) << "apps took "
                              << std::chrono::duration_cast<std::chrono::milliseconds>(apps_took).count();
  bool saw_hung = false;
  for (const AppInfo& app : *apps) {
    if (app.pid == hung.pid()) {
      saw_hung = true;
      EXPECT_FALSE(app.responsive);
      EXPECT_EQ(app.name, "a11y-hung");  // the last name it reported
    }
  }
  EXPECT_TRUE(saw_hung);

  const auto other_started = std::chrono::steady_clock::now();
  auto other = observer_.snapshot(WindowQuery{"a11y-alive", std::nullopt, std::nullopt}, in(2s));
  const auto other_took = std::chrono::steady_clock::now() - other_started;
  ASSERT_TRUE(other.ok()) << other.error().message;
  EXPECT_LT(other_took, 1000ms);

  auto result = waiting.get();
  const auto hung_took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kAppUnresponsive) << result.error().message;
  EXPECT_LT(hung_took, 2500ms);  // the bound is the deadline, plus scheduling slack

  auto ms = [](auto d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
  std::printf("[ timing ] apps %lld ms, other app's snapshot %lld ms, hung app's snapshot %lld ms\n",
              static_cast<long long>(ms(apps_took)), static_cast<long long>(ms(other_took)),
              static_cast<long long>(ms(hung_took)));

  hung.resume();
  EXPECT_TRUE(snapshot("a11y-hung"));  // answers again once it runs
}

TEST_F(Hung, AnAppThatExitsMidReadFailsAtOnce) {
  FixtureProcess fixture({"--class", "a11y-exits"});
  start(fixture, "a11y-exits");
  ASSERT_TRUE(snapshot("a11y-exits"));
  fixture.pause();
  const auto started = std::chrono::steady_clock::now();
  auto waiting = std::async(std::launch::async, [this] {
    return observer_.snapshot(WindowQuery{"a11y-exits", std::nullopt, std::nullopt}, in(8s));
  });
  std::this_thread::sleep_for(300ms);
  fixture.stop();  // its connection closes: nothing in flight can be answered any more
  auto result = waiting.get();
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(result.ok());
  std::printf("[ outcome ] %s: %s\n", std::string(to_string(result.error().code)).c_str(),
              result.error().message.c_str());
  EXPECT_NE(result.error().code, ErrorCode::kAppUnresponsive) << result.error().message;
  EXPECT_LT(took, 3s);  // well before the 8 s deadline
}

}  // namespace
}  // namespace companyos::a11y
