#pragma once
// What the self-play steps of `sling train danelaw` share: agent specs that name a model file of
// the run, pairs of games on shared dice between two such agents, and rank 0's word to the MPI
// workers.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"

namespace sling::danelaw {

// The agent's spec with its value model named: every agent of a run scores with a file of the
// run's directory, so the games play exactly the models the checkpoint holds.
std::string with_model(const std::string& agent, const std::string& model_path);

// Pairs of games on shared dice between agents a and b: one match with a on side 0 and one with
// it on side 1, on the same seed, so game i of each is played on the same dice.  Returns, for each
// pair, the winner (side index, -1 a draw) of the game with a on side 0, then of the one with a on
// side 1.  On MPI ranks the matches are dealt out as any match; rank 0 alone gets the winners.
// Throws SlingError when a game fails.
std::vector<int> paired_winners(const DanelawGame& game, const std::string& a, const std::string& b,
                                int pairs, std::uint64_t seed, int threads);

// a's mean score in paired_winners's games (a draw counts half).
double paired_score(const std::vector<int>& winners);

// Rank 0's word to the workers (every rank gets it; without MPI it is just returned).
std::string tell_workers(const std::string& text);

}  // namespace sling::danelaw
