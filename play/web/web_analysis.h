#pragma once
// The page's Analysis panel: a finished game, or a replay, analysed as `sling analyse` analyses it
// (experiments/analysis): every decision rated against the best by the game's value function,
// every die's luck, the totals per side and the graph.  Made on a server worker (the duel's value
// function may first solve a coarse lattice, in seconds): the game marks it requested under its
// lock, it is computed without the lock, and kept under the lock again; one at a time.

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/core/record.h"
#include "experiments/analysis/analysis_report.h"
#include "experiments/analysis/analysis_values.h"
#include "experiments/analysis/game_analysis.h"
#include "play/web/web_json.h"

namespace sling::web {

template <Game G>
class WebAnalysis {
 public:
  struct Result {
    std::size_t plies = 0;  // the length of the history analysed
    std::string error;
    std::string json;  // analysis_json's object
    std::string svg;   // analysis_svg's graph
  };

  bool running() const { return running_; }

  // Asks for the analysis of a history of `plies` plies; true when it is to be computed now (not
  // made already, nor under way).
  bool request(std::size_t plies) {
    if (running_ || (result_ && result_->plies == plies)) return false;
    running_ = true;
    return true;
  }

  // The analysis of `record`, played on `rules_game`; an error is kept as its message.
  // `automatic[i]`: ply i + 1 was an answer given for a person, not rated (game_analysis.h).
  static Result compute(const G& rules_game, const GameRecord& record,
                        const std::string& solution_file, const std::vector<bool>& automatic) {
    Result result;
    result.plies = record.history.size();
    try {
      AnalysisValueOptions options;
      // Empty unless the server's solution is this game's (WebTraits, play/web/web_traits.h).
      options.solution_file = solution_file;
      const AnalysisValue<G> values = analysis_value(rules_game, options);
      GameAnalysis analysis = analyse_record(rules_game, record, values.value, false, automatic);
      analysis.source = values.source;
      analysis.exact = values.exact;
      result.json = analysis_json(analysis);
      // As wide as the page's panel shows it (about 460 px at 1280x720), the heading and the
      // legend written by the page: the graph's 12 px text stays 12 px on screen.
      result.svg = analysis_svg(analysis, {.width = 460, .height = 230, .titles = false});
    } catch (const std::exception& e) {
      result.error = e.what();
    }
    return result;
  }

  void finish(Result result) {
    running_ = false;
    result_ = std::move(result);
  }

  // {"status": "none" | "running" | "done" | "error", "error", "analysis", "svg"} for a history
  // of `plies` plies (an analysis of another length, before an undo, is no longer shown).
  std::string json(std::size_t plies) const {
    const bool current = result_ && result_->plies == plies;
    rapidjson::StringBuffer buffer;
    JsonWriter out(buffer);
    out.StartObject();
    write_key(out, "status");
    write_string(out, running_                 ? "running"
                      : !current               ? "none"
                      : result_->error.empty() ? "done"
                                               : "error");
    write_key(out, "error");
    write_string(out, current && !running_ ? result_->error : "");
    write_key(out, "analysis");
    if (current && !running_ && result_->error.empty()) {
      out.RawValue(result_->json.data(), result_->json.size(), rapidjson::kObjectType);
    } else {
      out.Null();
    }
    write_key(out, "svg");
    write_string(out, current && !running_ ? result_->svg : "");
    out.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
  }

 private:
  bool running_ = false;
  std::optional<Result> result_;
};

}  // namespace sling::web
