#pragma once
// The self-play games of a `sling train danelaw --generations` run, as its checkpoint keeps them
// (games.bin in the run's directory): each game's rules variant, result, held-out mark and
// history, so that a resumed run rebuilds exactly the positions it had.
//
// Format (little-endian): the magic line "sling-danelaw-games\n", the format version (u32), the
// game count (u64), then per game: variant (u32), flags (u32: 1 the Danes won, 2 held out),
// history length (u64) and the actions (u32 each); last, the FNV-1a hash of every byte before it
// (u64).  A file that fails any check is a FileFormatError naming it; the histories' legality is
// checked when they are replayed (append_positions).

#include <string>
#include <vector>

#include "experiments/training/danelaw_training_data.h"

namespace sling::danelaw {

std::string played_games_bytes(const std::vector<PlayedGame>& games);
std::vector<PlayedGame> played_games_from_bytes(const std::string& bytes,
                                                const std::string& origin);

// Whole-file helpers (the write is atomic: a kill leaves the previous file).
void save_played_games(const std::string& path, const std::vector<PlayedGame>& games);
std::vector<PlayedGame> load_played_games(const std::string& path);

}  // namespace sling::danelaw
