#include "experiments/tournament/tournament.h"

namespace sling {

// The explicit instantiations that experiments/tournament/tournament.h declares (why: there).
template TournamentReport run_tournament(const pig::PigGame&, const TournamentConfig&,
                                         const TournamentOptions&, std::ostream&,
                                         AgentFactory<pig::PigGame>);
template TournamentReport run_tournament(const duel::DuelGame&, const TournamentConfig&,
                                         const TournamentOptions&, std::ostream&,
                                         AgentFactory<duel::DuelGame>);
template TournamentReport run_tournament(const danelaw::DanelawGame&, const TournamentConfig&,
                                         const TournamentOptions&, std::ostream&,
                                         AgentFactory<danelaw::DanelawGame>);

}  // namespace sling
