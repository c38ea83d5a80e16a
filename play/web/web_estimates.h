#pragma once
// The strong agent's view of a game's positions, for the page: at God's question, David's win
// chance for each answer (accepting, and the expected value of each re-roll), and after every
// decision the first side's win chance (the strip).  The agent is the `strong` preset's (exact
// with the server's solution), separate from the players' agents.  Made on a server worker: the
// game marks an estimate started under its lock, computes it without the lock, and finishes it
// under the lock again; one at a time.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "engine/core/errors.h"
#include "experiments/analysis/json_fields.h"
#include "play/game_views.h"
#include "play/play_agents.h"
#include "play/web/web_json.h"
#include "play/web/web_moves.h"

namespace sling::web {

template <Game G>
class PositionEstimates {
 public:
  using State = typename G::State;
  struct Choice {
    Action action;
    std::string label;
    double win;  // the side to move's win chance after it
  };
  struct Estimate {
    std::size_t ply = 0;
    std::string error;
    bool exact = false;
    double first_side_win = 0;
    std::vector<Choice> choices;
  };

  // Whether the position after `ply` plies wants an estimate and has none (nor one under way).
  bool due(std::size_t ply, bool wanted) const {
    return wanted && !running_ && !(last_ && last_->ply == ply);
  }
  bool running() const { return running_; }
  void start() { running_ = true; }

  // The estimate of `state` (after `ply` plies); `agent_spec` is the strong preset's spec.
  Estimate compute(const G& game, const State& state, std::size_t ply, std::uint64_t seed,
                   const std::string& agent_spec, const std::string& solution_file,
                   play::Table table) {
    Estimate result;
    result.ply = ply;
    try {
      if (!agent_) agent_ = play::make_play_agent(game, agent_spec, solution_file, table);
      agent_->new_game(hash_combine(seed, ply));
      agent_->act(state);
      const Analysis analysis = agent_->last_analysis();
      if (analysis.actions.empty()) throw SlingError("the strong agent gives no estimate here");
      const double win = (analysis.value + 1) / 2;
      result.first_side_win = game.current_player(state) == 0 ? win : 1 - win;
      result.exact = analysis.exact;
      for (const ActionStat& stat : analysis.actions) {
        result.choices.push_back({stat.action,
                                  play::GameView<G>::option_label(game, state, stat.action),
                                  (stat.value + 1) / 2});
      }
    } catch (const std::exception& e) {
      result.error = e.what();
    }
    return result;
  }

  void finish(Estimate estimate) {
    running_ = false;
    if (estimate.error.empty()) strip_[estimate.ply] = estimate.first_side_win;
    last_ = std::move(estimate);
  }

  // After an undo to `plies` plies: the later estimates are of positions no longer played.
  void undo_to(std::size_t plies) {
    strip_.erase(strip_.upper_bound(plies), strip_.end());
    last_.reset();
  }

  // The keys "stakes" (at God's question: each answer's win chance for David, or null) and
  // "strip" ([ply, the first side's win chance] up to the current ply, or null when off).
  void write(JsonWriter& out, std::size_t plies, bool god_prompt, bool strip_on) const {
    write_key(out, "stakes");
    if (!god_prompt || !last_ || last_->ply != plies) {
      out.Null();
    } else {
      out.StartObject();
      write_field(out, "error", last_->error);
      write_field(out, "exact", last_->exact);
      write_key(out, "choices");
      out.StartArray();
      for (const Choice& c : last_->choices) {
        out.StartObject();
        write_option_fields(out, c.action, c.label, c.win);
        out.EndObject();
      }
      out.EndArray();
      out.EndObject();
    }
    write_key(out, "strip");
    if (!strip_on) {
      out.Null();
      return;
    }
    out.StartArray();
    for (const auto& [ply, win] : strip_) {
      if (ply > plies) continue;
      out.StartArray();
      out.Uint64(ply);
      out.Double(page_win(win));
      out.EndArray();
    }
    out.EndArray();
  }

 private:
  bool running_ = false;
  std::optional<Estimate> last_;
  std::map<std::size_t, double> strip_;  // ply -> the first side's win chance
  AgentPtr<G> agent_;                    // used by compute alone (one estimate at a time)
};

}  // namespace sling::web
