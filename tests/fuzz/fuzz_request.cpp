// The daemon's request path up to the first handler that needs the bus or the store: the
// socket's byte stream framed into lines (LineFramer), each line parsed into a request
// (parse_request: size, UTF-8, nesting depth, JSON, envelope shape), the method looked up
// and its params checked against its declaration (as MethodTable::dispatch does), a batch's
// steps planned and their element actions parsed (as the batch handler does before its
// first step), and the reply written as one line (protocol::to_line). Properties: cutting
// the stream anywhere gives the same lines, a smaller limit turns exactly the longer lines
// into oversize markers, a line nested deeper than the limit is refused, no refusal is
// INTERNAL, and every reply is one line.
//
// Input: the bytes a client sends on its connection.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "a11y/snapshot_store.h"
#include "companyos/methods.h"
#include "companyos/protocol.h"
#include "daemon/method_table.h"
#include "daemon/methods/batch_plan.h"
#include "daemon/methods/element_actions.h"
#include "daemon/methods/methods.h"
#include "daemon/server/line_framer.h"
#include "daemon/server/request.h"
#include "fuzz_support.h"

namespace companyos::fuzz {
namespace {

using daemon::FramedLine;
using daemon::LineFramer;

std::vector<FramedLine> frame(std::string_view bytes, std::size_t max_line, bool chunked) {
  LineFramer framer(max_line);
  std::vector<FramedLine> lines;
  if (!chunked) {
    framer.feed(bytes, lines);
  } else {
    // recv() splits the stream anywhere; sizes vary so lines and CRs straddle the cuts.
    for (std::size_t i = 0; !bytes.empty(); ++i) {
      const std::size_t chunk = std::min(bytes.size(), 1 + (i * 7 + bytes.size()) % 23);
      framer.feed(bytes.substr(0, chunk), lines);
      bytes.remove_prefix(chunk);
    }
  }
  if (auto last = framer.finish()) lines.push_back(std::move(*last));
  return lines;
}

bool same_lines(const std::vector<FramedLine>& a, const std::vector<FramedLine>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].oversize != b[i].oversize || a[i].text != b[i].text) return false;
  }
  return true;
}

void check_framing(std::string_view bytes, const std::vector<FramedLine>& lines) {
  for (const FramedLine& line : lines) {
    FUZZ_CHECK(line.oversize || !line.text.empty());  // blank lines are skipped
    FUZZ_CHECK(line.text.find('\n') == std::string::npos);
    FUZZ_CHECK(!line.oversize || line.text.empty());
  }
  FUZZ_CHECK(same_lines(lines, frame(bytes, protocol::kMaxLineBytes, /*chunked=*/true)));
  // The same stream under a small limit: each line longer than it becomes one oversize
  // marker, and every other line is exactly as before.
  constexpr std::size_t kSmall = 16;
  std::vector<FramedLine> expected;
  for (const FramedLine& line : lines) {
    expected.push_back(line.text.size() > kSmall ? FramedLine{{}, true} : line);
  }
  FUZZ_CHECK(same_lines(frame(bytes, kSmall, /*chunked=*/false), expected));
  FUZZ_CHECK(same_lines(frame(bytes, kSmall, /*chunked=*/true), expected));
}

const daemon::MethodTable& table() {
  static const daemon::MethodTable built(daemon::methods::all_methods());
  return built;
}

// What the handlers of batch and the element actions check before anything reaches an app.
Status check_before_the_bus(const daemon::Request& request) {
  static const a11y::SnapshotStore no_snapshots;
  if (request.method == "batch") {
    auto steps = daemon::methods::plan_batch(request.params["steps"], table());
    if (!steps) return std::move(steps).take_error();
    for (const auto& step : *steps) {
      FUZZ_CHECK(step.spec != nullptr);
      FUZZ_CHECK(step.args.is_object());
      FUZZ_CHECK(methods::check_params(step.spec->decl, step.args).ok());
      if (const auto kind = daemon::methods::element_action_kind(step.spec->decl.name)) {
        auto parsed = daemon::methods::element_action_request(*kind, step.args, no_snapshots);
        if (!parsed) return std::move(parsed).take_error();
      }
    }
    return ok_status();
  }
  if (const auto kind = daemon::methods::element_action_kind(request.method)) {
    auto parsed = daemon::methods::element_action_request(*kind, request.params, no_snapshots);
    if (!parsed) return std::move(parsed).take_error();
  }
  return ok_status();
}

std::string reply_line(const daemon::Request& request) {
  const daemon::MethodSpec* spec = table().find(request.method);
  if (spec == nullptr) {
    return protocol::to_line(protocol::error_envelope(
        request.id, make_error(ErrorCode::kInvalidArgs, "unknown method \"" + request.method + "\"")));
  }
  Status status = methods::check_params(spec->decl, request.params);
  if (status) status = check_before_the_bus(request);
  if (!status) {
    // Outside input is refused as the caller's mistake (INVALID_ARGS, POLICY_DENIED for a
    // password manager), never as the daemon's own failure.
    FUZZ_CHECK(status.error().code != ErrorCode::kInternal);
    return protocol::to_line(protocol::error_envelope(request.id, status.error()));
  }
  return protocol::to_line(protocol::ok_envelope(request.id, nlohmann::json::object()));
}

}  // namespace
}  // namespace companyos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  const std::string_view bytes = fuzz::as_text(data, size);
  const auto lines = fuzz::frame(bytes, protocol::kMaxLineBytes, /*chunked=*/false);
  fuzz::check_framing(bytes, lines);
  for (const auto& line : lines) {
    auto parsed = daemon::parse_request(line);
    // The nesting limit is checked before anything recursive sees the line.
    if (!line.oversize && json_nesting_depth(line.text) > protocol::kMaxJsonDepth) {
      FUZZ_CHECK(std::holds_alternative<daemon::RequestError>(parsed));
    }
    std::string reply;
    if (const auto* bad = std::get_if<daemon::RequestError>(&parsed)) {
      FUZZ_CHECK(bad->error.code == ErrorCode::kInvalidArgs);
      FUZZ_CHECK(bad->id.is_null() || bad->id.is_string() || bad->id.is_number());
      reply = protocol::to_line(protocol::error_envelope(bad->id, bad->error));
    } else {
      const auto& request = std::get<daemon::Request>(parsed);
      FUZZ_CHECK(request.id.is_null() || request.id.is_string() || request.id.is_number());
      FUZZ_CHECK(request.params.is_object());
      FUZZ_CHECK(is_valid_utf8_without_nul(line.text));
      reply = fuzz::reply_line(request);
    }
    FUZZ_CHECK(fuzz::is_one_line(reply));
  }
  return 0;
}
