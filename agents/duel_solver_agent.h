#pragma once
// `solver`: plays either side of the duel optimally from a saved exact solution
// (`solver:file=duel.sol`, written by `sling solve duel`).  Every decision, God's included, is the
// best by the solved values, and the analysis lists the exact value of every legal action.

#include <cstdint>
#include <memory>
#include <string>

#include "agents/agent.h"
#include "agents/spec.h"
#include "engine/duel/duel.h"

namespace sling {

namespace duel {
class DuelSolution;
class CappedDuelSolution;
}  // namespace duel

// Plays from an exact solution: `Solution` is duel::DuelSolution, or duel::CappedDuelSolution
// under rules with a turn cap (`sling solve duel --turn-cap N`), whose values are those of the
// turns that are left (the state's turn counter says how many) under its objective (score or win).
// Its members are compiled once, for those two (agents/duel_solver_agent.cpp).
template <class Solution>
class ExactDuelAgent final : public Agent<duel::DuelGame> {
 public:
  // `spec_options`: what spec() adds after the file (",allow_uncertified=1" or nothing); with no
  // file (a capped solution from the cache) the whole of the spec's options.
  ExactDuelAgent(std::shared_ptr<const Solution> solution, std::string file,
                 std::string spec_options = "");

  void new_game(std::uint64_t) override {}
  Action act(const duel::DuelState& state) override;
  Analysis last_analysis() const override { return analysis_; }
  std::string spec() const override;
  const Solution& solution() const { return *solution_; }

 private:
  std::shared_ptr<const Solution> solution_;
  std::string file_;
  std::string spec_options_;
  Analysis analysis_;
};

extern template class ExactDuelAgent<duel::DuelSolution>;
extern template class ExactDuelAgent<duel::CappedDuelSolution>;

using DuelSolverAgent = ExactDuelAgent<duel::DuelSolution>;
using DuelCappedSolverAgent = ExactDuelAgent<duel::CappedDuelSolution>;

// Loads the solution named by `file` once per content (a rewritten file is read again) and checks
// that it was solved for this game's rules.  Two solutions of each kind stay loaded at most: one
// at the default lattice takes about 2 GiB (a capped one's recomputed turns are shared too).
std::shared_ptr<const duel::DuelSolution> shared_duel_solution(const duel::DuelGame& game,
                                                               const std::string& file);
std::shared_ptr<const duel::CappedDuelSolution> shared_capped_duel_solution(
    const duel::DuelGame& game, const std::string& file);

// One warning on stderr per file and process for an uncertified solution played anyway.
void warn_uncertified_once(const std::string& file, const std::string& line);

// The `solver` agent's options, declared once for the agent and for `sling agents duel`.
struct DuelSolverOptions {
  std::string file;
  bool allow_uncertified = false;
  std::string objective;
  static DuelSolverOptions read(OptionReader& reader);
};

AgentPtr<duel::DuelGame> make_duel_solver_agent(const duel::DuelGame& game, const AgentSpec& spec);

}  // namespace sling
