#pragma once
// The tournament's report: ratings, score matrices and how games ended, computed from the rows of
// games.csv alone (so it is as reproducible as they are), as a table for the terminal,
// ratings.json and ratings.svg.

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "experiments/ratings.h"
#include "experiments/tournament/game_store.h"

namespace sling {

struct TournamentReport {
  std::string game;
  SideNames sides;
  std::vector<std::string> agents;
  std::int64_t games = 0;
  std::int64_t total_games = 0;
  RatingFit fit;
  std::vector<std::vector<double>> score_rate;         // [i][j]: i's score rate against j, or NaN
  std::vector<std::vector<int>> games_between;         // [i][j]: games i played against j
  std::vector<std::array<double, 2>> side_score_rate;  // [i][side]: i's score rate on that side
  std::vector<std::array<int, 2>> side_games;
  std::map<std::string, std::int64_t> ends;  // by end reason
  std::int64_t draws = 0;
  std::int64_t errors = 0;
  std::array<std::int64_t, 2> side_wins{};
  // With --luck (docs/analysis.md): the same fit on scores adjusted for the dice's luck.
  bool luck = false;
  std::string luck_source;
  RatingFit adjusted_fit;
  double mean_luck = 0, mean_luck_low = 0, mean_luck_high = 0;  // side 0's, 95 % interval
  std::int64_t luck_games = 0;                                  // games whose luck was measured
};

// Side 0's luck by game id, and the values that measured it (`luck` may be null: no luck).
struct TournamentLuck {
  std::map<std::int64_t, double> by_game;
  std::string source;
};

TournamentReport make_report(const TournamentConfig& config, const SideNames& sides,
                             const std::vector<GameRow>& rows,
                             const TournamentLuck* luck = nullptr);
std::string report_table(const TournamentReport& report);
std::string report_json(const TournamentReport& report);
std::string report_svg(const TournamentReport& report);

// Writes ratings.json and ratings.svg into the directory.
void write_report_files(const std::string& out_dir, const TournamentReport& report);

}  // namespace sling
