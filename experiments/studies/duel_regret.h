#pragma once
// The regret study: how much win probability an agent gives away, decision by decision, priced by
// the exact action values of a solved duel.  It plays the agent against the exact solver's other
// side; at each of the agent's decisions the regret is the best action's value less the chosen
// one's (both the agent's win probability).  Summed over a game it is the agent's loss: its
// expected total equals the solved value less the agent's expected win rate, with far less noise
// than a win rate, so about 100 games rank agents that a match needs thousands of games to tell
// apart.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/duel/duel.h"

namespace sling::duel {

struct RegretOptions {
  std::string solution_file;  // a solution of the rules the games are played under
  std::string agent;          // the studied agent's spec
  Side side = kDavid;         // the seat it plays; the solver plays the other
  int games = 100;
  std::uint64_t seed = 1;
  std::int64_t max_plies = 100'000;  // a longer game stops there (counted as cut)
};

// The agent's decisions of one kind: "god", "tie flee", "destination" or "declare: <word>".
struct RegretRow {
  std::string kind;
  std::int64_t decisions = 0;
  std::int64_t mistakes = 0;  // decisions with a regret above 1e-9
  double regret = 0;          // summed over every game
  double largest = 0;
};

struct RegretResult {
  int games = 0, wins = 0, cut = 0;
  double solved_value = 0;  // the studied side's exact win probability from the start
  double regret_per_game = 0;
  double regret_standard_error = 0;  // of the per-game sum
  std::vector<RegretRow> rows;       // by kind, in name order
};

// Throws SlingError (FileFormatError, OptionError) for a bad solution file or agent spec.
RegretResult measure_regret(const RegretOptions& options);

}  // namespace sling::duel
