#pragma once
// `lookahead`: plays the duel by an exact expectation over the rest of the current turn, every
// legal action included (each movement destination, each use of God), with the value function at
// the next turn's start: the exact solution on a coarser lattice, interpolated
// (solvers/duel/coarse_value.h).  Where the coarse values are close to the game's own, this is
// close to the exact solver's play, without its solve of the game's own lattice.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "agents/agent.h"
#include "agents/duel_action_values.h"
#include "agents/duel_value.h"
#include "agents/spec.h"
#include "engine/core/errors.h"
#include "solvers/duel/coarse_value.h"

namespace sling {

class DuelLookaheadAgent final : public Agent<duel::DuelGame> {
 public:
  DuelLookaheadAgent(std::shared_ptr<const duel::CoarseDuelValue> value, int pitch_cm,
                     bool same_lattice, DuelRefineOptions refine, double tie_margin,
                     double repetition_penalty)
      : value_(std::move(value)),
        pitch_cm_(pitch_cm),
        same_lattice_(same_lattice),
        refine_(refine),
        tie_margin_(tie_margin),
        repetition_penalty_(repetition_penalty) {}

  void new_game(std::uint64_t) override { seen_.clear(); }

  Action act(const duel::DuelState& state) override {
    auto values = value_->action_values(state);
    if (values.empty()) throw IllegalActionError("lookahead agent: no decision is pending");
    const duel::DuelGame& game = value_->game();
    const bool david = game.current_player(state) == duel::kDavid;
    const bool moving = state.phase == duel::Phase::kDestination;
    if (moving && david && repetition_penalty_ > 0) charge_repetitions(state, values);
    analysis_ = rank_duel_action_values(values, david, value_->exact());
    const Action chosen = pick_among_ties(state);
    if (moving && david && repetition_penalty_ > 0) {
      duel::DuelState after = state;
      game.apply_unchecked(after, chosen);
      ++seen_[game.repetition_key(after)];
    }
    return chosen;
  }

  Analysis last_analysis() const override { return analysis_; }
  std::string spec() const override {
    char margin[32], repetition[32];
    std::snprintf(margin, sizeof margin, "%g", tie_margin_);
    std::snprintf(repetition, sizeof repetition, "%g", repetition_penalty_);
    return "lookahead:value_pitch=" + std::to_string(pitch_cm_) +
           ",same_lattice=" + (same_lattice_ ? "1" : "0") + refine_.spec() + ",tie=" + margin +
           ",repetition=" + repetition;
  }

 private:
  // Plateaus (see pick_among_ties) have a second symptom: errors of the interpolated values can
  // make David stand or walk between a few places where waiting looks best, a stand-off that
  // never ends.  So a destination that hands
  // Goliath a position he has already been handed in this game costs `repetition_penalty_` of win
  // probability each time it was, the way the solver's discount charges waiting: in time every
  // place to wait has been used up, and David acts.  (Only David's: a stand-off held for ever is
  // a game David does not win, so it is Goliath's to choose.)
  void charge_repetitions(const duel::DuelState& state,
                          std::vector<std::pair<Action, double>>& values) const {
    const duel::DuelGame& game = value_->game();
    for (auto& [action, p] : values) {
      duel::DuelState after = state;
      game.apply_unchecked(after, action);
      const auto it = seen_.find(game.repetition_key(after));
      if (it != seen_.end()) p -= repetition_penalty_ * it->second;
    }
  }

  // The duel has plateaus: stand-offs where waiting another turn costs nothing, so the exact values
  // of waiting and of acting are equal and the solver acts only because its values are discounted
  // (by about 1e-12 a turn).  Interpolated values carry errors far larger than that slope, and a
  // greedy choice among them can wait for ever (David circling without searching, Goliath standing
  // still).  So values within `tie_margin_` of the best are ties, broken as the discount breaks
  // them: toward the action that brings the decision sooner (a declaration that throws dice
  // before a move; the destination nearest the other figure).
  Action pick_among_ties(const duel::DuelState& state) const {
    const std::vector<ActionStat>& ranked = analysis_.actions;
    // Refined values are a sub-solution: the greedy choice is the one that keeps its guarantee.
    // The game's own exact solution has no plateau errors to break: its values are the solver's
    // (discounted, so the greedy choice acts), and a margin would only move play off the optimum.
    if (tie_margin_ <= 0 || value_->refined() || value_->exact()) return ranked.front().action;
    const duel::DuelGame& game = value_->game();
    auto progress = [&](Action a) -> double {
      if (state.phase == duel::Phase::kDeclare) return a == duel::act::kMove ? 0 : 1;
      if (state.phase == duel::Phase::kDestination && duel::act::is_destination(a)) {
        duel::DuelState after = state;
        game.apply_unchecked(after, a);
        return -static_cast<double>(game.centre_distance2(after));
      }
      return 0;
    };
    Action best = ranked.front().action;
    double best_progress = progress(best);
    for (const ActionStat& stat : ranked) {
      if (stat.value < ranked.front().value - 2 * tie_margin_) break;  // payoffs are 2p - 1
      const double p = progress(stat.action);
      if (p > best_progress) {
        best = stat.action;
        best_progress = p;
      }
    }
    return best;
  }

  std::shared_ptr<const duel::CoarseDuelValue> value_;
  int pitch_cm_;
  bool same_lattice_;
  DuelRefineOptions refine_;
  double tie_margin_;
  double repetition_penalty_;
  // How often David handed Goliath each position (repetition key) in this game.
  std::unordered_map<std::uint64_t, int> seen_;
  Analysis analysis_;
};

// Declares (and reads) the lookahead agent's options.
struct DuelLookaheadOptions {
  int pitch_cm = 0;
  bool same_lattice = true;
  DuelRefineOptions refine;
  double tie_margin = 0.02;
  double repetition_penalty = 0;
  static DuelLookaheadOptions read(OptionReader& r) {
    DuelLookaheadOptions o;
    o.pitch_cm = static_cast<int>(r.integer(
        "value_pitch", 0, 0, 5,
        "lattice pitch (cm) of the exact solution interpolated as the value (0 = one cm coarser "
        "than the game's)"));
    o.same_lattice = r.integer("same_lattice", 1, 0, 1,
                               "use the game's own solution instead when the cache holds it (1) "
                               "or never (0)") == 1;
    o.refine = DuelRefineOptions::read(r, "");
    o.tie_margin = r.real("tie", 0.02, 0, 0.5,
                          "win probabilities within this of the best are ties, broken toward the "
                          "action that brings the decision sooner (plateaus; 0 = the best value; "
                          "refined values are played greedily)");
    o.repetition_penalty =
        r.real("repetition", 0, 0, 0.5,
               "David's destinations that hand Goliath a position already handed him in the game "
               "lose this much win probability for each time (stand-offs; 0 = off)");
    return o;
  }
};

inline AgentPtr<duel::DuelGame> make_duel_lookahead_agent(const duel::DuelGame& game,
                                                          const AgentSpec& spec) {
  OptionReader reader(spec);
  const DuelLookaheadOptions o = DuelLookaheadOptions::read(reader);
  reader.finish();
  const int pitch = o.pitch_cm == 0 ? duel::default_coarse_pitch(game) : o.pitch_cm;
  return std::make_unique<DuelLookaheadAgent>(
      duel::shared_coarse_value(game, pitch, o.same_lattice,
                                duel::CoarseDuelValue::Scope::kCandidates, o.refine.sweeps),
      pitch, o.same_lattice, o.refine, o.tie_margin, o.repetition_penalty);
}

}  // namespace sling
