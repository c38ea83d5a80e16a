#pragma once
// A finished game's result as bytes, to cross a process boundary: from a forked game process to the
// tournament (--isolate), or from an MPI worker rank to rank 0.  Both ends are the same binary (MPI
// ranks check that at start), so numbers travel in the machine's own byte order.

#include <string>
#include <string_view>

#include "experiments/play_game.h"

namespace sling {

std::string encode_game_result(const GameResult& result);
// False when the bytes are not a whole encoded result.
bool decode_game_result(std::string_view bytes, GameResult& result);

}  // namespace sling
