#pragma once
// What `sling analyse` writes about analysed games: a text report (the plain answer first: who
// erred and who was lucky), JSON with every ply, an SVG graph of the win probability with the
// errors and the big rolls marked, and a player's report over several games.

#include <map>
#include <string>
#include <vector>

#include "experiments/analysis/game_analysis.h"

namespace sling {

// `every_ply`: list every ply, not only the errors and the big rolls.
std::string analysis_text(const GameAnalysis& analysis, bool every_ply = false);
std::string analysis_json(const GameAnalysis& analysis);
// The graph's size, in its own pixels.  `titles`: the heading, the players and the legend inside
// the picture; a page that shows the graph in a narrow panel writes them around it instead, and
// draws the graph at the width it is shown so that its text keeps its size.
struct AnalysisSvgOptions {
  double width = 900;
  double height = 380;
  bool titles = true;
};
std::string analysis_svg(const GameAnalysis& analysis, const AnalysisSvgOptions& options = {});

// One player's record over several games: the sides they played, as a person or an agent.
struct PlayerSummary {
  std::string player;
  int games = 0;
  SideTotals totals;    // summed over their games (result and adjusted: sums of scores)
  double expected = 0;  // sum of their start values: what an equal player would score
};

// The players of `analyses` (the record's agent names, or "<side> of game N" where a record names
// none), or only `player` when given.  Throws OptionError when `player` played none of them.
std::vector<PlayerSummary> player_summaries(const std::vector<GameAnalysis>& analyses,
                                            const std::string& player = "");
std::string players_text(const std::vector<PlayerSummary>& players, const std::string& source);
std::string players_json(const std::vector<PlayerSummary>& players, const std::string& source);

}  // namespace sling
