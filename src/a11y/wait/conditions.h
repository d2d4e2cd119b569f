// What the parts of a wait say about its condition: the app it watches and how a message
// names what is waited for. Shared by the conditions' checks, the tracker and the run.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "a11y/wait.h"

namespace companyos::a11y {

// Visits a variant with one lambda per alternative.
template <typename... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

// The app a window or text condition names; "" for an element condition, whose app is
// the ref's.
const std::string& app_of(const WaitCondition& condition);
// What is waited for, as a TIMEOUT message says it ("a window titled "Save" of app gedit
// to appear").
std::string describe(const WaitCondition& condition);
// The condition as a TIMEOUT's details.condition name it: {kind, app|ref, …}.
nlohmann::json condition_to_json(const WaitCondition& condition);

}  // namespace companyos::a11y
