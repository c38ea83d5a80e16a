#pragma once
// Pig, the reference dice game.  Two players race to `goal` points.  On a turn the player to move
// either rolls a d6 or holds: a 1 ends the turn and loses the turn total, any other face adds to
// it; holding banks the turn total and passes the turn.  Both actions are always legal (holding
// with a turn total of 0 simply passes).  The game ends as soon as a player's banked score reaches
// the goal.
//
// Action layout: decisions are kRoll (0) and kHold (1); chance outcomes are the face rolled, 1..6.

#include <cereal/cereal.hpp>
#include <cereal/types/array.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/core/game.h"

namespace sling::pig {

struct PigRules {
  int goal = 100;  // points a player must bank to win

  template <class Archive>
  void serialize(Archive& archive) {
    archive(CEREAL_NVP(goal));
  }
  void validate() const;
  bool operator==(const PigRules&) const = default;
};

inline constexpr Action kRoll = 0;
inline constexpr Action kHold = 1;
inline constexpr int kFaces = 6;

enum class Phase : std::uint8_t { kDecision = 0, kRolling = 1, kOver = 2 };

struct PigState {
  std::array<std::uint16_t, 2> scores{};  // banked points of each side
  std::uint16_t turn_total = 0;           // points at risk this turn (saturates at 65535)
  std::uint8_t to_move = 0;               // the side whose turn it is (the winner once over)
  Phase phase = Phase::kDecision;

  bool operator==(const PigState&) const = default;

  template <class Archive>
  void serialize(Archive& archive) {
    std::uint8_t phase_value = static_cast<std::uint8_t>(phase);
    archive(cereal::make_nvp("scores", scores), cereal::make_nvp("turn_total", turn_total),
            cereal::make_nvp("to_move", to_move), cereal::make_nvp("phase", phase_value));
    phase = static_cast<Phase>(std::min<std::uint8_t>(phase_value, 2));
  }
};

class PigGame {
 public:
  using State = PigState;
  static constexpr std::size_t kMaxActions = 2;
  static constexpr std::size_t kMaxChanceOutcomes = kFaces;
  static constexpr int kMaxGoal = 10000;

  PigGame() : PigGame(PigRules{}) {}
  explicit PigGame(const PigRules& rules);

  const PigRules& rules() const { return rules_; }
  int goal() const { return rules_.goal; }
  const GameInfo& info() const { return info_; }

  State initial_state() const { return State{}; }
  Player current_player(const State& s) const {
    switch (s.phase) {
      case Phase::kDecision:
        return static_cast<Player>(s.to_move);
      case Phase::kRolling:
        return kChancePlayer;
      default:
        return kTerminalPlayer;
    }
  }
  bool is_terminal(const State& s) const { return s.phase == Phase::kOver; }
  void legal_actions(const State& s, ActionList<PigGame>& out) const {
    out.clear();
    if (s.phase != Phase::kDecision) return;
    out.push_back(kRoll);
    out.push_back(kHold);
  }
  void chance_outcomes(const State& s, ChanceList<PigGame>& out) const {
    out.clear();
    if (s.phase != Phase::kRolling) return;
    for (Action face = 1; face <= kFaces; ++face) out.push_back({face, 1.0 / kFaces});
  }
  void apply_action(State& s, Action action) const;
  void apply_chance(State& s, Action outcome) const;

  // The rule itself, without legality checks: the search hot path.  Applies a decision or a face,
  // whichever the state is waiting for.
  void apply_unchecked(State& s, Action action) const {
    if (s.phase == Phase::kRolling) {
      if (action == 1) {
        s.turn_total = 0;
        s.to_move ^= 1;
      } else {
        const unsigned total = s.turn_total + action;
        s.turn_total = static_cast<std::uint16_t>(total > 0xffff ? 0xffff : total);
      }
      s.phase = Phase::kDecision;
    } else if (action == kRoll) {
      s.phase = Phase::kRolling;
    } else {
      const unsigned banked = s.scores[s.to_move] + s.turn_total;
      s.turn_total = 0;
      if (banked >= static_cast<unsigned>(rules_.goal)) {
        s.scores[s.to_move] = static_cast<std::uint16_t>(banked > 0xffff ? 0xffff : banked);
        s.phase = Phase::kOver;  // to_move stays the winner
      } else {
        s.scores[s.to_move] = static_cast<std::uint16_t>(banked);
        s.to_move ^= 1;
      }
    }
  }

  // Fast draws for playouts: one random word each, no list building.
  Action sample_legal_action(const State&, Rng& rng) const {
    return static_cast<Action>(rng.next() >> 63);
  }
  Action sample_chance_outcome(const State&, Rng& rng) const { return 1 + rng.uniform(kFaces); }

  Returns returns(const State& s) const {
    if (s.phase != Phase::kOver) return {0.0, 0.0};
    return s.to_move == 0 ? Returns{1.0, -1.0} : Returns{-1.0, 1.0};
  }
  int winner(const State& s) const { return s.phase == Phase::kOver ? s.to_move : -1; }

  std::string action_to_string(const State& s, Action action) const;
  Action parse_action(const State& s, std::string_view text) const;
  std::string state_to_string(const State& s) const;
  std::string rules_json() const;
  static std::uint64_t hash(const State& s) { return hash_bytes(s); }
  static PigGame from_rules_json(std::string_view text);

  // Hooks for search and agents.
  // Hold at 20 (or as soon as holding wins); otherwise roll.
  Action heuristic_action(const State& s, Rng&) const { return hold_at_action(s, 20); }
  Action hold_at_action(const State& s, int threshold) const {
    const int total = s.turn_total;
    return (total >= threshold || s.scores[s.to_move] + total >= rules_.goal) ? kHold : kRoll;
  }
  // A static estimate for side 0 in [-1, 1]: the lead in points (counting the turn total as the
  // mover's), scaled by the goal, plus the tempo of being the side to move.
  double evaluate(const State& s) const;
  std::string_view end_reason(const State& s) const {
    return s.phase == Phase::kOver ? "reached the goal" : "unfinished";
  }

 private:
  PigRules rules_;
  GameInfo info_;
};

}  // namespace sling::pig
