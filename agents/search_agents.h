#pragma once
// `mcts` and `expectimax`: the searches of search/ behind the Agent interface, with their spec
// options.  Each agent's options are read by one function, which both parses a spec and (run on an
// empty spec) lists the options with defaults and ranges for `sling agents`.

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/game_value.h"
#include "agents/spec.h"
#include "search/expectimax.h"
#include "search/mcts.h"

namespace sling {

namespace agent_detail {

inline std::string format_real(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

template <Game G>
std::vector<std::string> rollout_choices() {
  if constexpr (HasHeuristicPolicy<G>) {
    return {"random", "heuristic"};
  } else {
    return {"random"};
  }
}

template <Game G>
std::vector<std::string> leaf_choices() {
  std::vector<std::string> out = {"rollout"};
  if constexpr (HasEvaluator<G>) out.push_back("evaluate");
  if constexpr (GameValue<G>::kAvailable) out.push_back("value");
  return out;
}

// The value function's options, read into `out` when given (the catalogue passes none).
template <Game G>
void read_value_options(OptionReader& r, typename GameValue<G>::Options* out) {
  if constexpr (GameValue<G>::kAvailable) {
    const auto options = GameValue<G>::read(r);
    if (out != nullptr) *out = options;
  } else {
    (void)r;
    (void)out;
  }
}

inline search::RolloutPolicy rollout_policy(const std::string& name) {
  return name == "heuristic" ? search::RolloutPolicy::kHeuristic : search::RolloutPolicy::kRandom;
}

inline Analysis to_analysis(const search::SearchResult& result, bool exact) {
  Analysis analysis;
  analysis.value = result.value;
  analysis.nodes = result.nodes;
  analysis.exact = exact;
  for (const auto& a : result.actions) analysis.actions.push_back({a.action, a.value, a.visits});
  return analysis;
}

// The repetition penalty of a game with positions that can come back (HasRepetition); other
// games have no such option.
template <Game G>
double read_repetition_penalty(OptionReader& r) {
  if constexpr (HasRepetition<G>) {
    return r.real("repetition", 0.02, 0, 2,
                  "a line that comes back to a position met before (in the game or on the line) "
                  "ends there, at its value less this for the side searching, for each time it "
                  "was met (0 = off)");
  } else {
    return 0;
  }
}

template <Game G>
std::string repetition_spec(double penalty) {
  if constexpr (HasRepetition<G>) {
    return ",repetition=" + format_real(penalty);
  } else {
    return "";
  }
}

// `candidates=both|own|none`, offered by games with a candidate set (search/common.h).
template <Game G>
search::Candidates read_candidates(OptionReader& r) {
  if constexpr (HasCandidateActions<G>) {
    const std::string use =
        r.choice("candidates", "both", {"both", "own", "none"},
                 "whose decisions expand the game's candidate actions instead of every legal "
                 "action: both sides, the searching side only, or neither");
    return use == "own"    ? search::Candidates::kOwn
           : use == "none" ? search::Candidates::kNone
                           : search::Candidates::kBoth;
  } else {
    return search::Candidates::kBoth;
  }
}

template <Game G>
std::string candidates_spec(search::Candidates use) {
  if constexpr (HasCandidateActions<G>) {
    return use == search::Candidates::kOwn    ? ",candidates=own"
           : use == search::Candidates::kNone ? ",candidates=none"
                                              : ",candidates=both";
  } else {
    return "";
  }
}

}  // namespace agent_detail

template <Game G>
search::MctsConfig read_mcts_options(OptionReader& r,
                                     typename GameValue<G>::Options* value = nullptr) {
  search::MctsConfig c;
  c.iterations = r.integer("iterations", 10000, 0, 1'000'000'000,
                           "simulations per move (shared among the trees); 0 with time= set");
  c.seconds = r.real("time", 0, 0, 86400,
                     "seconds per move (0 = none; time budgets are not "
                     "reproducible)");
  c.c = r.real("c", 1.4, 0, 100, "UCT exploration constant (payoffs in [-1, 1])");
  c.rollout = agent_detail::rollout_policy(
      r.choice("rollout", "random", agent_detail::rollout_choices<G>(), "rollout policy"));
  const std::string leaf = r.choice("leaf", "rollout", agent_detail::leaf_choices<G>(),
                                    "leaf evaluator: a rollout, the game's evaluate hook or its "
                                    "value function");
  c.evaluate_leaves = leaf == "evaluate";
  c.value_leaves = leaf == "value";
  if constexpr (GameValue<G>::kAvailable) {
    c.value_rollout_weight = r.real("value_mix", 0, 0, 1,
                                    "leaf=value: weight of a rollout mixed into the value "
                                    "(AlphaGo's lambda; 0 = the value alone)");
  }
  agent_detail::read_value_options<G>(r, value);
  c.rollout_plies = static_cast<int>(
      r.integer("rollout_plies", 0, 0, 1'000'000, "rollout length cap in plies (0 = to the end)"));
  c.widening_k = r.real("widen", 2.0, 0, 1e6,
                        "progressive widening: a node with n visits tries ceil(widen * n^alpha) "
                        "children (0 = off)");
  c.widening_alpha = r.real("alpha", 0.5, 0, 1, "progressive widening exponent");
  c.trees = static_cast<int>(r.integer("trees", 1, 1, 256,
                                       "independent root-parallel trees (the result depends on "
                                       "this, never on the thread count)"));
  c.reuse = r.integer("reuse", 1, 0, 1, "keep the subtree of the move played (1) or not (0)") == 1;
  c.max_nodes = r.integer("max_nodes", 1 << 22, 1024, 1 << 30, "arena capacity per tree (nodes)");
  c.repetition_penalty = agent_detail::read_repetition_penalty<G>(r);
  c.candidates = agent_detail::read_candidates<G>(r);
  const std::string backup =
      r.choice("backup", "sample", {"sample", "expectation", "expectimax"},
               "what a node passes up: the sampled payoff; at chance nodes the "
               "probability-weighted mean of the children's values; or that and, at decisions, "
               "the best child's value");
  c.transpositions =
      r.integer("transpositions", 0, 0, 1,
                "share one node among the paths that reach the same state (1; a fresh graph "
                "each move, so reuse does not apply) or not (0)") == 1;
  c.backup = backup == "expectimax"    ? search::Backup::kExpectimax
             : backup == "expectation" ? search::Backup::kExpectation
                                       : search::Backup::kSample;
  if (c.iterations == 0 && c.seconds == 0) {
    throw OptionError("agent 'mcts': set iterations or time (both are 0)");
  }
  return c;
}

template <Game G>
std::string mcts_spec(const search::MctsConfig& c,
                      const typename GameValue<G>::Options& value = {}) {
  using agent_detail::format_real;
  std::string leaf = c.value_leaves ? "value" : (c.evaluate_leaves ? "evaluate" : "rollout");
  if constexpr (GameValue<G>::kAvailable) {
    leaf += ",value_mix=" + format_real(c.value_rollout_weight) + GameValue<G>::spec(value);
  }
  return "mcts:iterations=" + std::to_string(c.iterations) + ",time=" + format_real(c.seconds) +
         ",c=" + format_real(c.c) +
         ",rollout=" + (c.rollout == search::RolloutPolicy::kHeuristic ? "heuristic" : "random") +
         ",leaf=" + leaf + ",rollout_plies=" + std::to_string(c.rollout_plies) +
         ",widen=" + format_real(c.widening_k) + ",alpha=" + format_real(c.widening_alpha) +
         ",trees=" + std::to_string(c.trees) + ",reuse=" + (c.reuse ? "1" : "0") +
         ",max_nodes=" + std::to_string(c.max_nodes) + ",backup=" +
         (c.backup == search::Backup::kExpectimax    ? "expectimax"
          : c.backup == search::Backup::kExpectation ? "expectation"
                                                     : "sample") +
         ",transpositions=" + (c.transpositions ? "1" : "0") +
         agent_detail::repetition_spec<G>(c.repetition_penalty) +
         agent_detail::candidates_spec<G>(c.candidates);
}

// `Value` is the type of the leaf value function (search::NoLeafValue for none); the agent keeps
// the function alive.
// What the search agents share: the leaf value function (kept alive for the search, which holds a
// pointer to it), its options (for the spec), the search, and the analysis of the last move.
template <Game G, class Search, class Value>
class SearchAgent : public Agent<G> {
 public:
  using ValueOptions = typename GameValue<G>::Options;
  template <class Config>
  SearchAgent(const G& game, const Config& config, std::shared_ptr<const Value> value,
              ValueOptions value_options)
      : value_(std::move(value)),
        value_options_(value_options),
        search_(game, config, value_.get()) {}
  void new_game(std::uint64_t seed) override { search_.new_game(seed); }
  Action act(const typename G::State& state) override {
    const search::SearchResult result = search_.search(state);
    analysis_ = agent_detail::to_analysis(result, false);
    return result.best;
  }
  Analysis last_analysis() const override { return analysis_; }

 protected:
  std::shared_ptr<const Value> value_;
  ValueOptions value_options_;
  Search search_;
  Analysis analysis_;
};

// `Value` is the type of the leaf value function (search::NoLeafValue for none); the agent keeps
// the function alive.
template <Game G, class Value = search::NoLeafValue>
class MctsAgent final : public SearchAgent<G, search::Mcts<G, Value>, Value> {
  using Base = SearchAgent<G, search::Mcts<G, Value>, Value>;

 public:
  MctsAgent(const G& game, const search::MctsConfig& config,
            std::shared_ptr<const Value> value = nullptr,
            typename Base::ValueOptions value_options = {})
      : Base(game, config, std::move(value), value_options) {}
  void observe(const typename G::State& before, Action applied) override {
    this->search_.advance(before, applied);
  }
  std::string spec() const override {
    return mcts_spec<G>(this->search_.config(), this->value_options_);
  }
};

template <Game G>
search::ExpectimaxConfig read_expectimax_options(OptionReader& r,
                                                 typename GameValue<G>::Options* value = nullptr) {
  search::ExpectimaxConfig c;
  c.max_depth = static_cast<int>(r.integer("depth", 64, 1, 1000, "deepest iteration (decisions)"));
  c.nodes = r.integer("nodes", 100000, 0, 100'000'000'000LL,
                      "node budget per move (0 = none; set time= then)");
  c.seconds = r.real("time", 0, 0, 86400, "seconds per move (0 = none; not reproducible)");
  const std::string pruning = r.choice("pruning", "star1", {"star1", "star2", "none"},
                                       "chance-node pruning (Ballard's Star1/Star2)");
  c.pruning = pruning == "star2"   ? search::Pruning::kStar2
              : pruning == "star1" ? search::Pruning::kStar1
                                   : search::Pruning::kNone;
  c.tt_mb = static_cast<int>(r.integer("tt_mb", 16, 0, 65536, "transposition table MB (0 = off)"));
  const std::vector<std::string> leaves = agent_detail::leaf_choices<G>();
  // By default a game's own evaluation: its evaluate hook, or else its value function (danelaw's
  // learned model, which lives with its AI and not in the rules).
  const char* default_leaf = HasEvaluator<G>            ? "evaluate"
                             : GameValue<G>::kAvailable ? "value"
                                                        : "rollout";
  const std::string leaf =
      r.choice("leaf", default_leaf, leaves,
               "leaf evaluator: the game's evaluate hook, rollouts or its value function");
  c.evaluate_leaves = leaf == "evaluate";
  c.value_leaves = leaf == "value";
  agent_detail::read_value_options<G>(r, value);
  c.leaf_rollouts = static_cast<int>(r.integer("rollouts", 8, 1, 100000, "rollouts per leaf"));
  c.rollout = agent_detail::rollout_policy(
      r.choice("rollout", "random", agent_detail::rollout_choices<G>(), "rollout policy"));
  c.rollout_plies = static_cast<int>(
      r.integer("rollout_plies", 0, 0, 1'000'000, "rollout length cap in plies (0 = to the end)"));
  c.repetition_penalty = agent_detail::read_repetition_penalty<G>(r);
  if constexpr (HasHeuristicPolicy<G>) {
    c.model_opponent_as_heuristic =
        r.choice("opponent", "minimax", {"minimax", "heuristic"},
                 "the other side searched as a minimiser, or as the game's heuristic policy (a "
                 "best response to it: measures how far it can be exploited)") == "heuristic";
  }
  c.candidates = agent_detail::read_candidates<G>(r);
  if (c.nodes == 0 && c.seconds == 0) {
    throw OptionError("agent 'expectimax': set nodes or time (both are 0)");
  }
  return c;
}

template <Game G>
std::string expectimax_spec(const search::ExpectimaxConfig& c,
                            const typename GameValue<G>::Options& value = {}) {
  using agent_detail::format_real;
  std::string leaf = c.value_leaves                           ? "value"
                     : (c.evaluate_leaves && HasEvaluator<G>) ? "evaluate"
                                                              : "rollout";
  if constexpr (GameValue<G>::kAvailable) leaf += GameValue<G>::spec(value);
  const char* pruning = c.pruning == search::Pruning::kStar2   ? "star2"
                        : c.pruning == search::Pruning::kStar1 ? "star1"
                                                               : "none";
  return "expectimax:depth=" + std::to_string(c.max_depth) + ",nodes=" + std::to_string(c.nodes) +
         ",time=" + format_real(c.seconds) + ",pruning=" + pruning +
         ",tt_mb=" + std::to_string(c.tt_mb) + ",leaf=" + leaf +
         ",rollouts=" + std::to_string(c.leaf_rollouts) +
         ",rollout=" + (c.rollout == search::RolloutPolicy::kHeuristic ? "heuristic" : "random") +
         ",rollout_plies=" + std::to_string(c.rollout_plies) +
         agent_detail::repetition_spec<G>(c.repetition_penalty) +
         (HasHeuristicPolicy<G>
              ? (c.model_opponent_as_heuristic ? ",opponent=heuristic" : ",opponent=minimax")
              : "") +
         agent_detail::candidates_spec<G>(c.candidates);
}

template <Game G, class Value = search::NoLeafValue>
class ExpectimaxAgent final : public SearchAgent<G, search::Expectimax<G, Value>, Value> {
  using Base = SearchAgent<G, search::Expectimax<G, Value>, Value>;

 public:
  ExpectimaxAgent(const G& game, const search::ExpectimaxConfig& config,
                  std::shared_ptr<const Value> value = nullptr,
                  typename Base::ValueOptions value_options = {})
      : Base(game, config, std::move(value), value_options) {}
  std::string spec() const override {
    return expectimax_spec<G>(this->search_.config(), this->value_options_);
  }
};

}  // namespace sling
