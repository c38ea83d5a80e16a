#pragma once
// Pieces shared by the searches: fast apply and chance draws when a game offers them, the action
// set a search considers, rollout policies, and the result every search returns.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

#include "engine/core/game.h"

namespace sling::search {

// A game may draw a chance outcome without listing them all.
template <class G>
concept HasChanceSampler = Game<G> && requires(const G& g, const typename G::State& s, Rng& rng) {
  { g.sample_chance_outcome(s, rng) } -> std::same_as<Action>;
};

// The fast apply lives with the game interface (engine/core/game.h); searches name it here.
using ::sling::apply_fast;
using ::sling::HasUncheckedApply;

template <Game G>
inline Action draw_chance(const G& game, const typename G::State& state, Rng& rng) {
  if constexpr (HasChanceSampler<G>) {
    return game.sample_chance_outcome(state, rng);
  } else {
    return sample_chance(game, state, rng);
  }
}

// Whose decisions a search expands with the game's candidate set (when the game offers one)
// instead of every legal action.  Pruning the searching side's own choices can only make it
// expect less than it could get; pruning the other side's makes it expect more, whenever the
// reply that refutes a line is not among the candidates, and a deeper search meets more such
// replies (docs/search.md, "Candidate actions").
enum class Candidates : std::uint8_t {
  kBoth,  // both sides choose among candidates (the cheapest)
  kOwn,   // the searching side among candidates, the other side among every legal action
  kNone,  // every legal action for both
};

// The actions a search expands: the game's candidate set when it offers one (large movement
// sets), otherwise every legal action.
template <Game G>
inline void search_actions(const G& game, const typename G::State& state, ActionList<G>& out) {
  if constexpr (HasCandidateActions<G>) {
    game.candidate_actions(state, out);
  } else {
    game.legal_actions(state, out);
  }
}

// The same, for a search made on behalf of `searcher` under the policy `use`.
template <Game G>
inline void search_actions(const G& game, const typename G::State& state, ActionList<G>& out,
                           Candidates use, int searcher) {
  const bool pruned = use == Candidates::kBoth ||
                      (use == Candidates::kOwn && game.current_player(state) == searcher);
  if (pruned) {
    search_actions(game, state, out);
  } else {
    game.legal_actions(state, out);
  }
}

enum class RolloutPolicy : std::uint8_t {
  kRandom,     // uniformly random legal actions
  kHeuristic,  // the game's heuristic_action (only for games that have it)
};

// The decision a rollout takes for the player to move.
template <Game G>
inline Action rollout_action(const G& game, const typename G::State& state, RolloutPolicy policy,
                             Rng& rng) {
  if constexpr (HasHeuristicPolicy<G>) {
    if (policy == RolloutPolicy::kHeuristic) return game.heuristic_action(state, rng);
  }
  (void)policy;
  return sample_uniform_action(game, state, rng);
}

// Plays `state` out with `policy` for at most `max_plies` plies (decisions and chance outcomes;
// 0 = to the end) and returns side 0's payoff.  A rollout cut short is scored by the game's
// evaluate hook when it has one, otherwise as a draw.
template <Game G>
double rollout(const G& game, typename G::State state, RolloutPolicy policy, int max_plies,
               Rng& rng) {
  bool played = false;  // by the game's own playout: what is left is to score where it stopped
  if constexpr (HasRandomPlayout<G>) {
    if (policy == RolloutPolicy::kRandom) {
      state = game.random_playout(state, max_plies, rng);
      played = true;
    }
  }
  for (int ply = 0; !played && (max_plies == 0 || ply < max_plies); ++ply) {
    const Player player = game.current_player(state);
    if (player == kTerminalPlayer) return game.returns(state)[0];
    const Action action = player == kChancePlayer ? draw_chance(game, state, rng)
                                                  : rollout_action(game, state, policy, rng);
    apply_fast(game, state, action);
  }
  if (game.is_terminal(state)) return game.returns(state)[0];
  if constexpr (HasEvaluator<G>) {
    return game.evaluate(state);
  } else {
    return 0.0;
  }
}

// Statistics of one root action.
struct RootActionStat {
  Action action = kInvalidAction;
  double value = 0;         // for the player to move at the root, in [-1, 1]
  std::int64_t visits = 0;  // MCTS visits; 0 for expectimax
};

struct SearchResult {
  Action best = kInvalidAction;
  double value = 0;                     // of the root, for the player to move
  std::vector<RootActionStat> actions;  // best first
  std::int64_t nodes = 0;               // simulations (MCTS) or nodes (expectimax)
  int depth = 0;                        // deepest completed iteration (expectimax)
};

// A wall-clock limit; `seconds` <= 0 means none.
class Deadline {
 public:
  explicit Deadline(double seconds)
      : enabled_(seconds > 0),
        end_(std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                 std::chrono::duration<double>(seconds > 0 ? seconds : 0))) {}
  bool passed() const { return enabled_ && std::chrono::steady_clock::now() >= end_; }

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point end_;
};

// The positions a search met at the start of its own side's turns in the game so far, and how often
// (the repetition rule of a game with HasRepetition; docs/search.md).
using SeenPositions = std::unordered_map<std::uint64_t, int>;

// Records a search's root in `seen`: its position counts once, at its turn's first decision.
// Returns the position the search's lines start from, or 0 when there is none or it is already in
// `seen` (which then counts it).
template <Game G>
requires HasRepetition<G> std::uint64_t record_search_root(const G& game,
                                                           const typename G::State& root,
                                                           SeenPositions& seen) {
  if (const std::uint64_t key = game.repetition_key(root); key != 0) ++seen[key];
  const std::uint64_t turn = game.turn_repetition_key(root);
  return seen.count(turn) != 0 ? 0 : turn;
}

// What a repetition adds to side 0's value, each time a position was met, in a search by
// `searching`: `penalty` charged to that side (0 or 1), so that each side breaks its own
// stand-offs.
inline double repetition_charge(Player searching, double penalty) {
  return searching == 1 ? penalty : -penalty;
}

// How often `position` was met: in the game (`seen`) and on the current line [line, line_end).
inline int times_met(std::uint64_t position, const SeenPositions& seen, const std::uint64_t* line,
                     const std::uint64_t* line_end) {
  int times = static_cast<int>(std::count(line, line_end, position));
  if (!seen.empty()) {
    if (const auto it = seen.find(position); it != seen.end()) times += it->second;
  }
  return times;
}

}  // namespace sling::search
