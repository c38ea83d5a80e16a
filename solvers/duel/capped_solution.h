#pragma once
// The duel with a turn cap, solved exactly by backward induction over the turns left
// (docs/solver.md, "The capped duel"): its summary, its values at any turn, exact play anywhere,
// and the capped solution file.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/duel/duel.h"
#include "solvers/duel/index.h"

namespace sling::duel {

namespace detail {
struct LatticeTables;
}

// What David maximises and Goliath minimises.  kScore: David's expected score, a win 1 and a draw
// (the cap reached) ½, the tournaments' convention; kWin: David's win probability alone.
enum class CappedObjective : std::uint8_t { kScore = 0, kWin = 1 };
const char* objective_name(CappedObjective objective);
CappedObjective parse_objective(const std::string& text);  // OptionError on anything else

// The game's outcome from one point under the optimal pair of policies: the objective's value
// and the probabilities of the three results (the policies are those the objective chooses; the
// probabilities are evaluated exactly under them).
struct CappedOutcome {
  double value = 0, david_wins = 0, draw = 0, goliath_wins = 0;
};

struct CappedSummary {
  int turn_cap = 0;
  CappedObjective objective = CappedObjective::kScore;
  // Before the initiative roll, David acting first, Goliath acting first; with God (as the
  // rules set it) and without.
  CappedOutcome start, david_first, goliath_first;
  CappedOutcome start_without_god, david_first_without_god, goliath_first_without_god;
  // The start (before the initiative) of the game capped at k turns, for k = 1..turn_cap: the
  // backward induction solves every shorter cap on its way.  Index k - 1.
  std::vector<CappedOutcome> start_by_cap, start_by_cap_without_god;
  std::uint64_t states = 0, canonical_states = 0;
  int layers = 0;
  int keyframe_every = 0;
  double seconds = 0;
  std::uint64_t peak_memory_bytes = 0;
  int threads = 0;
};

// The values with k turns left at one turn count: a keyframe of the solution file.  `values`:
// every canonical state (layer, slot, canonical pair in LatticeTables::canonical_pairs order),
// float32; `lost_turn`: David's slot without a stone, Goliath dazed, of the values with k - 1
// turns left (the only slot a turn reads two turns back, see capped_turn.h).
struct CappedKeyframe {
  int turns_left = 0;
  std::vector<float> values, lost_turn;
};

class CappedDuelSolution {
 public:
  static constexpr std::uint32_t kFormatVersion = 1;

  CappedDuelSolution(const DuelGame& game, CappedSummary summary,
                     std::vector<CappedKeyframe> keyframes);
  CappedDuelSolution(const CappedDuelSolution& other);  // (what play computed is not copied)
  CappedDuelSolution(CappedDuelSolution&& other) noexcept;

  const DuelGame& game() const { return game_; }
  const DuelIndex& index() const { return index_; }
  const CappedSummary& summary() const { return summary_; }
  int turn_cap() const { return summary_.turn_cap; }
  CappedObjective objective() const { return summary_.objective; }
  double draw_value() const { return summary_.objective == CappedObjective::kScore ? 0.5 : 0.0; }
  const std::vector<CappedKeyframe>& keyframes() const { return keyframes_; }

  // The objective's value of every declare state (DuelIndex) with k turns left, counting the
  // turn about to be declared (a state whose turn counter is c has turn_cap - c + 1 left);
  // recomputed from the nearest keyframe at or below by the backward induction, one pass a turn.
  // Play goes down through the turns, so the turns computed below k stay cached (the next
  // requests find them) and those above k + 1 are dropped.  k <= 0: the draw everywhere.
  std::shared_ptr<const std::vector<double>> values_at(int turns_left) const;

  // The objective's value at any state of a game under these rules (the turn counter decides
  // how many turns are left): an exact expectimax over the rest of the current turn with the
  // values at the next turn's start.
  double value(const DuelState& s) const;
  std::vector<std::pair<Action, double>> action_values(const DuelState& s) const;
  Action best_action(const DuelState& s) const;

  // Cereal binary: magic, version, then the body (rules JSON, sizes, the summary and the
  // keyframes) as one string with its checksum.
  void save(const std::string& path) const;
  // Throws FileFormatError for a corrupted, truncated or foreign file or another version,
  // RulesError when `expected` is given and the file was solved for other rules.
  static CappedDuelSolution load(const std::string& path, const DuelGame* expected = nullptr);

 private:
  double turn_value(const DuelState& s, bool root) const;

  DuelGame game_;
  DuelIndex index_;
  CappedSummary summary_;
  std::vector<CappedKeyframe> keyframes_;
  // The values computed for play: turns left -> values (see values_at).
  mutable std::mutex mutex_;
  mutable std::map<int, std::shared_ptr<const std::vector<double>>> segment_;
  // The lattice's tables, built at the first recomputation and kept (a copy builds its own).
  mutable std::shared_ptr<const detail::LatticeTables> lattice_;
};

}  // namespace sling::duel
