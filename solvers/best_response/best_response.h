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

#include "engine/core/errors.h"
#include "engine/core/game.h"

namespace sling {

struct BestResponseOptions {
  std::size_t max_states = 60'000'000;  // refuse a larger game, rather than exhaust memory
  int max_sweeps = 1'000'000;
  double tolerance = 1e-10;  // stop when no value changed more than this in a sweep
  double max_seconds = 0;    // stop the sweeps after this long (0: no limit)
  std::function<void(const std::string&)> log;
};

struct BestResponseResult {
  double win_probability = 0;  // the responder's, from the initial state (a lower bound)
  double last_change = 0;      // the largest change of the last sweep
  int sweeps = 0;
  bool converged = false;  // the last sweep changed nothing by more than the tolerance
  std::size_t states = 0, edges = 0;
  double seconds = 0;
};

namespace detail {

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

}  // namespace detail

// `fixed_policy(state)` is the action of every side but the responder; it must be deterministic and
// depend on the state only.  `canonical(state)` maps a state to its key: equal keys must have the
// same future.  Throws SlingError when the game has more reachable states than options.max_states.
template <Game G, class FixedPolicy, class Canonical>
BestResponseResult best_response(const G& game, Player responder, FixedPolicy&& fixed_policy,
                                 Canonical&& canonical, const BestResponseOptions& options = {}) {
  using State = typename G::State;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  enum Kind : std::uint8_t { kChance, kResponder, kFixed, kWon, kNotWon };
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
  for (std::size_t n = 0; n < states.size(); ++n) {
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
  index = {};  // the graph is all the sweeps need

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
  result.seconds = elapsed();
  return result;
}

}  // namespace sling
