// sling study best-response GAME [--rules FILE] [--pitch CM] [--responder SIDE|both]: how much the
// best possible opponent wins against the game's heuristic (solvers/best_response/).  Games whose
// reachable states fit in memory: the duel on a coarse lattice, Pig.
#include "cli/study_best_response.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/common_options.h"
#include "cli/game_options.h"
#include "engine/core/errors.h"
#include "solvers/best_response/best_response.h"
#include "solvers/best_response/canonical.h"

namespace sling::cli {
namespace {

struct StudyBestResponseCommand {
  std::string game;
  GameOptions options;
  int pitch_cm = 0;
  std::string responder = "both";
  double max_seconds = 0;
  int games = 0;
  std::uint64_t seed = 1;
  bool quiet = false;
};

template <class G>
void run_on(const G& game, const StudyBestResponseCommand& c) {
  constexpr GameDeclaration declaration = GameRegistration<G>::kDeclaration;
  std::vector<Player> responders;
  for (Player p = 0; p < 2; ++p) {
    if (c.responder == "both" || c.responder == declaration.sides[p]) responders.push_back(p);
  }
  if (responders.empty()) {
    throw OptionError(error_text("unknown side", "--responder",
                                 "'" + c.responder + "'; " + std::string(declaration.name) +
                                     " has " + std::string(declaration.sides[0]) + " and " +
                                     std::string(declaration.sides[1]) + ", or both"));
  }
  BestResponseOptions options;
  options.max_seconds = c.max_seconds;
  options.games = c.games;
  options.seed = c.seed;
  if (!c.quiet) options.log = [](const std::string& line) { std::cerr << line << '\n'; };
  double total = 0;
  for (const Player responder : responders) {
    Rng unused(0, 0);  // the heuristics are deterministic and draw nothing
    const BestResponseResult r = best_response(
        game, responder,
        [&](const typename G::State& s) { return game.heuristic_action(s, unused); },
        [&](const typename G::State& s) { return best_response_key(game, s); }, options);
    total += r.win_probability;
    std::printf(
        "%s's best response to the heuristic %s wins %.5f (%s after %d sweeps%s; %zu states, "
        "%.1f s)\n",
        std::string(declaration.sides[responder]).c_str(),
        std::string(declaration.sides[1 - responder]).c_str(), r.win_probability,
        r.converged ? "converged" : "a lower bound", r.sweeps,
        r.converged ? "" : (", the last changed it by " + std::to_string(r.last_change)).c_str(),
        r.states, r.seconds);
    if (r.games > 0) {
      const double rate = static_cast<double>(r.games_won) / r.games;
      std::printf("  played out: it won %d of %d games, %.4f (standard error %.4f)%s\n",
                  r.games_won, r.games, rate, std::sqrt(rate * (1 - rate) / r.games),
                  r.games_cut > 0
                      ? (", " + std::to_string(r.games_cut) + " cut at the ply limit").c_str()
                      : "");
    }
  }
  if (responders.size() == 2) {
    std::printf("over both seats the best response scores %.5f against the heuristic\n", total / 2);
  }
}

// The games small enough to enumerate, each by its own overload: the duel on a lattice as coarse
// as --pitch asks, and Pig as it is.
void study_game(const duel::DuelGame& game, const StudyBestResponseCommand& c) {
  duel::DuelRules rules = game.rules();
  if (c.pitch_cm != 0) rules.pitch_cm = c.pitch_cm;
  if (rules.pitch_cm < 3 && !c.quiet) {
    std::cerr << "study best-response: a " << rules.pitch_cm
              << " cm lattice has many more states than the 3 cm one (2.9 million); it may "
                 "take long, and a graph larger than 80 % of this machine's memory is "
                 "refused\n";
  }
  run_on(duel::DuelGame(rules), c);
}

void study_game(const pig::PigGame& game, const StudyBestResponseCommand& c) {
  run_on(game, c);
}

void run(const StudyBestResponseCommand& c) {
  if (c.game == "danelaw") {
    throw OptionError(
        "study best-response: danelaw has far too many states to enumerate; give duel or pig");
  }
  if (c.pitch_cm != 0 && c.game != "duel") {
    throw OptionError("study best-response: --pitch applies to the duel only");
  }
  with_game(c.game, c.options, [&](const auto& game) {
    if constexpr (requires { study_game(game, c); }) study_game(game, c);
  });
}

}  // namespace

void add_best_response_study(CLI::App& study) {
  CLI::App* sub = study.add_subcommand(
      "best-response",
      "How much can the best opponent win against the heuristic? (duel on a coarse lattice, pig)");
  auto command = std::make_shared<StudyBestResponseCommand>();
  sub->add_option("game", command->game, "Game: duel or pig")->required();
  add_game_options(*sub, command->options);
  sub->add_option("--pitch", command->pitch_cm, "Duel: the lattice pitch (default: the rules')")
      ->check(CLI::Range(1, 5));
  sub->add_option("--responder", command->responder,
                  "The side that best-responds: one of the game's sides, or both (default)");
  sub->add_option("--max-seconds", command->max_seconds,
                  "Stop the value iteration after this long per side and report a lower bound "
                  "(default: until it converges)")
      ->check(CLI::Range(0.0, 1e7));
  sub->add_option("--games", command->games,
                  "Then play the best response's policy against the heuristic this many games "
                  "and report its win rate next to the value (default 0: none)")
      ->check(CLI::Range(0, 100000000));
  add_seed_option(*sub, command->seed, "Seed of the games played out");
  sub->add_flag("--quiet", command->quiet, "No progress lines");
  set_examples(*sub, {"sling study best-response duel --pitch 3 --games 4000  (~1 min)",
                      "sling study best-response pig --rules pig30.json"});
  sub->callback([command] { run(*command); });
}

}  // namespace sling::cli
