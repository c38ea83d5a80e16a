// sling train danelaw --games N --out FILE [--iterations K] [--seed S] [--threads T]
// [--planner SPEC] [--rules FILE] [--map FILE]: fits danelaw's value model from self-play
// (experiments/training/danelaw_training.h) and writes it as JSON, with the command and seed that
// produced it and its calibration.  The embedded default (solvers/danelaw/data/danelaw_value.json)
// was written by this command; docs/strength.md gives the exact line.
//
// sling train danelaw --generations N --dir DIR [--games N] [--agent SPEC] [--gate E0,E1,A,B]
// [--gate-pairs P] [--curve-pairs P] [--reference SPEC] [--start-model FILE] [--match-rules FILE]
// [--td-lambda L] [--town-terms] [--tune-iterations K [--tune-pairs P] [--tune-perturbation C]
// [--tune-rate A]]: self-play by generations gated by an SPRT, resumable from DIR, with a learning
// curve (experiments/training/danelaw_generations.h); candidates fitted to the games' results, or
// with --tune-iterations tuned by play (experiments/training/danelaw_play_tuning.h).
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/command.h"
#include "cli/game_options.h"
#include "engine/core/io.h"
#include "experiments/mpi_jobs.h"
#include "experiments/training/danelaw_generations.h"
#include "experiments/training/danelaw_training.h"

namespace sling::cli {
namespace {

struct TrainCommand {
  std::string game;
  GameOptions game_options;
  danelaw::TrainingOptions options;
  danelaw::GenerationOptions generations = [] {
    danelaw::GenerationOptions g;
    g.generations = 0;  // 0: the iterations mode (no --generations given)
    return g;
  }();
  std::string gate = "0,20,0.05,0.05";
  std::string match_rules;  // --match-rules: the gate's and the curve's rules file
  std::string out;
};

// The options of the data and the fit that both modes record in their command line.
std::string fit_options_text(const TrainCommand& c) {
  std::string text;
  if (c.options.mixed_rules) text += " --mixed-rules";
  if (c.options.hidden > 0) text += " --hidden " + std::to_string(c.options.hidden);
  if (c.options.town_terms) text += " --town-terms";
  if (c.options.td_lambda < 1) {
    std::ostringstream lambda;  // 0.5, not to_string's 0.500000
    lambda << c.options.td_lambda;
    text += " --td-lambda " + lambda.str();
  }
  return text;
}

std::string game_options_text(const TrainCommand& c) {
  std::string text;
  if (!c.game_options.rules_file.empty()) text += " --rules " + c.game_options.rules_file;
  if (!c.game_options.map_file.empty()) text += " --map " + c.game_options.map_file;
  return text;
}

std::string generations_command_line(const TrainCommand& c) {
  const danelaw::GenerationOptions& g = c.generations;
  std::string line = "sling train danelaw --generations " + std::to_string(g.generations) +
                     " --dir " + g.dir + " --games " + std::to_string(c.options.games) +
                     " --agent '" + g.agent + "' --gate " + c.gate + " --gate-pairs " +
                     std::to_string(g.gate_pairs) + " --curve-pairs " +
                     std::to_string(g.curve_pairs) + " --seed " + std::to_string(c.options.seed);
  if (!g.reference.empty()) line += " --reference '" + g.reference + "'";
  if (!g.start_model.empty()) line += " --start-model " + g.start_model;
  line += fit_options_text(c);
  if (!c.match_rules.empty()) line += " --match-rules " + c.match_rules;
  if (g.tuning.iterations > 0) {
    std::ostringstream tuning;  // 0.5, not to_string's 0.500000
    tuning << " --tune-iterations " << g.tuning.iterations << " --tune-pairs " << g.tuning.pairs
           << " --tune-perturbation " << g.tuning.perturbation << " --tune-rate " << g.tuning.rate;
    line += tuning.str();
  }
  line += game_options_text(c);
  return line;
}

// The generations mode: the shared options (games, seed, threads, rules mix) and its own.
void run_generations_command(TrainCommand& c, const danelaw::DanelawGame& game) {
  danelaw::GenerationOptions& g = c.generations;
  g.games = c.options.games;
  g.seed = c.options.seed;
  g.threads = c.options.threads;
  g.mixed_rules = c.options.mixed_rules;
  g.l2 = c.options.l2;
  g.hidden = c.options.hidden;
  g.town_terms = c.options.town_terms;
  g.td_lambda = c.options.td_lambda;
  if (!c.match_rules.empty()) {
    GameOptions match_options = c.game_options;
    match_options.rules_file = c.match_rules;
    g.match_game = std::make_shared<const danelaw::DanelawGame>(
        make_game<danelaw::DanelawGame>(match_options));
  }
  g.gate = SprtParameters::parse(c.gate);
  g.command = generations_command_line(c);
  const danelaw::GenerationRun run =
      danelaw::run_generations(game, g, [](const std::string& line) { std::cerr << line << "\n"; });
  if (mpi::rank() != 0) return;  // under mpirun rank 0 alone writes and reports
  std::cout << "wrote " << run.report_path << " (" << run.generations.size()
            << " generations; champion gen-" << run.generations.back().champion << ")\n";
}

std::string command_line(const TrainCommand& c) {
  std::string line = "sling train danelaw --games " + std::to_string(c.options.games) +
                     " --iterations " + std::to_string(c.options.iterations) + " --seed " +
                     std::to_string(c.options.seed) + " --planner " + c.options.planner;
  line += fit_options_text(c) + game_options_text(c);
  return line + " --out " + c.out;
}

const RegisterCommand kRegister(
    "train", "Fit danelaw's value model from self-play games", [](CLI::App& sub) {
      auto command = std::make_shared<TrainCommand>();
      sub.add_option("game", command->game, "Game: danelaw")->required();
      sub.add_option("--games", command->options.games,
                     "Self-play games per iteration (per generation)")
          ->required();
      sub.add_option("--out", command->out, "Model file to write (JSON; without --generations)");
      sub.add_option("--generations", command->generations.generations,
                     "Self-play by generations, each gated by an SPRT against the champion "
                     "(needs --dir)");
      sub.add_option("--dir", command->generations.dir,
                     "The generations' directory: checkpoint, models, report (continued when it "
                     "holds a run)");
      sub.add_option("--agent", command->generations.agent,
                     "The agent both sides play in generations (a spec or preset scoring with the "
                     "value model)");
      sub.add_option("--gate", command->gate, "The gate's SPRT: elo0,elo1,alpha,beta");
      sub.add_option("--match-rules", command->match_rules,
                     "Rules file the gate and the learning curve play (default: the run's rules; "
                     "rules where both sides win about half their games tell agents apart "
                     "sooner)");
      sub.add_option("--gate-pairs", command->generations.gate_pairs,
                     "The gate's budget of game pairs (undecided: rejected)");
      sub.add_option("--curve-pairs", command->generations.curve_pairs,
                     "Pairs each champion plays against the reference for the learning curve");
      sub.add_option("--reference", command->generations.reference,
                     "The learning curve's fixed opponent (default: generation 0's agent)");
      sub.add_option("--start-model", command->generations.start_model,
                     "Generation 0's model file (default: the embedded model)");
      sub.add_option("--iterations", command->options.iterations,
                     "Play-and-fit rounds: the first plays the heuristic, later ones the planner "
                     "with the model so far");
      sub.add_option("--seed", command->options.seed, "Base seed of every game");
      sub.add_option("--threads", command->options.threads, "Worker threads (0 = every core)");
      sub.add_option("--planner", command->options.planner,
                     "Agent of the later iterations (it scores with the model so far)");
      sub.add_flag("--mixed-rules", command->options.mixed_rules,
                   "Also play +10 Danes and 11-towns games (one in three each), where the Danes "
                   "win more often");
      sub.add_option("--hidden", command->options.hidden,
                     "Fit a network with this many tanh units over the features (0: the linear "
                     "model)")
          ->check(CLI::Range(0, danelaw::kMaxHiddenUnits));
      sub.add_option("--td-lambda", command->options.td_lambda,
                     "Fit TD(lambda) targets: each position's mixes the result with the model's "
                     "values of the positions after it (1: the result alone)")
          ->check(CLI::Range(0.0, 1.0));
      sub.add_flag("--town-terms", command->options.town_terms,
                   "Fit the linear model with a weight for each town the Danes hold and each "
                   "they garrison (it applies on the map it was fitted on)");
      sub.add_option("--tune-iterations", command->generations.tuning.iterations,
                     "Generations: tune the champion's linear weights by play (SPSA) for this "
                     "many iterations instead of fitting a candidate (0: fit)");
      sub.add_option("--tune-pairs", command->generations.tuning.pairs,
                     "Pairs of games an SPSA iteration plays, perturbed one way against the "
                     "other");
      sub.add_option("--tune-perturbation", command->generations.tuning.perturbation,
                     "SPSA's perturbation of each weight at the first iteration");
      sub.add_option("--tune-rate", command->generations.tuning.rate,
                     "SPSA's first step for a score gap of one point a game");
      add_game_options(sub, command->game_options);
      sub.callback([command] {
        if (command->game != "danelaw") {
          throw OptionError("train: only danelaw has a learned value model (got '" + command->game +
                            "')");
        }
        if (command->options.threads < 0) throw OptionError("--threads must be >= 0");
        if ((command->options.town_terms || command->options.td_lambda < 1) &&
            command->options.hidden > 0) {
          throw OptionError("--town-terms and --td-lambda fit the linear model: give no --hidden");
        }
        const bool tuning_given = command->generations.tuning.iterations != 0;
        if (tuning_given && command->generations.generations == 0) {
          throw OptionError("--tune-iterations tunes the candidates of --generations");
        }
        if (command->generations.generations != 0 || !command->generations.dir.empty()) {
          const danelaw::DanelawGame game = make_game<danelaw::DanelawGame>(command->game_options);
          run_generations_command(*command, game);
          return;
        }
        if (command->out.empty()) throw OptionError("train: give --out FILE (or --generations)");
        check_writable(command->out);
        command->options.command = command_line(*command);
        const danelaw::DanelawGame game = make_game<danelaw::DanelawGame>(command->game_options);
        const danelaw::ValueModel model = danelaw::train_value_model(
            game, command->options, [](const std::string& line) { std::cerr << line << "\n"; });
        write_file_atomic(command->out, model.to_json());
        std::cout << "wrote " << command->out << ": " << model.states << " positions from "
                  << model.games << " games, held-out log loss " << std::fixed
                  << std::setprecision(4) << model.log_loss << "\n";
        std::cout << "calibration (held-out positions): predicted  observed  count\n";
        for (const danelaw::CalibrationBin& b : model.calibration) {
          if (b.count == 0) continue;
          std::cout << "  " << std::setprecision(1) << b.low << "-" << b.high << "    "
                    << std::setprecision(3) << b.predicted << "     " << b.observed << "    "
                    << b.count << "\n";
        }
      });
    });

}  // namespace
}  // namespace sling::cli
