#include "agents/duel_lookahead_agent.h"

#include <algorithm>
#include <cstdio>

#include "agents/duel_action_values.h"
#include "engine/core/errors.h"
#include "solvers/duel/exploit_values.h"
#include "solvers/duel/solution_cache.h"

namespace sling {

DuelLookaheadAgent::DuelLookaheadAgent(std::shared_ptr<const duel::CoarseDuelValue> value,
                                       int pitch_cm, bool same_lattice, DuelRefineOptions refine,
                                       bool background_requested,
                                       std::unique_ptr<DuelBackgroundValue> background,
                                       double tie_margin, double repetition_penalty,
                                       DuelExploitOptions exploit)
    : value_(std::move(value)),
      pitch_cm_(pitch_cm),
      same_lattice_(same_lattice),
      refine_(refine),
      background_requested_(background_requested),
      background_(std::move(background)),
      tie_margin_(tie_margin),
      repetition_penalty_(repetition_penalty),
      exploit_(std::move(exploit)) {}

void DuelLookaheadAgent::new_game(std::uint64_t) {
  seen_.clear();
  deviated_ = {false, false};
}

void DuelLookaheadAgent::observe(const duel::DuelState& before, Action applied) {
  if (!exploit_.active() || !exploit_.recognise) return;
  const duel::DuelGame& game = value_->game();
  const Player player = game.current_player(before);
  if (player == kChancePlayer || deviated_[player]) return;
  Rng unused(0, 0);  // the heuristic is deterministic and draws nothing
  if (game.heuristic_action(before, unused) != applied) deviated_[player] = true;
}

std::string DuelLookaheadAgent::switch_when_ready() {
  if (!background_) return "";
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.0f s", background_->seconds());
  if (!background_->finished()) {
    if (told_background_) return "";
    told_background_ = true;
    return "playing the interpolated values while the refined ones are computed in the "
           "background (once, then cached; the switch will be told)";
  }
  std::string line;
  if (auto refined = background_->value()) {
    value_ = std::move(refined);
    line = std::string("now playing the refined values (computed in the background in ") + seconds +
           ")";
  } else {
    line = "the refinement in the background failed (" + background_->error() +
           "); still playing the interpolated values";
  }
  background_.reset();
  return line;
}

Action DuelLookaheadAgent::act(const duel::DuelState& state) {
  const std::string note = switch_when_ready();
  auto values = value_->action_values(state);
  if (values.empty()) throw IllegalActionError("lookahead agent: no decision is pending");
  const duel::DuelGame& game = value_->game();
  const bool david = game.current_player(state) == duel::kDavid;
  const bool moving = state.phase == duel::Phase::kDestination;
  if (moving && david && repetition_penalty_ > 0) charge_repetitions(state, values);
  analysis_ = rank_duel_action_values(values, david, value_->exact());
  analysis_.note = note;
  const bool exploiting = exploit_.active() && !deviated_[david ? duel::kGoliath : duel::kDavid];
  const Action chosen = exploiting ? exploit(state, values, david) : pick_among_ties(state);
  explain_tie_break(chosen,
                    exploiting && exploit_.against[david ? duel::kDavid : duel::kGoliath]->exact()
                        ? kExactTieMargin
                        : tie_margin_);
  if (moving && david && repetition_penalty_ > 0) {
    duel::DuelState after = state;
    game.apply_unchecked(after, chosen);
    ++seen_[game.repetition_key(after)];
  }
  return chosen;
}

std::string DuelLookaheadAgent::spec() const {
  char margin[32], repetition[32];
  std::snprintf(margin, sizeof margin, "%g", tie_margin_);
  std::snprintf(repetition, sizeof repetition, "%g", repetition_penalty_);
  std::string text = "lookahead:value_pitch=" + std::to_string(pitch_cm_) +
                     ",same_lattice=" + (same_lattice_ ? "1" : "0") + refine_.spec();
  if (refine_.sweeps > 0) text += std::string(",background=") + (background_requested_ ? "1" : "0");
  text += std::string(",tie=") + margin + ",repetition=" + repetition;
  if (exploit_.active()) {
    char safety[32];
    std::snprintf(safety, sizeof safety, "%g", exploit_.safety);
    text += std::string(",opponent=") + (exploit_.recognise ? "auto" : "heuristic") +
            ",exploit_pitch=" + std::to_string(exploit_.pitch_cm) + ",safety=" + safety +
            ",replies=" + std::to_string(exploit_.replies);
  }
  return text;
}

// The action best against the modelled opponent among those within the safety margin of the
// best safe value; the analysis then ranks those actions by their values against the opponent.
Action DuelLookaheadAgent::exploit(const duel::DuelState& state,
                                   const std::vector<std::pair<Action, double>>& safe_values,
                                   bool david) {
  const auto& against = exploit_.against[david ? duel::kDavid : duel::kGoliath];
  const auto exploit_values = against->action_values(state);
  double best_safe = david ? 0 : 1;
  for (const auto& [action, p] : safe_values)
    best_safe = david ? std::max(best_safe, p) : std::min(best_safe, p);
  std::vector<std::pair<Action, double>> allowed;
  for (std::size_t i = 0; i < safe_values.size(); ++i) {
    const double p = safe_values[i].second;
    if (david ? p >= best_safe - exploit_.safety : p <= best_safe + exploit_.safety)
      allowed.push_back(exploit_values[i]);
  }
  analysis_ = rank_duel_action_values(allowed, david, false);
  // A best response has stand-offs of its own (a heuristic that waits where waiting suits the
  // responder too): its ties are broken toward progress like the safe values'.  On the tables'
  // own lattice the values are exact and only near-equal ones are ties: at 3 cm a margin of
  // 0.001 wins 44.1 % as David where 0.02 gives up 4 points (docs/strength.md).
  return pick_among_ties(state, against->exact() ? kExactTieMargin : tie_margin_);
}

// The tie rule (pick_among_ties) can play a move valued slightly below the best: the analysis
// then values the position by the move played, and its note says why moves listed below it show
// more, so that a hint or a log that stars the played move does not contradict its numbers.
void DuelLookaheadAgent::explain_tie_break(Action chosen, double margin) {
  const std::vector<ActionStat>& ranked = analysis_.actions;
  const auto played = std::find_if(ranked.begin(), ranked.end(),
                                   [&](const ActionStat& s) { return s.action == chosen; });
  if (played == ranked.end() || played->value >= ranked.front().value) return;
  analysis_.value = played->value;
  char within[32], above[32];
  std::snprintf(within, sizeof within, "%.1f", 100 * margin);
  std::snprintf(above, sizeof above, "%.1f", 100 * (ranked.front().value - played->value) / 2);
  const std::string line = std::string("win chances within ") + within +
                           " points of the highest count as equal, the values being approximate, "
                           "and the move that closes in soonest is played, as the exact solution "
                           "would: the highest is " +
                           above + " points above it";
  analysis_.note = analysis_.note.empty() ? line : analysis_.note + "; " + line;
}

// Plateaus (see pick_among_ties) have a second symptom: errors of the interpolated values can
// make David stand or walk between a few places where waiting looks best, a stand-off that
// never ends.  So a destination that hands
// Goliath a position he has already been handed in this game costs `repetition_penalty_` of win
// probability each time it was, the way the solver's discount charges waiting: in time every
// place to wait has been used up, and David acts.  (Only David's: a stand-off held for ever is
// a game David does not win, so it is Goliath's to choose.)
void DuelLookaheadAgent::charge_repetitions(const duel::DuelState& state,
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
// before a move; the destination nearest the other figure).  `exploit_margin` >= 0: the ranked
// values are the exploiting ones, with that margin.
Action DuelLookaheadAgent::pick_among_ties(const duel::DuelState& state,
                                           double exploit_margin) const {
  const bool exploiting = exploit_margin >= 0;
  const double margin = exploiting ? exploit_margin : tie_margin_;
  const std::vector<ActionStat>& ranked = analysis_.actions;
  // Refined values are a sub-solution: the greedy choice is the one that keeps its guarantee.
  // The game's own exact solution has no plateau errors to break: its values are the solver's
  // (discounted, so the greedy choice acts), and a margin would only move play off the optimum.
  if (margin <= 0 || (!exploiting && (value_->refined() || value_->exact())))
    return ranked.front().action;
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
    if (stat.value < ranked.front().value - 2 * margin) break;  // payoffs are 2p - 1
    const double p = progress(stat.action);
    if (p > best_progress) {
      best = stat.action;
      best_progress = p;
    }
  }
  return best;
}

DuelLookaheadOptions DuelLookaheadOptions::read(OptionReader& r) {
  DuelLookaheadOptions o;
  o.values = DuelValueSource::read(r, "");
  o.background =
      r.integer("background", 0, 0, 1,
                "with refine: when the refined values are not yet computed, play the interpolated "
                "ones while they are computed on a thread of their own, and switch when they are "
                "ready (1; for tables with a person: when it switches depends on the clock) or "
                "compute them before the first move (0)") == 1;
  o.tie_margin = r.real("tie", 0.02, 0, 0.5,
                        "win probabilities within this of the best are ties, broken toward the "
                        "action that brings the decision sooner (plateaus; 0 = the best value; "
                        "refined values are played greedily)");
  o.repetition_penalty =
      r.real("repetition", 0, 0, 0.5,
             "David's destinations that hand Goliath a position already handed him in the game "
             "lose this much win probability for each time (stand-offs; 0 = off)");
  const std::string opponent =
      r.choice("opponent", "any", {"any", "heuristic", "auto"},
               "the opponent to play against: any (safe values only), heuristic (exploit it: "
               "values of the exact best response to it) or auto (exploit it while every "
               "decision of the opponent is the heuristic's, then safe values)");
  o.exploit = opponent != "any";
  o.recognise = opponent == "auto";
  o.exploit_pitch_cm = static_cast<int>(
      r.integer("exploit_pitch", 3, 2, 5,
                "opponent=heuristic: lattice pitch (cm) of the best response (30 cm board: 3 "
                "takes seconds, 2 about 7 minutes and 8 GB; once, then cached)"));
  o.safety = r.real("safety", 1, 0, 1,
                    "opponent=heuristic: exploit only among actions within this much win "
                    "probability of the best safe value (1 = exploit freely)");
  o.replies = static_cast<int>(
      r.integer("replies", 1, 0, 3,
                "opponent=heuristic: how many of the heuristic's turns to follow on the game's "
                "lattice before reading the best response's values (0: read at its next turn "
                "start)"));
  return o;
}

AgentPtr<duel::DuelGame> make_duel_lookahead_agent(const duel::DuelGame& game,
                                                   const AgentSpec& spec) {
  OptionReader reader(spec);
  const DuelLookaheadOptions o = DuelLookaheadOptions::read(reader);
  reader.finish();
  const int pitch = o.values.pitch_cm == 0 ? duel::default_coarse_pitch(game) : o.values.pitch_cm;
  DuelExploitOptions exploit;
  if (o.exploit) {
    for (const duel::Side side : {duel::kDavid, duel::kGoliath}) {
      exploit.against[side] = std::make_shared<const DuelExploitValues>(
          duel::shared_exploit_value(game, o.exploit_pitch_cm, side), side, o.replies);
    }
    exploit.pitch_cm = o.exploit_pitch_cm;
    exploit.replies = o.replies;
    exploit.recognise = o.recognise;
    exploit.safety = o.safety;
  }
  const auto scope = duel::CoarseDuelValue::Scope::kCandidates;
  const bool same_lattice = o.values.same_lattice;
  const duel::RefinementRequest refine = o.values.refine.request();
  std::unique_ptr<DuelBackgroundValue> background;
  std::shared_ptr<const duel::CoarseDuelValue> value;
  if (o.background && refine.sweeps > 0 &&
      !duel::coarse_value_is_ready(game, pitch, same_lattice, scope, refine)) {
    value = duel::shared_coarse_value(game, pitch, same_lattice, scope);
    background = std::make_unique<DuelBackgroundValue>([game, pitch, same_lattice, refine](
                                                           const std::function<bool()>& cancelled) {
      return duel::shared_coarse_value(
          game, pitch, same_lattice, duel::CoarseDuelValue::Scope::kCandidates, refine, cancelled);
    });
  } else {
    value = duel::shared_coarse_value(game, pitch, same_lattice, scope, refine);
  }
  return std::make_unique<DuelLookaheadAgent>(
      std::move(value), pitch, same_lattice, o.values.refine, o.background, std::move(background),
      o.tie_margin, o.repetition_penalty, std::move(exploit));
}

}  // namespace sling
