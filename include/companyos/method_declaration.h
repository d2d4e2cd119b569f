// What a protocol method is, without what it does: name, summary, params with types, ranges
// and help, target kind, flags and the CLI command that sends it. The daemon pairs each
// declaration with a handler; the CLI builds its options, help and limits from the same one.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "companyos/result.h"

namespace companyos::methods {

enum class ParamType { kString, kInteger, kBoolean, kObject, kArray, kAny };
std::string_view to_string(ParamType type);

// Inclusive bounds of an integer param; no max means "at least min".
struct IntRange {
  std::int64_t min = 0;
  std::optional<std::int64_t> max = {};
};

// The longest a string param may be, in characters (UTF-8 code points) or bytes.
enum class LengthUnit { kCharacters, kBytes };
struct LengthLimit {
  std::int64_t max = 0;
  LengthUnit unit = LengthUnit::kCharacters;
};

struct ParamSpec {
  std::string_view name = {};
  ParamType type = ParamType::kString;
  bool required = false;
  std::string_view help = {};
  std::optional<IntRange> range = {};  // integers only
  std::optional<LengthLimit> length = {};  // strings only: help, refusals and schemas say it
  // The CLI's option for it when not --<name with dashes> (e.g. "--timeout", "-i,--interactive").
  std::string_view option = {};
  // A param that may not be given with this one ("window" on "title"): the dispatcher
  // refuses both (details.param names this one) and the CLI makes the options exclusive.
  std::string_view excludes = {};
  std::vector<std::string_view> choices = {};  // strings only: the values allowed, when a closed set
  std::optional<ParamType> items = {};         // arrays only: the type of every item
};

enum class TargetKind { kNone, kApp, kWindow, kElement };
std::string_view to_string(TargetKind kind);

enum MethodFlag : unsigned {
  kFlagNone = 0,
  kFlagEffectful = 1U << 0,      // may change an app, a file or the store: audited
  kFlagNeedsX11 = 1U << 1,       // refused on other display servers
  kFlagAsksApproval = 1U << 2,   // inside automations, waits for a person
  kFlagAuditsItsSteps = 1U << 3, // effectful, but each step it runs writes its own audit row
  kFlagPersonOnly = 1U << 4,     // only a person may: refused when the request is an agent's
  kFlagDashboard = 1U << 5,      // the dashboard's JSON API serves it (its pages are the person's)
  kFlagBatchable = 1U << 6,      // a batch may run it as a step (actions only)
};

struct MethodDeclaration {
  std::string_view name = {};     // the protocol's one spelling: "set_value", "automation.create"
  std::string_view command = {};  // the CLI's: "set-value", "automation create"; empty: protocol only
  std::string_view summary = {};
  std::vector<ParamSpec> params = {};
  TargetKind target = TargetKind::kNone;
  unsigned flags = kFlagNone;
  std::string_view returns = {};  // what an ok reply's data holds (Markdown, for docs/protocol.md)

  const ParamSpec* param(std::string_view param_name) const;
  bool audited() const { return (flags & kFlagEffectful) != 0 && (flags & kFlagAuditsItsSteps) == 0; }
};

// INVALID_ARGS (details.param names it) for an unknown param, a wrong type, an integer out
// of its range, a string past its length (details.characters or bytes, and max), a missing
// required param or two params that exclude each other; checked in that order.
Status check_params(const MethodDeclaration& method, const nlohmann::json& params);
// The same checks for any list of params (an MCP tool's arguments); owner names them in
// messages. Also refuses a string outside its choices and an array item of the wrong type.
Status check_params(std::string_view owner, std::span<const ParamSpec> specs, const nlohmann::json& params);

const ParamSpec* find_param(std::span<const ParamSpec> specs, std::string_view name);

// One method as data, for the `methods` reply: name, summary, params, target, flags.
nlohmann::json describe(const MethodDeclaration& method);

// "must be from 1 to 60000", "must be a positive integer", "must be at least 0".
std::string range_text(const IntRange& range);

// "at most 10,000 characters", "at most 1 MiB" (a whole number of MiB), "at most 500 bytes".
std::string length_text(const LengthLimit& limit);

// A param's help as the CLI, `methods` and MCP's schemas show it: its help, then its length
// limit ("UTF-8 text, at most 1 MiB").
std::string help_text(const ParamSpec& param);

}  // namespace companyos::methods
