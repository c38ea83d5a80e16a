#pragma once
// cereal round trips of game states.  Each game provides `serialize(Archive&, State&)` next to its
// State; these helpers give every game the same JSON and binary encodings and the same errors.

#include <cereal/archives/binary.hpp>
#include "engine/core/cereal_json.h"  // first: rapidjson failures become plain errors

#include <sstream>
#include <string>
#include <string_view>

#include "engine/core/errors.h"

namespace sling {

// States that have the cereal encodings below (every game of Sling's; test games may not).
template <class State>
concept SerializableState =
    cereal::traits::is_output_serializable<State, cereal::JSONOutputArchive>::value &&
    cereal::traits::is_input_serializable<State, cereal::JSONInputArchive>::value;

template <class State>
std::string state_to_json(const State& state) {
  std::ostringstream out;
  {
    cereal::JSONOutputArchive archive(out);
    archive(cereal::make_nvp("state", state));
  }
  return out.str();
}

template <class State>
State state_from_json(std::string_view text) {
  State state{};
  try {
    std::istringstream in{safe_json_text(text)};
    cereal::JSONInputArchive archive(in);
    archive(cereal::make_nvp("state", state));
  } catch (const JsonValueError& e) {
    throw FileFormatError(std::string("malformed state: ") + e.what());
  } catch (const cereal::Exception& e) {
    throw FileFormatError("malformed state: " + plain_json_problem(e.what()));
  }
  return state;
}

template <class State>
std::string state_to_binary(const State& state) {
  std::ostringstream out(std::ios::binary);
  {
    cereal::BinaryOutputArchive archive(out);
    archive(state);
  }
  return out.str();
}

template <class State>
State state_from_binary(std::string_view bytes) {
  State state{};
  try {
    std::istringstream in{std::string(bytes)};
    cereal::BinaryInputArchive archive(in);
    archive(state);
  } catch (const cereal::Exception& e) {
    throw FileFormatError("malformed state: " + plain_json_problem(e.what()));
  }
  return state;
}

}  // namespace sling
