// Snapshot assembly from a recorded bulk read: everything read_window does that needs no
// bus. The Cache.GetItems reply is a real sd-bus message (built on a socket pair, never
// sent) read by read_get_items; the records are reconciled with live reads (TreeBuilder:
// missing, set_live_children, add) and one window's tree assembled (assemble, to_nodes);
// then detail plans, twins, views (make_view), the outline (render_outline), the reply JSON
// (snapshot_to_json, protocol::to_line), and refs looked up in a SnapshotStore. What
// read_window would get over the bus (live children and records, detail values) comes from
// the input too. Properties: refs number the nodes depth-first from 1, each parent lists
// exactly the nodes that name it, no object appears twice (a malformed reply cannot loop),
// at most max_nodes nodes; the nodes of one identity, and only they, are twins of one
// group; password text has no value; the outline and the reply are valid UTF-8 when the
// app's strings were; every ref resolves in the store to its node.
//
// Input, one item a line (fields split at '|'):
//   item|<path>|<parent>|<index>|<child count>|<interfaces a,b>|<name>|<role>|<description>|<state word 0>|<state word 1>
//   live|<parent>|<child path>,<child path>,...     children of <parent> as read live
//   node|<path>|<name>|<role>|<child count>|<value> a record read live, and its value
//   window|<path>     the window to assemble (default /org/a11y/atspi/accessible/1)
//   max|<n>           max_nodes (default 50000)
// Items go into the GetItems reply in input order; the live data is applied after the
// first look at what is missing, as reconcile does.
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "a11y/bus/message_fields.h"
#include "a11y/bus/sd_bus_handles.h"
#include "a11y/model.h"
#include "a11y/read/details.h"
#include "a11y/read/identity.h"
#include "a11y/toolkit/traits.h"
#include "a11y/read/tree_builder.h"
#include "a11y/ref.h"
#include "a11y/render.h"
#include "a11y/snapshot_store.h"
#include "a11y/view.h"
#include "a11y/vocabulary.h"
#include "companyos/protocol.h"
#include "fuzz_support.h"
#include "daemon/wire/a11y_replies.h"

namespace companyos::fuzz {
namespace {

using namespace companyos::a11y;

struct Item {
  std::string path;
  std::string parent;
  std::int32_t index = 0;
  std::int32_t child_count = 0;
  std::vector<std::string> interfaces;
  std::string name;
  std::uint32_t role = 0;
  std::string description;
  std::uint32_t states[2] = {0, 0};
};

struct LiveNode {
  RawNode node;
  std::optional<std::string> value;
};

struct Recording {
  std::vector<Item> items;
  std::vector<std::pair<std::string, std::vector<std::string>>> live_children;
  std::vector<LiveNode> live_nodes;
  std::string window = "/org/a11y/atspi/accessible/1";
  std::size_t max_nodes = 50000;
};

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  for (;;) {
    const auto at = text.find(separator);
    parts.emplace_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

template <typename T>
T number(const std::string& text, T fallback = 0) {
  T value = fallback;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

// What a bridge can send: sd-bus refuses invalid object paths and strings that are not
// UTF-8 without NUL, so a real reply never holds them.
bool sendable(const std::string& text) { return is_valid_utf8_without_nul(text); }
bool sendable_path(const std::string& path) {
  return sendable(path) && sd_bus_object_path_is_valid(path.c_str()) != 0;
}

Recording parse_recording(std::string_view input) {
  Recording recording;
  for (const std::string& line : split(input, '\n')) {
    const auto f = split(line, '|');
    if (f[0] == "item" && f.size() >= 11) {
      Item item;
      item.path = f[1];
      item.parent = f[2];
      item.index = number<std::int32_t>(f[3]);
      item.child_count = number<std::int32_t>(f[4]);
      if (!f[5].empty()) item.interfaces = split(f[5], ',');
      item.name = f[6];
      item.role = number<std::uint32_t>(f[7]);
      item.description = f[8];
      item.states[0] = number<std::uint32_t>(f[9]);
      item.states[1] = number<std::uint32_t>(f[10]);
      recording.items.push_back(std::move(item));
    } else if (f[0] == "live" && f.size() >= 3) {
      recording.live_children.emplace_back(
          f[1], f[2].empty() ? std::vector<std::string>{} : split(f[2], ','));
    } else if (f[0] == "node" && f.size() >= 6) {
      LiveNode live;
      live.node.path = f[1];
      live.node.name = f[2];
      live.node.role = number<std::uint32_t>(f[3]);
      live.node.child_count = number<int>(f[4]);
      live.node.accessible_id = "";  // a live read reads it
      if (!f[5].empty()) live.value = f[5];
      recording.live_nodes.push_back(std::move(live));
    } else if (f[0] == "window" && f.size() >= 2) {
      recording.window = f[1];
    } else if (f[0] == "max" && f.size() >= 2) {
      recording.max_nodes = number<std::size_t>(f[1], 50000);
    }
  }
  return recording;
}

// A started client connection on one end of a socket pair: enough to build messages.
class MessageFactory {
 public:
  MessageFactory() {
    int fds[2];
    FUZZ_CHECK(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
    peer_fd_ = fds[1];
    sd_bus* raw = nullptr;
    FUZZ_CHECK(sd_bus_new(&raw) >= 0);
    bus_.reset(raw);
    FUZZ_CHECK(sd_bus_set_fd(raw, fds[0], fds[0]) >= 0);
    FUZZ_CHECK(sd_bus_start(raw) >= 0);
  }
  ~MessageFactory() {
    bus_.reset();
    ::close(peer_fd_);
  }
  MessageFactory(const MessageFactory&) = delete;
  MessageFactory& operator=(const MessageFactory&) = delete;

  SdBusMessagePtr blank() {
    sd_bus_message* raw = nullptr;
    FUZZ_CHECK(sd_bus_message_new_method_call(bus_.get(), &raw, nullptr, "/t", "t.T", "M") >= 0);
    return SdBusMessagePtr(raw);
  }

 private:
  int peer_fd_ = -1;
  SdBusPtr bus_;
};

// The GetItems reply a((so)(so)(so)iiassusau) holding the sendable items.
SdBusMessagePtr get_items_reply(const std::vector<Item>& items) {
  static MessageFactory factory;
  SdBusMessagePtr reply = factory.blank();
  sd_bus_message* m = reply.get();
  const char* bus = ":1.5";
  FUZZ_CHECK(sd_bus_message_open_container(m, 'a', "((so)(so)(so)iiassusau)") >= 0);
  for (const Item& item : items) {
    bool ok = sendable_path(item.path) && sendable_path(item.parent) && sendable(item.name) &&
              sendable(item.description);
    for (const auto& name : item.interfaces) ok = ok && sendable(name);
    if (!ok) continue;
    FUZZ_CHECK(sd_bus_message_open_container(m, 'r', "(so)(so)(so)iiassusau") >= 0);
    FUZZ_CHECK(sd_bus_message_append(m, "(so)(so)(so)ii", bus, item.path.c_str(), bus,
                                     "/org/a11y/atspi/accessible/root", bus, item.parent.c_str(),
                                     item.index, item.child_count) >= 0);
    FUZZ_CHECK(sd_bus_message_open_container(m, 'a', "s") >= 0);
    for (const auto& name : item.interfaces) {
      FUZZ_CHECK(sd_bus_message_append(m, "s", ("org.a11y.atspi." + name).c_str()) >= 0);
    }
    FUZZ_CHECK(sd_bus_message_close_container(m) >= 0);
    FUZZ_CHECK(sd_bus_message_append(m, "sus", item.name.c_str(), item.role,
                                     item.description.c_str()) >= 0);
    FUZZ_CHECK(sd_bus_message_append(m, "au", 2, item.states[0], item.states[1]) >= 0);
    FUZZ_CHECK(sd_bus_message_close_container(m) >= 0);
  }
  FUZZ_CHECK(sd_bus_message_close_container(m) >= 0);
  FUZZ_CHECK(sd_bus_message_seal(m, 1, 0) >= 0);
  FUZZ_CHECK(sd_bus_message_rewind(m, 1) >= 0);
  return reply;
}

void check_tree(const std::vector<AssembledNode>& assembled, const std::vector<Node>& nodes,
                const std::string& window, std::size_t max_nodes) {
  FUZZ_CHECK(assembled.size() <= max_nodes);
  FUZZ_CHECK(nodes.size() == assembled.size());
  FUZZ_CHECK(nodes.front().path == window);
  std::set<std::string> paths;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& node = nodes[i];
    const int index = static_cast<int>(i);
    FUZZ_CHECK(node.ref == index + 1);
    FUZZ_CHECK(paths.insert(node.path).second);
    FUZZ_CHECK((i == 0) == (node.parent == -1));
    if (node.parent >= 0) {
      // Depth-first: a parent comes before its children, and lists this one once.
      FUZZ_CHECK(node.parent < index);
      const auto& siblings = nodes[static_cast<std::size_t>(node.parent)].children;
      FUZZ_CHECK(std::count(siblings.begin(), siblings.end(), index) == 1);
    }
    for (int child : node.children) {
      FUZZ_CHECK(child > index && child < static_cast<int>(nodes.size()));
      FUZZ_CHECK(nodes[static_cast<std::size_t>(child)].parent == index);
    }
  }
}

// Twins are nodes of one identity: role, accessible id, name and description (a node
// whose id was not read counts with the empty id, so it errs towards "ambiguous").
std::tuple<std::uint32_t, std::string, std::string, std::string> twin_key(const Node& node) {
  return {node.role, node.accessible_id, node.name, node.description};
}

void check_twins(const std::vector<Node>& nodes) {
  std::map<int, std::tuple<std::uint32_t, std::string, std::string, std::string>> group_key;
  for (const Node& node : nodes) {
    if (!node.twin) {
      FUZZ_CHECK(node.twin_group == 0);
      continue;
    }
    FUZZ_CHECK(node.twin_group >= 1);
    auto [at, inserted] = group_key.try_emplace(node.twin_group, twin_key(node));
    if (!inserted) FUZZ_CHECK(at->second == twin_key(node));
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (std::size_t j = i + 1; j < nodes.size() && j < i + 64; ++j) {
      if (twin_key(nodes[i]) == twin_key(nodes[j])) {
        FUZZ_CHECK(nodes[i].twin && nodes[j].twin && nodes[i].twin_group == nodes[j].twin_group);
      }
    }
  }
}

// The agent view's folds, with actions listed everywhere as Chromium lists them.
ViewOptions agent_filtered_view() {
  ViewOptions options = filtered_view(true, true, std::nullopt);
  options.fold_not_showing = true;
  options.fold_nameless_groups = true;
  options.ignored_actions = {"doDefault", "showContextMenu"};
  options.fold_repeated_menu_bars = true;
  return options;
}

void check_output(const Snapshot& snapshot, bool strings_were_utf8) {
  OutlineOptions outline_options;
  outline_options.bounds = true;
  OutlineOptions agent_outline;
  agent_outline.hidden_actions = {"doDefault", "showContextMenu"};
  agent_outline.content_values_only = true;
  for (const ViewOptions& options :
       {ViewOptions{}, filtered_view(true, false, std::nullopt), filtered_view(false, true, 1),
        filtered_view(true, true, 0), agent_filtered_view()}) {
    const ViewNode view = make_view(snapshot.nodes, options);
    const std::string outline =
        render_outline(snapshot, view, options.ignored_actions.empty() ? outline_options : agent_outline);
    const nlohmann::json reply = wire::snapshot_to_json(snapshot, view);
    FUZZ_CHECK(is_one_line(protocol::to_line(protocol::ok_envelope(1, reply))));
    if (strings_were_utf8) {
      FUZZ_CHECK(is_valid_utf8(outline));
      FUZZ_CHECK(strings_are_utf8(reply));
    }
  }
}

void check_store(const Snapshot& snapshot) {
  SnapshotStore store(2, 4);
  auto shared = std::make_shared<Snapshot>(snapshot);
  shared->id = store.next_id();
  store.put(shared);
  for (const Node& node : shared->nodes) {
    auto ref = parse_ref(format_ref(shared->id, node.ref));
    FUZZ_CHECK(ref.ok());
    auto found = store.lookup(*ref);
    FUZZ_CHECK(found.ok() && found->node == &node);
    FUZZ_CHECK(matches_identity(found->identity, node));
  }
  const int past_the_end = static_cast<int>(shared->nodes.size()) + 1;
  FUZZ_CHECK(!store.lookup(ElementRef{shared->id, past_the_end}).ok());
}

}  // namespace
}  // namespace companyos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  using namespace companyos::a11y;
  const fuzz::Recording recording = fuzz::parse_recording(fuzz::as_text(data, size));
  if (recording.max_nodes == 0) return 0;  // SnapshotOptions never asks for none

  auto reply = fuzz::get_items_reply(recording.items);
  auto items = read_get_items(reply.get());
  FUZZ_CHECK(items.ok());
  TreeBuilder builder;
  builder.add_all(std::move(items).value());

  // One round of reconciling: what is missing, then the live reads' answers.
  (void)builder.missing(recording.window, recording.max_nodes);
  for (const auto& [parent, children] : recording.live_children) {
    builder.set_live_children(parent, children);
  }
  std::map<std::string, std::string> values;
  bool strings_were_utf8 = true;
  for (const auto& live : recording.live_nodes) {
    strings_were_utf8 = strings_were_utf8 && fuzz::sendable(live.node.name) &&
                        (!live.value || fuzz::sendable(*live.value));
    if (live.value) values[live.node.path] = *live.value;
    builder.add(live.node);
  }
  const MissingParts missing = builder.missing(recording.window, recording.max_nodes);
  for (const std::string& path : missing.unknown) FUZZ_CHECK(!builder.has(path));

  const auto assembled = builder.assemble(recording.window, recording.max_nodes);
  if (assembled.empty()) {
    FUZZ_CHECK(!builder.has(recording.window));  // only a window without a record is gone
    return 0;
  }
  Snapshot snapshot;
  snapshot.window.id = "w00000000000a";
  snapshot.window.title = "fuzz";
  snapshot.app_name = "fuzz";
  snapshot.nodes = to_nodes(assembled);
  fuzz::check_tree(assembled, snapshot.nodes, recording.window, recording.max_nodes);

  // What read_details would fill in, from the input: values where the plan reads one.
  const DetailOptions details;
  const ToolkitTraits toolkit = toolkit_traits("GTK", "3.24.38");
  for (Node& node : snapshot.nodes) {
    const DetailPlan plan = plan_details(node, details, toolkit);
    if (plan.value == ValueSource::kWithheld) node.value_withheld = true;
    const auto value = values.find(node.path);
    if (value != values.end() &&
        (plan.value == ValueSource::kValue || plan.value == ValueSource::kText)) {
      node.value = value->second;
    }
    FUZZ_CHECK(!(is_password_role(node.role) && node.value));
  }
  mark_twins(snapshot.nodes);
  fuzz::check_twins(snapshot.nodes);
  fuzz::check_output(snapshot, strings_were_utf8);
  fuzz::check_store(snapshot);
  return 0;
}
