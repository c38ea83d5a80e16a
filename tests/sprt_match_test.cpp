// The SPRT mode of `sling match`: decisions on the paired results, independent of thread count.

#include <gtest/gtest.h>

#include "engine/pig/pig.h"
#include "experiments/sprt_match.h"

namespace sling {
namespace {

TEST(SprtMatch, AcceptsH1ForAMuchStrongerAgentAndIsThreadIndependent) {
  const pig::PigGame game;
  MatchOptions options;
  options.games = 400;
  options.seed = 3;
  options.threads = 1;
  const SprtParameters parameters = SprtParameters::parse("0,50,0.05,0.05");
  const auto one = run_sprt_match(game, {"hold:20", "random"}, options, parameters);
  EXPECT_EQ(one.decision, SprtDecision::kAcceptH1);
  options.threads = 2;
  const auto two = run_sprt_match(game, {"hold:20", "random"}, options, parameters);
  EXPECT_EQ(two.pairs, one.pairs);
  EXPECT_EQ(two.summary, one.summary);
}

TEST(SprtMatch, AcceptsH0ForEqualAgents) {
  const pig::PigGame game;
  MatchOptions options;
  options.games = 2000;
  options.seed = 5;
  const auto r = run_sprt_match(game, {"hold:20", "hold:20"}, options,
                                SprtParameters::parse("0,50,0.05,0.05"));
  EXPECT_EQ(r.decision, SprtDecision::kAcceptH0);
}

}  // namespace
}  // namespace sling
