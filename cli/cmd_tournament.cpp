// sling tournament GAME [--agent SPEC ...] [--games N] [--threads T] [--seed S] [--out DIR]
// [--resume]: a paired round robin played in parallel, logged to DIR, rated (docs/tournament.md).
// Under `mpirun -np N` the games are spread over N ranks and rank 0 writes the same files.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/game_options.h"
#include "experiments/tournament/tournament.h"

namespace sling::cli {
namespace {

// The default field: random and the game's three presets, weakest first (agents/presets.h), so
// the table shows how the levels a player picks compare.  Agents a game does not have are skipped
// with a note.
const std::vector<std::string> kDefaultAgents = {"random", "easy", "normal", "strong"};

// Pairs per pairing when --games is not given.  Pig's games take microseconds and its presets
// differ by a few points (holding at 20 is close to optimal), so its default field plays 500 pairs
// a pairing (6,000 games, under a second) and the ratings separate the presets; the duel's and
// danelaw's games take up to seconds each.
int default_pairs(std::string_view game) {
  return game == "pig" ? 500 : 10;
}

// Two duel agents that both value waiting can stand off for hundreds of thousands of plies
// (docs/strength.md); the default limit scores such a game a draw after about 4,000 turns.
constexpr int kDefaultMaxPlies = 20'000;

struct TournamentCommand {
  std::string game = "duel";
  GameOptions game_options;
  std::vector<std::string> agents;
  int pairs = 0;  // 0: default_pairs(game)
  int threads = 0;
  std::uint64_t seed = 1;
  std::string out = "tournament-out";
  bool resume = false;
  bool quiet = false;
  bool isolate = false;
  double interval = 10;
  int max_plies = kDefaultMaxPlies;
  int turn_limit = kDefaultAgentTurnLimit;
  bool no_luck = false;
};

// The default field for this game: the agents it has and can build as specified (an agent that
// needs a file it was not given, such as a solution, is skipped with its reason).
template <class G>
std::vector<std::string> default_agents(const G& game) {
  std::vector<std::string> available;
  const auto catalogue = agent_catalogue(game);
  for (const std::string& spec : kDefaultAgents) {
    const std::string name = parse_agent_spec(spec).name;
    const bool known = preset_spec(game, spec).has_value() ||
                       std::any_of(catalogue.begin(), catalogue.end(),
                                   [&](const AgentInfo& info) { return info.name == name; });
    if (!known) {
      std::cerr << "tournament: agent '" << name << "' is not available for " << game.info().name
                << "; skipped\n";
      continue;
    }
    try {
      make_agent(game, spec);
      available.push_back(spec);
    } catch (const SlingError& e) {
      std::cerr << "tournament: agent '" << spec << "' skipped: " << e.what() << "\n";
    }
  }
  return available;
}

template <class G>
void run(const TournamentCommand& command, const G& game) {
  TournamentConfig config;
  config.game = std::string(game.info().name);
  config.rules = game.rules_json();
  config.agents = command.agents.empty() ? default_agents(game) : command.agents;
  config.pairs_per_pairing = command.pairs > 0 ? command.pairs : default_pairs(config.game);
  config.seed = command.seed;
  config.turn_limit = recorded_turn_limit<G>(command.turn_limit);
  config.validate();

  TournamentOptions options;
  options.out_dir = command.out;
  options.threads = command.threads;
  options.resume = command.resume;
  options.isolate = command.isolate;
  options.progress_interval_seconds = command.interval;
  options.max_plies = command.max_plies;
  options.luck = !command.no_luck && HasAnalysisValue<G>;
  options.progress = command.quiet                ? ProgressStyle::kNone
                     : ::isatty(::fileno(stderr)) ? ProgressStyle::kBar
                                                  : ProgressStyle::kLines;
  const Schedule schedule(config);
  const bool root = mpi::rank() == 0;  // under mpirun only rank 0 speaks and writes
  if (!command.quiet && root) {
    std::cerr << "tournament: " << config.game << ", " << config.agents.size() << " agents, "
              << schedule.total_games() << " games (" << config.pairs_per_pairing
              << " pairs per pairing), seed " << config.seed << ", output in '" << command.out
              << "'";
    if (mpi::distributed()) std::cerr << ", on " << mpi::size() << " MPI ranks";
    std::cerr << "\n";
  }
  const TournamentReport report = run_tournament(game, config, options, std::cerr);
  if (!root) return;
  std::cout << report_table(report);
  std::cout << "\nFiles in " << command.out
            << ": games.csv, records.jsonl, ratings.json, ratings.svg, timing.csv"
            << (options.luck ? ", luck.csv" : "") << "\n";
}

const RegisterCommand kRegister(
    "tournament", "Play a paired round robin between agents in parallel and rate them",
    [](CLI::App& sub) {
      auto command = std::make_shared<TournamentCommand>();
      sub.add_option("game", command->game, "Game: " + game_list());
      add_game_options(sub, command->game_options);
      sub.add_option(
             "--agent", command->agents,
             "Agent spec or preset (easy, normal, strong), once per agent (default: random, "
             "easy, normal, strong)")
          ->allow_extra_args(false);
      sub.add_option("--games", command->pairs,
                     "Pairs of games per pair of agents; each pair plays both sides with the same "
                     "dice (default: 500 for pig, 10 for the others)")
          ->check(CLI::Range(1, 1'000'000));
      add_threads_option(sub, command->threads);
      sub.add_option("--max-plies", command->max_plies,
                     "Stop a game after this many plies (decisions and dice) and score it a draw")
          ->check(CLI::Range(1, 1'000'000'000))
          ->capture_default_str();
      add_turn_limit_option(sub, command->turn_limit);
      sub.add_flag("--no-luck", command->no_luck,
                   "Rate on the plain scores only. By default a game with a value function is "
                   "also rated on each game's score minus the luck of its dice, beside the plain "
                   "ratings (luck.csv; docs/analysis.md)");
      add_seed_option(sub, command->seed, "Base seed of every game");
      sub.add_option("--out", command->out, "Output directory (default tournament-out)");
      sub.add_flag("--resume", command->resume,
                   "Continue the interrupted tournament in --out (same configuration)");
      sub.add_flag("--isolate", command->isolate,
                   "Play each game in its own process, so that an agent that crashes loses that "
                   "game instead of ending the run");
      sub.add_flag("--quiet", command->quiet, "No progress output");
      sub.add_option("--progress-interval", command->interval,
                     "Seconds between progress lines when stderr is not a terminal")
          ->check(CLI::Range(0.0, 86400.0));
      set_examples(sub,
                   {"sling tournament pig --games 10  (a few seconds on 2 cores)",
                    "sling tournament duel --agent heuristic --agent mcts --games 5 --out runs/d"});
      sub.callback([command] {
        command->threads = resolve_threads(command->threads);
        with_game(command->game, command->game_options,
                  [&](const auto& game) { run(*command, game); });
      });
    });

}  // namespace
}  // namespace sling::cli
