// sling train danelaw --games N --out FILE [--iterations K] [--seed S] [--threads T]
// [--planner SPEC] [--rules FILE] [--map FILE]: fits danelaw's value model from self-play
// (experiments/training/danelaw_training.h) and writes it as JSON, with the command and seed that
// produced it and its calibration.  The embedded default (solvers/danelaw/data/danelaw_value.json)
// was written by this command; docs/strength.md gives the exact line.
#include <iomanip>
#include <iostream>

#include "cli/command.h"
#include "cli/game_options.h"
#include "engine/core/io.h"
#include "experiments/training/danelaw_training.h"

namespace sling::cli {
namespace {

struct TrainCommand {
  std::string game;
  GameOptions game_options;
  danelaw::TrainingOptions options;
  std::string out;
};

std::string command_line(const TrainCommand& c) {
  std::string line = "sling train danelaw --games " + std::to_string(c.options.games) +
                     " --iterations " + std::to_string(c.options.iterations) + " --seed " +
                     std::to_string(c.options.seed) + " --planner " + c.options.planner;
  if (c.options.mixed_rules) line += " --mixed-rules";
  if (!c.game_options.rules_file.empty()) line += " --rules " + c.game_options.rules_file;
  if (!c.game_options.map_file.empty()) line += " --map " + c.game_options.map_file;
  return line + " --out " + c.out;
}

const RegisterCommand kRegister(
    "train", "Fit danelaw's value model from self-play games", [](CLI::App& sub) {
      auto command = std::make_shared<TrainCommand>();
      sub.add_option("game", command->game, "Game: danelaw")->required();
      sub.add_option("--games", command->options.games, "Self-play games per iteration")
          ->required();
      sub.add_option("--out", command->out, "Model file to write (JSON)")->required();
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
      add_game_options(sub, command->game_options);
      sub.callback([command] {
        if (command->game != "danelaw") {
          throw OptionError("train: only danelaw has a learned value model (got '" + command->game +
                            "')");
        }
        if (command->options.threads < 0) throw OptionError("--threads must be >= 0");
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
