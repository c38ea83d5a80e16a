#pragma once
// A tournament's configuration (what config.json holds, and what a resumed run must repeat) and
// its schedule: which agents meet in game g, on which sides, with which seed.
//
// Schedule.  Every pair of agents (i < j) plays `pairs_per_pairing` pairs of games.  In a pair, i
// plays side 0 in the first game and side 1 in the second; both games use the same game seed, so
// the same dice (common random numbers): a lucky roll helps each agent once, and luck largely
// cancels within the pair.  The games diverge once the agents choose differently; that is
// expected. Pairs are numbered repetition-major (repetition 0 of every pairing, then repetition 1,
// ...), so a run stopped early still covers every pairing evenly.  Game g belongs to pair g / 2 and
// its seed is Rng(seed, pair).next(): a game depends on nothing but the configuration and its id.

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/errors.h"

namespace sling {

struct TournamentConfig {
  std::string game;                 // GameInfo::name
  std::string rules;                // the game's rules JSON, exactly as the game writes it
  std::vector<std::string> agents;  // agent spec strings, as given
  int pairs_per_pairing = 10;       // pairs of games (one each side) per pair of agents
  std::uint64_t seed = 1;
  // Games still going at this many turns are drawn (engine/core/game_limit.h); 0 for none, and for
  // a configuration written before the limit existed.
  int turn_limit = 0;

  void validate() const;  // throws OptionError
  std::string to_json() const;
  static TournamentConfig from_json(std::string_view text, const std::string& path);
  // The first field that differs, described for a person; empty when the configs are equal.
  std::string first_difference(const TournamentConfig& other) const;
};

struct ScheduledGame {
  std::int64_t game_id = 0;
  std::int64_t pair_id = 0;
  std::uint64_t seed = 0;
  int agent0 = 0;  // index into TournamentConfig::agents of the agent on side 0
  int agent1 = 0;
};

class Schedule {
 public:
  explicit Schedule(const TournamentConfig& config);
  std::int64_t total_games() const { return total_games_; }
  std::int64_t pairings() const { return static_cast<std::int64_t>(pairings_.size()); }
  ScheduledGame game(std::int64_t game_id) const;

 private:
  std::uint64_t seed_;
  std::vector<std::array<int, 2>> pairings_;
  std::int64_t total_games_;
};

enum class ProgressStyle { kNone, kBar, kLines };

// How a run is carried out; none of it changes a game's result.
struct TournamentOptions {
  std::string out_dir = "tournament-out";
  int threads = 0;  // 0: every core
  bool resume = false;
  ProgressStyle progress = ProgressStyle::kNone;
  double progress_interval_seconds = 10;  // for kLines
  int max_plies = 1'000'000;
  bool isolate = false;  // one process per game: a crashing agent loses instead of ending the run
  bool luck = false;     // also rate on scores adjusted for the dice's luck (luck.csv)
  // Asked after each game (threads only): once it answers true that game is not saved, no other
  // starts, and run_tournament throws TournamentStopped; a resume plays the rest.  Python stops a
  // tournament at its agent's first exception so.
  std::function<bool()> stop;
};

// Thrown by run_tournament when TournamentOptions::stop stopped it.
struct TournamentStopped : SlingError {
  TournamentStopped()
      : SlingError("the tournament was stopped before its end (resume continues it)") {}
};

}  // namespace sling
