#include "experiments/studies/danelaw_referee.h"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "agents/danelaw_exact_agent.h"
#include "engine/core/format.h"
#include "experiments/match.h"
#include "solvers/danelaw/exact_key.h"
#include "solvers/danelaw/value_model.h"

namespace sling::danelaw {

namespace {

constexpr double kMistake = 1e-9;  // a decision that gives away less than this is exact play

struct Played {
  double danes = 0;  // 1 when the Danes won
  std::vector<Action> history;
};

// The games of one pairing, by seed index (the same seeds for every pairing).
std::vector<Played> play(const DanelawGame& game, const std::array<std::string, 2>& specs,
                         const RefereeOptions& options) {
  std::vector<Played> out(static_cast<std::size_t>(options.games));
  MatchOptions match;
  match.games = options.games;
  match.seed = options.seed;
  match.threads = options.threads;
  match.on_game = [&](int index, const GameResult& played) {
    out[static_cast<std::size_t>(index)] = {played.winner == kDanes ? 1.0 : 0.0,
                                            played.record.history};
  };
  run_match(game, specs, match);
  return out;
}

// Exact values: the shared solve's, and for states it never reached (after a move exact play
// would not make) a table of the study's own.
class ExactValues {
 public:
  ExactValues(const DanelawGame& game, std::shared_ptr<const ExactSolver> shared)
      : shared_(std::move(shared)), own_(game, ExactOptions{shared_->table().max_states()}) {}
  double operator()(const State& s) {
    if (const std::optional<double> v = shared_->find(s)) return *v;
    return own_.solve(s);
  }

 private:
  std::shared_ptr<const ExactSolver> shared_;
  ExactSolver own_;
};

DecisionKind kind_of(Action a) {
  switch (action_kind(a)) {
    case ActionKind::kPlace:
    case ActionKind::kReinforce:
      return DecisionKind::kPlacing;
    case ActionKind::kSelect:
    case ActionKind::kMoveTo:
    case ActionKind::kEndMove:
      return DecisionKind::kMovement;
    case ActionKind::kAdvance:
    case ActionKind::kHold:
      return DecisionKind::kAdvance;
    case ActionKind::kRoutStep:
      return DecisionKind::kRout;
    case ActionKind::kEndBattles:
    case ActionKind::kStop:
      return DecisionKind::kDecline;
    default:
      return DecisionKind::kFight;  // attack a target, roll with an army
  }
}

// The win probability the side's decisions gave away in one game, by the exact values.
double regret_of(const DanelawGame& game, const std::vector<Action>& history, Side side,
                 ExactValues& values, RefereeSeat& seat) {
  double regret = 0;
  State s = game.initial_state();
  for (const Action a : history) {
    if (game.current_player(s) != side) {
      apply_any(game, s, a);
      continue;
    }
    const double before = values(s);
    game.apply_action(s, a);
    const double after = values(s);
    const double lost = side == kDanes ? before - after : after - before;
    ++seat.decisions;
    if (lost > kMistake) ++seat.mistakes;
    seat.regret_by_kind[static_cast<int>(kind_of(a))] += 100 * lost;
    regret += lost;
  }
  return regret;
}

// One seat: the agent's games against `exact` games on the same seeds.  `sign` is +1 where the
// agent's Danes lose by scoring less than exact play, -1 where the agent's English lose by letting
// the Danes score more.
RefereeSeat measure_seat(const DanelawGame& game, const std::vector<Played>& agent,
                         const std::vector<Played>& exact, Side side, ExactValues& values) {
  RefereeSeat seat;
  std::vector<double> paired, regret;
  double wins = 0;
  for (std::size_t i = 0; i < agent.size(); ++i) {
    const double sign = side == kDanes ? 1.0 : -1.0;
    paired.push_back(100 * sign * (exact[i].danes - agent[i].danes));
    regret.push_back(100 * regret_of(game, agent[i].history, side, values, seat));
    seat.games_differ += agent[i].danes != exact[i].danes;
    wins += agent[i].danes;
  }
  seat.score = wins / static_cast<double>(agent.size());
  for (double& points : seat.regret_by_kind) points /= static_cast<double>(agent.size());
  seat.paired = mean_interval(paired);
  seat.regret = mean_interval(regret);
  return seat;
}

double model_danes_win(const DanelawGame& game, const State& s) {
  return ValueModel::embedded().probability(game, s);
}

// The model's absolute error (points) at the half-turn starts of the exact games, and at every
// half-turn start of the solve.
void measure_model(const DanelawGame& game, const ExactSolver& solve,
                   const std::vector<Played>& exact_games, ExactValues& values, RefereeRow& row) {
  std::vector<double> reached, table;
  for (const Played& p : exact_games) {
    State s = game.initial_state();
    for (const Action a : p.history) {
      if (s.phase == Phase::kMovementDice) {
        reached.push_back(100 * std::abs(model_danes_win(game, s) - values(s)));
      }
      apply_any(game, s, a);
    }
  }
  solve.table().for_each([&](const ExactKey& key, double value) {
    const State s = state_of_key(key);
    if (s.phase == Phase::kMovementDice) {
      table.push_back(100 * std::abs(model_danes_win(game, s) - value));
    }
  });
  row.model_start_error = 100 * std::abs(model_danes_win(game, game.initial_state()) - row.value);
  row.model_reached = mean_interval(reached);
  row.model_table = mean_interval(table);
}

void describe_scenario(const DanelawGame& game, RefereeRow& row) {
  row.hexes = game.map().size();
  for (const HexInfo& h : game.map().hexes()) row.land += !h.is_sea();
  row.towns = static_cast<int>(game.map().towns().size());
  row.turns = game.rules().turn_limit;
  int militia = 0;
  for (const Town& t : game.map().towns()) militia += t.coastal;
  row.danes = game.rules().danish_pool();
  row.english = game.rules().pool + militia - static_cast<int>(game.field_army_hexes().size());
  // A field army town that is coastal holds its field army, not militia as well.
  for (const int hex : game.field_army_hexes()) row.english += !game.map().hex(hex).coastal;
}

}  // namespace

const char* decision_kind_name(DecisionKind kind) {
  switch (kind) {
    case DecisionKind::kPlacing:
      return "placing at sea";
    case DecisionKind::kMovement:
      return "movement";
    case DecisionKind::kFight:
      return "battle: attack, roll";
    case DecisionKind::kDecline:
      return "battle: end battles, stop";
    case DecisionKind::kAdvance:
      return "advance or hold";
    default:
      return "routs";
  }
}

RefereeRow measure_referee(const DanelawGame& game, const std::string& name,
                           const RefereeOptions& options) {
  RefereeRow row;
  row.scenario = name;
  row.agent = options.agent;
  describe_scenario(game, row);
  const auto start = std::chrono::steady_clock::now();
  const std::shared_ptr<const ExactSolver> solve =
      shared_exact_solution(game, ExactOptions{}.max_states);
  row.solve_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  row.states = solve->states();
  row.value = solve->find(game.initial_state()).value();
  row.games = options.games;
  const std::vector<Played> agent_danes = play(game, {options.agent, "exact"}, options);
  const std::vector<Played> exact = play(game, {"exact", "exact"}, options);
  const std::vector<Played> agent_english = play(game, {"exact", options.agent}, options);
  for (const Played& p : exact) row.exact_vs_exact += p.danes / options.games;
  for (const Played& p : play(game, {"heuristic", "heuristic"}, options)) {
    row.rule_of_thumb += p.danes / options.games;
  }
  ExactValues values(game, solve);
  row.danes_seat = measure_seat(game, agent_danes, exact, kDanes, values);
  row.english_seat = measure_seat(game, agent_english, exact, kEnglish, values);
  measure_model(game, *solve, exact, values, row);
  return row;
}

namespace {

std::string points(const MeanInterval& m) {
  char text[64];
  std::snprintf(text, sizeof text, "%+.1f [%+.1f, %+.1f]", m.mean, m.low, m.high);
  return text;
}

std::string scenario_table(const std::vector<RefereeRow>& rows) {
  std::string out =
      "| scenario | hexes (land) | towns | turns | armies: Danes, English | states | solve | "
      "exact value | exact vs exact | rule of thumb vs itself |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  std::string last;
  for (const RefereeRow& r : rows) {
    if (r.scenario == last) continue;
    last = r.scenario;
    append_format(
        out, "| %s | %d (%d) | %d | %d | %d, %d | %zu | %.1f s | %.4f | %.1f %% | %.1f %% |\n",
        r.scenario.c_str(), r.hexes, r.land, r.towns, r.turns, r.danes, r.english, r.states,
        r.solve_seconds, r.value, 100 * r.exact_vs_exact, 100 * r.rule_of_thumb);
  }
  return out;
}

std::string loss_table(const std::vector<RefereeRow>& rows) {
  std::string out =
      "| scenario | agent | as Danes vs exact: Danes win | loss, paired | loss, by exact values | "
      "as English vs exact: Danes win | loss, paired | loss, by exact values |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const RefereeRow& r : rows) {
    append_format(out, "| %s | `%s` | %.1f %% | %s | %s | %.1f %% | %s | %s |\n",
                  r.scenario.c_str(), r.agent.c_str(), 100 * r.danes_seat.score,
                  points(r.danes_seat.paired).c_str(), points(r.danes_seat.regret).c_str(),
                  100 * r.english_seat.score, points(r.english_seat.paired).c_str(),
                  points(r.english_seat.regret).c_str());
  }
  return out;
}

std::string kind_table(const std::vector<RefereeRow>& rows) {
  std::string out = "| scenario | agent | seat | decisions | mistakes |";
  for (int k = 0; k < kDecisionKinds; ++k) {
    out += std::string(" ") + decision_kind_name(static_cast<DecisionKind>(k)) + " |";
  }
  out += "\n| --- | --- | --- | --- | --- |";
  for (int k = 0; k < kDecisionKinds; ++k) out += " --- |";
  out += "\n";
  for (const RefereeRow& r : rows) {
    for (const RefereeSeat* seat : {&r.danes_seat, &r.english_seat}) {
      append_format(out, "| %s | `%s` | %s | %d | %d |", r.scenario.c_str(), r.agent.c_str(),
                    seat == &r.danes_seat ? "Danes" : "English", seat->decisions, seat->mistakes);
      for (const double p : seat->regret_by_kind) append_format(out, " %.2f |", p);
      out += "\n";
    }
  }
  return out;
}

std::string model_table(const std::vector<RefereeRow>& rows) {
  std::string out =
      "| scenario | at the start | half-turn starts of the exact games (visits) | every "
      "half-turn start of the solve (states) |\n| --- | --- | --- | --- |\n";
  std::string last;
  for (const RefereeRow& r : rows) {
    if (r.scenario == last) continue;
    last = r.scenario;
    append_format(out, "| %s | %.1f | %.1f (%lld) | %.1f (%lld) |\n", r.scenario.c_str(),
                  r.model_start_error, r.model_reached.mean,
                  static_cast<long long>(r.model_reached.count), r.model_table.mean,
                  static_cast<long long>(r.model_table.count));
  }
  return out;
}

}  // namespace

std::string referee_tables(const std::vector<RefereeRow>& rows) {
  return "Scenarios\n\n" + scenario_table(rows) + "\nLoss against exact play (points)\n\n" +
         loss_table(rows) + "\nWhere the loss is (points a game, by the exact values)\n\n" +
         kind_table(rows) +
         "\nThe value model's error against the exact P(Danes win) (points, mean absolute)\n\n" +
         model_table(rows);
}

}  // namespace sling::danelaw
