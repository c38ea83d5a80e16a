#include "solvers/duel/capped_solution.h"

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
      keyframes_(std::move(other.keyframes_)) {}

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
  const double draw = draw_value();
  if (turns_left <= 0) return std::make_shared<const std::vector<double>>(index_.size(), draw);
  if (turns_left > turn_cap()) throw std::out_of_range("capped duel solution: beyond the cap");
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = segment_.find(turns_left);
  if (found != segment_.end()) return found->second;
  // The segment from the nearest keyframe at or below to the next one (or the cap): play goes
  // down through the turns, so the whole segment is kept and the one before dropped.
  const CappedKeyframe* key = nullptr;
  for (const CappedKeyframe& k : keyframes_) {
    if (k.turns_left <= turns_left) key = &k;
  }
  const int from = key != nullptr ? key->turns_left : 0;
  const int to = std::min(turn_cap(), from + std::max(1, summary_.keyframe_every));
  segment_.clear();
  const LatticeTables lattice(game_);
  const std::vector<int> layers = used_layers(game_);
  auto before = std::make_shared<std::vector<double>>(index_.size(), draw);
  auto prev = std::make_shared<std::vector<double>>(index_.size(), draw);
  if (key != nullptr) expand(lattice, layers, *key, *prev, *before);
  segment_[from] = prev;
  CappedScratch<Mode::kOptimal> scratch(lattice);
  for (int k = from + 1; k <= to; ++k) {
    auto cur = std::make_shared<std::vector<double>>(index_.size(), draw);
    capped_turn<Mode::kOptimal>(lattice, layers, CappedValues{before->data()},
                                CappedValues{prev->data()}, CappedValues{cur->data()}, draw, k == 1,
                                scratch);
    segment_[k] = cur;
    before = prev;
    prev = cur;
  }
  return segment_.at(turns_left);
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
