#pragma once
// The exact best response to a fixed, deterministic policy, for any game whose reachable states fit
// in memory: how much could the best possible opponent win against it?  It measures how far above
// the game's value a policy can be exploited (the duel's heuristic at 3 cm: `docs/strength.md`),
// and so what an agent that plays against that policy could reach at most.
//
// The states reachable from the initial state, with the fixed side playing its policy and the
// responder any legal action, are enumerated once into a graph (a state's canonical form is its
// key, so that, for example, a turn counter that does not change the rules does not make every
// visit a new state).  Value iteration from zero then gives the responder's win probability: every
// sweep's value is the best the responder can win within that many sweeps, so the value rises to
// the best response's from below and each sweep's figure is a lower bound.  Stand-offs that a
// policy never breaks converge slowly; the result says how much the last sweep changed.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include <unistd.h>

#include "engine/core/errors.h"
#include "engine/core/game.h"

namespace sling {

struct BestResponseOptions {
  std::size_t max_states = 60'000'000;  // refuse a larger game, rather than exhaust memory
  // Refuse a game whose graph would take more memory than this (estimated as it is built; 0: 80 %
  // of the machine's physical memory), rather than be killed for running out of it.
  std::uint64_t max_bytes = 0;
  int max_sweeps = 1'000'000;
  double tolerance = 1e-10;  // stop when no value changed more than this in a sweep
  double max_seconds = 0;    // stop the sweeps after this long (0: no limit)
  // After solving, play this many games of the best response's policy against the fixed one (0:
  // none): a check that the value is won in play, not only computed.
  int games = 0;
  std::uint64_t seed = 1;
  std::int64_t max_plies = 1'000'000;  // a game longer than this counts as not won
  std::function<void(const std::string&)> log;
};

struct BestResponseResult {
  double win_probability = 0;  // the responder's, from the initial state (a lower bound)
  double last_change = 0;      // the largest change of the last sweep
  int sweeps = 0;
  bool converged = false;  // the last sweep changed nothing by more than the tolerance
  std::size_t states = 0, edges = 0;
  double seconds = 0;
  int games = 0, games_won = 0, games_cut = 0;  // the games played (options.games)
};

namespace detail {

// What the graph may take when BestResponseOptions::max_bytes is 0.
inline std::uint64_t default_memory_budget() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return UINT64_MAX;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 10 * 8;
}

// A state of the enumerated graph: who moves, or how it ended for the responder.
enum NodeKind : std::uint8_t { kChance, kResponder, kFixed, kWon, kNotWon };

template <class State>
struct StateBytesHash {
  std::size_t operator()(const State& s) const { return static_cast<std::size_t>(hash_bytes(s)); }
};

// The responder wins a terminal state when its payoff is above every other side's; a draw is no
// win.
template <Game G>
bool responder_wins(const G& game, const typename G::State& s, Player responder) {
  const auto payoff = game.returns(s);
  for (Player p = 0; p < static_cast<Player>(payoff.size()); ++p) {
    if (p != responder && payoff[p] >= payoff[responder]) return false;
  }
  return true;
}

// The best response's policy, played out.  Taking a best-valued action is not enough: in a
// stand-off waiting keeps the value and never wins.  So among the actions that keep the value (to
// 1e-9), the policy takes the one nearest a win: a state's distance is the fewest steps to a won
// terminal along value-keeping actions, chance outcomes of positive probability and the fixed
// side's moves.  A policy that keeps the value and reaches a win with positive probability from
// everywhere wins the value (the standard extraction for maximal reachability).
template <Game G, class FixedPolicy, class Canonical, class Index>
void play_best_response(const G& game, Player responder, FixedPolicy& fixed_policy,
                        Canonical& canonical, const BestResponseOptions& options,
                        const Index& index, const std::vector<std::uint8_t>& kind,
                        const std::vector<std::uint64_t>& first_edge,
                        const std::vector<std::uint32_t>& target,
                        const std::vector<double>& probability, const std::vector<double>& value,
                        BestResponseResult& result) {
  constexpr double kKeep = 1e-9;
  constexpr std::uint32_t kFar = UINT32_MAX;
  const std::size_t n_states = kind.size();
  std::vector<std::uint32_t> distance(n_states, kFar);
  for (std::size_t n = 0; n < n_states; ++n) {
    if (kind[n] == kWon) distance[n] = 0;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t n = n_states; n-- > 0;) {
      if (kind[n] == kWon || kind[n] == kNotWon || value[n] <= 0) continue;
      std::uint32_t d = distance[n];
      for (auto e = first_edge[n]; e < first_edge[n + 1]; ++e) {
        const std::uint32_t next = distance[target[e]];
        if (next == kFar || (kind[n] == kResponder && value[target[e]] < value[n] - kKeep))
          continue;
        if (kind[n] == kChance && probability[e] <= 0) continue;
        d = std::min(d, next + 1);
      }
      if (d < distance[n]) {
        distance[n] = d;
        changed = true;
      }
    }
  }
  for (int g = 0; g < options.games; ++g) {
    Rng rng(options.seed, static_cast<std::uint64_t>(g));
    auto state = game.initial_state();
    std::int64_t plies = 0;
    for (; !game.is_terminal(state) && plies < options.max_plies; ++plies) {
      const Player player = game.current_player(state);
      if (player == kChancePlayer) {
        game.apply_chance(state, sample_chance(game, state, rng));
      } else if (player != responder) {
        game.apply_action(state, fixed_policy(state));
      } else {
        // The successors of the state's key, which the graph holds (the key has the same future).
        const auto key = canonical(state);
        ActionList<G> actions;
        game.legal_actions(key, actions);
        Action best = kInvalidAction;
        double best_value = -1;
        std::uint32_t best_distance = kFar;
        for (const Action a : actions) {
          auto next = key;
          game.apply_action(next, a);
          const auto found = index.find(canonical(next));
          if (found == index.end()) {
            throw SlingError(
                "best response: a state met in play was not enumerated; the game's "
                "state key does not keep the future");
          }
          const std::uint32_t j = found->second;
          const bool higher = value[j] > best_value + kKeep;
          if (higher || (value[j] >= best_value - kKeep && distance[j] < best_distance)) {
            if (higher) best_value = value[j];
            best_distance = distance[j];
            best = a;
          }
        }
        game.apply_action(state, best);
      }
    }
    ++result.games;
    if (!game.is_terminal(state)) {
      ++result.games_cut;
    } else if (responder_wins(game, state, responder)) {
      ++result.games_won;
    }
  }
}

}  // namespace detail

// `fixed_policy(state)` is the action of every side but the responder; it must be deterministic and
// depend on the state only.  `canonical(state)` maps a state to its key: equal keys must have the
// same future.  Throws SlingError when the game has more reachable states than options.max_states.
// `each_value(key, win_probability)`, when given, receives every enumerated state's key and the
// responder's win probability there once the values are final (duel/exploit_values.h stores them).
template <Game G, class FixedPolicy, class Canonical>
BestResponseResult best_response(
    const G& game, Player responder, FixedPolicy&& fixed_policy, Canonical&& canonical,
    const BestResponseOptions& options = {},
    const std::function<void(const typename G::State&, double)>& each_value = {}) {
  using State = typename G::State;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  using enum detail::NodeKind;
  std::vector<State> states;
  std::unordered_map<State, std::uint32_t, detail::StateBytesHash<State>> index;
  std::vector<std::uint8_t> kind;
  std::vector<std::uint64_t> first_edge{0};
  std::vector<std::uint32_t> target;
  std::vector<double> probability;  // of a chance edge; unused elsewhere
  const auto id = [&](const State& s) {
    const State key = canonical(s);
    const auto [it, fresh] = index.try_emplace(key, static_cast<std::uint32_t>(states.size()));
    if (fresh) {
      if (states.size() >= options.max_states) {
        throw SlingError("best response: more than " + std::to_string(options.max_states) +
                         " reachable states; the game is too large to enumerate");
      }
      states.push_back(key);
    }
    return it->second;
  };
  id(game.initial_state());
  const std::uint64_t budget =
      options.max_bytes > 0 ? options.max_bytes : detail::default_memory_budget();
  // Per state: the state, its hash-map node and bucket, its kind, edge offset and value; per edge:
  // a target and a probability.
  constexpr std::uint64_t kStateBytes = sizeof(State) + 64 + 1 + 8 + 8, kEdgeBytes = 4 + 8;
  for (std::size_t n = 0; n < states.size(); ++n) {
    if (n % 4096 == 0 && states.size() * kStateBytes + target.size() * kEdgeBytes > budget) {
      throw SlingError("best response: the graph would need more than " +
                       std::to_string(budget >> 20) +
                       " MiB of memory; the game is too large to enumerate on this machine");
    }
    const State s = states[n];
    if (game.is_terminal(s)) {
      kind.push_back(detail::responder_wins(game, s, responder) ? kWon : kNotWon);
    } else if (const Player player = game.current_player(s); player == kChancePlayer) {
      kind.push_back(kChance);
      ChanceList<G> outcomes;
      game.chance_outcomes(s, outcomes);
      for (const ChanceOutcome& o : outcomes) {
        State next = s;
        game.apply_chance(next, o.outcome);
        target.push_back(id(next));
        probability.push_back(o.probability);
      }
    } else if (player == responder) {
      kind.push_back(kResponder);
      ActionList<G> actions;
      game.legal_actions(s, actions);
      for (const Action a : actions) {
        State next = s;
        game.apply_action(next, a);
        target.push_back(id(next));
        probability.push_back(1.0);
      }
    } else {
      kind.push_back(kFixed);
      State next = s;
      game.apply_action(next, fixed_policy(s));  // checked: a policy's illegal move throws
      target.push_back(id(next));
      probability.push_back(1.0);
    }
    first_edge.push_back(target.size());
  }

  BestResponseResult result;
  result.states = states.size();
  result.edges = target.size();
  if (options.log) {
    options.log("best response: " + std::to_string(result.states) + " states, " +
                std::to_string(result.edges) + " edges");
  }
  std::vector<double> value(states.size(), 0.0);
  for (std::size_t n = 0; n < states.size(); ++n) value[n] = kind[n] == kWon ? 1.0 : 0.0;
  // Gauss-Seidel in reverse discovery order: a state's successors were mostly discovered after it,
  // so a sweep carries a result back along a whole turn at once.
  while (result.sweeps < options.max_sweeps) {
    double change = 0;
    for (std::size_t n = states.size(); n-- > 0;) {
      double v = 0;
      switch (kind[n]) {
        case kChance:
          for (auto e = first_edge[n]; e < first_edge[n + 1]; ++e) {
            v += probability[e] * value[target[e]];
          }
          break;
        case kResponder:
          for (auto e = first_edge[n]; e < first_edge[n + 1]; ++e)
            v = std::max(v, value[target[e]]);
          break;
        case kFixed:
          v = value[target[first_edge[n]]];
          break;
        default:
          continue;
      }
      change = std::max(change, std::abs(v - value[n]));
      value[n] = v;
    }
    ++result.sweeps;
    result.last_change = change;
    if (change <= options.tolerance) {
      result.converged = true;
      break;
    }
    if (options.log && result.sweeps % 1000 == 0) {
      options.log("best response: sweep " + std::to_string(result.sweeps) + ", value " +
                  std::to_string(value[0]) + ", last change " + std::to_string(change));
    }
    if (options.max_seconds > 0 && elapsed() > options.max_seconds) break;
  }
  result.win_probability = value[0];
  if (each_value) {
    for (std::size_t n = 0; n < states.size(); ++n) each_value(states[n], value[n]);
  }
  if (options.games > 0) {
    detail::play_best_response(game, responder, fixed_policy, canonical, options, index, kind,
                               first_edge, target, probability, value, result);
  }
  result.seconds = elapsed();
  return result;
}

}  // namespace sling
