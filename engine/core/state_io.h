#pragma once
// cereal round trips of game states.  Each game provides `serialize(Archive&, State&)` next to its
// State; these helpers give every game the same JSON and binary encodings and the same errors.
//
// A state has one JSON form, written by state_to_json and sent as is by the agent protocol
// (docs/protocol.md), Python's State.to_json and `sling render`'s state files: the state object
// itself on one line, every list (a C++ array or vector) a JSON list, e.g. Pig's
//   {"scores":[12,30],"turn_total":4,"to_move":1,"phase":0}
// state_from_json reads that form and also the ones older files and pickles hold: the state
// wrapped as {"state": {...}}, and C++ arrays as cereal writes them ({"value0": 12, "value1": 30}).

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

// cereal's JSON of a state ({"state": {...}}, arrays as {"valueN"} objects) in the one form.
std::string state_json_from_cereal(std::string_view cereal_text);
// Any accepted form of a state as the text cereal reads ({"state": {...}}): throws FileFormatError
// ("malformed state: ...") for text that is not a JSON object or nests deeper than kMaxJsonDepth.
std::string cereal_state_text(std::string_view text);

template <class State>
std::string state_to_json(const State& state) {
  std::ostringstream out;
  {
    cereal::JSONOutputArchive archive(out, cereal::JSONOutputArchive::Options::NoIndent());
    archive(cereal::make_nvp("state", state));
  }
  return state_json_from_cereal(out.str());
}

template <class State>
State state_from_json(std::string_view text) {
  State state{};
  // cereal reads a JSON list wherever it reads an array's {"valueN"} object (it takes an array's
  // elements in order, unnamed), so both spellings of a list need no conversion on the way in.
  std::istringstream in{cereal_state_text(text)};
  try {
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
