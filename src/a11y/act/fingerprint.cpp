#include "a11y/fingerprint.h"

#include <memory>

#include <glib.h>

#include "a11y/vocabulary.h"

namespace companyos::a11y {
namespace {

struct ChecksumFree {
  void operator()(GChecksum* checksum) const { g_checksum_free(checksum); }
};
using ChecksumPtr = std::unique_ptr<GChecksum, ChecksumFree>;

void append_escaped_field(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\\' || c == '"') {
      out.push_back('\\');
      out.push_back(c);
    } else if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xf]);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

std::string bounds_text(const std::optional<Bounds>& bounds) {
  if (!bounds) return "null";
  return std::to_string(bounds->x) + "," + std::to_string(bounds->y) + "," +
         std::to_string(bounds->width) + "," + std::to_string(bounds->height);
}

}  // namespace

std::string canonical_form(const FingerprintInput& input) {
  const Identity& identity = input.identity;
  std::string form = "companyos-fingerprint/1\n";
  form += "role=" + std::to_string(identity.role) + "\n";
  form += "accessible_id=";
  if (identity.accessible_id_known) {
    append_escaped_field(form, identity.accessible_id);
  } else {
    form += "null";
  }
  form += "\nname=";
  append_escaped_field(form, identity.name);
  form += "\ndescription=";
  append_escaped_field(form, identity.description);
  form += "\nwindow=";
  append_escaped_field(form, input.window_id);
  form += "\npid=" + (input.pid ? std::to_string(*input.pid) : std::string("null"));
  form += "\nbounds=" + bounds_text(input.bounds) + "\n";
  return form;
}

std::string fingerprint_sha256(const FingerprintInput& input) {
  const std::string form = canonical_form(input);
  const ChecksumPtr checksum(g_checksum_new(G_CHECKSUM_SHA256));
  g_checksum_update(checksum.get(), reinterpret_cast<const guchar*>(form.data()),
                    static_cast<gssize>(form.size()));
  return g_checksum_get_string(checksum.get());
}

std::vector<std::string> changed_fields(const FingerprintInput& before,
                                        const FingerprintInput& after) {
  std::vector<std::string> changed;
  const Identity& a = before.identity;
  const Identity& b = after.identity;
  if (a.role != b.role) changed.emplace_back("role");
  if (a.accessible_id_known != b.accessible_id_known ||
      (a.accessible_id_known && a.accessible_id != b.accessible_id)) {
    changed.emplace_back("accessible_id");
  }
  if (a.name != b.name) changed.emplace_back("name");
  if (a.description != b.description) changed.emplace_back("description");
  if (before.window_id != after.window_id) changed.emplace_back("window");
  if (before.pid != after.pid) changed.emplace_back("pid");
  if (before.bounds != after.bounds) changed.emplace_back("bounds");
  return changed;
}

FingerprintInput fingerprint_input_of(const Snapshot& snapshot, const Node& node) {
  return FingerprintInput{identity_of(node), snapshot.window.id, snapshot.pid, node.bounds};
}

Status check_unchanged(const FingerprintInput& expected, const FingerprintInput& actual) {
  const auto changed = changed_fields(expected, actual);
  if (changed.empty()) return ok_status();
  return make_error(ErrorCode::kStaleRef, "the element changed since it was observed (strict mode)",
                    {{"kind", "fingerprint_changed"},
                     {"changed", changed},
                     {"expected", fingerprint_sha256(expected)},
                     {"actual", fingerprint_sha256(actual)}},
                    "take a new snapshot, check the element, and act on its new ref");
}

}  // namespace companyos::a11y
