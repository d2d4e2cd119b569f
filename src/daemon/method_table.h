// The daemon's side of the method table: each declaration (companyos/methods.h) paired with
// the handler that does it. The dispatcher checks params against the declaration, refuses
// X11-only methods outside X11, audits every effectful method by its declared name, and
// only then runs the handler.
#pragma once

#include <functional>
#include <span>
#include <stop_token>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "companyos/methods.h"
#include "companyos/protocol.h"
#include "companyos/result.h"

namespace companyos::daemon {

namespace declared = ::companyos::methods;
using declared::MethodDeclaration;

struct DaemonContext;

// Delivers the handler's result exactly once; may be called later from the main loop.
// It also carries the asking client's presence: work whose answer nobody will read (a wait
// whose client was killed) can end early instead of holding a worker to its deadline.
class Reply {
 public:
  Reply() = default;
  template <typename Deliver>
    requires(!std::is_same_v<std::remove_cvref_t<Deliver>, Reply> &&
             std::is_invocable_v<Deliver&, Result<nlohmann::json>>)
  Reply(Deliver deliver, std::stop_token client_gone = {},  // NOLINT: lambdas convert
        protocol::Origin origin = protocol::Origin::kPerson)
      : deliver_(std::move(deliver)), client_gone_(std::move(client_gone)), origin_(origin) {}

  void operator()(Result<nlohmann::json> result) const { deliver_(std::move(result)); }
  // Requested once the client has closed its connection for good.
  const std::stop_token& client_gone() const { return client_gone_; }
  // Who the request speaks for: a person, or an agent through the MCP server.
  protocol::Origin origin() const { return origin_; }
  // The same client, answered through another delivery (an audit row, a batch's step).
  template <typename Deliver>
  Reply rerouted(Deliver deliver) const {
    return Reply(std::move(deliver), client_gone_, origin_);
  }

 private:
  std::function<void(Result<nlohmann::json>)> deliver_;
  std::stop_token client_gone_;
  protocol::Origin origin_ = protocol::Origin::kPerson;
};
using Handler = void (*)(const nlohmann::json& params, DaemonContext& ctx, Reply reply);

struct MethodSpec {
  const MethodDeclaration& decl;
  Handler handler = nullptr;
};

// Whether this session can be X11 at all, from its environment alone (cheap enough for the
// main loop; the handlers still find out whether the X server answers).
using X11Session = std::function<Status(std::string_view method)>;
Status x11_session_from_environment(std::string_view method);

class MethodTable {
 public:
  explicit MethodTable(std::vector<const MethodSpec*> methods,
                       X11Session x11_session = &x11_session_from_environment);

  const MethodSpec* find(std::string_view name) const;
  // By the CLI's spelling ("set-value") or the protocol's ("set_value").
  const MethodSpec* find_command(std::string_view command) const;
  std::span<const MethodSpec* const> methods() const { return methods_; }
  // The table as data, for the `methods` method and the CLI's help.
  nlohmann::json describe() const;

  // Looks the method up, checks params, audits and runs the handler; errors go to reply.
  void dispatch(std::string_view method, const nlohmann::json& params, DaemonContext& ctx,
                Reply reply) const;

 private:
  std::vector<const MethodSpec*> methods_;
  X11Session x11_session_;
};

}  // namespace companyos::daemon
