#include "experiments/training/danelaw_training.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "agents/danelaw_agents.h"
#include "agents/registry.h"
#include "experiments/match.h"
#include "experiments/play_game.h"

namespace sling::danelaw {

namespace {

// An agent of an iteration: a planner (by its spec or a preset's) scores with `model`, the model
// fitted so far, unless its spec names a model file; any other agent is built as usual.
AgentPtr<DanelawGame> make_training_agent(const DanelawGame& game, const std::string& text,
                                          const std::shared_ptr<const ValueModel>& model) {
  const std::string spec = preset_spec(game, text).value_or(text);
  const AgentSpec parsed = parse_agent_spec(spec);
  if (parsed.name == "planner") return danelaw_agents::make_planner_agent(game, parsed, model);
  return make_agent(game, spec);
}

}  // namespace

void collect_samples(const DanelawGame& game, const std::vector<Action>& history, bool danes_won,
                     bool held_out, std::vector<Sample>& out) {
  State s = game.initial_state();
  for (Action a : history) {
    if (s.phase == Phase::kMovementDice) {
      out.push_back({extract_features(game, s), danes_won, held_out});
    }
    apply_any(game, s, a);
  }
}

namespace {

double sigmoid(double z) {
  return 1.0 / (1.0 + std::exp(-std::clamp(z, -40.0, 40.0)));
}

double dot(const std::vector<double>& w, const Features& f) {
  double z = 0;
  for (int i = 0; i < kFeatureCount; ++i) z += w[i] * f[i];
  return z;
}

// Solves the symmetric positive definite system a x = b (Cholesky); a is n x n row-major.
std::vector<double> solve_spd(std::vector<double> a, std::vector<double> b) {
  const int n = static_cast<int>(b.size());
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    d = std::sqrt(std::max(d, 1e-12));
    a[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double v = a[i * n + j];
      for (int k = 0; k < j; ++k) v -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = v / d;
    }
  }
  for (int i = 0; i < n; ++i) {  // forward: L y = b
    for (int k = 0; k < i; ++k) b[i] -= a[i * n + k] * b[k];
    b[i] /= a[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {  // backward: L^T x = y
    for (int k = i + 1; k < n; ++k) b[i] -= a[k * n + i] * b[k];
    b[i] /= a[i * n + i];
  }
  return b;
}

}  // namespace

std::vector<double> fit_logistic(const std::vector<Sample>& samples, double l2) {
  constexpr int n = kFeatureCount;
  std::vector<double> w(n, 0.0);
  std::size_t count = 0;
  for (const Sample& s : samples) count += !s.held_out;
  if (count == 0) throw SlingError("danelaw training: no positions to fit");
  const double penalty = l2 * static_cast<double>(count);
  for (int iteration = 0; iteration < 50; ++iteration) {
    std::vector<double> gradient(n, 0.0), hessian(n * n, 0.0);
    for (const Sample& s : samples) {
      if (s.held_out) continue;
      const double p = sigmoid(dot(w, s.features));
      const double r = p - (s.danes_won ? 1.0 : 0.0);
      const double h = std::max(p * (1 - p), 1e-9);
      for (int i = 0; i < n; ++i) {
        gradient[i] += r * s.features[i];
        for (int j = 0; j <= i; ++j) hessian[i * n + j] += h * s.features[i] * s.features[j];
      }
    }
    for (int i = 1; i < n; ++i) {  // the bias is not penalised
      gradient[i] += penalty * w[i];
      hessian[i * n + i] += penalty;
    }
    hessian[0] += 1e-9 * static_cast<double>(count);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < i; ++j) hessian[j * n + i] = hessian[i * n + j];
    }
    const std::vector<double> step = solve_spd(hessian, gradient);
    double largest = 0;
    for (int i = 0; i < n; ++i) {
      w[i] -= step[i];
      largest = std::max(largest, std::abs(step[i]));
    }
    if (largest < 1e-8) break;
  }
  return w;
}

double held_out_log_loss(const ValueModel& model, const std::vector<Sample>& samples) {
  double loss = 0;
  int count = 0;
  for (const Sample& s : samples) {
    if (!s.held_out) continue;
    const double p = std::clamp(model.probability(s.features), 1e-12, 1 - 1e-12);
    loss -= std::log(s.danes_won ? p : 1 - p);
    ++count;
  }
  return count ? loss / count : 0.0;
}

std::vector<CalibrationBin> calibration(const ValueModel& model, const std::vector<Sample>& samples,
                                        int bins) {
  std::vector<CalibrationBin> out(static_cast<std::size_t>(bins));
  for (int b = 0; b < bins; ++b) {
    out[b].low = static_cast<double>(b) / bins;
    out[b].high = static_cast<double>(b + 1) / bins;
  }
  for (const Sample& s : samples) {
    if (!s.held_out) continue;
    const double p = model.probability(s.features);
    const int b = std::min(bins - 1, static_cast<int>(p * bins));
    out[b].predicted += p;
    out[b].observed += s.danes_won;
    ++out[b].count;
  }
  for (CalibrationBin& b : out) {
    if (b.count) {
      b.predicted /= b.count;
      b.observed /= b.count;
    }
  }
  return out;
}

ValueModel train_value_model(const DanelawGame& game, const TrainingOptions& options,
                             const std::function<void(const std::string&)>& progress) {
  if (options.games < 5) throw OptionError("danelaw training needs at least 5 games an iteration");
  if (options.iterations < 1) throw OptionError("danelaw training needs at least one iteration");
  make_agent(game, options.planner);  // a bad spec fails before any game is played
  std::vector<Sample> samples;
  ValueModel model = ValueModel::embedded();
  int total_games = 0;
  std::vector<DanelawRules> rules = {game.rules()};
  if (options.mixed_rules) {
    rules.push_back(game.rules());
    rules.back().danes_extra = true;
    rules.push_back(game.rules());
    rules.back().towns_to_win = std::min(rules.back().towns_to_win, 11);
  }
  for (int iteration = 0; iteration < options.iterations; ++iteration) {
    std::vector<DanelawGame> games;
    for (const DanelawRules& r : rules) games.emplace_back(r);
    const auto fitted = std::make_shared<const ValueModel>(model);
    const std::string spec = iteration == 0 ? "heuristic" : options.planner;
    std::vector<std::vector<Sample>> per_game(static_cast<std::size_t>(options.games));
    std::vector<int> danish_wins(static_cast<std::size_t>(options.games), 0);
    struct Players {
      std::vector<AgentPtr<DanelawGame>> agents;  // two per rules variant
    };
    tbb::enumerable_thread_specific<Players> workers([&] {
      Players players;
      for (const DanelawGame& g : games) {
        players.agents.push_back(make_training_agent(g, spec, fitted));
        players.agents.push_back(make_training_agent(g, spec, fitted));
      }
      return players;
    });
    const Rng seeds = Rng(options.seed, 0x747261696e).derive(static_cast<std::uint64_t>(iteration));
    tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
    arena.execute([&] {
      tbb::parallel_for(0, options.games, [&](int index) {
        Players& players = workers.local();
        const std::size_t variant = static_cast<std::size_t>(index) % games.size();
        const DanelawGame& played = games[variant];
        const GameResult result =
            play_game(played, *players.agents[2 * variant], *players.agents[2 * variant + 1],
                      seeds.derive(static_cast<std::uint64_t>(index)).next());
        if (!result.error.empty()) throw SlingError("danelaw training game: " + result.error);
        danish_wins[index] = result.winner == kDanes;
        // Held out: every fifth game (by index / variants, so each variant is held out alike).
        const bool held_out = (static_cast<std::size_t>(index) / games.size()) % 5 == 0;
        collect_samples(played, result.record.history, result.winner == kDanes, held_out,
                        per_game[index]);
      });
    });
    int wins = 0;
    for (int index = 0; index < options.games; ++index) {
      samples.insert(samples.end(), per_game[index].begin(), per_game[index].end());
      wins += danish_wins[index];
    }
    total_games += options.games;
    model.weights = fit_logistic(samples, options.l2);
    model.log_loss = held_out_log_loss(model, samples);
    char line[256];
    std::snprintf(line, sizeof line,
                  "iteration %d: %d games of %s, Danes won %d; %zu positions; held-out log loss "
                  "%.4f",
                  iteration, options.games, spec.c_str(), wins, samples.size(), model.log_loss);
    progress(line);
  }
  model.command = options.command;
  model.seed = options.seed;
  model.games = total_games;
  model.iterations = options.iterations;
  model.states = static_cast<int>(samples.size());
  model.calibration = calibration(model, samples);
  return model;
}

}  // namespace sling::danelaw
