// sling study regret --solution FILE --agent SPEC [--side david|goliath] [--games N]: how much win
// probability an agent gives away, by kind of decision (experiments/studies/duel_regret.h).
#include "cli/study_regret.h"

#include <cstdio>
#include <memory>
#include <string>

#include "cli/common_options.h"
#include "engine/core/errors.h"
#include "experiments/studies/duel_regret.h"

namespace sling::cli {
namespace {

struct StudyRegretCommand {
  duel::RegretOptions options;
  std::string side = "david";
};

void run(StudyRegretCommand c) {
  if (c.side != "david" && c.side != "goliath") {
    throw OptionError(error_text("unknown side", "--side", "'" + c.side + "'; david or goliath"));
  }
  c.options.side = c.side == "david" ? duel::kDavid : duel::kGoliath;
  const duel::RegretResult r = duel::measure_regret(c.options);
  const char* other = c.options.side == duel::kDavid ? "goliath" : "david";
  std::printf(
      "%s as %s against the exact %s gives away %.5f win probability a game (standard error "
      "%.5f, %d games, seed %llu)\n",
      c.options.agent.c_str(), c.side.c_str(), other, r.regret_per_game, r.regret_standard_error,
      r.games, static_cast<unsigned long long>(c.options.seed));
  std::printf(
      "it won %d of %d games (%.4f); the solved value is %.4f%s\n", r.wins, r.games,
      static_cast<double>(r.wins) / r.games, r.solved_value,
      r.cut > 0 ? (", " + std::to_string(r.cut) + " games cut at the ply limit").c_str() : "");
  std::printf("%-22s %10s %10s %14s %10s\n", "decision", "count", "mistakes", "loss a game",
              "largest");
  for (const duel::RegretRow& row : r.rows) {
    std::printf("%-22s %10lld %10lld %14.5f %10.4f\n", row.kind.c_str(),
                static_cast<long long>(row.decisions), static_cast<long long>(row.mistakes),
                row.regret / r.games, row.largest);
  }
}

}  // namespace

void add_regret_study(CLI::App& study) {
  CLI::App* sub = study.add_subcommand(
      "regret", "How much win probability does an agent give away, and where? (duel, solved)");
  auto command = std::make_shared<StudyRegretCommand>();
  sub->add_option("--solution", command->options.solution_file,
                  "Solution file from `sling solve duel` (the games use its rules)")
      ->required();
  sub->add_option("--agent", command->options.agent, "The studied agent: a spec or a preset")
      ->required();
  sub->add_option("--side", command->side, "Its seat: david (default) or goliath");
  sub->add_option("--games", command->options.games, "Games against the exact solver")
      ->check(CLI::Range(1, 10000000));
  sub->add_option("--max-plies", command->options.max_plies,
                  "Stop a game after this many plies (reported as cut)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000}));
  add_seed_option(*sub, command->options.seed, "Seed of the games");
  set_examples(*sub, {"sling solve duel --pitch 3 --out duel3.sol && sling study regret "
                      "--solution duel3.sol --agent lookahead:value_pitch=4,same_lattice=0"});
  sub->callback([command] { run(*command); });
}

}  // namespace sling::cli
