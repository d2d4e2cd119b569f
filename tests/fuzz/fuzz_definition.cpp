// An automation definition as `automation create`/`update`/`validate` receive it: JSON text
// (within the request's UTF-8 and depth limits) through validate_definition, with the
// store's name check and the retry-budget rule on. For every definition accepted:
// - its canonical form (to_json, what the store keeps) validates again to the same
//   definition, and is its own canonical form (docs/automations.md: "Validating the
//   canonical form gives the same definition back"), since a stored definition that no
//   longer validates is an INTERNAL error for ever after;
// - what a person is asked to approve (describe_step) never shows a value to be set, a
//   command's arguments, or a link's user info, path, query or fragment
//   (step_description.h, "a link's scheme and host only");
// - the run plan, effect classes and gate condition 3 can be computed.
//
// Input: the definition's JSON text.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "automation/definition.h"
#include "automation/effects.h"
#include "automation/run_plan.h"
#include "automation/step_description.h"
#include "automation/validation.h"
#include "fuzz_support.h"

namespace companyos::fuzz {
namespace {

using namespace companyos::automation;

constexpr std::int64_t kNow = 1'767'225'600;  // 2026-01-01 00:00 UTC

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Whether `secret` would be seen in `shown` although it is not part of what may be shown:
// short pieces occur by chance, and a piece inside an allowed field is that field's.
bool leaks(const std::string& shown, const std::string& secret,
           std::initializer_list<const std::string*> allowed) {
  if (secret.size() < 4 || !contains(shown, secret)) return false;
  for (const std::string* field : allowed) {
    if (field != nullptr && contains(*field, secret)) return false;
  }
  return true;
}

const std::string* optional_ptr(const std::optional<std::string>& value) {
  return value ? &*value : nullptr;
}

// The parts of a URL that may carry tokens: after scheme://host[:port] (or after scheme:
// without //), and the user info before the host.
std::vector<std::string> private_url_parts(const std::string& url) {
  std::vector<std::string> parts;
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) {
    const auto colon = url.find(':');
    if (colon != std::string::npos) parts.push_back(url.substr(colon + 1));
    return parts;
  }
  const auto authority_start = scheme_end + 3;
  const auto authority_end = url.find_first_of("/?#", authority_start);
  const std::string authority = url.substr(authority_start, authority_end - authority_start);
  if (const auto at = authority.rfind('@'); at != std::string::npos) {
    parts.push_back(authority.substr(0, at));
  }
  if (authority_end != std::string::npos) parts.push_back(url.substr(authority_end));
  return parts;
}

void check_description(const Step& step, const std::string& path) {
  const std::string shown = describe_step(step, path);
  FUZZ_CHECK(shown.rfind(path + ": ", 0) == 0);
  if (step.description) return;  // the author's own words, shown as written
  std::visit(
      [&](const auto& body) {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, SetValueStep>) {
          FUZZ_CHECK(!leaks(shown, body.value,
                            {&path, &body.app, &body.target.role, &body.target.name,
                             optional_ptr(body.target.id), optional_ptr(body.window)}));
        } else if constexpr (std::is_same_v<T, CommandStep>) {
          for (const std::string& argument : body.command.argv) {
            FUZZ_CHECK(!leaks(shown, argument, {&path, &body.command.executable}));
          }
        } else if constexpr (std::is_same_v<T, OpenLinkStep>) {
          for (const std::string& part : private_url_parts(body.url)) {
            FUZZ_CHECK(!leaks(shown, part, {&path, &body.app}));
          }
        }
      },
      step.body);
}

}  // namespace
}  // namespace companyos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  using namespace companyos::automation;
  const auto input = fuzz::request_json(fuzz::as_text(data, size));
  if (!input) return 0;

  ValidationContext context;
  context.now = fuzz::kNow;
  context.name_taken = [](const std::string& name) { return name == "taken"; };
  auto definition = validate_definition(*input, context);
  if (!definition) {
    FUZZ_CHECK(definition.error().code == ErrorCode::kInvalidArgs);
    const auto& details = definition.error().details;
    FUZZ_CHECK(details.contains("problems") && details["problems"].is_array());
    FUZZ_CHECK(!details["problems"].empty());
    FUZZ_CHECK(details["problems"].size() <= kMaxReportedProblems);
    FUZZ_CHECK(details.contains("problem_count") && details["problem_count"].is_number_integer());
    FUZZ_CHECK(details["problem_count"].get<std::size_t>() >= details["problems"].size());
    return 0;
  }

  // Stored as text, read back without the save-time rules (as the runner and gate do).
  const nlohmann::json canonical = to_json(*definition);
  const std::string stored = canonical.dump();
  auto reread = validate_definition(nlohmann::json::parse(stored, nullptr, false), ValidationContext{});
  FUZZ_CHECK(reread.ok());
  FUZZ_CHECK(*reread == *definition);
  FUZZ_CHECK(to_json(*reread) == canonical);

  FUZZ_CHECK(definition->step_count() >= 1 && definition->step_count() <= kMaxSteps);
  const auto plan = plan_steps(*definition);
  FUZZ_CHECK(plan.size() == definition->step_count());
  for (std::size_t i = 0; i < plan.size(); ++i) {
    FUZZ_CHECK(plan[i].seq == static_cast<int>(i) + 1);
    FUZZ_CHECK(step_at_seq(*definition, plan[i].seq) == plan[i].step);
    (void)effect_of(*plan[i].step);
    fuzz::check_description(*plan[i].step, plan[i].path);
  }
  (void)all_effects_local_and_reversible(*definition);
  return 0;
}
