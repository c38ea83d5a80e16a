#pragma once
// A play session whose "person" is a function answering each prompt from the position on screen,
// for whole-game tests of `sling play` logic in-process.

#include <functional>
#include <istream>
#include <optional>
#include <sstream>
#include <string>

#include "play/play_session.h"
#include "play/scripted_input.h"

namespace sling::play {

inline int count_occurrences(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Plays `game` with `config`; `person` answers every human prompt and ends the input by returning
// nullopt (or after `max_lines` answers, so a confused script cannot loop forever).
template <class G>
struct ScriptedSession {
  using Person = std::function<std::optional<std::string>(const typename G::State&)>;
  ScriptedSession(const G& game, PlayConfig config, Person person, int max_lines)
      : input([this, max_lines] {
          return ++lines > max_lines ? std::nullopt : person_(session.state());
        }),
        in(&input),
        session(game, std::move(config), in, out, status),
        person_(std::move(person)) {}
  ScriptedInput input;
  std::istream in;
  std::ostringstream out, status;
  PlaySession<G> session;
  int lines = 0;

 private:
  Person person_;
};

}  // namespace sling::play
