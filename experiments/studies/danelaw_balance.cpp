#include "experiments/studies/danelaw_balance.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>

#include "agents/registry.h"
#include "experiments/play_game.h"
#include "experiments/training/danelaw_linear_fit.h"

namespace sling::danelaw {

std::vector<BalanceVariant> default_balance_variants(const DanelawRules& base) {
  std::vector<BalanceVariant> out;
  auto add = [&](std::string name, auto change, int towns_axis) {
    DanelawRules rules = base;
    change(rules);
    out.push_back({std::move(name), rules, towns_axis});
  };
  add(
      "default", [](DanelawRules&) {}, base.towns_to_win);
  for (int towns = 16; towns >= 10; --towns) {
    if (towns == base.towns_to_win) continue;
    add(
        "towns needed " + std::to_string(towns), [=](DanelawRules& r) { r.towns_to_win = towns; },
        towns);
  }
  add(
      "+10 Danes", [](DanelawRules& r) { r.danes_extra = true; }, 0);
  add(
      "+10 Danes, all at sea",
      [](DanelawRules& r) {
        r.danes_extra = true;
        r.danes_at_sea += 10;
      },
      0);
  return out;
}

std::vector<std::array<std::string, 2>> default_balance_pairings() {
  return {{"strong", "strong"},
          {"normal", "normal"},
          {"heuristic", "heuristic"},
          {"strong", "normal"},
          {"normal", "strong"}};
}

namespace {

struct GameSummary {
  bool danes_won = false;
  int final_towns = 0, peak_towns = 0, peak_turn = 0;
  int danes_lost = 0, english_lost = 0;
  bool wiped_out = false;
  std::vector<Sample> positions;  // for the value model's calibration
};

std::array<int, 2> armies_of(const State& s) {
  std::array<int, 2> count = {s.pool[kDanes] + s.to_place, s.pool[kEnglish]};
  for (int i = 0; i < s.army_count; ++i) ++count[s.armies[i].side];
  return count;
}

GameSummary summarise(const DanelawGame& game, const GameResult& result) {
  GameSummary g;
  State s = game.initial_state();
  // Armies are counted after the Danes' placement (placing moves armies, it destroys none).
  const std::array<int, 2> start = armies_of(s);
  for (Action a : result.record.history) {
    apply_any(game, s, a);
    if (s.phase == Phase::kMovementDice) {
      const int towns = game.danish_town_count(s);
      if (towns > g.peak_towns) {
        g.peak_towns = towns;
        g.peak_turn = s.turn;
      }
    }
  }
  const std::array<int, 2> end = armies_of(s);
  g.danes_won = result.winner == kDanes;
  g.final_towns = game.danish_town_count(s);
  g.peak_towns = std::max(g.peak_towns, g.final_towns);
  g.danes_lost = start[kDanes] - end[kDanes];
  g.english_lost = start[kEnglish] - end[kEnglish];
  g.wiped_out = s.end_reason == EndReason::kDanesWipedOut;
  collect_samples(game, result.record.history, g.danes_won, /*held_out=*/true, g.positions);
  return g;
}

VariantOutcome tally(const BalanceVariant& variant, const std::vector<GameSummary>& games) {
  VariantOutcome outcome;
  outcome.variant = variant;
  outcome.games = static_cast<int>(games.size());
  for (const GameSummary& g : games) {
    outcome.danish_wins += g.danes_won;
    outcome.danes_won.push_back(g.danes_won);
    outcome.mean_final_towns += g.final_towns;
    outcome.mean_peak_towns += g.peak_towns;
    outcome.mean_peak_turn += g.peak_turn;
    outcome.mean_danes_lost += g.danes_lost;
    outcome.mean_english_lost += g.english_lost;
    outcome.wiped_out += g.wiped_out;
  }
  const double n = std::max<std::size_t>(1, games.size());
  outcome.mean_final_towns /= n;
  outcome.mean_peak_towns /= n;
  outcome.mean_peak_turn /= n;
  outcome.mean_danes_lost /= n;
  outcome.mean_english_lost /= n;
  outcome.interval = wilson_interval(outcome.danish_wins, outcome.games);
  return outcome;
}

int closest_to_even(const std::vector<VariantOutcome>& variants) {
  int closest = 0;
  for (std::size_t i = 1; i < variants.size(); ++i) {
    if (std::abs(variants[i].danish_win_rate() - 0.5) <
        std::abs(variants[closest].danish_win_rate() - 0.5)) {
      closest = static_cast<int>(i);
    }
  }
  return closest;
}

ModelCalibration calibrate(const ValueModel& model,
                           const std::vector<std::vector<GameSummary>>& by_variant) {
  std::vector<Sample> samples;
  for (const auto& games : by_variant) {
    for (const GameSummary& g : games)
      samples.insert(samples.end(), g.positions.begin(), g.positions.end());
  }
  ModelCalibration c;
  c.bins = calibration(model, samples);
  c.log_loss = held_out_log_loss(model, samples);
  c.positions = static_cast<int>(samples.size());
  return c;
}

}  // namespace

BalanceResult run_balance_study(const std::vector<BalanceVariant>& variants,
                                const std::vector<BalancePairing>& pairings,
                                const BalanceOptions& options) {
  if (options.games < 1) throw OptionError("the balance study needs at least one game a variant");
  if (variants.empty()) throw OptionError("the balance study needs at least one variant");
  if (pairings.empty()) throw OptionError("the balance study needs at least one pairing");
  const auto start = std::chrono::steady_clock::now();
  std::vector<DanelawGame> games;
  for (const BalanceVariant& v : variants) games.emplace_back(v.rules);
  for (const BalancePairing& p : pairings) {  // a bad spec fails before any game is played
    for (const std::string& spec : p.specs) make_agent(games[0], spec);
  }
  const int per_cell = options.games;
  const int cells = static_cast<int>(pairings.size() * variants.size());
  std::vector<std::vector<GameSummary>> played(static_cast<std::size_t>(cells),
                                               std::vector<GameSummary>(per_cell));
  std::mutex progress_mutex;
  int done = 0;
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  arena.execute([&] {
    // One flat loop over every game, so slow pairings and fast ones share the cores evenly.
    tbb::parallel_for(0, cells * per_cell, [&](int task) {
      const int cell = task / per_cell, index = task % per_cell;
      const BalancePairing& pairing = pairings[cell / variants.size()];
      const DanelawGame& game = games[cell % variants.size()];
      const AgentPtr<DanelawGame> danes = make_agent(game, pairing.specs[kDanes]);
      const AgentPtr<DanelawGame> english = make_agent(game, pairing.specs[kEnglish]);
      const GameResult result =
          play_game(game, *danes, *english, match_game_seed(options.seed, index));
      if (!result.error.empty()) throw SlingError("balance study game: " + result.error);
      played[cell][index] = summarise(game, result);
      if (options.progress) {
        const std::lock_guard<std::mutex> lock(progress_mutex);
        options.progress(++done, cells * per_cell);
      }
    });
  });
  BalanceResult result;
  for (std::size_t p = 0; p < pairings.size(); ++p) {
    PairingOutcome outcome;
    outcome.pairing = pairings[p];
    std::vector<std::vector<GameSummary>> by_variant;
    for (std::size_t v = 0; v < variants.size(); ++v) {
      by_variant.push_back(std::move(played[p * variants.size() + v]));
      outcome.variants.push_back(tally(variants[v], by_variant.back()));
    }
    outcome.closest = closest_to_even(outcome.variants);
    outcome.calibration = calibrate(ValueModel::embedded(), by_variant);
    result.pairings.push_back(std::move(outcome));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

PairedDifference paired_difference(const VariantOutcome& a, const VariantOutcome& b) {
  PairedDifference d;
  const std::size_t n = std::min(a.danes_won.size(), b.danes_won.size());
  if (n == 0) return d;
  double sum = 0, squares = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = static_cast<double>(b.danes_won[i]) - a.danes_won[i];
    sum += x;
    squares += x * x;
    d.discordant += x != 0;
  }
  d.mean = sum / n;
  const double variance = n > 1 ? (squares - n * d.mean * d.mean) / (n - 1) : 0.0;
  const double half = 1.959963984540054 * std::sqrt(std::max(0.0, variance) / n);
  d.low = d.mean - half;
  d.high = d.mean + half;
  return d;
}

std::vector<int> balance_neighbours(const std::vector<VariantOutcome>& variants, int index) {
  const int towns = variants[index].variant.towns_axis;
  if (towns == 0) return index == 0 ? std::vector<int>{} : std::vector<int>{0};
  std::vector<int> out;
  for (int step : {-1, 1}) {
    for (std::size_t i = 0; i < variants.size(); ++i) {
      if (variants[i].variant.towns_axis == towns + step) out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

}  // namespace sling::danelaw
