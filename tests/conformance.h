#pragma once
// The conformance suite, written once and instantiated for every game and for rule variants:
//
//   #include "tests/conformance.h"
//   INSTANTIATE_TYPED_TEST_SUITE_P(Duel, Conformance, ::testing::Types<sling::duel::DuelGame>);
//
// A type argument is either a game (its default rules) or a variant: a struct with `using Game`,
// `static Game make()` (the game under other rules) and `static constexpr int kPlayouts`, as
// OpenSpiel runs its random simulation test on several parameter sets of one game.
//
// It plays seeded random games and checks, at every ply: state equality agrees with the state's
// bytes (a field left out of operator== fails), distinct states of a playout have distinct hashes
// (a field left out of the hash fails), states survive JSON and binary round trips (JSON on one
// line with lists; every eighth state also wrapped and in cereal's older form), chance outcomes
// are distinct with positive probabilities summing to 1, applying an outcome is deterministic,
// every legal action prints and parses back to itself, an illegal action is rejected with
// IllegalActionError; and at the end: zero-sum returns, no draw unless the rules allow one, and the
// game record (rules, seed, history) survives its own round trip and replays to the identical final
// state.  The bounds of the action and chance lists are checked by FixedVector's own assertions,
// which the sanitizer build compiles in.  A game may specialise ConformanceTraits to set the number
// of playouts.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "engine/core/game.h"
#include "engine/core/record.h"
#include "engine/core/state_io.h"
#include "tests/state_forms.h"

namespace sling::testing {

template <class G>
struct ConformanceTraits {
  static constexpr int kPlayouts = 1000;
  static constexpr int kMaxPlies = 100000;  // a playout this long is reported as a failure
};

// The game and rules a type argument of the suite stands for.
template <class T>
struct ConformanceCase {
  using Game = T;
  static Game make() { return Game{}; }
  static constexpr int kPlayouts = ConformanceTraits<T>::kPlayouts;
};
template <class T>
requires requires {
  typename T::Game;
}
struct ConformanceCase<T> : T {};

template <class G>
class Conformance : public ::testing::Test {};

TYPED_TEST_SUITE_P(Conformance);

TYPED_TEST_P(Conformance, RandomPlayoutsKeepEveryInvariant) {
  using Case = ConformanceCase<TypeParam>;
  using G = typename Case::Game;
  using State = typename G::State;
  const G game = Case::make();
  Rng base(20261129, 0);
  for (int playout = 0; playout < Case::kPlayouts; ++playout) {
    Rng rng = base.derive(static_cast<std::uint64_t>(playout));
    State state = game.initial_state();
    GameRecord record{std::string(game.info().name), game.rules_json(), 20261129, {}};
    std::unordered_map<std::uint64_t, std::string> bytes_by_hash;  // this playout's states
    State previous = state;
    int plies = 0;
    while (!game.is_terminal(state)) {
      ASSERT_LT(++plies, ConformanceTraits<G>::kMaxPlies) << "playout does not end";
      const std::string bytes = state_to_binary(state);
      ASSERT_EQ(previous == state, state_to_binary(previous) == bytes)
          << "operator== disagrees with the state's bytes";
      const auto [seen, inserted] = bytes_by_hash.emplace(G::hash(state), bytes);
      ASSERT_TRUE(inserted || seen->second == bytes) << "two distinct states share a hash";
      previous = state;
      const std::string json = state_to_json(state);
      ASSERT_EQ(json.find('\n'), std::string::npos) << "a state's JSON is one line";
      ASSERT_EQ(json.find("value0"), std::string::npos) << "a C++ array is a JSON list: " << json;
      ASSERT_EQ(state_from_json<State>(json), state);
      if (plies % 8 == 1) {  // the older forms at every eighth state: their reader is the same
        ASSERT_EQ(state_from_json<State>("{\"state\": " + json + "}"), state);
        ASSERT_EQ(state_from_json<State>(testing_support::cereal_wrapped_json(state)), state);
      }
      ASSERT_EQ(state_from_binary<State>(state_to_binary(state)), state);

      Action chosen;
      if (game.current_player(state) == kChancePlayer) {
        ChanceList<G> outcomes;
        game.chance_outcomes(state, outcomes);
        ASSERT_FALSE(outcomes.empty());
        std::unordered_set<Action> distinct;
        double total = 0;
        for (const ChanceOutcome& o : outcomes) {
          ASSERT_TRUE(distinct.insert(o.outcome).second) << "a chance outcome is listed twice";
          ASSERT_GT(o.probability, 0.0);
          total += o.probability;
          State a = state, b = state;
          game.apply_chance(a, o.outcome);
          game.apply_chance(b, o.outcome);
          ASSERT_EQ(a, b) << "applying an outcome must be deterministic";
        }
        ASSERT_NEAR(total, 1.0, 1e-12);
        chosen = sample_chance(game, state, rng);
        game.apply_chance(state, chosen);
      } else {
        const Player player = game.current_player(state);
        ASSERT_TRUE(player == 0 || player == 1);
        ActionList<G> actions;
        game.legal_actions(state, actions);
        ASSERT_FALSE(actions.empty());
        std::unordered_set<Action> legal(actions.begin(), actions.end());
        ASSERT_EQ(legal.size(), actions.size()) << "duplicate legal actions";
        for (Action a : actions) {
          const std::string text = game.action_to_string(state, a);
          ASSERT_EQ(game.parse_action(state, text), a) << text;
        }
        // Some value that is not legal must be refused with the typed error.
        Action illegal = kInvalidAction;
        for (Action candidate = 0; candidate < 4096; ++candidate) {
          if (!legal.count(candidate)) {
            illegal = candidate;
            break;
          }
        }
        State scratch = state;
        ASSERT_THROW(game.apply_action(scratch, illegal), IllegalActionError);
        ASSERT_THROW(game.apply_action(scratch, kInvalidAction), IllegalActionError);
        chosen = sample_uniform_action(game, state, rng);
        ASSERT_TRUE(legal.count(chosen)) << "sampled action is not legal";
        game.apply_action(state, chosen);
      }
      record.history.push_back(chosen);
    }
    ASSERT_EQ(game.current_player(state), kTerminalPlayer);
    const Returns r = game.returns(state);
    ASSERT_DOUBLE_EQ(r[0] + r[1], 0.0);
    if (!game.info().has_draws) {
      ASSERT_NE(r[0], 0.0) << "a draw under rules that have none";
    }

    const GameRecord json_copy = record_from_text(record_to_json(record));
    const GameRecord binary_copy = record_from_text(record_to_binary(record));
    ASSERT_EQ(json_copy, record);
    ASSERT_EQ(binary_copy, record);
    const G replay_game = G::from_rules_json(json_copy.rules);
    ASSERT_EQ(replay(replay_game, json_copy), state);
  }
}

TYPED_TEST_P(Conformance, RulesRoundTripAndMetadata) {
  using Case = ConformanceCase<TypeParam>;
  using G = typename Case::Game;
  const G game = Case::make();
  const G copy = G::from_rules_json(game.rules_json());
  EXPECT_EQ(copy.rules_json(), game.rules_json());
  EXPECT_FALSE(game.info().name.empty());
  EXPECT_FALSE(game.info().sides[0].empty());
  EXPECT_FALSE(game.info().sides[1].empty());
  EXPECT_LE(game.info().max_actions, static_cast<int>(G::kMaxActions));
  EXPECT_LE(game.info().max_chance_outcomes, static_cast<int>(G::kMaxChanceOutcomes));
  EXPECT_THROW(G::from_rules_json("{not json"), RulesError);
  EXPECT_THROW(G::from_rules_json(R"({"no_such_rule": 1})"), RulesError);
}

REGISTER_TYPED_TEST_SUITE_P(Conformance, RandomPlayoutsKeepEveryInvariant,
                            RulesRoundTripAndMetadata);

}  // namespace sling::testing
