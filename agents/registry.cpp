#include "agents/registry.h"

namespace sling {

// The explicit instantiations that agents/registry.h declares (why: there).
template std::vector<AgentInfo> agent_catalogue(const pig::PigGame&);
template std::vector<AgentInfo> agent_catalogue(const duel::DuelGame&);
template std::vector<AgentInfo> agent_catalogue(const danelaw::DanelawGame&);
template AgentPtr<pig::PigGame> make_agent(const pig::PigGame&, std::string_view);
template AgentPtr<duel::DuelGame> make_agent(const duel::DuelGame&, std::string_view);
template AgentPtr<danelaw::DanelawGame> make_agent(const danelaw::DanelawGame&, std::string_view);

}  // namespace sling
