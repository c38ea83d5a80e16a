#include "agents/danelaw_planner.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "solvers/danelaw/model_value.h"

namespace sling::danelaw {

namespace {

bool in_movement(const State& s) {
  return s.phase == Phase::kMove || s.phase == Phase::kMoveDestination;
}

struct Candidate {
  std::vector<State> states;
  std::vector<Action> actions;
  State end;
  double total = 0;
  int samples = 0;
  double mean() const { return samples ? total / samples : -2.0; }
};

}  // namespace

Planner::Planner(const DanelawGame& game, const PlannerConfig& config,
                 std::shared_ptr<const PositionValue> value)
    : Planner(game, std::array<PlannerConfig, 2>{config, config}, std::move(value)) {}

Planner::Planner(const DanelawGame& game, const std::array<PlannerConfig, 2>& per_side,
                 std::shared_ptr<const PositionValue> value)
    : game_(game), config_(per_side) {
  use_value(std::move(value));
}

void Planner::use_value(std::shared_ptr<const PositionValue> value) {
  value_ = value ? std::move(value) : std::make_shared<const ModelValue>(game_);
}

void Planner::new_game(std::uint64_t seed) {
  rng_ = Rng(seed, 0x706c616e);
  decisions_ = 0;
  plan_states_.clear();
  plan_actions_.clear();
  plan_next_ = 0;
}

int Planner::halves_to_end(const State& s) const {
  return 2 * (game_.rules().turn_limit - s.turn) + (s.side == kDanes ? 2 : 1);
}

double Planner::finish_half_turn(State s, Side side, Rng rng) const {
  // In the endgame the playout runs to the game's end (no more halves than are left).
  int halves_left = in_endgame(s, side) ? halves_to_end(s) : 1 + config_[side].reply;
  std::uint8_t half = s.side, turn = s.turn;
  while (!game_.is_terminal(s)) {
    if (s.side != half || s.turn != turn) {
      if (--halves_left == 0) break;
      half = s.side;
      turn = s.turn;
    }
    const Player player = game_.current_player(s);
    if (player == kChancePlayer) {
      game_.apply_chance_unchecked(s, sample_chance(game_, s, rng));
    } else {
      game_.apply_unchecked(s, game_.heuristic_action(s, rng));
    }
  }
  const double danes = (*value_)(s);
  return side == kDanes ? danes : -danes;
}

Action Planner::sampled_move(const State& s, Rng& rng, double noise) const {
  if (noise > 0 && rng.uniform01() < noise) {
    ActionList<DanelawGame> options;
    game_.candidate_actions(s, options);  // movement: every army, or the candidate destinations
    if (!options.empty()) return options[rng.uniform(static_cast<std::uint32_t>(options.size()))];
  }
  return game_.heuristic_action(s, rng);
}

PlannerChoice Planner::choose(const State& s) {
  ++decisions_;
  if (plan_next_ < plan_states_.size() && plan_states_[plan_next_] == s) {
    PlannerChoice choice;
    choice.action = plan_actions_[plan_next_++];
    return choice;
  }
  plan_states_.clear();
  plan_actions_.clear();
  plan_next_ = 0;
  const Side side = static_cast<Side>(game_.current_player(s));
  const PlannerConfig& config = config_[side];
  const bool endgame = in_endgame(s, side);
  if (tree_decides(s, side)) return tree_choice(s, side);
  if (in_movement(s)) return plan_movement(s);
  // Placing and reinforcing follow the heuristic except in the endgame, where the playouts see
  // the result they lead to.
  if ((s.phase == Phase::kPlace || s.phase == Phase::kReinforce) && !endgame) {
    return heuristic_choice(s);
  }
  const int samples =
      endgame ? std::max(config.battle_samples, config.endgame_battle) : config.battle_samples;
  if (samples == 0) return heuristic_choice(s);
  return compare_actions(s, samples);
}

PlannerChoice Planner::heuristic_choice(const State& s) {
  PlannerChoice choice;
  Rng rng = rng_.derive(decisions_);
  choice.action = game_.heuristic_action(s, rng);
  return choice;
}

bool Planner::tree_decides(const State& s, Side side) const {
  const PlannerConfig& config = config_[side];
  if (config.endgame_mcts == 0 || s.phase == Phase::kPlace || s.phase == Phase::kReinforce) {
    return false;
  }
  const int halves = config.endgame_mcts_halves > 0 ? config.endgame_mcts_halves : config.endgame;
  return halves_to_end(s) <= halves && tree_affordable(s, side);
}

bool Planner::tree_affordable(const State& s, Side side) const {
  constexpr int kProbes = 4;
  const Rng base = rng_.derive(decisions_).derive(0x70726f6265);
  std::int64_t plies = 0;
  for (int k = 0; k < kProbes; ++k) {
    Rng rng = base.derive(static_cast<std::uint64_t>(k));
    State t = s;
    while (!game_.is_terminal(t)) {
      if (game_.current_player(t) == kChancePlayer) {
        game_.apply_chance_unchecked(t, sample_chance(game_, t, rng));
      } else {
        game_.apply_unchecked(t, game_.heuristic_action(t, rng));
      }
      ++plies;
    }
  }
  const PlannerConfig& config = config_[side];
  const double work = static_cast<double>(plies) / kProbes *
                      static_cast<double>(game_.map().hexes().size()) * config.endgame_mcts;
  return work <= static_cast<double>(config.endgame_mcts_work);
}

PlannerChoice Planner::tree_choice(const State& s, Side side) {
  auto& tree = trees_[side];
  if (!tree) {
    search::MctsConfig config;
    config.iterations = config_[side].endgame_mcts;
    config.rollout = search::RolloutPolicy::kHeuristic;
    config.backup = search::Backup::kExpectimax;
    config.reuse = false;  // a fresh tree each decision: the result depends on the seed alone
    config.transpositions = config_[side].endgame_mcts_transpositions;
    config.c = config_[side].endgame_mcts_c;
    config.widening_k = config_[side].endgame_mcts_widen;
    config.trees = config_[side].endgame_mcts_trees;
    tree = std::make_unique<search::Mcts<DanelawGame>>(game_, config);
  }
  tree->new_game(rng_.derive(decisions_).next());
  const search::SearchResult result = tree->search(s);
  PlannerChoice choice;
  choice.action = result.best;
  if (result.actions.size() > 1) {
    choice.evaluated = true;
    choice.value = result.actions.front().value;
    choice.playouts = result.nodes;
    for (const auto& a : result.actions) {
      choice.options.push_back({a.action, a.value, static_cast<int>(a.visits)});
    }
  }
  return choice;
}

PlannerChoice Planner::plan_movement(const State& s) {
  const Side side = static_cast<Side>(s.side);
  const PlannerConfig& config = config_[side];
  const Rng base = rng_.derive(decisions_);
  std::vector<Candidate> candidates;
  std::vector<std::uint64_t> seen;
  for (int k = 0; k < config.plans; ++k) {
    Rng rng = base.derive(static_cast<std::uint64_t>(k));
    Candidate c;
    State t = s;
    while (in_movement(t) && game_.current_player(t) == side) {
      const Action a = sampled_move(t, rng, k == 0 ? 0.0 : config.noise);
      c.states.push_back(t);
      c.actions.push_back(a);
      game_.apply_unchecked(t, a);
    }
    c.end = t;
    const std::uint64_t h = DanelawGame::hash(t);
    if (std::find(seen.begin(), seen.end(), h) != seen.end()) continue;  // a plan already held
    seen.push_back(h);
    candidates.push_back(std::move(c));
  }

  // Successive halving: each round shares an equal part of the budget among the plans still in,
  // then keeps the better half.  Playout j of every plan uses the same dice (common random
  // numbers), so plans are compared on the same luck.  With a margin the heuristic's plan
  // (candidate 0) is never dropped, so that it meets the winner on the same dice at the end.
  const int budget = std::max(1, config.plans * config.samples);
  const bool keep_heuristic = config.margin > 0;
  const int rounds = std::max(1, static_cast<int>(std::ceil(std::log2(candidates.size()))));
  std::vector<int> alive(candidates.size());
  std::iota(alive.begin(), alive.end(), 0);
  std::int64_t playouts = 0;
  const Rng dice = base.derive(0xd1ce);
  for (int round = 0; round < rounds && alive.size() > 1; ++round) {
    const int each = std::max(1, budget / rounds / static_cast<int>(alive.size()));
    for (int i : alive) {
      Candidate& c = candidates[i];
      for (int j = 0; j < each; ++j) {
        c.total +=
            finish_half_turn(c.end, side, dice.derive(static_cast<std::uint64_t>(c.samples)));
        ++c.samples;
        ++playouts;
      }
    }
    std::sort(alive.begin(), alive.end(),
              [&](int a, int b) { return candidates[a].mean() > candidates[b].mean(); });
    alive.resize((alive.size() + 1) / 2);
    if (keep_heuristic && std::find(alive.begin(), alive.end(), 0) == alive.end()) {
      alive.push_back(0);
    }
  }
  if (candidates[alive[0]].samples == 0) {  // a single plan: nothing to compare
    candidates[alive[0]].total = finish_half_turn(candidates[alive[0]].end, side, dice);
    candidates[alive[0]].samples = 1;
    ++playouts;
  }
  std::vector<int> order(candidates.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (candidates[a].samples != candidates[b].samples) {
      return candidates[a].samples > candidates[b].samples;  // the finalists first
    }
    return candidates[a].mean() > candidates[b].mean();
  });
  if (keep_heuristic && order[0] != 0 && candidates[0].samples == candidates[order[0]].samples &&
      candidates[order[0]].mean() <= candidates[0].mean() + config.margin) {
    std::rotate(order.begin(), std::find(order.begin(), order.end(), 0),
                std::find(order.begin(), order.end(), 0) + 1);
  }
  Candidate& best = candidates[order[0]];
  PlannerChoice choice;
  choice.action = best.actions[0];
  choice.evaluated = true;
  choice.value = best.mean();
  choice.playouts = playouts;
  for (int i : order) {
    choice.options.push_back(
        {candidates[i].actions[0], candidates[i].mean(), candidates[i].samples});
  }
  plan_states_ = std::move(best.states);
  plan_actions_ = std::move(best.actions);
  plan_next_ = 1;
  return choice;
}

PlannerChoice Planner::compare_actions(const State& s, int samples) {
  ActionList<DanelawGame> legal;
  game_.legal_actions(s, legal);
  PlannerChoice choice;
  const Rng base = rng_.derive(decisions_);
  if (legal.size() == 1) {
    choice.action = legal[0];
    return choice;
  }
  const Side side = static_cast<Side>(game_.current_player(s));
  for (Action a : legal) {
    State t = s;
    game_.apply_unchecked(t, a);
    double total = 0;
    for (int j = 0; j < samples; ++j) {
      total += finish_half_turn(t, side, base.derive(static_cast<std::uint64_t>(j)));
    }
    choice.options.push_back({a, total / samples, samples});
    choice.playouts += samples;
  }
  std::stable_sort(choice.options.begin(), choice.options.end(),
                   [](const auto& x, const auto& y) { return x.value > y.value; });
  choice.action = choice.options[0].action;
  choice.evaluated = true;
  choice.value = choice.options[0].value;
  return choice;
}

}  // namespace sling::danelaw
