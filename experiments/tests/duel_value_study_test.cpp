// The duel's value function and the presets, measured (label `experiment`; docs/strength.md holds
// the figures).  Solutions are cached in $SLING_STUDY_CACHE (default: a directory under the test
// temporary directory, kept between runs because the 30 cm board at pitch 2 takes minutes to
// solve); the user's own cache is never touched.
//
// Thresholds: each test states the target of docs/strength.md and asserts it with the sample's
// standard deviation in mind (the figures printed are what the docs report).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "agents/registry.h"
#include "engine/duel/duel.h"
#include "experiments/match.h"
#include "solvers/duel/solution_cache.h"
#include "solvers/duel/solver.h"

namespace sling {
namespace {

class StudyCache : public ::testing::Environment {
 public:
  void SetUp() override {
    const char* given = std::getenv("SLING_STUDY_CACHE");
    const std::string path =
        given != nullptr && *given != '\0' ? given : ::testing::TempDir() + "sling-study-cache";
    std::filesystem::create_directories(path);
    disk_cache_settings.set_directory(path);
  }
};
const auto* const kStudyCache = ::testing::AddGlobalTestEnvironment(new StudyCache);

duel::DuelGame board(int pitch_cm) {
  duel::DuelRules rules;
  rules.pitch_cm = pitch_cm;
  return duel::DuelGame(rules);
}

MatchOptions games(int count, std::uint64_t seed) {
  MatchOptions options;
  options.games = count;
  options.seed = seed;
  // A stand-off (neither side acting on a plateau) is a draw, not a David win, after this.
  options.max_plies = 5000;
  return options;
}

double sd(double p, int n) {
  return std::sqrt(p * (1 - p) / n);
}

// Likelihood of superiority of side A from its wins and losses over B (draws ignored).
double los(double wins, double losses) {
  return 0.5 * (1 + std::erf((wins - losses) / std::sqrt(2 * (wins + losses))));
}

// Interpolation error: the exact pitch-2 values against those interpolated from pitch 3 and
// pitch 4, over every turn start of the pitch-2 lattice, and at the start of the game.
TEST(DuelValueStudy, InterpolationErrorOnThe30cmBoard) {
  const duel::DuelGame fine = board(2);
  const auto exact = duel::cached_duel_solution(fine);
  const duel::DuelIndex index(fine);
  for (int coarse_pitch : {3, 4}) {
    const auto value = duel::shared_coarse_value(fine, coarse_pitch, false);
    double total = 0, worst = 0;
    std::size_t count = 0, above_five = 0;
    duel::DuelState s;
    s.phase = duel::Phase::kDeclare;
    for (int layer = 0; layer < duel::DuelIndex::kLayers; ++layer) {
      for (int slot = 0; slot < duel::DuelIndex::kSlots; ++slot) {
        const bool god = layer >= 3, shield = layer % 3 >= 1, javelin = layer % 3 == 2;
        const bool david = slot < 4;
        const int code = david ? slot : slot - 4;
        const bool stone = david ? code >= 2 : code >= 3;
        const bool dazed = david ? code % 2 == 1 : code % 3 != 0;
        const bool behead = !david && code % 3 == 2;
        s.actor = david ? duel::kDavid : duel::kGoliath;
        s.flags = static_cast<std::uint8_t>(
            (god ? duel::kGodAvailable : 0) | (shield ? duel::kGoliathShield : 0) |
            (javelin ? duel::kGoliathJavelin : 0) | (stone ? duel::kDavidHasStone : 0) |
            (dazed ? duel::kGoliathDazed : 0) | (behead ? duel::kBeheadPending : 0));
        for (int gy = 0; gy < fine.lattice_height(duel::kGoliath); ++gy) {
          for (int gx = 0; gx < fine.lattice_width(duel::kGoliath); ++gx) {
            for (int dy = 0; dy < fine.lattice_height(duel::kDavid); ++dy) {
              for (int dx = 0; dx < fine.lattice_width(duel::kDavid); ++dx) {
                s.david_x = static_cast<std::uint8_t>(dx);
                s.david_y = static_cast<std::uint8_t>(dy);
                s.goliath_x = static_cast<std::uint8_t>(gx);
                s.goliath_y = static_cast<std::uint8_t>(gy);
                const std::int64_t radii =
                    fine.rules().david_base_mm + fine.rules().goliath_base_mm;
                if (fine.centre_distance2(s) < radii * radii) continue;
                const auto at = index.index_of(s);
                if (!at) continue;
                const double error = std::abs(value->declare_value(s) - exact->values()[*at]);
                total += error;
                worst = std::max(worst, error);
                above_five += error > 0.05;
                ++count;
              }
            }
          }
        }
      }
    }
    const double start_exact = exact->value(fine.initial_state());
    const double start_interpolated =
        value->win_probability(fine.initial_state(), duel::CoarseDuelValue::Scope::kAllActions);
    std::printf(
        "pitch 2 from pitch %d: %zu turn starts, mean |error| %.4f, max %.4f, %.2f%% above 0.05; "
        "start %.4f (exact %.4f)\n",
        coarse_pitch, count, total / count, worst, 100.0 * above_five / count, start_interpolated,
        start_exact);
    EXPECT_LT(total / count, 0.05);
    EXPECT_NEAR(start_interpolated, start_exact, 0.03);
  }
}

// Near-optimal: `strong` (lookahead over the next coarser solution, refined on the game's lattice)
// against the exact solver, each side.  The study's cache holds the game's own solution (the exact
// side plays it), so the spec spells the preset out with same_lattice=0.  Target: within 0.01 of
// the exact value.  The refined values' distance from the exact ones is printed too.
void near_optimal(const duel::DuelGame& game, const std::string& strong, int count,
                  std::uint64_t seed) {
  const std::string exact_file =
      duel::duel_solution_cache_path(game, disk_cache_settings.directory());
  const auto exact = duel::cached_duel_solution(game);
  const double optimal = exact->value(game.initial_state());
  const std::string solver = "solver:file=" + exact_file;
  const MatchResult as_david = run_match(game, {strong, solver}, games(count, seed));
  const MatchResult as_goliath = run_match(game, {solver, strong}, games(count, seed + 1));
  const double david = as_david.win_rate(0), against = as_goliath.win_rate(0);
  std::printf(
      "board %d cm, pitch %d, %s, %d games a side: strong David %.4f (sd %.4f), exact David "
      "against strong Goliath %.4f; optimal %.4f; %d and %d draws\n",
      game.rules().board_cm, game.rules().pitch_cm, strong.c_str(), count, david, sd(david, count),
      against, optimal, as_david.draws, as_goliath.draws);
  EXPECT_GT(david, optimal - 0.01 - 3 * sd(optimal, count));
  EXPECT_LT(against, optimal + 0.01 + 3 * sd(optimal, count));
}

TEST(DuelValueStudy, NearOptimalAtThreeCentimetres) {
  near_optimal(board(3), "lookahead:same_lattice=0,refine=100,value_pitch=4", 4000, 301);
}

TEST(DuelValueStudy, NearOptimalAtTwoCentimetres) {
  near_optimal(board(2), "lookahead:same_lattice=0,refine=100,value_pitch=3", 4000, 201);
}

// The preset at the default 1 cm lattice, on the default board, on every board from 16 to 28 cm
// (it was tuned on none of them) and on two rules variants (David shoots one better; Goliath with
// his shield moves one further): the exact solutions take 30 s to 8 minutes each up to 26 cm and
// about 95 minutes on the default board (2 cores), the refinements up to five minutes, 2,000
// games a seat a minute or two.
duel::DuelGame one_centimetre(int board_cm, int david_shooting = duel::DuelRules{}.david_shooting,
                              int goliath_move_shield = duel::DuelRules{}.goliath_move_shield) {
  duel::DuelRules rules;
  rules.board_cm = board_cm;
  rules.david_shooting = david_shooting;
  rules.goliath_move_shield = goliath_move_shield;
  return duel::DuelGame(rules);
}
const std::string kStrongOwnValues = std::string(duel::kStrongRefinedLookahead) + ",same_lattice=0";

// Paired against exact play: on every game seed, `strong` David against the exact Goliath, the
// exact David against the exact Goliath, and the exact David against `strong` Goliath, all on the
// same dice (a ply's dice come from the game seed, so two games agree until a decision differs).
// Each seat's gap to exact play is the mean per-seed difference, with the standard error of a
// paired mean: far tighter than two independent samples' (most games never differ).
void near_optimal_paired(const duel::DuelGame& game, const std::string& strong, int count,
                         std::uint64_t seed) {
  const auto exact = duel::cached_duel_solution(game);
  const double optimal = exact->value(game.initial_state());
  const std::string solver =
      "solver:file=" + duel::duel_solution_cache_path(game, disk_cache_settings.directory());
  // Per seed and pairing (strong David against the exact Goliath, exact against exact, the exact
  // David against strong Goliath): whether David won, whether the game was drawn (at the turn
  // limit of games between agents, docs/rules/duel.md, or at 5,000 plies), and David's score
  // with such a draw adjudicated: the exact value of the position where it stopped (what optimal
  // play from there wins without a limit; a won or lost game scores 1 or 0).
  std::vector<std::array<int, 3>> david_won(static_cast<std::size_t>(count));
  std::vector<std::array<int, 3>> drawn(static_cast<std::size_t>(count));
  std::vector<std::array<double, 3>> adjudicated(static_cast<std::size_t>(count));
  const auto play_from = [&](int first) {
    auto refined = make_agent(game, strong);
    auto exact_david = make_agent(game, solver);
    auto exact_goliath = make_agent(game, solver);
    for (int i = first; i < count; i += 2) {
      const std::uint64_t game_seed = match_game_seed(seed, i);
      const auto k = static_cast<std::size_t>(i);
      const auto play = [&](int pairing, Agent<duel::DuelGame>& david,
                            Agent<duel::DuelGame>& goliath) {
        const GameResult result = play_game(game, david, goliath, game_seed, 5000);
        const auto p = static_cast<std::size_t>(pairing);
        david_won[k][p] = result.winner == duel::kDavid ? 1 : 0;
        drawn[k][p] = result.winner < 0 ? 1 : 0;
        adjudicated[k][p] = david_won[k][p];
        if (result.winner < 0) {
          // Replayed on the unlimited game, not with record.h's replay: under the record's turn
          // limit the last position is the terminal draw, whose value is 0.
          duel::DuelState stopped = game.initial_state();
          for (const Action a : result.record.history) apply_any(game, stopped, a);
          adjudicated[k][p] = exact->value(stopped);
        }
      };
      play(0, *refined, *exact_goliath);
      play(1, *exact_david, *exact_goliath);
      play(2, *exact_david, *refined);
    }
  };
  std::thread second(play_from, 1);
  play_from(0);
  second.join();
  // Per seat: the mean of (strong's game - exact's game) for David, of (exact against strong -
  // exact against exact) for Goliath, and its paired standard error.
  struct Gap {
    double mean = 0, se = 0;
    int differ = 0;
  };
  const auto gap = [&](const auto& scores, int played, int reference) {
    double sum = 0, squares = 0;
    Gap g;
    for (const auto& w : scores) {
      const double d = static_cast<double>(w[static_cast<std::size_t>(played)]) -
                       static_cast<double>(w[static_cast<std::size_t>(reference)]);
      sum += d;
      squares += d * d;
      g.differ += d != 0;
    }
    g.mean = sum / count;
    g.se = std::sqrt(std::max(0.0, squares / count - g.mean * g.mean) / (count - 1));
    return g;
  };
  const Gap as_david = gap(david_won, 0, 1), as_goliath = gap(david_won, 2, 1);
  // The same gaps with the draws adjudicated: they do not credit a side for a stand-off that the
  // limit cut short (exact play's own stand-offs reach the limit on the default board).
  const Gap adjudicated_david = gap(adjudicated, 0, 1);
  const Gap adjudicated_goliath = gap(adjudicated, 2, 1);
  double exact_wins = 0, exact_adjudicated = 0;
  for (const auto& w : david_won) exact_wins += w[1];
  for (const auto& a : adjudicated) exact_adjudicated += a[1];
  std::array<int, 3> draws{};
  for (const auto& d : drawn) {
    for (std::size_t p = 0; p < 3; ++p) draws[p] += d[p];
  }
  std::printf(
      "board %d cm, pitch 1, %s, %d seeds: exact against exact %.4f (adjudicated %.4f, optimal "
      "%.4f); strong David "
      "%+.2f points (se %.2f, %d games differ); exact David against strong Goliath %+.2f points "
      "(se %.2f, %d differ); drawn at the limits: %d, %d and %d; draws adjudicated: strong David "
      "%+.2f points (se %.2f), exact David against strong Goliath %+.2f points (se %.2f)\n",
      game.rules().board_cm, strong.c_str(), count, exact_wins / count, exact_adjudicated / count,
      optimal, 100 * as_david.mean, 100 * as_david.se, as_david.differ, 100 * as_goliath.mean,
      100 * as_goliath.se, as_goliath.differ, draws[0], draws[1], draws[2],
      100 * adjudicated_david.mean, 100 * adjudicated_david.se, 100 * adjudicated_goliath.mean,
      100 * adjudicated_goliath.se);
  EXPECT_GT(as_david.mean, -0.01 - 3 * as_david.se);
  EXPECT_LT(as_goliath.mean, 0.01 + 3 * as_goliath.se);
  EXPECT_GT(adjudicated_david.mean, -0.01 - 3 * adjudicated_david.se);
  EXPECT_LT(adjudicated_goliath.mean, 0.01 + 3 * adjudicated_goliath.se);
}

// The boards and variants of the paired comparison, each with its own seed.
struct PairedBoard {
  const char* name;
  int board_cm;
  int david_shooting;
  int goliath_move_shield;
  std::uint64_t seed;
};
void PrintTo(const PairedBoard& b, std::ostream* os) {
  *os << b.name;
}
class StrongNearOptimalAtOneCentimetre : public ::testing::TestWithParam<PairedBoard> {};

TEST_P(StrongNearOptimalAtOneCentimetre, AgainstExactPlay) {
  const PairedBoard& b = GetParam();
  near_optimal_paired(one_centimetre(b.board_cm, b.david_shooting, b.goliath_move_shield),
                      kStrongOwnValues, 2000, b.seed);
}

constexpr int kShooting = duel::DuelRules{}.david_shooting;
constexpr int kMoveShield = duel::DuelRules{}.goliath_move_shield;
INSTANTIATE_TEST_SUITE_P(
    DuelValueStudy, StrongNearOptimalAtOneCentimetre,
    ::testing::Values(
        PairedBoard{"On16cm", 16, kShooting, kMoveShield, 1601},
        PairedBoard{"On18cm", 18, kShooting, kMoveShield, 1801},
        PairedBoard{"On20cm", 20, kShooting, kMoveShield, 2001},
        PairedBoard{"On22cm", 22, kShooting, kMoveShield, 2201},
        // Where the interpolated values were furthest off (8.5 and 5.7 points).
        PairedBoard{"On24cm", 24, kShooting, kMoveShield, 2401},
        PairedBoard{"On26cm", 26, kShooting, kMoveShield, 2601},
        PairedBoard{"On28cm", 28, kShooting, kMoveShield, 2801},
        // The board a player meets: its exact solve takes about 95 minutes on 2 cores, once.
        PairedBoard{"OnTheDefaultBoard", 30, kShooting, kMoveShield, 3001},
        PairedBoard{"UnderAnotherShootingValue", 18, 6, kMoveShield, 1861},
        PairedBoard{"UnderAnotherMovementAllowance", 18, kShooting, 8, 1881}),
    [](const ::testing::TestParamInfo<PairedBoard>& info) { return std::string(info.param.name); });

// The generic searches with the coarse value at their leaves, as David against the exact Goliath
// at 3 cm.  Target: at least 95% of the exact value.  The best settings measured
// (docs/strength.md): refined leaves and no repetition charge (refined values end stand-offs
// themselves); for MCTS, expectimax backups (which count each node's own leaf value for what its
// visits have not reached) and no progressive widening.
TEST(DuelValueStudy, GenericSearchWithTheCoarseValueAtThreeCentimetres) {
  const duel::DuelGame game = board(3);
  const double optimal = duel::cached_duel_solution(game)->value(game.initial_state());
  const std::string solver =
      "solver:file=" + duel::duel_solution_cache_path(game, disk_cache_settings.directory());
  const int count = 1000;
  for (const std::string spec :
       {"mcts:iterations=300,c=0.3,leaf=value,value_pitch=4,same_lattice=0,refine=100,"
        "repetition=0,backup=expectimax,widen=0",
        "expectimax:depth=2,nodes=1000000,leaf=value,value_pitch=4,same_lattice=0,refine=100,"
        "repetition=0"}) {
    const MatchResult r = run_match(game, {spec, solver}, games(count, 401));
    const double rate = r.win_rate(0);
    std::printf("pitch 3, %s as David against the exact Goliath, %d games: %.4f (%.1f%% of %.4f)\n",
                spec.c_str(), count, rate, 100 * rate / optimal, optimal);
    EXPECT_GT(rate, 0.95 * optimal - 3 * sd(optimal, count));
  }
}

// The presets on the default board, paired (both seats, the same dice seeds): each above the one
// below with a likelihood of superiority of at least 99%, and `strong` at 65% or more against the
// heuristic.
struct Paired {
  double score;  // of the first agent, over both seats
  double los;
};
Paired paired(const duel::DuelGame& game, const std::string& a, const std::string& b, int count,
              std::uint64_t seed) {
  const MatchResult first = run_match(game, {a, b}, games(count, seed));
  const MatchResult second = run_match(game, {b, a}, games(count, seed));
  const double wins = first.wins[0] + second.wins[1];
  const double losses = first.wins[1] + second.wins[0];
  const double score = (wins + 0.5 * (2.0 * count - wins - losses)) / (2.0 * count);
  std::printf("%s vs %s, %d games a seat: David %d/%d, Goliath %d/%d; score %.4f, LOS %.4f\n",
              a.c_str(), b.c_str(), count, first.wins[0], count, second.wins[1], count, score,
              los(wins, losses));
  return {score, los(wins, losses)};
}

TEST(DuelValueStudy, PresetsClimbOnTheDefaultBoard) {
  const duel::DuelGame game;
  const int count = 200;
  EXPECT_GT(paired(game, "normal", "easy", count, 501).los, 0.99);
  EXPECT_GT(paired(game, "strong", "normal", count, 502).los, 0.99);
}

// The ceiling of the 65% target: the exact solver against the heuristic on the 3 cm lattice, where
// the exact policy is known (the default lattice's takes a 95-minute solve).  Measured: 0.619.
TEST(DuelValueStudy, TheExactPolicysScoreAgainstTheHeuristicAtThreeCentimetres) {
  const duel::DuelGame game = board(3);
  duel::cached_duel_solution(game);
  const std::string solver =
      "solver:file=" + duel::duel_solution_cache_path(game, disk_cache_settings.directory());
  const Paired r = paired(game, solver, "heuristic", 1000, 701);
  EXPECT_GT(r.score, 0.5);
}

TEST(DuelValueStudy, StrongBeatsTheHeuristic) {
  const duel::DuelGame game;
  const int count = 200;
  const Paired r = paired(game, "strong", "heuristic", count, 601);
  EXPECT_GT(r.score, 0.65 - 3 * sd(0.65, 2 * count));
}

}  // namespace
}  // namespace sling
