// What the server tells an agent before it uses the tools (the `instructions` field).
#pragma once

namespace companyos::mcp {

extern const char* const kInstructions;

}  // namespace companyos::mcp
