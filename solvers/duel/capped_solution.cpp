#include "solvers/duel/capped_solution.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <stdexcept>

#include "engine/core/errors.h"
#include "solvers/duel/capped_turn.h"
#include "solvers/duel/turn_expectation.h"

namespace sling::duel {

using namespace detail;

const char* objective_name(CappedObjective objective) {
  return objective == CappedObjective::kWin ? "win" : "score";
}

CappedObjective parse_objective(const std::string& text) {
  if (text == "score") return CappedObjective::kScore;
  if (text == "win") return CappedObjective::kWin;
  throw OptionError("unknown objective '" + text + "' (score or win)");
}

CappedDuelSolution::CappedDuelSolution(const DuelGame& game, CappedSummary summary,
                                       std::vector<CappedKeyframe> keyframes)
    : game_(game), index_(game), summary_(std::move(summary)), keyframes_(std::move(keyframes)) {}

CappedDuelSolution::CappedDuelSolution(const CappedDuelSolution& other)
    : game_(other.game_),
      index_(other.index_),
      summary_(other.summary_),
      keyframes_(other.keyframes_) {}

CappedDuelSolution::CappedDuelSolution(CappedDuelSolution&& other) noexcept
    : game_(std::move(other.game_)),
      index_(other.index_),
      summary_(std::move(other.summary_)),
      keyframes_(std::move(other.keyframes_)),
      lattice_(std::move(other.lattice_)) {}

namespace {

// The layers the rules use (the God layers only when God is enabled).
std::vector<int> used_layers(const DuelGame& game) {
  std::vector<int> layers = {0, 1, 2};
  if (game.rules().god_enabled) layers.insert(layers.end(), {3, 4, 5});
  return layers;
}

// A keyframe's canonical floats written to the state and its mirror image of full arrays.
void expand(const LatticeTables& lattice, const std::vector<int>& layers, const CappedKeyframe& key,
            std::vector<double>& values, std::vector<double>& before) {
  const auto& pairs = lattice.canonical_pairs;
  std::size_t at = 0, lost_at = 0;
  const int lost = DuelIndex::david_slot(false, true);
  for (int layer : layers) {
    for (int slot = 0; slot < DuelIndex::kSlots; ++slot) {
      for (std::uint32_t p : pairs) {
        const double v = key.values[at++];
        values[lattice.index.at(layer, slot, p)] = v;
        values[lattice.index.at(layer, slot, lattice.index.mirror(p))] = v;
      }
    }
    for (std::uint32_t p : pairs) {
      const double v = key.lost_turn[lost_at++];
      before[lattice.index.at(layer, lost, p)] = v;
      before[lattice.index.at(layer, lost, lattice.index.mirror(p))] = v;
    }
  }
}

}  // namespace

std::shared_ptr<const std::vector<double>> CappedDuelSolution::values_at(int turns_left) const {
  if (turns_left > turn_cap()) throw std::out_of_range("capped duel solution: beyond the cap");
  turns_left = std::max(0, turns_left);
  const double draw = draw_value();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = segment_.find(turns_left);
  if (found != segment_.end()) return found->second;
  auto none_left = segment_.count(0)
                       ? segment_.at(0)
                       : std::make_shared<const std::vector<double>>(index_.size(), draw);
  segment_[0] = none_left;
  if (turns_left == 0) return none_left;
  // Play goes down through the turns, and a turn reads the values one and two turns below its
  // own: the turns above the one asked for (but the next) are dropped, those below kept.
  for (auto it = segment_.begin(); it != segment_.end();) {
    it = it->first > turns_left + 1 ? segment_.erase(it) : std::next(it);
  }
  // From the nearest keyframe at or below up to the turn asked for (one pass a turn).
  const CappedKeyframe* key = nullptr;
  for (const CappedKeyframe& k : keyframes_) {
    if (k.turns_left <= turns_left) key = &k;
  }
  const int from = key != nullptr ? key->turns_left : 0;
  if (!lattice_) lattice_ = std::make_shared<const LatticeTables>(game_);
  const LatticeTables& lattice = *lattice_;
  const std::vector<int> layers = used_layers(game_);
  std::shared_ptr<std::vector<double>> before, prev;
  if (key != nullptr) {
    prev = std::make_shared<std::vector<double>>(index_.size(), draw);
    before = std::make_shared<std::vector<double>>(index_.size(), draw);
    expand(lattice, layers, *key, *prev, *before);
    segment_[from] = prev;
  } else {
    before = prev = std::make_shared<std::vector<double>>(index_.size(), draw);
  }
  if (from == turns_left) return prev;
  CappedScratch<Mode::kOptimal> scratch(lattice);
  // Isolated: while this thread waits for the pass's parallel loops it must not pick up another
  // task of the caller's (a game of a parallel match) that would ask for values and block on the
  // mutex this thread holds.
  tbb::this_task_arena::isolate([&] {
    for (int k = from + 1; k <= turns_left; ++k) {
      auto cur = std::make_shared<std::vector<double>>(index_.size(), draw);
      capped_turn<Mode::kOptimal>(lattice, layers, CappedValues{before->data()},
                                  CappedValues{prev->data()}, CappedValues{cur->data()}, draw,
                                  k == 1, scratch);
      segment_[k] = cur;
      before = prev;
      prev = cur;
    }
  });
  return prev;
}

double CappedDuelSolution::turn_value(const DuelState& root_state, bool root) const {
  std::map<int, std::shared_ptr<const std::vector<double>>> arrays;  // turns left -> values
  return expectation_over_turn(
      game_, root_state, root, /*forget_turn=*/false,
      [&](const DuelState& s, bool is_root) -> std::optional<double> {
        switch (s.phase) {
          case Phase::kTerminal:
            return s.winner == kDavid ? 1.0 : s.winner == kGoliath ? 0.0 : draw_value();
          case Phase::kDeclare:
            if (!is_root) {
              const auto i = index_.index_of(s);
              if (!i) {
                throw IllegalActionError("capped duel solution: state outside the solved index");
              }
              const int turns_left = turn_cap() - static_cast<int>(s.turn) + 1;
              if (turns_left <= 0) return draw_value();
              auto& a = arrays[turns_left];
              if (!a) a = values_at(turns_left);
              return (*a)[*i];
            }
            break;
          case Phase::kRoll:
            if (!is_root && s.roll == Roll::kInitiative && s.rerolling == 0) {
              return s.has(kGodAvailable) ? summary_.start.value : summary_.start_without_god.value;
            }
            break;
          default:
            break;
        }
        return std::nullopt;
      });
}

double CappedDuelSolution::value(const DuelState& s) const {
  if (s.phase == Phase::kRoll && s.roll == Roll::kInitiative && s.rerolling == 0) {
    return s.has(kGodAvailable) ? summary_.start.value : summary_.start_without_god.value;
  }
  return turn_value(s, true);
}

std::vector<std::pair<Action, double>> CappedDuelSolution::action_values(const DuelState& s) const {
  return values_of_actions(game_, s, [&](const DuelState& t) { return turn_value(t, false); });
}

Action CappedDuelSolution::best_action(const DuelState& s) const {
  return best_of_actions(game_, s, action_values(s));
}

}  // namespace sling::duel
