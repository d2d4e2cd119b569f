#include "x11/clipboard_owner.h"

#include <poll.h>
#include <sys/eventfd.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include "core/unique_fd.h"
#include "x11/error_trap.h"
#include "x11/own_window.h"
#include "x11/properties.h"
#include "x11/server_time.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

// Requests past this size would need an INCR transfer, which the owner does not send;
// the property header and the request's own fields take the rest.
constexpr long kRequestOverheadBytes = 256;

struct Offer {
  ClipboardContents contents;
  std::promise<Status> done;
};

}  // namespace

struct ClipboardOwner::State {
  Connection connection;
  OwnWindow window;  // the clipboard's owner, as the X server sees it
  Atom clipboard = None;
  UniqueFd wake;
  std::size_t max_bytes = 0;

  // Shared with callers.
  mutable std::mutex mutex;
  mutable std::condition_variable delivered;
  std::optional<Offer> pending;
  std::uint64_t deliveries = 0;
  std::atomic<bool> owned{false};
  std::atomic<bool> running{true};
  std::mutex offering;  // one offer at a time

  // The thread's own.
  ClipboardContents contents;
  Time owned_since = CurrentTime;
  std::jthread thread;

  explicit State(Connection c) : connection(std::move(c)), window(connection.display()) {}

  void run(const std::stop_token& stop);
  Status take(const ClipboardContents& offered);
  void serve(const XSelectionRequestEvent& request);
  // Writes the answer into the requestor's property; false when the target is refused.
  bool answer_with(const XSelectionRequestEvent& request, Atom property, bool& delivered_data);
};

Status ClipboardOwner::State::take(const ClipboardContents& offered) {
  Display* display = connection.display();
  auto time = current_server_time(connection);
  if (!time) return std::move(time).take_error();
  if (!offered.owned) {
    // Give it up only while it is ours: someone who copied since keeps their content.
    if (XGetSelectionOwner(display, clipboard) == window.get()) XSetSelectionOwner(display, clipboard, None, *time);
    XSync(display, False);
    owned = false;
    contents = {};
    return ok_status();
  }
  XSetSelectionOwner(display, clipboard, window.get(), *time);
  if (XGetSelectionOwner(display, clipboard) != window.get()) {
    return make_error(ErrorCode::kInternal, "the X server did not make the daemon the clipboard's owner");
  }
  contents = offered;
  owned_since = *time;
  owned = true;
  std::lock_guard lock(mutex);
  deliveries = 0;
  return ok_status();
}

bool ClipboardOwner::State::answer_with(const XSelectionRequestEvent& request, Atom property, bool& delivered_data) {
  Display* display = connection.display();
  const ConversionAnswer answer = answer_conversion(contents, atom_name(connection, request.target), max_bytes);
  switch (answer.kind) {
    case ConversionAnswer::Kind::kRefuse:
      return false;
    case ConversionAnswer::Kind::kTargets: {
      std::vector<long> atoms;
      for (const std::string& name : offered_targets(contents)) {
        atoms.push_back(static_cast<long>(connection.atom(name.c_str())));
      }
      XChangeProperty(display, request.requestor, property, XA_ATOM, 32, PropModeReplace,
                      reinterpret_cast<const unsigned char*>(atoms.data()), static_cast<int>(atoms.size()));
      return true;
    }
    case ConversionAnswer::Kind::kTimestamp: {
      const long time = static_cast<long>(owned_since);
      XChangeProperty(display, request.requestor, property, XA_INTEGER, 32, PropModeReplace,
                      reinterpret_cast<const unsigned char*>(&time), 1);
      return true;
    }
    case ConversionAnswer::Kind::kData: {
      const SelectionTarget& target = *answer.data;
      XChangeProperty(display, request.requestor, property, connection.atom(target.type.c_str()), target.format,
                      PropModeReplace, reinterpret_cast<const unsigned char*>(target.data.data()),
                      static_cast<int>(target.data.size() / property_item_size(target.format)));
      delivered_data = true;
      return true;
    }
  }
  return false;
}

void ClipboardOwner::State::serve(const XSelectionRequestEvent& request) {
  Display* display = connection.display();
  XSelectionEvent reply{};
  reply.type = SelectionNotify;
  reply.display = display;
  reply.requestor = request.requestor;
  reply.selection = request.selection;
  reply.target = request.target;
  reply.time = request.time;
  reply.property = None;
  // ICCCM: a request from before we owned it, or for another selection, is refused.
  const bool ours = owned && request.selection == clipboard && request.owner == window.get() &&
                    (request.time == CurrentTime || request.time >= owned_since);
  // Obsolete clients name no property: the target's name is used instead.
  const Atom property = request.property == None ? request.target : request.property;
  bool answered = false;
  bool delivered_data = false;
  {
    ErrorTrap trap(display);  // the requestor may be gone already
    if (ours) answered = answer_with(request, property, delivered_data);
    if (answered && !trap.sync()) {
      reply.property = property;
    } else {
      delivered_data = false;
    }
    XSendEvent(display, request.requestor, False, NoEventMask, reinterpret_cast<XEvent*>(&reply));
    XFlush(display);
    trap.sync();
  }
  if (delivered_data) {
    std::lock_guard lock(mutex);
    ++deliveries;
    delivered.notify_all();
  }
}

void ClipboardOwner::State::run(const std::stop_token& stop) {
  Display* display = connection.display();
  while (!stop.stop_requested() && connection.alive()) {
    if (XPending(display) == 0) {
      pollfd readable[2] = {{ConnectionNumber(display), POLLIN, 0}, {wake.get(), POLLIN, 0}};
      ::poll(readable, 2, 200);
      if ((readable[1].revents & POLLIN) != 0) {
        std::uint64_t count = 0;
        [[maybe_unused]] const auto got = ::read(wake.get(), &count, sizeof count);
      }
    }
    std::optional<Offer> offer;
    {
      std::lock_guard lock(mutex);
      offer.swap(pending);
    }
    if (offer) offer->done.set_value(take(offer->contents));
    while (XPending(display) > 0) {
      XEvent event{};
      XNextEvent(display, &event);
      if (event.type == SelectionRequest) {
        serve(event.xselectionrequest);
      } else if (event.type == SelectionClear && event.xselectionclear.selection == clipboard) {
        owned = false;
        contents = {};
      }
    }
  }
  if (owned && connection.alive()) (void)take(ClipboardContents{});
  running = false;
  std::lock_guard lock(mutex);
  if (pending) {
    pending->done.set_value(make_error(ErrorCode::kInternal, "the clipboard owner stopped"));
    pending.reset();
  }
  delivered.notify_all();
}

Result<std::unique_ptr<ClipboardOwner>> ClipboardOwner::start() {
  auto connection = Connection::open();
  if (!connection) return std::move(connection).take_error();
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake.valid()) return make_error(ErrorCode::kInternal, "eventfd failed for the clipboard owner");
  auto state = std::make_unique<State>(std::move(*connection));
  Display* display = state->connection.display();
  state->wake = std::move(wake);
  state->clipboard = state->connection.atom("CLIPBOARD");
  const long request_units = XExtendedMaxRequestSize(display) > 0 ? XExtendedMaxRequestSize(display)
                                                                   : XMaxRequestSize(display);
  state->max_bytes = static_cast<std::size_t>(request_units * 4 - kRequestOverheadBytes);
  XFlush(display);
  State* running = state.get();
  state->thread = std::jthread([running](const std::stop_token& stop) { running->run(stop); });
  return std::make_unique<ClipboardOwner>(std::move(state));
}

ClipboardOwner::ClipboardOwner(std::unique_ptr<State> state) : state_(std::move(state)) {}

ClipboardOwner::~ClipboardOwner() {
  state_->thread.request_stop();
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto wrote = ::write(state_->wake.get(), &one, sizeof one);
  state_->thread.join();
}

Status ClipboardOwner::offer(ClipboardContents contents, std::chrono::milliseconds timeout) {
  std::lock_guard one_at_a_time(state_->offering);
  std::future<Status> done;
  {
    std::lock_guard lock(state_->mutex);
    if (!state_->running) return make_error(ErrorCode::kInternal, "the clipboard owner stopped (X connection lost)");
    state_->pending.emplace(Offer{std::move(contents), {}});
    done = state_->pending->done.get_future();
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto wrote = ::write(state_->wake.get(), &one, sizeof one);
  if (done.wait_for(timeout) != std::future_status::ready) {
    return make_error(ErrorCode::kTimeout, "the X server did not confirm the clipboard's new owner in time");
  }
  return done.get();
}

std::uint64_t ClipboardOwner::deliveries() const {
  std::lock_guard lock(state_->mutex);
  return state_->deliveries;
}

bool ClipboardOwner::wait_for_delivery(std::uint64_t seen, std::chrono::steady_clock::time_point deadline) const {
  std::unique_lock lock(state_->mutex);
  return state_->delivered.wait_until(lock, deadline,
                                      [&] { return state_->deliveries > seen || !state_->running; }) &&
         state_->deliveries > seen;
}

std::size_t ClipboardOwner::max_target_bytes() const { return state_->max_bytes; }

bool ClipboardOwner::owns() const { return state_->owned; }

bool ClipboardOwner::running() const { return state_->running; }

}  // namespace companyos::x11
