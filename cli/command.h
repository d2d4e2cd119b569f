// A CLI subcommand turns its arguments into one protocol request and, for human output,
// renders the reply's data. Each file under commands/ registers what a few related
// method commands add to their declarations (cli/command_parts.h).
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace companyos::cli {

struct Invocation {
  std::string method;
  nlohmann::json params = nlohmann::json::object();
  // Added to params when the reply is printed for a person, who reads less than --json
  // prints (the snapshot's outline without its JSON tree).
  nlohmann::json human_params = nlohmann::json::object();
  // Prints the reply's data for a person; unset means the generic field view.
  std::function<void(const nlohmann::json& data)> human;
  // An ok reply that still reports a failure (a batch step that failed): exit status 1.
  std::function<bool(const nlohmann::json& data)> failed;
  // Prints more of an error reply for a person, after its code, message and hint.
  std::function<void(const nlohmann::json& error)> human_error;
  // How long the request itself may take to answer (a wait: its timeout plus a margin);
  // the CLI waits for the longer of this and --reply-timeout.
  std::chrono::milliseconds reply_timeout{0};
  // Answered by the CLI itself instead of one request (methods --markdown, mcp), given the
  // daemon's socket path: the exit status.
  std::function<int(const std::string& socket)> local;
  // Answers a daemon that cannot be reached instead of the usual message (doctor: that is
  // its finding), given --json, the socket and why: the exit status.
  std::function<int(bool json, const std::string& socket, const std::string& detail)> unreachable;
};

// Creates a subcommand with a description and an examples footer.
CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& description,
                      const std::string& examples);

// A positional argument as given, or, when it is "-", all of standard input (text kept out
// of the process list).
std::string argument_or_stdin(const std::string& argument);

// The CLI's own commands, which send no one method.
void add_mcp_command(CLI::App& app, Invocation& out);
// Needs the root of the command tree: the script lists every command under it.
void add_completion_command(CLI::App& app, Invocation& out);

// Every command: each declared method's (cli/command_parts.h), call, mcp and completion.
void add_all_commands(CLI::App& app, Invocation& out);

}  // namespace companyos::cli
