// sling study god [--solution FILE | --rules FILE --pitch CM] --out DIR: the God study
// (experiments/studies/god_study.h) written as DIR/report.md with SVG figures.
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/game_options.h"
#include "cli/study_best_response.h"
#include "cli/study_referee.h"
#include "cli/study_regret.h"
#include "cli/study_sweep.h"
#include "engine/core/errors.h"
#include "experiments/studies/danelaw_balance.h"
#include "experiments/studies/god_study.h"
#include "experiments/studies/god_time_limit.h"
#include "play/play_agents.h"

namespace sling::cli {
namespace {

struct StudyGodCommand {
  std::string solution_file;
  GameOptions options;
  int pitch_cm = 0;
  std::string out;
  int games = 100000;
  int matchup_games = 200;
  std::int64_t max_plies = 20'000'000;
  std::int64_t settle_plies = duel::GodStudyOptions{}.settle_plies;
  std::string agents = "solver,heuristic,mcts:iterations=1000,random";
  std::uint64_t seed = 1;
  int threads = 2;
  bool allow_uncertified = false;
  bool quiet = false;
  std::vector<int> turn_caps;  // the time-limit study when given
  int games_per_cap = 2000;
};

std::vector<std::string> split_agents(const std::string& text) {
  // Agent specs are separated by ';' or by ',' before a new agent name (an option list uses ','
  // inside one spec): "solver,heuristic,mcts:iterations=1000,c=1.4,random".
  std::vector<std::string> out;
  std::string current;
  std::istringstream in(text);
  std::string piece;
  while (std::getline(in, piece, ',')) {
    const bool option =
        piece.find('=') != std::string::npos && piece.find(':') == std::string::npos;
    if (option && !current.empty()) {
      current += "," + piece;
    } else {
      if (!current.empty()) out.push_back(current);
      current = piece;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

// The rules of --rules (or the defaults) with --pitch, when no solution file gives them.
duel::DuelRules rules_to_solve(const StudyGodCommand& c) {
  duel::DuelRules rules;
  try {
    rules = duel::rules_from_json(rules_text(c.options));
  } catch (const RulesError& e) {
    if (c.options.rules_file.empty()) throw;
    throw RulesError(error_text("bad rules", c.options.rules_file, e.what()));
  }
  if (c.pitch_cm != 0) rules.pitch_cm = c.pitch_cm;
  return rules;
}

// The time-limit study: the rules from --solution (whose uncapped value the report compares
// with) or from --rules/--pitch.
void run_time_limit(const StudyGodCommand& c) {
  duel::TimeLimitStudyOptions options;
  // The command that reproduces the report, quoted in it.
  std::string command_line = "sling study god";
  if (!c.solution_file.empty()) command_line += " --solution " + c.solution_file;
  if (!c.options.rules_file.empty()) command_line += " --rules " + c.options.rules_file;
  if (c.pitch_cm != 0) command_line += " --pitch " + std::to_string(c.pitch_cm);
  command_line += " --turn-caps ";
  for (std::size_t k = 0; k < c.turn_caps.size(); ++k)
    command_line += (k ? "," : "") + std::to_string(c.turn_caps[k]);
  command_line += " --games-per-cap " + std::to_string(c.games_per_cap) + " --seed " +
                  std::to_string(c.seed) + " --out " + c.out;
  options.caps = c.turn_caps;
  options.games = c.games_per_cap;
  options.seed = c.seed;
  options.threads = c.threads;
  options.command = command_line;
  if (!c.quiet)
    options.log = [](const std::string& line) { std::cerr << "study god: " << line << '\n'; };
  duel::DuelRules rules;
  if (!c.solution_file.empty()) {
    if (!c.options.rules_file.empty() || c.pitch_cm != 0) {
      throw OptionError("give either --solution or --rules/--pitch, not both");
    }
    const duel::DuelSolution solution = duel::DuelSolution::load(c.solution_file);
    if (!solution.certified() && !c.allow_uncertified) {
      throw OptionError("study god: '" + c.solution_file + "' is " +
                        solution.certificate_problem() +
                        "; give --allow-uncertified to compare with it anyway");
    }
    rules = solution.game().rules();
    options.uncapped = solution.summary().start;
  } else {
    rules = rules_to_solve(c);
  }
  const duel::DuelGame game(rules);
  std::filesystem::create_directories(c.out);
  check_writable((std::filesystem::path(c.out) / "report.md").string());
  const int longest = *std::max_element(c.turn_caps.begin(), c.turn_caps.end());
  // What it costs: one backward induction per objective to the longest cap (a pass a turn:
  // about 0.05 s at pitch 3, 0.2 s at pitch 2 and 4.8 s at pitch 1 on 2 cores), then the games.
  const double pass_seconds = rules.pitch_cm >= 3 ? 0.05 : rules.pitch_cm == 2 ? 0.2 : 4.8;
  std::cerr << "study god: two exact solves of the duel capped at " << longest << " turns (about "
            << static_cast<int>(2 * longest * pass_seconds / 60 + 1) << " min at a "
            << rules.pitch_cm << " cm pitch on 2 cores), then " << c.games_per_cap
            << " optimal games per cap and objective."
            << (rules.pitch_cm < 2 ? " For a quick look use --pitch 3." : "") << "\n";
  const duel::TimeLimitStudyResult result = duel::run_time_limit_study(game, options);
  duel::write_time_limit_report(result, options, c.out);
  const duel::CappedOutcome& o = result.objectives[0].summary.start;
  std::printf(
      "time-limit God study written to %s/report.md (at %d turns David scores %.4f: wins "
      "%.4f, draws %.4f)\n",
      c.out.c_str(), longest, o.value, o.david_wins, o.draw);
}

void run(const StudyGodCommand& c) {
  if (!c.turn_caps.empty()) {
    run_time_limit(c);
    return;
  }
  duel::GodStudyOptions options;
  options.games = c.games;
  options.matchup_games = c.matchup_games;
  options.max_plies = c.max_plies;
  options.settle_plies = c.settle_plies;
  options.agents = split_agents(c.agents);
  options.seed = c.seed;
  options.threads = c.threads;
  if (!c.quiet)
    options.log = [](const std::string& line) { std::cerr << "study god: " << line << '\n'; };
  std::string file = c.solution_file;
  if (file.empty()) {
    // No solution given: solve the rules now and keep the solution next to the report.
    const duel::DuelRules rules = rules_to_solve(c);
    const duel::DuelGame game(rules);
    // Say what is about to happen: at the default 1 cm pitch the solve alone takes over an hour.
    const char* how_long = rules.pitch_cm >= 3   ? "seconds"
                           : rules.pitch_cm == 2 ? "several minutes"
                                                 : "about an hour";
    std::cerr << "study god: no --solution given, so the duel is solved first at a "
              << rules.pitch_cm << " cm pitch (" << how_long
              << " on 2 cores) and the solution kept as " << c.out << "/duel.sol; the study's "
              << c.games << " games follow."
              << (rules.pitch_cm < 3 ? " For a quick look use --pitch 3." : "") << "\n";
    duel::SolverOptions solver;
    solver.threads = c.threads;
    solver.tolerance = duel::kRouteTolerance;
    solver.policy_improvements = duel::kRouteImprovements;
    if (!c.quiet) solver.log = [](const std::string& line) { std::cerr << line << '\n'; };
    std::filesystem::create_directories(c.out);
    file = (std::filesystem::path(c.out) / "duel.sol").string();
    duel::solve_duel(game, solver).save(file);
  } else if (!c.options.rules_file.empty() || c.pitch_cm != 0) {
    throw OptionError("give either --solution or --rules/--pitch, not both");
  }
  options.solution_file = file;
  const duel::DuelSolution solution = duel::DuelSolution::load(file);
  if (!solution.certified()) {
    const std::string problem = "'" + file + "' is " + solution.certificate_problem();
    if (!c.allow_uncertified) {
      throw OptionError("study god: " + problem + "; give --allow-uncertified to study it anyway");
    }
    std::cerr << "sling: warning: study god: " << problem << "; studying it anyway\n";
    options.allow_uncertified = true;
  }
  const duel::GodStudyResult result = duel::write_god_study(solution, options, c.out);
  std::cout << "God study written to " << c.out << "/report.md (" << result.games
            << " optimal games, God used in " << result.god_used_games << ")\n";
}

// sling study balance danelaw --out DIR [--danes SPEC --english SPEC]... [--games N]: danelaw's
// balance over rule variants and pairings of players (experiments/studies/danelaw_balance.h).
struct StudyBalanceCommand {
  std::string game;
  GameOptions options;
  std::string out;
  std::vector<std::string> danes, english;  // pairings by position; none: the default five
  danelaw::BalanceOptions balance;
};

void run_balance(const StudyBalanceCommand& c) {
  if (c.game != "danelaw") {
    throw OptionError("study balance: only danelaw has a balance study (got '" + c.game + "')");
  }
  if (c.danes.size() != c.english.size()) {
    throw OptionError("study balance: give --danes and --english the same number of times (" +
                      std::to_string(c.danes.size()) + " and " + std::to_string(c.english.size()) +
                      "): the nth of each make a pairing");
  }
  const danelaw::DanelawGame game =
      danelaw::DanelawGame::from_files(c.options.rules_file, c.options.map_file);
  std::vector<std::array<std::string, 2>> names = danelaw::default_balance_pairings();
  if (!c.danes.empty()) {
    names.clear();
    for (std::size_t i = 0; i < c.danes.size(); ++i) names.push_back({c.danes[i], c.english[i]});
  }
  std::string command = "sling study balance danelaw";
  std::vector<danelaw::BalancePairing> pairings;
  for (const auto& pair : names) {
    pairings.push_back(
        {pair, {play::resolve_preset(game, pair[0]), play::resolve_preset(game, pair[1])}});
    if (!c.danes.empty()) command += " --danes " + pair[0] + " --english " + pair[1];
  }
  std::filesystem::create_directories(c.out);
  check_writable((std::filesystem::path(c.out) / "report.md").string());
  command += " --games " + std::to_string(c.balance.games) + " --seed " +
             std::to_string(c.balance.seed) + " --out " + c.out;
  if (!c.options.rules_file.empty()) command += " --rules " + c.options.rules_file;
  if (!c.options.map_file.empty()) command += " --map " + c.options.map_file;
  const auto variants = danelaw::default_balance_variants(game.rules());
  danelaw::BalanceOptions options = c.balance;
  const int every =
      std::max(1, static_cast<int>(variants.size() * names.size()) * c.balance.games / 20);
  options.progress = [every](int done, int total) {
    if (done % every == 0 || done == total)
      std::cerr << "balance: " << done << " of " << total << " games\n";
  };
  const danelaw::BalanceResult result = danelaw::run_balance_study(variants, pairings, options);
  danelaw::write_balance_report(result, c.balance, command, c.out);
  const auto& head = result.pairings[0];
  const auto& best = head.variants[head.closest];
  std::cout << "balance study written to " << c.out << "/report.md; for " << head.pairing.names[0]
            << " Danes against " << head.pairing.names[1]
            << " English, closest to 50%: " << best.variant.name << " (Danes " << best.danish_wins
            << " of " << best.games << ")\n";
}

const RegisterCommand kRegister(
    "study",
    "Studies: the duel's God, a duel rule swept, danelaw's balance, best responses to the "
    "heuristic, an agent's regret, danelaw's referee",
    [](CLI::App& sub) {
      sub.require_subcommand(1);
      CLI::App* god =
          sub.add_subcommand("god", "When should David invoke God? (duel; report.md + SVG)");
      auto command = std::make_shared<StudyGodCommand>();
      god->add_option("--solution", command->solution_file,
                      "Solution file from `sling solve duel`");
      god->add_option("--rules", command->options.rules_file,
                      "Rules to solve when no --solution is given");
      god->add_option("--pitch", command->pitch_cm,
                      "Lattice pitch to solve when no --solution is given")
          ->check(CLI::Range(1, 5));
      god->add_option("--out", command->out, "Directory for report.md and the figures")->required();
      god->add_option("--games", command->games, "Optimal-versus-optimal games to simulate")
          ->check(CLI::Range(1, 100000000));
      god->add_option("--matchup-games", command->matchup_games,
                      "Games per matchup (0: no matchups)")
          ->check(CLI::Range(0, 1000000));
      god->add_option("--max-plies", command->max_plies,
                      "Stop a simulated game after this many plies (reported as cut)")
          ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000}));
      god->add_option("--settle-plies", command->settle_plies,
                      "Settle a simulated game still running after this many plies at its exact "
                      "value (a stand-off; 0: play every game to its end)")
          ->capture_default_str()
          ->check(CLI::Range(std::int64_t{0}, std::int64_t{1'000'000'000}));
      god->add_option("--agents", command->agents,
                      "Agents of the matchup table (specs, comma-separated)");
      add_seed_option(*god, command->seed, "Base seed");
      god->add_flag("--quiet", command->quiet, "No progress lines");
      add_threads_option(*god, command->threads);
      god->add_flag("--allow-uncertified", command->allow_uncertified,
                    "Study a solution whose bracket is not certified (the report says so)");
      god->add_option("--turn-caps", command->turn_caps,
                      "The study under a time limit: these turn caps (comma-separated; each "
                      "side's turn counts one); --solution, if given, is the game without a limit "
                      "to compare with")
          ->delimiter(',')
          ->check(CLI::Range(1, 65535));
      god->add_option("--games-per-cap", command->games_per_cap,
                      "Time-limit study: optimal games per cap and objective")
          ->check(CLI::Range(1, 10000000));
      set_examples(*god,
                   {"sling solve duel --pitch 3 --out duel3.sol && sling study god --solution "
                    "duel3.sol --out god3  (~1 min on 2 cores)",
                    "sling study god --pitch 3 --out god3   (solves first, then studies)",
                    "sling study god --pitch 3 --turn-caps 10,20,40,80,160 --out god3-clock  "
                    "(under a time limit, ~1 min)"});
      god->callback([command] {
        command->threads = resolve_threads(command->threads);
        run(*command);
      });

      CLI::App* balance = sub.add_subcommand(
          "balance", "Which danelaw rules make a fair game? (report.md + SVG over rule variants)");
      auto balance_command = std::make_shared<StudyBalanceCommand>();
      balance->add_option("game", balance_command->game, "Game: danelaw")->required();
      balance->add_option("--out", balance_command->out, "Directory for report.md and the figure")
          ->required();
      balance
          ->add_option("--danes", balance_command->danes,
                       "The Danes' agent of a pairing (preset or spec; repeat with --english for "
                       "more pairings; default: strong, normal and heuristic on both sides, and "
                       "strong against normal either way)")
          ->allow_extra_args(false);
      balance
          ->add_option("--english", balance_command->english,
                       "The English agent of the pairing with the --danes of the same position")
          ->allow_extra_args(false);
      balance
          ->add_option("--games", balance_command->balance.games, "Games per variant and pairing")
          ->check(CLI::Range(1, 1000000));
      add_seed_option(*balance, balance_command->balance.seed, "Base seed (the same per variant)");
      add_threads_option(*balance, balance_command->balance.threads);
      add_game_options(*balance, balance_command->options);
      balance->callback([balance_command] { run_balance(*balance_command); });

      add_best_response_study(sub);
      add_regret_study(sub);
      add_referee_study(sub);
      add_sweep_study(sub);
    });

}  // namespace
}  // namespace sling::cli
