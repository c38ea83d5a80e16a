#pragma once
// `lookahead`: plays the duel by an exact expectation over the rest of the current turn, every
// legal action included (each movement destination, each use of God), with the value function at
// the next turn's start: the exact solution on a coarser lattice, interpolated
// (solvers/duel/coarse_value.h).  Where the coarse values are close to the game's own, this is
// close to the exact solver's play, without its solve of the game's own lattice.
//
// With `background=1` (tables with a person) refined values still to be computed are computed on
// a thread of their own while the agent plays the interpolated ones; it switches at its first
// decision after they are ready and says so in that decision's analysis (Analysis::note).

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "agents/agent.h"
#include "agents/duel_background_value.h"
#include "agents/duel_exploit.h"
#include "agents/duel_value.h"
#include "agents/spec.h"

namespace sling {

// Against a known opponent (`opponent=heuristic`) it exploits: among the actions whose safe value
// is within `safety` of the best, it plays the one best against that opponent, valued by the
// exact best response to it on a coarse lattice (solvers/duel/exploit_values.h).  The safety
// margin bounds what the exploitation can cost against any other opponent: each decision gives
// up at most `safety` of win probability by the safe values.
struct DuelExploitOptions {
  std::array<std::shared_ptr<const DuelExploitValues>, 2> against;  // per side; null = off
  int pitch_cm = 0;
  double safety = 0;
  int replies = 1;
  bool recognise = false;  // opponent=auto: exploit only while the opponent plays the heuristic
  bool active() const { return against[0] != nullptr; }
};

class DuelLookaheadAgent final : public Agent<duel::DuelGame> {
 public:
  // `background`: when not null, the refined values being computed; `value` serves until then.
  DuelLookaheadAgent(std::shared_ptr<const duel::CoarseDuelValue> value, int pitch_cm,
                     bool same_lattice, DuelRefineOptions refine, bool background_requested,
                     std::unique_ptr<DuelBackgroundValue> background, double tie_margin,
                     double repetition_penalty, DuelExploitOptions exploit = {});

  void new_game(std::uint64_t) override;
  // Recognising the opponent (`opponent=auto`): a side that once decided other than the heuristic
  // would is not the heuristic, and is played safely for the rest of the game.  Every table (the
  // terminal, the web page, a replay) reports every ply, so this is a function of the history.
  void observe(const duel::DuelState& before, Action applied) override;
  Action act(const duel::DuelState& state) override;
  Analysis last_analysis() const override { return analysis_; }
  std::string spec() const override;

  // Whether the values played are still the interpolated ones while refined ones are computed.
  bool refining_in_background() const { return background_ != nullptr; }

 private:
  // Takes the background values once they are ready; returns the line that tells the person.
  std::string switch_when_ready();
  Action exploit(const duel::DuelState& state,
                 const std::vector<std::pair<Action, double>>& safe_values, bool david);
  void charge_repetitions(const duel::DuelState& state,
                          std::vector<std::pair<Action, double>>& values) const;
  Action pick_among_ties(const duel::DuelState& state, double exploit_margin = -1) const;
  void explain_tie_break(Action chosen, double margin);

  // The exploiting values' tie margin on the tables' own lattice (exact values).
  static constexpr double kExactTieMargin = 0.001;

  std::shared_ptr<const duel::CoarseDuelValue> value_;
  int pitch_cm_;
  bool same_lattice_;
  DuelRefineOptions refine_;
  bool background_requested_;
  std::unique_ptr<DuelBackgroundValue> background_;
  bool told_background_ = false;
  double tie_margin_;
  double repetition_penalty_;
  DuelExploitOptions exploit_;
  std::array<bool, 2> deviated_{};  // per side: seen deciding other than the heuristic
  // How often David handed Goliath each position (repetition key) in this game.
  std::unordered_map<std::uint64_t, int> seen_;
  Analysis analysis_;
};

// Declares (and reads) the lookahead agent's options.
struct DuelLookaheadOptions {
  DuelValueSource values;
  bool background = false;
  double tie_margin = 0.02;
  double repetition_penalty = 0;
  bool exploit = false;
  bool recognise = false;
  int exploit_pitch_cm = 3;
  double safety = 1;
  int replies = 1;
  static DuelLookaheadOptions read(OptionReader& r);
};

AgentPtr<duel::DuelGame> make_duel_lookahead_agent(const duel::DuelGame& game,
                                                   const AgentSpec& spec);

}  // namespace sling
