// Strict-mode fingerprints: SHA-256 (GLib's GChecksum) over a canonical form of an
// element's identity, its window, its app's pid and its bounds. Two reads of an element
// have equal fingerprints exactly when their canonical forms are equal.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "a11y/model.h"
#include "a11y/read/identity.h"
#include "companyos/result.h"

namespace companyos::a11y {

struct FingerprintInput {
  Identity identity;  // identity.accessible_id_known false: the id is null in the form
  std::string window_id;
  std::optional<int> pid;
  std::optional<Bounds> bounds;  // nullopt: offscreen or not a component
  friend bool operator==(const FingerprintInput&, const FingerprintInput&) = default;
};

// Canonical form, version 1: a header line then one line per field, in this order, each
// ending in "\n":
//   companyos-fingerprint/1
//   role=<AT-SPI role number, decimal>
//   accessible_id=<string>|null
//   name=<string>
//   description=<string>
//   window=<string>
//   pid=<decimal>|null
//   bounds=<x>,<y>,<width>,<height>|null     (decimal, may be negative)
// A <string> is written in double quotes with \ as \\, " as \", and every byte below 0x20
// and 0x7f as \xHH (lower-case hex); other bytes (UTF-8) are kept as they are. So no
// value can contain a line break, null differs from every string, and the form can be
// read back unambiguously.
std::string canonical_form(const FingerprintInput& input);

// 64 lower-case hex digits: SHA-256 of canonical_form(input).
std::string fingerprint_sha256(const FingerprintInput& input);

// The fields that differ, named as in the canonical form and in its order.
std::vector<std::string> changed_fields(const FingerprintInput& before,
                                        const FingerprintInput& after);

// The input as a snapshot recorded it: the node's identity, bounds, window id and pid.
FingerprintInput fingerprint_input_of(const Snapshot& snapshot, const Node& node);

// Strict mode's check just before an action: STALE_REF (details.kind
// "fingerprint_changed", the changed fields and both hashes) unless nothing changed.
Status check_unchanged(const FingerprintInput& expected, const FingerprintInput& actual);

}  // namespace companyos::a11y
