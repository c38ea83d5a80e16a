#pragma once
// Sling's one dice convention: every way of playing a game (`sling play`, `match`, `tournament`,
// the web page, a replay that continues a record) throws the die of ply n of a game with seed s
// from its own stream, Rng(s, 0).derive(n), where n counts every decision and chance outcome
// applied before it (the length of the game record's history at that point).
//
// Why one stream per ply rather than one stream drawn in order:
//   - a die depends on (seed, ply) alone, not on how many draws earlier dice consumed, so a game
//   can
//     be continued from any ply of its record (`play --load`, undo) and throw the dice it would
//     have thrown anyway, without re-drawing the past;
//   - `undo` in `sling play` cannot be used to fish for a better roll: the same ply gives the same
//     die;
//   - it costs two 64-bit mixes per die, nothing next to a game step.
// Agents draw their own randomness from other streams (agent_seed in experiments/play_game.h).

#include <cstdint>

#include "engine/core/game.h"
#include "engine/core/random.h"

namespace sling {

// The random stream of the die thrown at ply `ply` of the game with seed `game_seed`.
constexpr Rng dice_stream(std::uint64_t game_seed, std::uint64_t ply) {
  return Rng(game_seed, 0).derive(ply);
}

// The chance outcome at ply `ply` (state must be waiting for chance) of the game with seed
// `game_seed`.
template <Game G>
Action roll_dice(const G& game, const typename G::State& state, std::uint64_t game_seed,
                 std::uint64_t ply) {
  Rng rng = dice_stream(game_seed, ply);
  return sample_chance(game, state, rng);
}

}  // namespace sling
