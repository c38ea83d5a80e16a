// The duel's fast sampling for search: uniformly random declarations and destinations without
// listing them, and whole random playouts (the HasActionSampler and HasRandomPlayout hooks of
// engine/core/game.h).  Each draws exactly as a draw from the legal_actions list would.

#include <algorithm>
#include <bit>
#include <cstdint>

#include "engine/duel/destination_test.h"
#include "engine/duel/duel.h"

namespace sling::duel {

Action DuelGame::sample_declaration(const State& s, Rng& rng) const {
  // The same draw as from legal_actions' list (the declarations in increasing order), without
  // the list of up to 640 actions: the k-th set bit of the mask.
  std::uint32_t mask = declaration_mask(s);
  std::uint32_t count = 0;  // at most 5 bits: cheaper than the generic build's popcount call
  for (std::uint32_t rest = mask; rest != 0; rest &= rest - 1) ++count;
  for (std::uint32_t k = rng.uniform(count); k > 0; --k) mask &= mask - 1;
  return static_cast<Action>(std::countr_zero(mask));
}

Action DuelGame::sample_destination(const State& s, Rng& rng) const {
  // Rejection sampling over the movement disc is uniform over the legal destinations; staying
  // put is always legal, so a fallback listing is needed only in cramped positions.
  const detail::DestinationTest test(geometry_, s);
  const auto count = static_cast<std::uint32_t>(
      moves_.within[static_cast<std::size_t>(std::min<int>(s.allowance_cm, 12))]);
  for (int attempt = 0; attempt < 32; ++attempt) {
    const Action a = test.destination(moves_.offsets[rng.uniform(count)]);
    if (a != kInvalidAction) return a;
  }
  return sample_listed(s, rng);
}

Action DuelGame::sample_listed(const State& s, Rng& rng) const {
  ActionList<DuelGame> actions;
  legal_actions(s, actions);
  return actions[rng.uniform(static_cast<std::uint32_t>(actions.size()))];
}

Action DuelGame::sample_legal_action(const State& s, Rng& rng) const {
  switch (s.phase) {
    case Phase::kDeclare:
      return sample_declaration(s, rng);
    case Phase::kDestination:
      return sample_destination(s, rng);
    default:
      return sample_listed(s, rng);
  }
}

DuelState DuelGame::random_playout(State s, int max_plies, Rng& rng) const {
  // The generic loop's plies and draws, one phase switch a ply: the declaration, the dice and the
  // destination go straight to their rules (God's question and the tie-flee are rare).
  for (int ply = 0; max_plies == 0 || ply < max_plies; ++ply) {
    switch (s.phase) {
      case Phase::kTerminal:
        return s;
      case Phase::kRoll:
        settle_dice(s, sample_chance_outcome(s, rng));
        break;
      case Phase::kDeclare:
        declare(s, sample_declaration(s, rng));
        break;
      case Phase::kDestination:
        arrive(s, sample_destination(s, rng));
        break;
      case Phase::kGod:
      case Phase::kTieFlee:
        apply_decision(s, sample_listed(s, rng));
        break;
    }
  }
  return s;
}

}  // namespace sling::duel
