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

std::vector<py::object> two_agents(const py::object& agents) {
  if (py::isinstance<py::str>(agents) || !py::isinstance<py::sequence>(agents) ||
      py::len(agents) != 2) {
    throw py::value_error(
        "agents: give two, side 0's first (spec strings, callables or objects with act)");
  }
  const py::sequence sequence = agents.cast<py::sequence>();
  return {sequence[0], sequence[1]};
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

py::object play_match(const PyGame& g, const py::object& agents, int games, std::uint64_t seed,
                      int threads, int max_plies, const py::object& records, int turn_limit,
                      bool luck) {
  if (games < 1) throw OptionError(error_text("bad value", "games", "must be at least 1"));
  if (threads < 0)
    throw OptionError(error_text("bad value", "threads", "must be 0 (every core) or more"));
  const PythonAgentSources sources(two_agents(agents));
  MatchOptions options;
  options.games = games;
  options.seed = seed;
  // A Python agent takes the GIL for each move: its match runs on one thread, and stops at the
  // first exception it raises, which is raised again here.
  options.threads = sources.any_python() ? 1 : threads;
  options.max_plies = max_plies;
  options.turn_limit = checked_turn_limit(turn_limit);
  options.record_dir = optional_path(records);
  options.luck = luck;
  const std::shared_ptr<CallableFailure> failure = sources.failure();
  if (sources.any_python()) options.stop = [failure] { return failure->failed(); };
  const std::array<std::string, 2> specs = {sources.specs()[0], sources.specs()[1]};
  const MatchResult result = std::visit(
      [&](const auto& game) {
        const auto factory = sources.factory(game);
        py::gil_scoped_release release;
        return run_match(*game, specs, options, factory);
      },
      g.game);
  failure->rethrow();
  py::dict out = json_loads(match_to_json(result));
  out["first_error"] = result.first_error;
  return out;
}

py::dict play_one(const PyGame& g, const py::object& agents, std::uint64_t seed, int max_plies,
                  int turn_limit) {
  turn_limit = checked_turn_limit(turn_limit);
  const std::vector<py::object> sources = two_agents(agents);
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

py::object tournament(const PyGame& g, const py::object& agents, int pairs, std::uint64_t seed,
                      int threads, const py::object& out, bool resume, int max_plies,
                      int turn_limit, bool luck) {
  turn_limit = checked_turn_limit(turn_limit);
  if (threads < 0)
    throw OptionError(error_text("bad value", "threads", "must be 0 (every core) or more"));
  if (py::isinstance<py::str>(agents) || !py::isinstance<py::sequence>(agents)) {
    throw py::value_error("agents: a list of agents (spec strings, callables or objects with act)");
  }
  std::vector<py::object> given;
  for (const py::handle agent : agents.cast<py::sequence>()) {
    given.push_back(py::reinterpret_borrow<py::object>(agent));
  }
  const PythonAgentSources sources(given);
  std::optional<TemporaryFolder> temporary;
  TournamentOptions options;
  options.out_dir = optional_path(out);
  if (options.out_dir.empty()) {
    temporary.emplace();
    options.out_dir = temporary->path();
  }
  // Python agents take the GIL for each move: the games are played one at a time (the files are
  // the same for any thread count).
  options.threads = sources.any_python() ? 1 : threads;
  const std::shared_ptr<CallableFailure> failure = sources.failure();
  if (sources.any_python()) options.stop = [failure] { return failure->failed(); };
  options.resume = resume;
  options.max_plies = max_plies;
  options.luck = luck;
  std::ostringstream log;
  std::string report;
  try {
    report = std::visit(
        [&](const auto& game) {
          using G = std::remove_cvref_t<decltype(*game)>;
          TournamentConfig config;
          config.game = std::string(game->info().name);
          config.rules = game->rules_json();
          config.agents = sources.specs();
          config.turn_limit = recorded_turn_limit<G>(turn_limit);
          config.pairs_per_pairing = pairs;
          config.seed = seed;
          AgentFactory<G> factory = sources.factory(game);
          py::gil_scoped_release release;
          return report_json(run_tournament(*game, config, options, log, std::move(factory)));
        },
        g.game);
  } catch (const TournamentStopped&) {
    // Stopped by a Python agent's exception, raised here instead; the games before it are saved
    // and the game it raised in is not, so resume=True plays on from there.
  }
  failure->rethrow();
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
        py::arg("luck") = false,
        R"doc(Plays `games` games between two agents, side 0's first, and returns the result as
`sling match GAME ... --json FILE` writes it (a dict: game, seed, games, agents, wins, draws,
win_rate with 95% Wilson intervals, errors, end_reasons, mean_plies, seconds), plus first_error.

Agents are spec strings or presets (the games run in C++ on `threads` threads, 0 = every core,
without the GIL), or Python agents: callables state -> action or objects with act(state) (then
on one thread; they may also have new_game(seed) and observe(state, action), and go by
'python:NAME' after their `name` attribute or __name__).  The match plays the command line's
games, seeds and records whatever the agents; a Python agent's exception stops it and is raised.  Game i's seed derives from (seed, i) as on the
command line, so the same seed gives the same result as `sling match`.  records: a folder to save
every game's record in (game-000000.json, ...), as `--record DIR`.  turn_limit: a game still going
when that turn would begin is a draw, as `--turn-limit` (0 = none).  luck: also score side 0
adjusted for the dice's luck ('luck' in the result), as `--luck`.)doc");
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
        R"doc(A paired round robin, as `sling tournament`: every pair of agents plays `pairs` pairs
of games (one on each side, the same dice), on `threads` threads without the GIL.  Agents are
spec strings, or Python agents as play_match takes them (named 'python:NAME'; then the games are
played on one thread, with the same files as for any thread count).  Returns the report (ratings.json's content as a dict, plus 'log').  out: the folder for the
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
