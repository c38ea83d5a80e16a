#pragma once
// The terminal's `analyse [FILE.svg]` command: the game so far, every decision rated and every
// roll's luck (experiments/analysis/, docs/analysis.md), printed at the prompt, with the graph
// written to FILE.svg when given.

#include <ostream>
#include <string>

#include "engine/core/io.h"
#include "engine/core/record.h"
#include "experiments/analysis/analysis_report.h"
#include "experiments/analysis/luck.h"

namespace sling::play {

template <Game G>
void print_game_analysis(std::ostream& out, const G& rules_game, const GameRecord& record,
                         const std::string& svg_path) {
  if constexpr (HasAnalysisValue<G>) {
    try {
      const AnalysisValue<G> values = analysis_value(rules_game, AnalysisValueOptions{});
      GameAnalysis analysis = analyse_record(rules_game, record, values.value);
      analysis.source = values.source;
      analysis.exact = values.exact;
      out << analysis_text(analysis);
      if (!svg_path.empty()) {
        write_file_atomic(svg_path, analysis_svg(analysis));
        out << "The graph is in " << svg_path << ".\n";
      }
    } catch (const std::exception& e) {
      out << "Cannot analyse: " << e.what() << "\n";
    }
  } else {
    (void)rules_game;
    (void)record;
    (void)svg_path;
    out << "This game has no value function to analyse with.\n";
  }
}

}  // namespace sling::play
