// Every protocol method is declared once: name, summary, params schema, target kind, flags
// and handler. The dispatcher checks params against the schema before the handler runs.
#pragma once

#include <functional>
#include <span>
#include <stop_token>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace companyos::daemon {

struct DaemonContext;

enum class ParamType { kString, kInteger, kBoolean, kObject, kArray, kAny };
std::string_view to_string(ParamType type);

struct ParamSpec {
  std::string_view name;
  ParamType type;
  bool required = false;
  std::string_view help;
};

enum class TargetKind { kNone, kApp, kWindow, kElement };
std::string_view to_string(TargetKind kind);

enum MethodFlag : unsigned {
  kFlagNone = 0,
  kFlagEffectful = 1U << 0,     // may change an app, a file or the store
  kFlagNeedsX11 = 1U << 1,      // refused on other display servers
  kFlagAsksApproval = 1U << 2,  // inside automations, waits for a person
};

// Delivers the handler's result exactly once; may be called later from the main loop.
// It also carries the asking client's presence: work whose answer nobody will read (a wait
// whose client was killed) can end early instead of holding a worker to its deadline.
class Reply {
 public:
  Reply() = default;
  template <typename Deliver>
    requires(!std::is_same_v<std::remove_cvref_t<Deliver>, Reply> &&
             std::is_invocable_v<Deliver&, Result<nlohmann::json>>)
  Reply(Deliver deliver, std::stop_token client_gone = {})  // NOLINT: lambdas convert
      : deliver_(std::move(deliver)), client_gone_(std::move(client_gone)) {}

  void operator()(Result<nlohmann::json> result) const { deliver_(std::move(result)); }
  // Requested once the client has closed its connection for good.
  const std::stop_token& client_gone() const { return client_gone_; }
  // The same client, answered through another delivery (an audit row, a batch's step).
  template <typename Deliver>
  Reply rerouted(Deliver deliver) const {
    return Reply(std::move(deliver), client_gone_);
  }

 private:
  std::function<void(Result<nlohmann::json>)> deliver_;
  std::stop_token client_gone_;
};
using Handler = void (*)(const nlohmann::json& params, DaemonContext& ctx, Reply reply);

struct MethodSpec {
  std::string_view name;
  std::string_view summary;
  std::vector<ParamSpec> params;
  TargetKind target = TargetKind::kNone;
  unsigned flags = kFlagNone;
  Handler handler = nullptr;
};

// INVALID_ARGS for a missing required param, an unknown param or a wrong type.
Status check_params(const MethodSpec& spec, const nlohmann::json& params);

class MethodTable {
 public:
  explicit MethodTable(std::vector<const MethodSpec*> methods);

  const MethodSpec* find(std::string_view name) const;
  std::span<const MethodSpec* const> methods() const { return methods_; }
  // The table as data, for the `methods` method and the CLI's help.
  nlohmann::json describe() const;

  // Looks the method up, checks params and runs the handler; errors go to reply.
  void dispatch(std::string_view method, const nlohmann::json& params, DaemonContext& ctx,
                Reply reply) const;

 private:
  std::vector<const MethodSpec*> methods_;
};

}  // namespace companyos::daemon
