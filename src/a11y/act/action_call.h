// The one D-Bus call that carries an action to the app, by route (action_choice.h), and
// what came back. Sent on its own pipeline, so how long it may go unanswered is that
// pipeline's deadline.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "a11y/act/action_choice.h"
#include "a11y/bus/pipeline.h"

namespace companyos::a11y {

struct ActionCallArguments {
  std::string element_path;
  std::string container_path;  // Selection routes: the container that selects
  int index = -1;              // Selection routes: the element's index in its parent
  std::string text;            // kSetText, kInsertText
  double number = 0;           // kSetNumber, kCellNumber
  std::int32_t insert_at = 0;  // kInsertText: character offset
};

struct ActionCallOutcome {
  bool sent = false;      // it left this process
  bool answered = false;
  std::string error;      // the D-Bus error name of an error reply
  bool gone = false;      // ... when it says the element or the app is gone
  std::optional<bool> accepted;  // the method's boolean answer, where it has one
  bool disconnected = false;     // the connection closed before an answer came
};

// Sends the call and waits for its answer until the pipeline's deadline. kAlreadyInState
// and kKeyboard send nothing.
ActionCallOutcome send_action_call(Pipeline& pipeline, const ChosenRoute& route,
                                   const ActionCallArguments& arguments);

}  // namespace companyos::a11y
