#pragma once
// Depth-limited expectiminimax with Ballard's *-minimax pruning (Star1 and Star2).
//
// Values are side 0's payoff in [L, U] = [-1, 1].  At a decision node the player to move (read
// from the state: a side may act several times in a row) maximises if it is side 0 and minimises
// otherwise, with alpha-beta cutoffs.  At a chance node the value is the exact expectation over the
// game's full outcome list, and the node does not use up depth: the horizon counts decisions only,
// so every leaf is a decision state and every chance expectation is complete.
//
// Star1: with the outcomes searched so far summing to S and the probability still to come P, the
// rest contributes between L*P and U*P, so outcome i is searched with the window
//   ((alpha - S - U*P) / p_i, (beta - S - L*P) / p_i)
// and a child that fails outside it cuts the whole chance node off.
// Star2 first probes each outcome's decision child with its first ordered action only: that gives a
// lower bound for a maximising child and an upper bound for a minimising one.  The probed bounds
// replace L and U in the Star1 windows and may cut the node off before any full search.  Probed
// subtrees are in the transposition table when the full search comes back to them.
//
// Iterative deepening runs depth 1, 2, ... until the node or time budget is spent; an unfinished
// iteration is discarded, so with a node budget the move is a deterministic function of the state
// and of the searches made since new_game: the transposition table carries over from one move of a
// game to the next (that is its use), so the same state searched in another game history may get
// another move.  A game replayed from its seed repeats every search, and so every move.
// Ordering: the transposition table's best action, then the game's heuristic action, then the
// rest as listed.  The root searches every action with the full window so that each root value is
// exact at the completed depth (for hints); pruning still applies below the root.
//
// Leaves are scored by a value function given to the search (search/value.h) when asked, else by
// the game's evaluate hook when it has one, otherwise by the mean of a few short rollouts.
// In a game whose positions can come back (HasRepetition: the duel's stand-offs), a line back to a
// position met before in the game or on the line ends there, charged `repetition_penalty` for
// each time (docs/search.md, "Stand-offs and the repetition rule").

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "search/common.h"
#include "search/value.h"

namespace sling::search {

enum class Pruning : std::uint8_t { kNone, kStar1, kStar2 };

struct ExpectimaxConfig {
  int max_depth = 64;                 // decision plies of the deepest iteration
  std::int64_t nodes = 100000;        // node budget per move (0 = none)
  double seconds = 0;                 // wall-clock limit per move (0 = none; not deterministic)
  Pruning pruning = Pruning::kStar1;  // Star2's probes cost more than they save on Pig
  int tt_mb = 16;                     // transposition table size (0 = no table)
  bool evaluate_leaves = true;        // use game.evaluate at leaves when the game has it
  bool value_leaves = false;          // use the search's value function (takes precedence)
  int leaf_rollouts = 8;              // rollouts averaged per leaf otherwise
  RolloutPolicy rollout = RolloutPolicy::kRandom;
  int rollout_plies = 0;  // rollout length cap (0 = to the end)
  // In a game with HasRepetition, a line back to a position already on it (or to the root's) ends
  // there, valued at the leaf value of that position less this much for the searching side, for
  // each time it was met (0 = repetitions are not looked for).  Charging the side that searches,
  // whichever it is, is a chess engine's contempt: each side breaks its own stand-offs.
  double repetition_penalty = 0;
  // The other side searched as the game's heuristic policy (its one action at each of its
  // decisions) instead of as a minimiser: a best response to that policy within the horizon.  It
  // measures how far the heuristic can be exploited; against any other opponent it is unsound.
  bool model_opponent_as_heuristic = false;
  Candidates candidates = Candidates::kBoth;  // whose decisions expand the game's candidate set
};

template <Game G, class Value = NoLeafValue>
requires LeafValueOrNone<Value, G>
class Expectimax {
 public:
  using State = typename G::State;
  static constexpr double kLow = -1.0;
  static constexpr double kHigh = 1.0;
  static constexpr int kMaxChanceRun = 8;

  // `value` (kept alive by the caller) scores leaves when config.value_leaves is set.
  Expectimax(const G& game, ExpectimaxConfig config, const Value* value = nullptr)
      : game_(game), config_(config), value_(value) {
    if (value_ == nullptr) config_.value_leaves = false;
    if (config_.tt_mb > 0) {
      std::size_t entries = 1;
      const std::size_t wanted =
          static_cast<std::size_t>(config_.tt_mb) * 1024 * 1024 / sizeof(Entry);
      while (entries * 2 <= wanted) entries *= 2;
      table_.assign(entries, Entry{});
    }
  }

  const ExpectimaxConfig& config() const { return config_; }

  void new_game(std::uint64_t seed) {
    rng_ = Rng(seed, 0x65787061);
    std::fill(table_.begin(), table_.end(), Entry{});
    generation_ = 0;
    seen_.clear();
  }

  SearchResult search(const State& root) {
    ++generation_;
    nodes_ = 0;
    deadline_ = Deadline(config_.seconds);
    aborted_ = false;
    chance_run_ = 0;
    path_size_ = 0;
    root_player_ = game_.current_player(root);
    if constexpr (HasRepetition<G>) {
      // The game's positions so far, as this side saw them at the start of its turns: the root's
      // counts once, at its turn's first decision.
      if (config_.repetition_penalty > 0) {
        repetition_charge_ = repetition_charge(root_player_, config_.repetition_penalty);
        if (const std::uint64_t key = record_search_root(game_, root, seen_); key != 0) {
          path_[path_size_++] = key;
        }
      }
    }
    ActionList<G> actions;
    search_actions(game_, root, actions, config_.candidates, root_player_);
    order(root, actions, kInvalidAction);
    const bool maximising = root_player_ == 0;
    const double sign = maximising ? 1.0 : -1.0;

    SearchResult result;
    result.best = actions[0];
    std::vector<RootActionStat> stats(actions.size());
    for (int depth = 1; depth <= config_.max_depth; ++depth) {
      horizon_reached_ = false;
      std::size_t done = 0;
      for (; done < actions.size(); ++done) {
        State child = root;
        apply_fast(game_, child, actions[done]);
        const double v = value(child, depth - 1, kLow, kHigh);
        if (aborted_) break;
        stats[done] = {actions[done], sign * v, 0};
      }
      if (aborted_) {
        if (result.depth == 0 && done > 0) {  // not even depth 1 finished: use what did
          stats.resize(done);
          finish(stats, result);
        }
        break;
      }
      finish(stats, result);
      result.depth = depth;
      // Search the best action first at the next depth.
      for (std::size_t i = 0; i < actions.size(); ++i) actions[i] = result.actions[i].action;
      if (!horizon_reached_) break;  // every line ended: deeper search cannot change anything
    }
    result.nodes = nodes_;
    return result;
  }

 private:
  enum Bound : std::uint8_t { kEmpty = 0, kExact, kLower, kUpper };
  struct Entry {
    std::uint64_t key = 0;
    double value = 0;
    std::int16_t depth = -1;
    Bound bound = kEmpty;
    std::uint8_t generation = 0;
    bool complete = false;  // no line below reached the horizon: the value holds at any depth
    Action best = kInvalidAction;
  };

  static void finish(std::vector<RootActionStat> stats, SearchResult& result) {
    std::stable_sort(
        stats.begin(), stats.end(),
        [](const RootActionStat& a, const RootActionStat& b) { return a.value > b.value; });
    result.actions = stats;
    result.best = stats.front().action;
    result.value = stats.front().value;
  }

  bool out_of_budget() {
    ++nodes_;
    if (config_.nodes > 0 && nodes_ > config_.nodes) aborted_ = true;
    if ((nodes_ & 1023) == 0 && deadline_.passed()) aborted_ = true;
    return aborted_;
  }

  Entry* probe(std::uint64_t key) {
    if (table_.empty()) return nullptr;
    Entry& e = table_[key & (table_.size() - 1)];
    return e.key == key && e.bound != kEmpty ? &e : nullptr;
  }

  void store(std::uint64_t key, int depth, double v, Bound bound, bool complete, Action best) {
    if (table_.empty()) return;
    Entry& e = table_[key & (table_.size() - 1)];
    if (e.bound != kEmpty && e.key != key && e.generation == generation_ && e.depth > depth) return;
    e = Entry{key, v, static_cast<std::int16_t>(depth), bound, generation_, complete, best};
  }

  // Puts `first` (if present), then the heuristic action, at the front.
  void order(const State& state, ActionList<G>& actions, Action first) {
    std::size_t front = 0;
    auto promote = [&](Action a) {
      for (std::size_t i = front; i < actions.size(); ++i) {
        if (actions[i] == a) {
          std::rotate(actions.begin() + front, actions.begin() + i, actions.begin() + i + 1);
          ++front;
          return;
        }
      }
    };
    if (first != kInvalidAction) promote(first);
    if constexpr (HasHeuristicPolicy<G>) promote(heuristic_action(state));
  }

  Action heuristic_action(const State& state) const {
    if constexpr (HasHeuristicPolicy<G>) {
      Rng local(G::hash(state), 0x6f72646572);  // a heuristic needing randomness stays reproducible
      return game_.heuristic_action(state, local);
    } else {
      return kInvalidAction;
    }
  }

  bool models_opponent(Player player) const {
    return HasHeuristicPolicy<G> && config_.model_opponent_as_heuristic && player != root_player_;
  }

  double leaf(const State& state) {
    horizon_reached_ = true;
    if constexpr (LeafValue<Value, G>) {
      if (config_.value_leaves) return (*value_)(state);
    }
    if constexpr (HasEvaluator<G>) {
      if (config_.evaluate_leaves) return game_.evaluate(state);
    }
    double total = 0;
    const int count = std::max(1, config_.leaf_rollouts);
    for (int i = 0; i < count; ++i) {
      total += rollout(game_, state, config_.rollout, config_.rollout_plies, rng_);
    }
    return total / count;
  }

  // Side 0's value of `state` searched `depth` decisions deep, fail-soft within (alpha, beta).
  double value(const State& state, int depth, double alpha, double beta) {
    if (out_of_budget()) return 0;
    const Player player = game_.current_player(state);
    if (player == kTerminalPlayer) return game_.returns(state)[0];
    if (config_.pruning == Pruning::kNone) {
      alpha = kLow;
      beta = kHigh;
    }
    if (player == kChancePlayer) {
      // Chance nodes use no depth, but a game may chain them (a tied roll thrown again), so a run
      // of them longer than kMaxChanceRun is cut off like a horizon.
      if (chance_run_ >= kMaxChanceRun) return leaf(state);
      ++chance_run_;
      const double v = chance_value(state, depth, alpha, beta);
      --chance_run_;
      return v;
    }
    const int run = chance_run_;
    chance_run_ = 0;
    const double v = decision_value(state, player, depth, alpha, beta);
    chance_run_ = run;
    return v;
  }

  // A decision node: with the game's repetition rule, a position already met in the game or on
  // the line ends the line (at the horizon too), at its leaf value less the penalty for each time
  // it was met, as a discount of the waiting would; otherwise the position stays on the line while
  // its subtree is searched.
  double decision_value(const State& state, Player player, int depth, double alpha, double beta) {
    if constexpr (HasRepetition<G>) {
      const std::uint64_t position =
          config_.repetition_penalty > 0 ? game_.repetition_key(state) : 0;
      if (position != 0) {
        const int times = times_met(position, seen_, path_.data(), path_.data() + path_size_);
        if (times > 0) {
          return std::clamp(leaf(state) + repetition_charge_ * times, kLow, kHigh);
        }
        if (depth == 0) return leaf(state);
        if (path_size_ < kMaxPath) {
          path_[static_cast<std::size_t>(path_size_++)] = position;
          const double v = searched_decision_value(state, player, depth, alpha, beta);
          --path_size_;
          return v;
        }
      }
    }
    if (depth == 0) return leaf(state);
    return searched_decision_value(state, player, depth, alpha, beta);
  }

  double searched_decision_value(const State& state, Player player, int depth, double alpha,
                                 double beta) {
    const std::uint64_t key = G::hash(state);
    Action tt_best = kInvalidAction;
    if (Entry* e = probe(key)) {
      tt_best = e->best;
      if (e->depth >= depth) {
        const double v = e->value;
        if (e->bound == kExact || (e->bound == kLower && v >= beta) ||
            (e->bound == kUpper && v <= alpha)) {
          horizon_reached_ |= !e->complete;
          return v;
        }
      }
    }
    const bool horizon_before = horizon_reached_;
    horizon_reached_ = false;
    ActionList<G> actions;
    if (models_opponent(player)) {
      actions.push_back(heuristic_action(state));
    } else {
      search_actions(game_, state, actions, config_.candidates, root_player_);
      order(state, actions, tt_best);
    }
    const bool maximising = player == 0;
    const double alpha0 = alpha, beta0 = beta;
    double best = maximising ? kLow - 1 : kHigh + 1;
    Action best_action = kInvalidAction;  // the first action always improves on `best`
    for (Action a : actions) {
      State child = state;
      apply_fast(game_, child, a);
      const double v = value(child, depth - 1, alpha, beta);
      if (aborted_) return 0;
      if (maximising ? v > best : v < best) {
        best = v;
        best_action = a;
      }
      if (maximising) {
        alpha = std::max(alpha, best);
      } else {
        beta = std::min(beta, best);
      }
      if (alpha >= beta) break;
    }
    const Bound bound = best <= alpha0 ? kUpper : (best >= beta0 ? kLower : kExact);
    store(key, depth, best, bound, !horizon_reached_, best_action);
    horizon_reached_ |= horizon_before;
    return best;
  }

  // The first action a decision child would search: its table move, else the heuristic's.
  Action first_action(const State& state) {
    if (models_opponent(game_.current_player(state))) return heuristic_action(state);
    ActionList<G> actions;
    search_actions(game_, state, actions, config_.candidates, root_player_);
    Action tt_best = kInvalidAction;
    if (Entry* e = probe(G::hash(state))) tt_best = e->best;
    order(state, actions, tt_best);
    return actions[0];
  }

  double chance_value(const State& state, int depth, double alpha, double beta) {
    ChanceList<G> outcomes;
    game_.chance_outcomes(state, outcomes);
    const std::size_t n = outcomes.size();
    std::array<double, G::kMaxChanceOutcomes> lower, upper;
    std::array<State, G::kMaxChanceOutcomes> children;
    double lower_total = 0, upper_total = 0;
    for (std::size_t i = 0; i < n; ++i) {
      children[i] = state;
      apply_fast(game_, children[i], outcomes[i].outcome);
      lower[i] = kLow;
      upper[i] = kHigh;
      if (game_.is_terminal(children[i])) lower[i] = upper[i] = game_.returns(children[i])[0];
      lower_total += outcomes[i].probability * lower[i];
      upper_total += outcomes[i].probability * upper[i];
    }
    if (config_.pruning == Pruning::kNone) {
      double expectation = 0;
      for (std::size_t i = 0; i < n; ++i) {
        expectation += outcomes[i].probability * value(children[i], depth, kLow, kHigh);
        if (aborted_) return 0;
      }
      return expectation;
    }

    if (config_.pruning == Pruning::kStar2 && depth > 0) {
      // Probing phase: one action of each decision child bounds that child from one side.
      for (std::size_t i = 0; i < n; ++i) {
        const Player child_player = game_.current_player(children[i]);
        if (child_player != 0 && child_player != 1) continue;
        const double p = outcomes[i].probability;
        const double window_low = std::max(kLow, (alpha - (upper_total - p * upper[i])) / p);
        const double window_high = std::min(kHigh, (beta - (lower_total - p * lower[i])) / p);
        State probe_state = children[i];
        apply_fast(game_, probe_state, first_action(children[i]));
        const double v = value(probe_state, depth - 1, window_low, window_high);
        if (aborted_) return 0;
        if (child_player == 0) {
          if (v > window_low && v > lower[i]) {  // exact or a lower bound of that action
            lower_total += p * (v - lower[i]);
            lower[i] = v;
          }
        } else if (v < window_high && v < upper[i]) {  // exact or an upper bound
          upper_total += p * (v - upper[i]);
          upper[i] = v;
        }
        if (lower_total >= beta) return lower_total;
        if (upper_total <= alpha) return upper_total;
      }
    }

    // Search phase (Star1 with the bounds known so far).
    double searched = 0;
    double lower_rest = lower_total, upper_rest = upper_total;
    for (std::size_t i = 0; i < n; ++i) {
      const double p = outcomes[i].probability;
      lower_rest -= p * lower[i];
      upper_rest -= p * upper[i];
      const double child_alpha = (alpha - searched - upper_rest) / p;
      const double child_beta = (beta - searched - lower_rest) / p;
      double v;
      if (lower[i] == upper[i]) {
        v = lower[i];
      } else {
        v = value(children[i], depth, std::max(lower[i], child_alpha),
                  std::min(upper[i], child_beta));
        if (aborted_) return 0;
      }
      searched += p * v;
      if (v <= child_alpha) return searched + upper_rest;  // the node is at most alpha
      if (v >= child_beta) return searched + lower_rest;   // the node is at least beta
    }
    return searched;
  }

  const G& game_;
  ExpectimaxConfig config_;
  const Value* value_;
  Rng rng_;
  std::vector<Entry> table_;
  std::uint8_t generation_ = 0;
  std::int64_t nodes_ = 0;
  Deadline deadline_{0};
  bool aborted_ = false;
  bool horizon_reached_ = false;
  int chance_run_ = 0;  // consecutive chance nodes on the current line
  // The positions (repetition keys) on the current line, the root's turn first.
  static constexpr int kMaxPath = 128;
  std::array<std::uint64_t, kMaxPath> path_{};
  int path_size_ = 0;
  SeenPositions seen_;
  double repetition_charge_ = 0;  // to side 0's value, for each time a position was met
  Player root_player_ = 0;        // the side searching
};

}  // namespace sling::search
