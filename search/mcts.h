#pragma once
// Monte Carlo tree search for games with dice: a closed-loop tree whose chance nodes are explicit.
//
// Every node stands for one exact state (the path of decisions and outcomes from the root), so the
// tree never mixes the statistics of different dice results.  Per simulation:
//   1. Selection.  From the root, re-applying each edge's action to a copy of the root state:
//      at a decision node pick a child by UCT for the player to move there (read from the state, so
//      a side that acts several times in a row is handled like any other); at a chance node draw a
//      child by its outcome's probability.  Progressive widening (Couetoux et al. 2011) lets a
//      decision node with n visits consider only its first ceil(k * n^alpha) children, which keeps
//      large action sets (movement destinations) searchable; children are ordered heuristic action
//      first, then randomly.
//   2. Expansion.  A node's children are allocated together, in one contiguous block of the arena,
//      the first time the node is passed through; a child is a leaf until its first visit.
//   3. Evaluation.  A new leaf is scored by a rollout (random or the game's heuristic policy, to
//      the end or for a fixed number of plies), by the game's evaluate hook, or by a value
//      function given to the search (search/value.h), optionally mixed with a rollout.
//   4. Backpropagation.  Each node on the path adds side 0's payoff; a node reads it with the sign
//      of its player, so no alternation of players is assumed.
// With transpositions on, the paths that reach the same state share one node (the first to reach
// it; the others' edges point to it), so the tree becomes a graph: orders of moves that end in the
// same position pool their simulations instead of splitting them.
// Nodes live in an arena (a vector that only grows, indexed by 32-bit ids); after a move the kept
// subtree is compacted into a second arena, so after warm-up a search allocates nothing.
//
// Root parallelism: `trees` independent trees, each with its own random stream derived from the
// seed and its index, share the iteration budget and are merged by action at the end.  The number
// of trees, not the number of threads, decides the result, so any thread count gives the same move.

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "search/common.h"
#include "search/mcts_config.h"
#include "search/transposition_table.h"
#include "search/value.h"

namespace sling::search {

// A game whose states hash to 64 bits (for the transposition table).
template <class G>
concept HasStateHash = requires(const typename G::State& s) {
  { G::hash(s) } -> std::convertible_to<std::uint64_t>;
};

template <Game G, class Value = NoLeafValue>
requires LeafValueOrNone<Value, G>
class MctsTree {
 public:
  using State = typename G::State;
  static_assert(G::kMaxActions <= 0xffff && G::kMaxChanceOutcomes <= 0xffff);

  struct Node {
    std::uint32_t first_child = 0;  // an alias's (expanded == kAlias) node it stands for
    std::uint16_t child_count = 0;  // 0 until expanded
    std::int8_t player = 0;         // to move at this node (a side, chance or terminal)
    std::uint8_t expanded = 0;
    Action action = kInvalidAction;  // the edge from the parent
    float probability = 0;           // chance outcome probability (children of chance nodes)
    std::uint32_t visits = 0;
    // Side 0's payoff from the node's evaluation as a new leaf (NaN if it never was one): the
    // expectation backups' estimate for the outcomes not yet visited under a chance node.
    float leaf_value = std::numeric_limits<float>::quiet_NaN();
    double value_sum = 0;  // sum of side 0's payoffs
  };
  static_assert(sizeof(Node) == 32, "two nodes a cache line");
  // An edge whose state another node already holds: its action and probability stay its own, its
  // statistics are the other node's.
  static constexpr std::uint8_t kAlias = 2;

  MctsTree(const G& game, const MctsConfig& config, const Value* value = nullptr)
      : game_(game), config_(config), value_(value) {}

  void reset(std::uint64_t seed) {
    rng_ = Rng(seed, 0x6d637473);
    nodes_.clear();
    has_root_ = false;
  }

  // Follows an applied action, keeping the matching subtree when there is one.
  void advance(const State& before, Action applied) {
    if (!has_root_ || !(before == root_state_) || transposing()) {
      has_root_ = false;
      return;
    }
    const Node& root = nodes_[root_];
    for (std::uint32_t i = 0; i < root.child_count; ++i) {
      const std::uint32_t child = root.first_child + i;
      if (nodes_[child].action == applied && nodes_[child].visits > 0) {
        apply_fast(game_, root_state_, applied);
        root_ = child;
        return;
      }
    }
    has_root_ = false;
  }

  // Runs `iterations` simulations from `state` (until the deadline, if any).  `seen` (may be
  // null) and `root_position` (0 for none) are the repetitions' record, for the penalty.
  void search(const State& state, std::int64_t iterations, const Deadline& deadline,
              const SeenPositions* seen = nullptr, std::uint64_t root_position = 0) {
    seen_ = seen;
    root_position_ = root_position;
    if constexpr (HasRepetition<G>) {
      repetition_charge_ =
          repetition_charge(game_.current_player(state), config_.repetition_penalty);
    }
    searcher_ = game_.current_player(state);
    prepare_root(state);
    simulations_ = 0;
    for (std::int64_t i = 0; i < iterations; ++i) {
      if ((i & 63) == 63 && deadline.passed()) break;
      simulate();
      ++simulations_;
    }
  }

  std::int64_t last_simulations() const { return simulations_; }

  const Node& root() const { return nodes_[root_]; }
  const Node& node(std::uint32_t id) const { return nodes_[id]; }
  // The node whose statistics the edge `id` reads (itself unless it is an alias).
  const Node& resolved(std::uint32_t id) const { return nodes_[resolve(id)]; }
  std::size_t node_count() const { return nodes_.size(); }
  const State& root_state() const { return root_state_; }

 private:
  bool transposing() const { return HasStateHash<G> && config_.transpositions; }

  std::uint32_t resolve(std::uint32_t id) const {
    return nodes_[id].expanded == kAlias ? nodes_[id].first_child : id;
  }

  void prepare_root(const State& state) {
    if (config_.reuse && has_root_ && state == root_state_ && !transposing()) {
      compact();
      return;
    }
    nodes_.clear();
    if (nodes_.capacity() == 0) {
      nodes_.reserve(static_cast<std::size_t>(
          std::min<std::int64_t>(config_.max_nodes, 4 * config_.iterations + 64)));
    }
    nodes_.push_back(Node{});
    nodes_[0].player = game_.current_player(state);
    root_ = 0;
    root_state_ = state;
    has_root_ = true;
    if (transposing()) {
      clear_table();
      transpose(0, state);
    }
  }

  // The node that the edge `id`, just followed to `state`, stands for, or kOnPath when that node
  // is already on this simulation's path (a game whose play can return to a position).  On an
  // edge's first arrival its state is looked up: held by another node (not on the path), the edge
  // becomes an alias of it; otherwise the edge's own node is entered as the state's.
  static constexpr std::uint32_t kOnPath = std::numeric_limits<std::uint32_t>::max();

  bool on_path(std::uint32_t id) const {
    return std::find(path_.begin(), path_.end(), id) != path_.end();
  }

  void clear_table() {
    table_.clear(config_.iterations > 0 ? std::min(config_.iterations + 2, config_.max_nodes)
                                        : config_.max_nodes / 4);
  }

  std::uint32_t transpose(std::uint32_t id, const State& state) {
    if constexpr (HasStateHash<G>) {
      Node& node = nodes_[id];
      if (node.expanded == kAlias) return on_path(node.first_child) ? kOnPath : node.first_child;
      if (node.visits > 0 || node.expanded) return id;
      const std::uint32_t held =
          table_.find_or_add(static_cast<std::uint64_t>(G::hash(state)), state, id);
      // Held on the path: the edge keeps a node of its own, so that it is ever visited.
      if (held == TranspositionTable<State>::kNone || held == id || on_path(held)) return id;
      node.expanded = kAlias;
      node.first_child = held;
      return held;
    } else {
      return id;
    }
  }

  // Copies the subtree under the root to the spare arena, breadth first; children stay contiguous.
  void compact() {
    spare_.clear();
    spare_.push_back(nodes_[root_]);
    for (std::size_t i = 0; i < spare_.size(); ++i) {
      const Node copy = spare_[i];
      if (copy.child_count == 0) continue;
      spare_[i].first_child = static_cast<std::uint32_t>(spare_.size());
      spare_.insert(spare_.end(), nodes_.begin() + copy.first_child,
                    nodes_.begin() + copy.first_child + copy.child_count);
    }
    nodes_.swap(spare_);
    root_ = 0;
  }

  // Allocates the children of `id`; false when the arena is full.
  bool expand(std::uint32_t id, const State& state) {
    Node& node = nodes_[id];
    node.expanded = 1;
    const auto first = static_cast<std::uint32_t>(nodes_.size());
    if (node.player == kChancePlayer) {
      ChanceList<G> outcomes;
      game_.chance_outcomes(state, outcomes);
      if (static_cast<std::int64_t>(first + outcomes.size()) > config_.max_nodes) return false;
      for (const ChanceOutcome& o : outcomes) {
        Node child;
        child.action = o.outcome;
        child.probability = static_cast<float>(o.probability);
        nodes_.push_back(child);
      }
      nodes_[id].first_child = first;
      nodes_[id].child_count = static_cast<std::uint16_t>(outcomes.size());
      return true;
    }
    ActionList<G> actions;
    search_actions(game_, state, actions, config_.candidates, searcher_);
    if (static_cast<std::int64_t>(first + actions.size()) > config_.max_nodes) return false;
    std::size_t ordered = 0;
    if constexpr (HasHeuristicPolicy<G>) {
      const Action preferred = game_.heuristic_action(state, rng_);
      for (std::size_t i = 0; i < actions.size(); ++i) {
        if (actions[i] == preferred) {
          std::swap(actions[0], actions[i]);
          ordered = 1;
          break;
        }
      }
    }
    for (std::size_t i = actions.size(); i > ordered + 1; --i) {  // Fisher-Yates on the rest
      const std::size_t j = ordered + rng_.uniform(static_cast<std::uint32_t>(i - ordered));
      std::swap(actions[i - 1], actions[j]);
    }
    for (Action a : actions) {
      Node child;
      child.action = a;
      nodes_.push_back(child);
    }
    nodes_[id].first_child = first;
    nodes_[id].child_count = static_cast<std::uint16_t>(actions.size());
    return true;
  }

  std::uint32_t select_decision(const Node& node) const {
    std::uint32_t considered = node.child_count;
    if (config_.widening_k > 0 && considered > config_.widening_k) {
      const double allowed = std::ceil(
          config_.widening_k * std::pow(static_cast<double>(node.visits), config_.widening_alpha));
      considered = static_cast<std::uint32_t>(std::clamp<double>(allowed, 1.0, considered));
    }
    const double sign = node.player == 0 ? 1.0 : -1.0;
    const double log_visits = std::log(static_cast<double>(node.visits));
    std::uint32_t best = node.first_child;
    double best_score = -1e300;
    for (std::uint32_t i = 0; i < considered; ++i) {
      const std::uint32_t id = node.first_child + i;
      const Node& child = nodes_[resolve(id)];
      if (child.visits == 0) return id;
      const double inverse = 1.0 / child.visits;
      const double score =
          sign * child.value_sum * inverse + config_.c * std::sqrt(log_visits * inverse);
      if (score > best_score) {
        best_score = score;
        best = id;
      }
    }
    return best;
  }

  std::uint32_t select_chance(const Node& node) {
    double u = rng_.uniform01();
    const std::uint32_t last = node.first_child + node.child_count - 1;
    for (std::uint32_t id = node.first_child; id < last; ++id) {
      u -= nodes_[id].probability;
      if (u < 0) return id;
    }
    return last;
  }

  double evaluate_leaf(const State& state) {
    if constexpr (LeafValue<Value, G>) {
      if (config_.value_leaves) {
        const double v = (*value_)(state);
        const double w = config_.value_rollout_weight;
        if (w <= 0) return v;
        return (1 - w) * v +
               w * rollout(game_, state, config_.rollout, config_.rollout_plies, rng_);
      }
    }
    if constexpr (HasEvaluator<G>) {
      if (config_.evaluate_leaves) return game_.evaluate(state);
    }
    return rollout(game_, state, config_.rollout, config_.rollout_plies, rng_);
  }

  // The number of times the position of a decision state was met before (in the game, or on this
  // simulation's line, which it then joins).
  int repetitions(const State& state) {
    if constexpr (HasRepetition<G>) {
      const std::uint64_t position = game_.repetition_key(state);
      if (position == 0) return 0;
      static const SeenPositions kNone;
      const int times = times_met(position, seen_ != nullptr ? *seen_ : kNone, line_.data(),
                                  line_.data() + line_.size());
      if (times == 0) line_.push_back(position);
      return times;
    } else {
      return 0;
    }
  }

  void simulate() {
    State state = root_state_;
    std::uint32_t id = root_;
    path_.clear();
    path_.push_back(id);
    const bool repetition = config_.repetition_penalty > 0 && HasRepetition<G>;
    line_.clear();
    if (repetition && root_position_ != 0) line_.push_back(root_position_);
    double value;
    for (;;) {
      const Node& node = nodes_[id];
      if (node.player == kTerminalPlayer) {
        value = game_.returns(state)[0];
        nodes_[id].leaf_value = static_cast<float>(value);
        break;
      }
      if (node.visits == 0 && id != root_) {
        value = evaluate_leaf(state);
        nodes_[id].leaf_value = static_cast<float>(value);
        break;
      }
      if (!node.expanded && !expand(id, state)) {
        value = evaluate_leaf(state);  // the arena is full: this node stays a leaf
        break;
      }
      const Node& parent = nodes_[id];  // expand() may have moved the arena
      if (parent.child_count == 0) {
        value = evaluate_leaf(state);
        break;
      }
      id = parent.player == kChancePlayer ? select_chance(parent) : select_decision(parent);
      apply_fast(game_, state, nodes_[id].action);
      if (transposing()) {
        const std::uint32_t held = transpose(id, state);
        if (held == kOnPath) {  // back to a position on this line: scored where it stands
          value = evaluate_leaf(state);
          break;
        }
        id = held;
      }
      nodes_[id].player = game_.current_player(state);
      path_.push_back(id);
      if (repetition && (nodes_[id].player == 0 || nodes_[id].player == 1)) {
        if (const int times = repetitions(state); times > 0) {
          value = std::clamp(evaluate_leaf(state) + repetition_charge_ * times, -1.0, 1.0);
          break;
        }
      }
    }
    for (std::size_t i = path_.size(); i-- > 0;) {
      Node& n = nodes_[path_[i]];
      ++n.visits;
      const bool chance = n.player == kChancePlayer;
      const bool recomputed = n.child_count > 0 && (chance ? config_.backup != Backup::kSample
                                                           : config_.backup == Backup::kExpectimax);
      if (recomputed) {
        value = chance ? chance_expectation(n) : best_child_value(n);
        n.value_sum = value * n.visits;
      } else {
        n.value_sum += value;
      }
    }
  }

  // The expectation of a chance node's value over its outcomes.  When leaf values are estimates
  // (a value function's: a chance node's is the expectation of its outcomes'), it is the node's
  // leaf value corrected by what the search learned below each visited outcome (its value less
  // its own leaf value, weighted by its probability): with exact leaves, exact.  Otherwise each
  // visited child's mean, weighted by its probability, and the outcomes not visited yet at the
  // node's own leaf value (its first rollout), or, where the node never was a leaf, the visited
  // ones renormalised.
  double chance_expectation(const Node& node) const {
    const bool estimate = leaf_value_is_estimate() && !std::isnan(node.leaf_value);
    double weighted = 0, mass = 0, correction = 0;
    for (std::uint32_t id = node.first_child; id < node.first_child + node.child_count; ++id) {
      const float probability = nodes_[id].probability;
      const Node& child = nodes_[resolve(id)];
      if (child.visits == 0) continue;
      const double mean = child.value_sum / child.visits;
      weighted += probability * mean;
      mass += probability;
      if (!std::isnan(child.leaf_value)) correction += probability * (mean - child.leaf_value);
    }
    if (estimate) return node.leaf_value + correction;
    if (std::isnan(node.leaf_value)) return weighted / mass;
    return weighted + std::max(0.0, 1.0 - mass) * node.leaf_value;
  }

  // Whether a node's leaf value is an estimate of its value (a value function or the game's
  // evaluate hook, unmixed) rather than one rollout's payoff.
  bool leaf_value_is_estimate() const {
    return config_.value_leaves ? config_.value_rollout_weight <= 0 : config_.evaluate_leaves;
  }

  // The value of a decision node for the side to move there: its best visited child's, or, while
  // some child is not visited yet and the leaf value is an estimate, its own leaf value if that is
  // better.  Such a value already chooses among every child (the duel's, to the end of the turn):
  // without it a node whose few visits tried only poor moves would pass up a poor move's value as
  // its own.  One rollout's payoff is no estimate of the best child, so it never counts.
  double best_child_value(const Node& node) const {
    const double sign = node.player == 0 ? 1.0 : -1.0;
    double best = -2.0;
    bool all_visited = true;
    for (std::uint32_t id = node.first_child; id < node.first_child + node.child_count; ++id) {
      const Node& child = nodes_[resolve(id)];
      if (child.visits > 0) {
        best = std::max(best, sign * child.value_sum / child.visits);
      } else {
        all_visited = false;
      }
    }
    if (!all_visited && !std::isnan(node.leaf_value) && leaf_value_is_estimate())
      best = std::max(best, sign * node.leaf_value);
    return sign * best;
  }

  const G& game_;
  const MctsConfig& config_;
  const Value* value_;
  Rng rng_;
  std::vector<Node> nodes_;
  std::vector<Node> spare_;
  TranspositionTable<State> table_;
  std::vector<std::uint32_t> path_;
  std::vector<std::uint64_t> line_;  // positions on the current simulation's line
  const SeenPositions* seen_ = nullptr;
  std::uint64_t root_position_ = 0;
  double repetition_charge_ = 0;  // to side 0's value, for each time a position was met
  std::uint32_t root_ = 0;
  int searcher_ = 0;  // the side to move at the root of the current search
  State root_state_{};
  bool has_root_ = false;
  std::int64_t simulations_ = 0;
};

// The search behind the `mcts` agent: one or more trees, merged at the root.  `value` (kept
// alive by the caller) scores leaves when config.value_leaves is set.
template <Game G, class Value = NoLeafValue>
requires LeafValueOrNone<Value, G>
class Mcts {
 public:
  using State = typename G::State;

  Mcts(const G& game, MctsConfig config, const Value* value = nullptr)
      : game_(game), config_(config) {
    config_.trees = std::max(1, config_.trees);
    if constexpr (LeafValue<Value, G>) {
      if (config_.value_leaves && value == nullptr) config_.value_leaves = false;
    } else {
      config_.value_leaves = false;
    }
    trees_.reserve(static_cast<std::size_t>(config_.trees));
    for (int t = 0; t < config_.trees; ++t) trees_.emplace_back(game_, config_, value);
  }
  Mcts(const Mcts&) = delete;
  Mcts& operator=(const Mcts&) = delete;

  const MctsConfig& config() const { return config_; }

  void new_game(std::uint64_t seed) {
    for (int t = 0; t < config_.trees; ++t)
      trees_[t].reset(Rng(seed, 0x7472656573).derive(t).next());
    seen_.clear();
  }

  void advance(const State& before, Action applied) {
    if (!config_.reuse) return;
    for (auto& tree : trees_) tree.advance(before, applied);
  }

  SearchResult search(const State& state) {
    const Deadline deadline(config_.seconds);
    std::uint64_t root_position = 0;
    if constexpr (HasRepetition<G>) {
      // The root's position counts once, at its turn's first decision.
      if (config_.repetition_penalty > 0) root_position = record_search_root(game_, state, seen_);
    }
    const std::int64_t per_tree = std::max<std::int64_t>(1, config_.iterations / config_.trees);
    const std::int64_t budget = config_.seconds > 0 && config_.iterations <= 0
                                    ? std::numeric_limits<std::int64_t>::max()
                                    : per_tree;
    if (config_.trees == 1) {
      trees_[0].search(state, budget, deadline, &seen_, root_position);
    } else {
      // Isolated, so that a thread waiting here never picks up unrelated outer work (another game
      // of a parallel match that would reuse this thread's agents).
      tbb::this_task_arena::isolate([&] {
        tbb::parallel_for(0, config_.trees, [&](int t) {
          trees_[static_cast<std::size_t>(t)].search(state, budget, deadline, &seen_,
                                                     root_position);
        });
      });
    }
    return merge(state);
  }

 private:
  SearchResult merge(const State& state) const {
    struct Total {
      Action action;
      std::int64_t visits;
      double value_sum;
    };
    std::vector<Total> totals;
    SearchResult result;
    double root_sum = 0;
    std::int64_t root_visits = 0;
    for (const auto& tree : trees_) {
      const auto& root = tree.root();
      result.nodes += tree.last_simulations();
      root_sum += root.value_sum;
      root_visits += root.visits;
      for (std::uint32_t i = 0; i < root.child_count; ++i) {
        const Action action = tree.node(root.first_child + i).action;
        const auto& child = tree.resolved(root.first_child + i);
        if (child.visits == 0) continue;
        auto it = std::find_if(totals.begin(), totals.end(),
                               [&](const Total& t) { return t.action == action; });
        if (it == totals.end()) {
          totals.push_back({action, 0, 0.0});
          it = totals.end() - 1;
        }
        it->visits += child.visits;
        it->value_sum += child.value_sum;
      }
    }
    const double sign = game_.current_player(state) == 1 ? -1.0 : 1.0;
    for (const Total& t : totals) {
      result.actions.push_back(
          {t.action, sign * t.value_sum / static_cast<double>(t.visits), t.visits});
    }
    // Under expectimax backups a root child's mean is its backed-up value, the search's best
    // estimate, so the root chooses by it; otherwise the most visited child is the robust choice.
    const bool by_value = config_.backup == Backup::kExpectimax;
    std::stable_sort(result.actions.begin(), result.actions.end(),
                     [by_value](const RootActionStat& a, const RootActionStat& b) {
                       if (by_value && a.value != b.value) return a.value > b.value;
                       return a.visits != b.visits ? a.visits > b.visits : a.value > b.value;
                     });
    result.value = root_visits > 0 ? sign * root_sum / static_cast<double>(root_visits) : 0.0;
    if (!result.actions.empty()) {
      result.best = result.actions.front().action;
    } else {
      // No simulation reached a child (a zero budget): fall back to the first action searched.
      ActionList<G> actions;
      search_actions(game_, state, actions, config_.candidates, game_.current_player(state));
      result.best = actions[0];
    }
    return result;
  }

  const G& game_;
  MctsConfig config_;
  std::vector<MctsTree<G, Value>> trees_;
  SeenPositions seen_;
};

}  // namespace sling::search
