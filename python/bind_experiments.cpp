// Matches, single games, tournaments and the C++ random-playout loop, each one coarse call that
// runs in C++ with the GIL released (a callable agent takes it back for its own moves only).

#include <pybind11/stl.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "engine/core/record.h"
#include "experiments/match.h"
#include "experiments/tournament/tournament.h"
#include "python/agents.h"

namespace sling::python {
namespace {

py::object json_loads(const std::string& text) {
  return py::module_::import("json").attr("loads")(text);
}

std::array<py::object, 2> two_agents(const py::object& agents) {
  const py::sequence sequence = agents.cast<py::sequence>();
  if (py::isinstance<py::str>(agents) || sequence.size() != 2) {
    throw py::value_error("agents: give two, side 0's first (spec strings or callables)");
  }
  return {sequence[0], sequence[1]};
}

bool all_specs(const std::array<py::object, 2>& agents) {
  return py::isinstance<py::str>(agents[0]) && py::isinstance<py::str>(agents[1]);
}

std::string optional_path(const py::object& path) {
  if (path.is_none()) return "";
  return py::str(py::module_::import("os").attr("fspath")(path));
}

int checked_turn_limit(int turns) {
  if (turns < 0 || turns > 65535) {
    throw OptionError(error_text("bad value", "turn_limit", "must be from 0 (none) to 65535"));
  }
  return turns;
}

// A match with at least one callable agent: the games of run_match (same seeds, same order of
// summing, so the same result as the command line for the same agents) on the calling thread.
template <Game G>
MatchResult run_match_here(const std::shared_ptr<const G>& game,
                           const std::array<py::object, 2>& sources, const MatchOptions& options,
                           const std::shared_ptr<CallableFailure>& failure) {
  if (options.games < 1) throw OptionError("a match needs at least one game");
  AgentPtr<G> agents[2] = {make_any_agent(game, sources[0], failure),
                           make_any_agent(game, sources[1], failure)};
  MatchResult result;
  result.game = std::string(game->info().name);
  result.sides = {std::string(game->info().sides[0]), std::string(game->info().sides[1])};
  result.specs = {agents[0]->spec(), agents[1]->spec()};
  result.seed = options.seed;
  result.games = options.games;
  result.turn_limit = recorded_turn_limit<G>(options.turn_limit);
  if (!options.record_dir.empty()) std::filesystem::create_directories(options.record_dir);
  const auto start = std::chrono::steady_clock::now();
  std::int64_t plies = 0;
  {
    py::gil_scoped_release release;
    for (int index = 0; index < options.games; ++index) {
      const GameResult played =
          play_game(*game, *agents[0], *agents[1], match_game_seed(options.seed, index),
                    options.max_plies, options.turn_limit);
      if (failure->error) break;
      if (!options.record_dir.empty()) {
        match_detail::save_match_record(options.record_dir, index, played.record);
      }
      if (played.winner >= 0) {
        ++result.wins[played.winner];
      } else {
        ++result.draws;
      }
      if (played.error_side >= 0) {
        ++result.errors[played.error_side];
        if (result.first_error.empty()) result.first_error = played.error;
      }
      plies += played.plies;
      ++result.end_reasons[played.end_reason];
    }
  }
  failure->rethrow();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.mean_plies = static_cast<double>(plies) / options.games;
  return result;
}

py::object play_match(const PyGame& g, const py::object& agents, int games, std::uint64_t seed,
                      int threads, int max_plies, const py::object& records, int turn_limit) {
  if (games < 1) throw OptionError(error_text("bad value", "games", "must be at least 1"));
  if (threads < 0)
    throw OptionError(error_text("bad value", "threads", "must be 0 (every core) or more"));
  const std::array<py::object, 2> sources = two_agents(agents);
  MatchOptions options;
  options.games = games;
  options.seed = seed;
  options.threads = threads;
  options.max_plies = max_plies;
  options.turn_limit = checked_turn_limit(turn_limit);
  options.record_dir = optional_path(records);
  const MatchResult result = std::visit(
      [&](const auto& game) {
        if (all_specs(sources)) {
          const std::array<std::string, 2> specs = {sources[0].cast<std::string>(),
                                                    sources[1].cast<std::string>()};
          py::gil_scoped_release release;
          return run_match(*game, specs, options);
        }
        return run_match_here(game, sources, options, std::make_shared<CallableFailure>());
      },
      g.game);
  py::dict out = json_loads(match_to_json(result));
  out["first_error"] = result.first_error;
  return out;
}

py::dict play_one(const PyGame& g, const py::object& agents, std::uint64_t seed, int max_plies,
                  int turn_limit) {
  turn_limit = checked_turn_limit(turn_limit);
  const std::array<py::object, 2> sources = two_agents(agents);
  return std::visit(
      [&](const auto& game) {
        using G = std::remove_cvref_t<decltype(*game)>;
        auto failure = std::make_shared<CallableFailure>();
        AgentPtr<G> first = make_any_agent(game, sources[0], failure);
        AgentPtr<G> second = make_any_agent(game, sources[1], failure);
        GameResult played;
        {
          py::gil_scoped_release release;
          played = play_game(*game, *first, *second, seed, max_plies, turn_limit);
        }
        failure->rethrow();
        played.record.agents = {first->spec(), second->spec()};
        py::dict out;
        out["winner"] = played.winner;
        out["end_reason"] = played.end_reason;
        out["plies"] = played.plies;
        out["history"] = played.record.history;
        out["error"] = played.error;
        out["error_side"] = played.error_side;
        out["seconds"] = played.seconds;
        out["record"] = record_to_json(played.record);
        return out;
      },
      g.game);
}

// A temporary folder for a tournament whose files nobody asked for, removed afterwards.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "sling-tournament-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw SlingError("cannot create a temporary folder");
    path_ = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

py::object tournament(const PyGame& g, const std::vector<std::string>& agents, int pairs,
                      std::uint64_t seed, int threads, const py::object& out, bool resume,
                      int max_plies, int turn_limit, bool luck) {
  turn_limit = checked_turn_limit(turn_limit);
  if (threads < 0)
    throw OptionError(error_text("bad value", "threads", "must be 0 (every core) or more"));
  std::optional<TemporaryFolder> temporary;
  TournamentOptions options;
  options.out_dir = optional_path(out);
  if (options.out_dir.empty()) {
    temporary.emplace();
    options.out_dir = temporary->path();
  }
  options.threads = threads;
  options.resume = resume;
  options.max_plies = max_plies;
  options.luck = luck;
  std::ostringstream log;
  const std::string report = std::visit(
      [&](const auto& game) {
        TournamentConfig config;
        config.game = std::string(game->info().name);
        config.rules = game->rules_json();
        config.agents = agents;
        config.turn_limit = recorded_turn_limit<std::remove_cvref_t<decltype(*game)>>(turn_limit);
        config.pairs_per_pairing = pairs;
        config.seed = seed;
        py::gil_scoped_release release;
        return report_json(run_tournament(*game, config, options, log));
      },
      g.game);
  py::dict result = json_loads(report);
  result["log"] = log.str();
  return result;
}

template <Game G>
std::pair<std::int64_t, int> random_games(const G& game, int games, std::uint64_t seed,
                                          int max_plies) {
  std::int64_t plies = 0;
  int finished = 0;
  for (int i = 0; i < games; ++i) {
    Rng rng = Rng(seed, 0x706c61796f7574).derive(static_cast<std::uint64_t>(i));
    typename G::State state = game.initial_state();
    int n = 0;
    for (; n < max_plies && !game.is_terminal(state); ++n) {
      const Action a = game.current_player(state) == kChancePlayer
                           ? sample_chance(game, state, rng)
                           : sample_uniform_action(game, state, rng);
      apply_any(game, state, a);  // checked, as State.apply is
    }
    plies += n;
    finished += game.is_terminal(state) ? 1 : 0;
  }
  return {plies, finished};
}

}  // namespace

void bind_experiments(py::module_& m) {
  m.def("play_match", &play_match, py::arg("game"), py::arg("agents"), py::arg("games") = 100,
        py::arg("seed") = 1, py::arg("threads") = 0, py::arg("max_plies") = 1'000'000,
        py::arg("records") = py::none(), py::arg("turn_limit") = kDefaultAgentTurnLimit,
        R"doc(Plays `games` games between two agents, side 0's first, and returns the result as
`sling match GAME ... --json FILE` writes it (a dict: game, seed, games, agents, wins, draws,
win_rate with 95% Wilson intervals, errors, end_reasons, mean_plies, seconds), plus first_error.

Agents are spec strings or presets (the games run in C++ on `threads` threads, 0 = every core,
without the GIL) or callables state -> action (then on this thread; a callable may also have
new_game(seed) and observe(state, action)).  Game i's seed derives from (seed, i) as on the
command line, so the same seed gives the same result as `sling match`.  records: a folder to save
every game's record in (game-000000.json, ...), as `--record DIR`.  turn_limit: a game still going
when that turn would begin is a draw, as `--turn-limit` (0 = none).)doc");
  m.def("play_game", &play_one, py::arg("game"), py::arg("agents"), py::arg("seed") = 1,
        py::arg("max_plies") = 1'000'000, py::arg("turn_limit") = kDefaultAgentTurnLimit,
        R"doc(Plays one game between two agents (specs or callables) with this game seed (the dice
of `sling play --seed`) and returns {'winner' (side or -1), 'end_reason', 'plies', 'history'
(every action and outcome), 'error', 'error_side', 'seconds', 'record' (the record's JSON text,
which `sling replay` reads)}.)doc");
  m.def("run_tournament", &tournament, py::arg("game"), py::arg("agents"), py::arg("pairs") = 10,
        py::arg("seed") = 1, py::arg("threads") = 0, py::arg("out") = py::none(),
        py::arg("resume") = false, py::arg("max_plies") = 20'000,
        py::arg("turn_limit") = kDefaultAgentTurnLimit, py::arg("luck") = true,
        R"doc(A paired round robin between agent specs, as `sling tournament`: every pair of agents
plays `pairs` pairs of games (one on each side, the same dice), on `threads` threads without the
GIL.  Returns the report (ratings.json's content as a dict, plus 'log').  out: the folder for the
command's files (config.json, games.csv, records.jsonl, ratings.json, ratings.svg, luck.csv); None
plays in a temporary folder removed afterwards.  luck: also rate on the scores adjusted for the
dice's luck ('luck_adjusted'), as the command does; turn_limit as `--turn-limit`.)doc");
  m.def(
      "random_playouts",
      [](const PyGame& g, int games, std::uint64_t seed, int max_plies) {
        return std::visit(
            [&](const auto& game) {
              const auto start = std::chrono::steady_clock::now();
              std::pair<std::int64_t, int> counted;
              {
                py::gil_scoped_release release;
                counted = random_games(*game, games, seed, max_plies);
              }
              const double seconds =
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
              py::dict out;
              out["games"] = games;
              out["plies"] = counted.first;
              out["finished"] = counted.second;
              out["seconds"] = seconds;
              return out;
            },
            g.game);
      },
      py::arg("game"), py::arg("games"), py::arg("seed") = 1, py::arg("max_plies") = 100'000,
      "Plays uniformly random games in C++ (the loop a Python playout over State.apply is "
      "measured against): {'games', 'plies', 'finished', 'seconds'}.");
}

}  // namespace sling::python
