#include "experiments/training/danelaw_generations.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "agents/game_value.h"
#include "agents/presets.h"
#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/core/fnv1a.h"
#include "engine/core/format.h"
#include "engine/core/io.h"
#include "experiments/mpi_jobs.h"
#include "experiments/sprt.h"
#include "experiments/training/danelaw_linear_fit.h"
#include "experiments/training/danelaw_network_fit.h"
#include "experiments/training/danelaw_self_play.h"
#include "experiments/training/generations_checkpoint.h"
#include "experiments/training/learning_curve.h"
#include "experiments/training/paired_games.h"
#include "experiments/training/played_games_file.h"

namespace sling::danelaw {
namespace {

namespace fs = std::filesystem;

// Each step of a generation draws its seed from the run's seed, the generation and the step.
// (A tuned generation's games take the self-play step's seed: it plays no other self-play.)
enum Step : std::uint64_t { kSelfPlayStep, kGateStep, kCurveStep };

std::uint64_t step_seed(std::uint64_t seed, int generation, Step step) {
  return Rng(seed, 0x67656e73).derive(static_cast<std::uint64_t>(generation) * 4 + step).next();
}

struct RunPaths {
  std::string dir, run, games;
  std::string model(int generation) const {
    return (fs::path(dir) / ("gen-" + std::to_string(generation) + ".json")).string();
  }
};

// The agent spec of every generation (a preset spelled out), checked to score with the model.
std::string checked_agent(const DanelawGame& game, const GenerationOptions& options) {
  const std::string spec = preset_spec(game, options.agent).value_or(options.agent);
  const AgentPtr<DanelawGame> agent = make_agent(game, spec);
  const auto* user = dynamic_cast<const UsesGameValue<DanelawGame>*>(agent.get());
  if (user == nullptr) {
    throw OptionError("train: agent '" + options.agent +
                      "' does not score with a value model, so training would change nothing");
  }
  if (user->value_named_by_spec()) {
    throw OptionError("train: agent '" + options.agent +
                      "' names its own model file; the run gives each generation its model");
  }
  return spec;
}

void check_options(const GenerationOptions& o) {
  if (o.generations < 1) throw OptionError("--generations must be at least 1");
  if (o.games < 5) throw OptionError("danelaw training needs at least 5 games a generation");
  if (o.gate_pairs < 1) throw OptionError("--gate-pairs must be at least 1");
  if (o.curve_pairs < 0) throw OptionError("--curve-pairs must be at least 0");
  if (o.threads < 0) throw OptionError("--threads must be >= 0");
  if (!(o.l2 >= 0)) throw OptionError("the L2 penalty must be >= 0");
  if (o.dir.empty()) throw OptionError("train: --generations needs --dir, the run's directory");
  if (o.dir.find('\'') != std::string::npos) {
    throw OptionError("train: --dir may not contain a quote (agent specs name the models in it)");
  }
  o.gate.validate();
  o.tuning.validate();
  if (o.tuning.iterations > 0 && (o.hidden > 0 || o.town_terms || o.td_lambda < 1)) {
    throw OptionError(
        "train: tuning by play tunes the linear weights of the champion; it takes no --hidden, "
        "--town-terms or --td-lambda");
  }
}

// Every setting that decides the run's figures (threads do not), one "key value" per line.
std::string settings_text(const DanelawGame& game, const GenerationOptions& o,
                          const std::string& agent, const std::string& start_model_json) {
  std::ostringstream s;
  s.precision(17);
  s << "rules " << game.rules_json() << "\nagent " << agent << "\nstart_model "
    << fnv1a(start_model_json) << "\nreference " << o.reference << "\ngames " << o.games
    << "\ngate " << o.gate.elo0 << ',' << o.gate.elo1 << ',' << o.gate.alpha << ',' << o.gate.beta
    << "\ngate_pairs " << o.gate_pairs << "\ncurve_pairs " << o.curve_pairs << "\nmixed_rules "
    << o.mixed_rules << "\nl2 " << o.l2 << "\nseed " << o.seed << "\n";
  if (o.hidden > 0) s << "hidden " << o.hidden << "\n";  // runs of the linear model: as before
  if (o.town_terms) s << "town_terms 1\n";
  if (o.td_lambda < 1) s << "td_lambda " << o.td_lambda << "\n";
  if (o.match_game) s << "match_rules " << o.match_game->rules_json() << "\n";
  if (o.tuning.iterations > 0) {
    s << "tuning " << o.tuning.iterations << ',' << o.tuning.pairs << ',' << o.tuning.perturbation
      << ',' << o.tuning.rate << "\n";
  }
  return s.str();
}

// The first line on which two settings texts differ, for the refusal.
std::string first_difference(const std::string& saved, const std::string& here) {
  std::istringstream a(saved), b(here);
  std::string line_a, line_b;
  while (true) {
    const bool more_a = static_cast<bool>(std::getline(a, line_a));
    const bool more_b = static_cast<bool>(std::getline(b, line_b));
    if (!more_a && !more_b) return "";
    if (line_a != line_b) return "'" + line_a + "' there, '" + line_b + "' here";
  }
}

void save_checkpoint(const RunPaths& paths, const GenerationCheckpoint& checkpoint) {
  write_file_atomic(paths.run, checkpoint_to_json(checkpoint));
}

}  // namespace

namespace {

// The run as it stands in the directory, or a new one (its start model written as gen-0.json).
struct RunState {
  GenerationCheckpoint checkpoint;
  std::vector<PlayedGame> games;
  TrainingData data;
};

RunState open_run(const DanelawGame& game, const GenerationOptions& options, const RunPaths& paths,
                  const std::string& settings, const std::string& start_model_json) {
  RunState run;
  run.data = training_variants(game, options.mixed_rules);
  if (!fs::exists(paths.run)) {
    fs::create_directories(paths.dir);
    write_file_atomic(paths.model(0), start_model_json);
    run.checkpoint.settings = settings;
    save_checkpoint(paths, run.checkpoint);
    return run;
  }
  run.checkpoint = checkpoint_from_json(read_file(paths.run), paths.run);
  if (run.checkpoint.settings != settings) {
    throw OptionError("train: " + paths.dir + " holds a run with other settings (" +
                      first_difference(run.checkpoint.settings, settings) +
                      "); give the same settings to continue it, or another --dir");
  }
  // A tuned run's generations play only their tuning's games, which it does not keep.
  if (options.tuning.iterations > 0) return run;
  if (run.checkpoint.self_played > 0) run.games = load_played_games(paths.games);
  if (run.games.size() != static_cast<std::size_t>(run.checkpoint.self_played) *
                              static_cast<std::size_t>(options.games)) {
    throw FileFormatError("training run " + paths.games + ": holds " +
                          std::to_string(run.games.size()) + " games, not " +
                          std::to_string(options.games) + " for each of " +
                          std::to_string(run.checkpoint.self_played) + " generations");
  }
  for (const PlayedGame& g : run.games) {
    try {
      append_positions(run.data, g);
    } catch (const SlingError& e) {
      throw FileFormatError("training run " + paths.games + ": a game does not replay (" +
                            e.what() + ")");
    }
  }
  return run;
}

// Step 1: the champion against itself; the games join the run's and are saved.
void self_play(const GenerationOptions& options, const RunPaths& paths,
               const std::string& champion_spec, int generation, RunState& run) {
  SelfPlayOptions self;
  self.agent = champion_spec;
  self.games = options.games;
  self.seed = step_seed(options.seed, generation, kSelfPlayStep);
  self.threads = options.threads;
  const SelfPlayResult played = play_self_play(run.data, self, [](const DanelawGame& g) {
    return std::make_shared<const ModelValue>(g);  // unused: every spec names its model
  });
  run.checkpoint.self_played = generation;
  if (mpi::rank() != 0) return;  // the workers played; rank 0 alone holds the games
  run.games.insert(run.games.end(), played.games.begin(), played.games.end());
  save_played_games(paths.games, run.games);
  save_checkpoint(paths, run.checkpoint);
}

// Step 2: the candidate fitted on every position so far, written as gen-K.json.
void fit_candidate(const GenerationOptions& options, const RunPaths& paths, RunState& run,
                   int champion_generation, GenerationRecord& record) {
  // The champion is the linear fit's start, and its values bootstrap TD(lambda) targets.
  const ValueModel champion_model = ValueModel::load(paths.model(champion_generation));
  const std::unique_ptr<ValueModelFitter> fitter = make_model_fitter(
      {options.l2, options.hidden, options.seed, options.town_terms, options.td_lambda},
      options.hidden > 0 ? ValueModel::embedded() : champion_model);
  fitter->fit(run.data);
  ValueModel model = fitter->model();
  model.command = options.command;
  model.seed = options.seed;
  model.games = run.data.games;
  model.iterations = record.generation;
  model.states = static_cast<int>(run.data.positions.size());
  model.log_loss = held_out_log_loss(*fitter, run.data);
  model.calibration = held_out_calibration(*fitter, run.data);
  write_file_atomic(paths.model(record.generation), model.to_json());
  record.positions = model.states;
  record.log_loss = model.log_loss;
  // A fitter that has not fitted yet scores with its start: the champion, on the same positions.
  const LinearValueFitter champion(options.l2, champion_model);
  record.champion_log_loss = held_out_log_loss(champion, run.data);
}

// Step 2 by play: the champion tuned by SPSA on the gate's rules, written as gen-K.json.  Every
// rank takes part (the games are dealt out); rank 0 writes.
void tune_candidate(const DanelawGame& match_game, const GenerationOptions& options,
                    const std::string& agent, const RunPaths& paths, int champion_generation,
                    GenerationRecord& record,
                    const std::function<void(const std::string&)>& progress) {
  const ValueModel champion = ValueModel::load(paths.model(champion_generation));
  PlayTuningRecord tuning;
  ValueModel model = tune_by_play(match_game, agent, champion, options.tuning,
                                  step_seed(options.seed, record.generation, kSelfPlayStep),
                                  options.threads, paths.dir, tuning, progress);
  record.games = tuning.games;
  record.danish_wins = tuning.danish_wins;
  if (mpi::rank() != 0) return;
  model.command = options.command;
  model.seed = options.seed;
  model.games = tuning.games;
  model.iterations = record.generation;
  model.states = 0;    // tuned on games' results, not fitted on positions:
  model.log_loss = 0;  // no held-out positions to score or calibrate
  model.calibration.clear();
  write_file_atomic(paths.model(record.generation), model.to_json());
}

// Step 3: the candidate against the champion, kGatePairs pairs at a time, fed to the SPRT in pair
// order until it decides or the budget is spent: the decision and its pair count are the same on
// any thread count and any number of ranks.
constexpr int kGatePairs = 32;

void gate(const DanelawGame& game, const GenerationOptions& options, const std::string& candidate,
          const std::string& champion, GenerationRecord& record) {
  Sprt sprt(options.gate);
  const std::uint64_t seed = step_seed(options.seed, record.generation, kGateStep);
  for (int first = 0; first < options.gate_pairs; first += kGatePairs) {
    const int count = std::min(kGatePairs, options.gate_pairs - first);
    const std::vector<int> winners = paired_winners(
        game, candidate, champion, count,
        Rng(seed, 0x67617465).derive(static_cast<std::uint64_t>(first)).next(), options.threads);
    for (int k = 0; k < count && sprt.status() == SprtDecision::kContinue; ++k) {
      sprt.add_pair_winners(winners[2 * static_cast<std::size_t>(k)],
                            winners[2 * static_cast<std::size_t>(k) + 1]);
    }
    const bool decided = sprt.status() != SprtDecision::kContinue;
    if (tell_workers(decided ? "decided" : "continue") == "decided") break;
  }
  record.gate = sprt.summary();
  record.gate_elo = sprt.elo();
  const double half = sprt.elo_ci_halfwidth();
  record.gate_elo_ci = std::isfinite(half) ? half : 0.0;
  record.accepted =
      tell_workers(sprt.status() == SprtDecision::kAcceptH1 ? "accept" : "reject") == "accept";
}

std::string generation_line(const GenerationRecord& r) {
  if (r.positions == 0) {  // tuned by play
    std::string line;
    append_format(line,
                  "generation %d: tuned by play on %d games (Danes won %d); gate %s: %s; champion "
                  "gen-%d",
                  r.generation, r.games, r.danish_wins, r.gate.c_str(),
                  r.accepted ? "accepted" : "rejected", r.champion);
    return line;
  }
  char line[400];
  std::snprintf(line, sizeof line,
                "generation %d: %d self-play games (Danes won %d), %d positions, held-out log loss "
                "%.4f (the champion's %.4f); gate %s: %s; champion gen-%d",
                r.generation, r.games, r.danish_wins, r.positions, r.log_loss, r.champion_log_loss,
                r.gate.c_str(), r.accepted ? "accepted" : "rejected", r.champion);
  return line;
}

// Rank 0 opens the directory and tells the workers where the run stands ("finished self_played
// champion"), or why it cannot go on (then every rank throws).
RunState open_on_ranks(const DanelawGame& game, const GenerationOptions& options,
                       const RunPaths& paths, const std::string& settings,
                       const std::string& start_model_json) {
  RunState run;
  std::string where;
  if (mpi::rank() == 0) {
    try {
      run = open_run(game, options, paths, settings, start_model_json);
      const auto& c = run.checkpoint;
      where = std::to_string(c.generations.size()) + " " + std::to_string(c.self_played) + " " +
              std::to_string(c.generations.empty() ? 0 : c.generations.back().champion);
    } catch (const std::exception&) {  // the workers must not wait for word that never comes
      tell_workers("!a rank could not open the training run (rank 0 says why)");
      throw;
    }
  }
  where = tell_workers(where);
  if (where.starts_with("!")) throw SlingError(where.substr(1));
  if (mpi::rank() != 0) {  // a worker keeps only where the run stands
    run.data = training_variants(game, options.mixed_rules);
    std::istringstream in(where);
    int finished = 0, champion = 0;
    in >> finished >> run.checkpoint.self_played >> champion;
    run.checkpoint.generations.resize(static_cast<std::size_t>(finished));
    if (finished > 0) run.checkpoint.generations.back().champion = champion;
  }
  return run;
}

}  // namespace

GenerationRun run_generations(const DanelawGame& game, const GenerationOptions& options,
                              const std::function<void(const std::string&)>& progress) {
  check_options(options);
  if (options.match_game && options.match_game->map().content_hash() != game.map().content_hash()) {
    throw OptionError("train: the gate's rules must play the run's map");
  }
  const DanelawGame& match_game = options.match_game ? *options.match_game : game;
  const bool root = mpi::rank() == 0;
  const std::string agent = checked_agent(game, options);
  const std::string start_model_json = options.start_model.empty()
                                           ? ValueModel::embedded().to_json()
                                           : ValueModel::load(options.start_model).to_json();
  // A reference given by name fails before the directory is touched (its settings would then
  // hold the typo); the default one is the checked agent with the start model.
  if (!options.reference.empty()) make_agent(game, options.reference);
  const RunPaths paths{options.dir, (fs::path(options.dir) / "run.json").string(),
                       (fs::path(options.dir) / "games.bin").string()};
  const std::string reference =
      options.reference.empty() ? with_model(agent, paths.model(0)) : options.reference;
  RunState run =
      open_on_ranks(game, options, paths, settings_text(game, options, agent, start_model_json),
                    start_model_json);
  // A reference other than generation 0's agent rates generation 0 too, once: the curve's first
  // point (on the curve's seed of generation 0).  Rank 0 alone holds the checkpoint and decides.
  const std::string start_spec = with_model(agent, paths.model(0));
  const bool rate_start = tell_workers(options.curve_pairs > 0 && start_spec != reference &&
                                               run.checkpoint.start_curve_winners.empty()
                                           ? "rate the start"
                                           : "the start is rated") == "rate the start";
  if (rate_start) {
    run.checkpoint.start_curve_winners =
        paired_winners(match_game, start_spec, reference, options.curve_pairs,
                       step_seed(options.seed, 0, kCurveStep), options.threads);
    if (root) save_checkpoint(paths, run.checkpoint);
  }
  int champion =
      run.checkpoint.generations.empty() ? 0 : run.checkpoint.generations.back().champion;
  for (int g = static_cast<int>(run.checkpoint.generations.size()) + 1; g <= options.generations;
       ++g) {
    const std::string champion_spec = with_model(agent, paths.model(champion));
    const bool tuned = options.tuning.iterations > 0;
    if (!tuned && run.checkpoint.self_played < g) self_play(options, paths, champion_spec, g, run);
    GenerationRecord record;
    record.generation = g;
    if (tuned) {
      tune_candidate(match_game, options, agent, paths, champion, record, progress);
      run.checkpoint.self_played = g;  // its play is done (saved with the record below)
    } else if (root) {
      const auto first = run.games.begin() + static_cast<std::ptrdiff_t>(g - 1) * options.games;
      record.games = options.games;
      record.danish_wins = static_cast<int>(std::count_if(
          first, first + options.games, [](const PlayedGame& p) { return p.danes_won; }));
      fit_candidate(options, paths, run, champion, record);
    }
    tell_workers("fitted");  // the workers read the candidate's file only once it is written
    gate(match_game, options, with_model(agent, paths.model(g)), champion_spec, record);
    if (record.accepted) champion = g;
    record.champion = champion;
    // The reference against itself would only measure the dice: its Elo is 0 by definition.
    const std::string rated = with_model(agent, paths.model(champion));
    if (options.curve_pairs > 0 && rated != reference) {
      record.curve_winners =
          paired_winners(match_game, rated, reference, options.curve_pairs,
                         step_seed(options.seed, g, kCurveStep), options.threads);
    }
    run.checkpoint.generations.push_back(record);
    if (root) {
      save_checkpoint(paths, run.checkpoint);
      progress(generation_line(record));
    }
  }
  GenerationRun result;
  if (!root) return result;
  result.generations = run.checkpoint.generations;
  result.report_path =
      write_learning_curve(options.dir,
                           {agent, reference, options.command, options.reference.empty(),
                            run.checkpoint.start_curve_winners},
                           result.generations);
  return result;
}

}  // namespace sling::danelaw
