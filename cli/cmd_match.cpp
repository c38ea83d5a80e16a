// sling match GAME --<side> SPEC --<side> SPEC --games N [--seed S] [--threads T] [--json FILE]
// [--record DIR]: plays N games between two agents (one per side, named by the game's side names:
// --david/--goliath, --danes/--english, --first/--second) and reports each side's wins with 95%
// Wilson intervals, the mean game length and the time.  The result is the same for any --threads,
// and under `mpirun -np N` for any N.
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/game_options.h"
#include "engine/core/io.h"
#include "experiments/match.h"
#include "experiments/sprt_match.h"

namespace sling::cli {
namespace {

// A long match reports on stderr as it goes, a line at most this often (a quick one says nothing).
constexpr double kProgressSeconds = 30;

std::function<void(const MatchProgress&)> progress_every(
    double seconds, const std::array<std::string_view, 2>& sides) {
  auto next = std::make_shared<double>(seconds);
  const std::string first(sides[0]), second(sides[1]);
  return [=](const MatchProgress& p) {
    if (p.seconds < *next || p.games_done == p.games) return;
    *next = p.seconds + seconds;
    char line[256];
    std::snprintf(line, sizeof line,
                  "match: %d of %d games in %.0f s: %s won %d (%.1f%%), %s %d, draws %d\n",
                  p.games_done, p.games, p.seconds, first.c_str(), p.wins[0],
                  100.0 * p.wins[0] / p.games_done, second.c_str(), p.wins[1], p.draws);
    std::cerr << line << std::flush;
  };
}

struct MatchCommand {
  std::string game;
  GameOptions game_options;
  std::map<std::string, std::string> sides;
  MatchOptions options;
  std::string json_file;
  std::string sprt;
  bool quiet = false;
};

const RegisterCommand kRegister(
    "match", "Play N games between two agents and report win rates", [](CLI::App& sub) {
      auto command = std::make_shared<MatchCommand>();
      sub.add_option("game", command->game, "Game: " + game_list())->required();
      for (const std::string& side : all_side_names()) {
        sub.add_option("--" + side, command->sides[side],
                       "Agent spec for side '" + side + "' (see `sling agents GAME`)");
      }
      sub.add_option("--games", command->options.games, "Number of games")->required();
      add_seed_option(sub, command->options.seed, "Base seed (game i uses a seed derived from it)");
      add_threads_option(sub, command->options.threads);
      sub.add_option("--json", command->json_file, "Also write the result as JSON to this file");
      sub.add_option("--record", command->options.record_dir,
                     "Save every game's record in this folder");
      sub.add_option("--max-plies", command->options.max_plies,
                     "Stop a game after this many plies (a draw)");
      add_turn_limit_option(sub, command->options.turn_limit);
      sub.add_flag("--luck", command->options.luck,
                   "Also score every game adjusted for the luck of its dice, with the intervals "
                   "of both (docs/analysis.md)");
      sub.add_option("--sprt", command->sprt,
                     "elo0,elo1,alpha,beta: play pairs (each agent on both sides, same dice) until "
                     "the sequential test decides; --games is then the most pairs");
      add_game_options(sub, command->game_options);
      set_examples(sub,
                   {"sling match pig --first heuristic --second random --games 1000  (< 1 s)",
                    "sling match duel --david heuristic --goliath mcts --games 20  (~30 s on 2 "
                    "cores)"});
      sub.callback([command] {
        if (command->options.games < 1) {
          throw OptionError(error_text("bad value", "--games", "must be at least 1"));
        }
        command->options.threads = resolve_threads(command->options.threads);
        with_game(command->game, command->game_options, [&](const auto& game) {
          for (const auto& [name, spec] : command->sides) {
            if (!spec.empty() && name != game.info().sides[0] && name != game.info().sides[1]) {
              throw OptionError(
                  error_text("--" + name + " is not a side of " + command->game, "--" + name,
                             "its sides are " + side_flags(require_game(command->game))));
            }
          }
          std::array<std::string, 2> specs;
          for (int side = 0; side < 2; ++side) {
            const std::string name(game.info().sides[side]);
            specs[side] = command->sides[name];
            if (specs[side].empty()) {
              throw OptionError(error_text("no agent for " + name, "--" + name,
                                           "give --" + name + " SPEC (the sides of " +
                                               command->game + " are " +
                                               side_flags(require_game(command->game)) + ")"));
            }
          }
          if (!command->sprt.empty()) {
            if (mpi::distributed()) {
              throw OptionError(
                  "--sprt decides pair by pair on one machine; start it without "
                  "mpirun");
            }
            const SprtParameters parameters = SprtParameters::parse(command->sprt);
            const SprtMatchResult r = run_sprt_match(game, specs, command->options, parameters);
            std::cout << "SPRT " << command->game << ": A = " << r.specs[0] << "\n"
                      << "  B = " << r.specs[1] << "\n"
                      << "  " << r.summary << "\n";
            if (r.decision == SprtDecision::kAcceptH1) {
              std::cout << "  accepted H1: A is stronger than B by at least elo1\n";
            } else if (r.decision == SprtDecision::kAcceptH0) {
              std::cout << "  accepted H0: A is not stronger than B by elo1 or more\n";
            } else {
              std::cout << "  no decision within " << command->options.games << " pairs\n";
            }
            std::cout << "  " << r.pairs << " pairs (" << 2 * r.pairs << " games), Elo A-B "
                      << r.elo << " +- " << r.elo_ci_halfwidth << ", " << r.seconds << " s\n";
            return;
          }
          command->options.progress = progress_every(kProgressSeconds, game.info().sides);
          const MatchResult result = run_match(game, specs, command->options);
          if (mpi::rank() != 0) return;  // under mpirun only rank 0 reports
          std::cout << match_to_text(result);
          if (!command->json_file.empty())
            write_file_atomic(command->json_file, match_to_json(result));
        });
      });
    });

}  // namespace
}  // namespace sling::cli
