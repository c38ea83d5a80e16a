#pragma once
// The game interface.  Every game is a class G (holding its immutable rules and precomputed tables)
// with a small, trivially copyable G::State value.  Search, agents, tournaments and the terminal
// are all templates over the `Game` concept below, so the hot paths never make a virtual call.
//
// Chance is a pseudo-player (as in OpenSpiel): at a chance node the game lists its outcomes with
// exact probabilities, and applying one is deterministic.  Decisions and chance outcomes share the
// compact `Action` type, so a game's history is one list of Actions that replays to the same state.

#include <array>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "engine/core/errors.h"
#include "engine/core/fixed_vector.h"
#include "engine/core/fnv1a.h"
#include "engine/core/random.h"

namespace sling {

// Decision or chance outcome, packed by each game (see its header for the layout).
using Action = std::uint32_t;
inline constexpr Action kInvalidAction = 0xffffffffu;

// A side index (0 or 1), or one of the pseudo-players below.
using Player = std::int8_t;
inline constexpr Player kChancePlayer = -1;
inline constexpr Player kTerminalPlayer = -2;

struct ChanceOutcome {
  Action outcome;
  double probability;
};

// Per-side payoff at a terminal state: +1 win, -1 loss, 0 draw.  Every Sling game is zero-sum.
using Returns = std::array<double, 2>;

struct GameInfo {
  std::string_view name;                  // command-line name, e.g. "duel"
  std::array<std::string_view, 2> sides;  // side names, e.g. {"david", "goliath"}
  int max_chance_outcomes;                // bound of any chance list
  int max_actions;                        // bound of any legal-action list
  bool has_draws;                         // can a game end without a winner (e.g. a turn cap)
};

template <class G>
using ActionList = FixedVector<Action, G::kMaxActions>;
template <class G>
using ChanceList = FixedVector<ChanceOutcome, G::kMaxChanceOutcomes>;

template <class G>
concept Game = requires(const G& game, typename G::State& state, const typename G::State& cstate,
                        Action action, std::string_view text, ActionList<G>& actions,
                        ChanceList<G>& outcomes) {
  requires std::is_trivially_copyable_v<typename G::State>;
  requires std::equality_comparable<typename G::State>;
  requires std::default_initializable<G>;  // a default-constructed game plays the default rules
  { G::kMaxActions } -> std::convertible_to<std::size_t>;
  { G::kMaxChanceOutcomes } -> std::convertible_to<std::size_t>;
  { game.info() } -> std::same_as<const GameInfo&>;
  { game.initial_state() } -> std::same_as<typename G::State>;
  { game.current_player(cstate) } -> std::same_as<Player>;
  { game.is_terminal(cstate) } -> std::same_as<bool>;
  { game.legal_actions(cstate, actions) } -> std::same_as<void>;
  { game.chance_outcomes(cstate, outcomes) } -> std::same_as<void>;
  // Both check legality and throw IllegalActionError; see apply_unchecked for the hot path.
  { game.apply_action(state, action) } -> std::same_as<void>;
  { game.apply_chance(state, action) } -> std::same_as<void>;
  { game.returns(cstate) } -> std::same_as<Returns>;
  { game.action_to_string(cstate, action) } -> std::same_as<std::string>;
  { game.parse_action(cstate, text) } -> std::same_as<Action>;  // throws ParseError
  { game.state_to_string(cstate) } -> std::same_as<std::string>;
  { game.rules_json() } -> std::same_as<std::string>;
  { G::hash(cstate) } -> std::same_as<std::uint64_t>;
  { G::from_rules_json(text) } -> std::same_as<G>;  // throws RulesError
};

// Applies a decision or a chance outcome, whichever the state is waiting for.
template <Game G>
void apply_any(const G& game, typename G::State& state, Action action) {
  if (game.current_player(state) == kChancePlayer) {
    game.apply_chance(state, action);
  } else {
    game.apply_action(state, action);
  }
}

// A game may apply decisions and chance outcomes without legality checks (for the searches and
// solvers, which only apply actions the game listed).
template <class G>
concept HasUncheckedApply = Game<G> && requires(const G& g, typename G::State& s, Action a) {
  { g.apply_unchecked(s, a) } -> std::same_as<void>;
};

// Applies an action the game listed itself: without the legality check where the game offers that.
template <Game G>
inline void apply_fast(const G& game, typename G::State& state, Action action) {
  if constexpr (HasUncheckedApply<G>) {
    game.apply_unchecked(state, action);
  } else {
    apply_any(game, state, action);
  }
}

// The expectation of `value_of(next)` over the chance outcomes of `state`, a chance node.
template <Game G, class ValueOf>
double chance_expectation(const G& game, const typename G::State& state, ValueOf&& value_of) {
  ChanceList<G> outcomes;
  game.chance_outcomes(state, outcomes);
  double expectation = 0;
  for (const ChanceOutcome& o : outcomes) {
    typename G::State next = state;
    apply_fast(game, next, o.outcome);
    expectation += o.probability * value_of(static_cast<const typename G::State&>(next));
  }
  return expectation;
}

// Draws a chance outcome by its probability.
template <Game G>
Action sample_chance(const G& game, const typename G::State& state, Rng& rng) {
  ChanceList<G> outcomes;
  game.chance_outcomes(state, outcomes);
  double u = rng.uniform01();
  for (const ChanceOutcome& o : outcomes) {
    if (u < o.probability) return o.outcome;
    u -= o.probability;
  }
  return outcomes.back().outcome;  // rounding: the residue belongs to the last outcome
}

// Games whose legal-action set is large can draw a uniformly random legal action without listing
// them all; others fall back to listing.
template <class G>
concept HasActionSampler = Game<G> &&
    requires(const G& game, const typename G::State& s, Rng& rng) {
  { game.sample_legal_action(s, rng) } -> std::same_as<Action>;
};

// A game may play a whole uniformly random playout in one call (rollouts with random decisions):
// `random_playout(state, max_plies, rng)` returns the state where the generic loop would stop
// (a terminal state, or after `max_plies` plies; 0 = no limit), having made the same draws in the
// same order: a chance outcome as the game's sampler draws it, a decision as
// sample_uniform_action does.  Only the per-ply dispatch is saved.
template <class G>
concept HasRandomPlayout = Game<G> &&
    requires(const G& g, const typename G::State& s, int max_plies, Rng& rng) {
  { g.random_playout(s, max_plies, rng) } -> std::same_as<typename G::State>;
};

template <Game G>
Action sample_uniform_action(const G& game, const typename G::State& state, Rng& rng) {
  if constexpr (HasActionSampler<G>) {
    return game.sample_legal_action(state, rng);
  } else {
    ActionList<G> actions;
    game.legal_actions(state, actions);
    return actions[rng.uniform(static_cast<std::uint32_t>(actions.size()))];
  }
}

// Text of whatever the state is waiting for: a decision or a chance outcome.
template <Game G>
std::string describe(const G& game, const typename G::State& state, Action action) {
  return game.action_to_string(state, action);
}

// Hash of a trivially copyable value's bytes (FNV-style accumulate, mixed at the end).
template <class T>
std::uint64_t hash_bytes(const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  static_assert(std::has_unique_object_representations_v<T>,
                "hashing bytes needs a state without padding");
  const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
  std::uint64_t h = kFnv1aOffsetBasis;
  std::size_t i = 0;
  for (; i + 8 <= sizeof(T); i += 8) {
    std::uint64_t word = 0;
    for (int b = 0; b < 8; ++b) word |= static_cast<std::uint64_t>(bytes[i + b]) << (8 * b);
    h = fnv1a_step(h, word);
    h ^= h >> 29;
  }
  for (; i < sizeof(T); ++i) h = fnv1a_step(h, bytes[i]);
  return mix64(h);
}

}  // namespace sling

namespace sling {

// Optional hooks a game may offer to search and agents.  Search uses them when present (checked by
// these concepts at compile time) and falls back to generic behaviour otherwise.

// A fast rule-based policy for the player to move (rollouts, the `heuristic` agent).
template <class G>
concept HasHeuristicPolicy = Game<G> && requires(const G& g, const typename G::State& s, Rng& rng) {
  { g.heuristic_action(s, rng) } -> std::same_as<Action>;
};

// A static evaluation of a non-terminal state, from side 0's point of view, in [-1, 1].
template <class G>
concept HasEvaluator = Game<G> && requires(const G& g, const typename G::State& s) {
  { g.evaluate(s) } -> std::same_as<double>;
};

// A reduced action set for search where the legal set is large (movement destinations).  It must
// be non-empty and a subset of the legal actions; what it may lose is documented by each game.
template <class G>
concept HasCandidateActions = Game<G> &&
    requires(const G& g, const typename G::State& s, ActionList<G>& out) {
  { g.candidate_actions(s, out) } -> std::same_as<void>;
};

// Positions that can come back unchanged.  In the duel both figures may stand still turn after
// turn; where a value function errs by more than the (nil) cost of waiting, a search then waits
// for ever.  A game that declares this lets search charge a line that returns to a position it
// has already passed through, as a discount would (search/expectimax.h).  `repetition_key(s)` is a
// key of the position at the start of a side's turn, 0 at any other state; `turn_repetition_key(s)`
// is the key of the turn start that s is part of (for a search whose root lies inside a turn), 0
// where s's position may already differ from it.
template <class G>
concept HasRepetition = Game<G> && requires(const G& g, const typename G::State& s) {
  { g.repetition_key(s) } -> std::same_as<std::uint64_t>;
  { g.turn_repetition_key(s) } -> std::same_as<std::uint64_t>;
};

// A game that can be played to a turn limit: `with_turn_limit(n)` is a copy of the game, same
// rules, whose games are drawn when turn n + 1 would begin (engine/core/game_limit.h says who uses
// it).
template <class G>
concept HasTurnLimit = Game<G> && requires(const G& g, int turns) {
  { g.with_turn_limit(turns) } -> std::same_as<G>;
};

// How a finished game ended ("beheaded", "javelin", "turn cap", ...), for tournament reports.
template <class G>
concept HasEndReason = Game<G> && requires(const G& g, const typename G::State& s) {
  { g.end_reason(s) } -> std::convertible_to<std::string_view>;
};

// An action in a player's words, where they differ from the record's action_to_string (danelaw
// names a hex by the town the map shows): hints, move logs and option labels use these; records,
// protocols and tests of round trips keep action_to_string.
template <class G>
concept HasActionWords = Game<G> && requires(const G& g, const typename G::State& s, Action a) {
  { g.action_words(s, a) } -> std::convertible_to<std::string>;
};

template <Game G>
std::string action_words(const G& game, const typename G::State& s, Action a) {
  if constexpr (HasActionWords<G>) {
    return game.action_words(s, a);
  } else {
    return game.action_to_string(s, a);
  }
}

}  // namespace sling
