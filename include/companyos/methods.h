// Every protocol method, declared once (src/core/methods/). The daemon dispatches and audits
// by these, the CLI builds its subcommands' options from them, and docs/protocol.md's table
// is generated from them (a test compares).
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "companyos/method_declaration.h"

namespace companyos::methods {

// Limits both sides need.
inline constexpr std::chrono::milliseconds kDefaultObservationTimeout{2000};
inline constexpr std::chrono::milliseconds kMaxObservationTimeout{60000};
inline constexpr std::chrono::milliseconds kDefaultWaitTimeout{30000};
inline constexpr std::chrono::milliseconds kMaxWaitTimeout{600000};
// Pages beyond this hold nothing (1,000 runs kept at most, 20 a page); the bound only keeps
// page × page_size far from overflow.
inline constexpr std::int64_t kMaxRunsPage = 1'000'000;
// type_text's longest text, in characters: the physical-input lock is held while it types.
inline constexpr std::int64_t kMaxTypedCharacters = 10'000;
// clipboard.set's (and a paste's) longest text, in bytes.
inline constexpr std::int64_t kMaxClipboardTextBytes = 1 << 20;
// click_at's largest coordinate: X11 screens are at most 32767 pixels wide.
inline constexpr std::int64_t kMaxWindowCoordinate = 32'767;

// Every method's declaration (methods.def lists them).
#define COMPANYOS_METHOD(name) extern const MethodDeclaration k##name;
#include "companyos/methods.def"
#undef COMPANYOS_METHOD

// Every declaration, in the order of methods.def.
std::span<const MethodDeclaration* const> all();
// By the protocol name, or by the CLI command (batch steps may use either spelling).
const MethodDeclaration* find(std::string_view name);
const MethodDeclaration* find_command(std::string_view command);

// The methods table of docs/protocol.md (Markdown, one row a method), made from the
// declarations; `companyos methods --markdown` prints it and a test holds the file to it.
std::string markdown_table();

}  // namespace companyos::methods
