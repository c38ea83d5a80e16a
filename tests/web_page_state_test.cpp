// The page's view of a duel, read from WebGame's state JSON against the engine: the reach drawn
// after a tied melee or a flee test is David's (the engine's legal destinations, a corner
// included), a figure that did not move gets no trail, a past ply shows its own trails, and the
// God answers given for a person are marked as such and left out of the analysis.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/record.h"
#include "engine/duel/duel.h"
#include "experiments/analysis/analysis_report.h"
#include "experiments/analysis/game_analysis.h"
#include "play/duel_view.h"
#include "play/web/web_game.h"
#include "play/web/web_views.h"
#include "tests/build_paths.h"

namespace sling::web {
namespace {

using duel::DuelGame;
using duel::DuelState;
using Point = std::pair<double, double>;

// Records of games played on the page (tests/data/web): a tied melee at seed 54 whose flee move
// is due at the last ply, and a flee from a corner where staying was the only legal move.
GameRecord load_record(const std::string& name) {
  std::ifstream in(std::filesystem::path(SLING_SOURCE_DIR) / "tests/data/web" / name);
  std::stringstream text;
  text << in.rdbuf();
  return record_from_text(text.str());
}

rapidjson::Document parse(const std::string& text) {
  rapidjson::Document document;
  document.Parse(text.c_str());
  EXPECT_FALSE(document.HasParseError()) << text.substr(0, 200);
  return document;
}

double rounded(double cm) {
  return std::round(cm * 1000) / 1000;
}

// Centimetres of the figure `mover` at lattice (x, y).
Point centre(const DuelGame& game, duel::Side side, int x, int y) {
  return {rounded(static_cast<double>(game.centre_x(side, x)) / DuelGame::kUnitsPerCm),
          rounded(static_cast<double>(game.centre_y(side, y)) / DuelGame::kUnitsPerCm)};
}

// The engine's legal destinations of `s`, as centres of the figure that moves.
std::set<Point> engine_destinations(const DuelGame& game, const DuelState& s) {
  ActionList<DuelGame> legal;
  game.legal_actions(s, legal);
  std::set<Point> points;
  for (Action a : legal) {
    if (duel::act::is_destination(a))
      points.insert(centre(game, duel::mover_of(s), duel::act::destination_x(a),
                           duel::act::destination_y(a)));
  }
  return points;
}

std::set<Point> drawn_reach(const rapidjson::Value& board) {
  std::set<Point> points;
  for (const auto& p : board["reach"].GetArray())
    points.insert({rounded(p[0].GetDouble()), rounded(p[1].GetDouble())});
  return points;
}

std::vector<std::vector<Point>> trails_of(const rapidjson::Value& state, int side) {
  std::vector<std::vector<Point>> trails;
  for (const auto& trail : state["trails"][side].GetArray()) {
    trails.emplace_back();
    for (const auto& p : trail.GetArray())
      trails.back().push_back({p[0].GetDouble(), p[1].GetDouble()});
  }
  return trails;
}

// A replay of `record` as the page steps through it.
std::unique_ptr<WebGame<DuelGame>> replay_of(const GameRecord& record) {
  WebGameConfig config;
  config.replay = true;
  config.seed = record.seed;
  return std::make_unique<WebGame<DuelGame>>(DuelGame::from_rules_json(record.rules), config,
                                             &record);
}

TEST(WebPageState, EveryDrawnReachIsTheMoversLegalDestinationsTiesAndCornersIncluded) {
  int flee_moves = 0, stay_only = 0;
  for (const char* name : {"duel-tie-flee.json", "duel-corner-flee.json"}) {
    const GameRecord record = load_record(name);
    const DuelGame game = DuelGame::from_rules_json(record.rules);
    auto page = replay_of(record);
    DuelState s = game.initial_state();
    for (std::size_t ply = 0; ply <= record.history.size(); ++ply) {
      if (s.phase == duel::Phase::kDestination) {
        const rapidjson::Document state = parse(page->state_json(static_cast<std::int64_t>(ply)));
        const rapidjson::Value& board = state["board"];
        const duel::Side mover = duel::mover_of(s);
        EXPECT_EQ(board["mover"].GetInt(), mover) << name << " ply " << ply;
        const std::set<Point> legal = engine_destinations(game, s);
        EXPECT_EQ(drawn_reach(board), legal) << name << " ply " << ply;
        // Drawn around the mover: every point within the allowance of where it stands.
        const rapidjson::Value& figure = board[mover == duel::kDavid ? "david" : "goliath"];
        for (const auto& [x, y] : legal) {
          EXPECT_LE(std::hypot(x - figure["x"].GetDouble(), y - figure["y"].GetDouble()),
                    s.allowance_cm + 0.01)
              << name << " ply " << ply;
        }
        if (s.roll == duel::Roll::kFleeMove) {
          ++flee_moves;
          EXPECT_EQ(mover, duel::kDavid);
          // A click anywhere, even in the far corner, snaps to a destination the engine accepts.
          const auto far = nearest_destination(game, s, 28, 28);
          ASSERT_TRUE(far.has_value());
          EXPECT_TRUE(game.is_legal(s, far->action));
          EXPECT_LE(far->move_cm, s.allowance_cm + 0.01);
          if (legal.size() == 1) {
            ++stay_only;
            EXPECT_EQ(*legal.begin(),
                      Point(rounded(figure["x"].GetDouble()), rounded(figure["y"].GetDouble())));
            EXPECT_EQ(far->move_cm, 0) << "the only legal flee is to stay";
          }
        }
      }
      if (ply < record.history.size()) apply_any(game, s, record.history[ply]);
    }
  }
  EXPECT_GE(flee_moves, 2) << "both records reach a flee move";
  EXPECT_GE(stay_only, 1) << "the corner record's flees can only stay";
}

TEST(WebPageState, AFleeAfterATieIsPlayedFromDavidAndGoliathGetsNoTrail) {
  GameRecord record = load_record("duel-tie-flee.json");
  WebGameConfig config;
  config.sides = {"human", "human"};
  config.seed = record.seed;
  WebGame<DuelGame> page(DuelGame::from_rules_json(record.rules), config, &record);
  const rapidjson::Document before = parse(page.state_json(-1));
  ASSERT_TRUE(before["point_input"].GetBool());
  ASSERT_EQ(before["board"]["mover"].GetInt(), duel::kDavid);
  ASSERT_NE(before["board"]["actor"].GetInt(), duel::kDavid) << "the tie came in Goliath's turn";
  // A click on Goliath's side of the board picks David's destination nearest it.
  rapidjson::Document click;
  click.Parse(R"({"x": 15, "y": 29})");
  const rapidjson::Document choice = parse(page.point(click));
  const double dx = choice["x"].GetDouble() - before["board"]["david"]["x"].GetDouble();
  const double dy = choice["y"].GetDouble() - before["board"]["david"]["y"].GetDouble();
  EXPECT_NEAR(choice["move_cm"].GetDouble(), std::hypot(dx, dy), 0.01);
  EXPECT_LE(choice["move_cm"].GetDouble(), before["board"]["allowance_cm"].GetInt() + 0.01);
  rapidjson::Document act;
  act.Parse(("{\"action\": " + std::to_string(choice["action"].GetInt()) + "}").c_str());
  page.act(act);
  const rapidjson::Document after =
      parse(page.state_json(static_cast<std::int64_t>(record.history.size() + 1)));
  EXPECT_EQ(trails_of(after, duel::kGoliath), trails_of(before, duel::kGoliath))
      << "Goliath did not move";
  const auto david = trails_of(after, duel::kDavid);
  ASSERT_FALSE(david.empty());
  EXPECT_NEAR(david.back().back().first, choice["x"].GetDouble(), 0.001);
  EXPECT_NEAR(david.back().back().second, choice["y"].GetDouble(), 0.001);
}

TEST(WebPageState, AFigureThatStaysGetsNoTrail) {
  const GameRecord record = load_record("duel-corner-flee.json");
  const DuelGame game = DuelGame::from_rules_json(record.rules);
  auto page = replay_of(record);
  DuelState s = game.initial_state();
  int stays = 0;
  for (std::size_t ply = 0; ply < record.history.size(); ++ply) {
    const Action a = record.history[ply];
    if (s.phase == duel::Phase::kDestination &&
        duel::moved(s, duel::mover_of(s), duel::act::destination_x(a),
                    duel::act::destination_y(a)) == s) {
      ++stays;
      const rapidjson::Document after = parse(page->state_json(static_cast<std::int64_t>(ply + 1)));
      for (const auto& trail : trails_of(after, duel::mover_of(s)))
        EXPECT_NE(trail.front(), trail.back())
            << "a trail of a figure that stayed, ply " << ply + 1;
    }
    apply_any(game, s, a);
  }
  EXPECT_GE(stays, 1);
}

TEST(WebPageState, APastPlyShowsItsOwnTrails) {
  const GameRecord record = load_record("duel-corner-flee.json");
  auto page = replay_of(record);
  std::set<std::string> distinct;
  for (std::size_t ply = 0; ply <= record.history.size(); ++ply) {
    const rapidjson::Document state = parse(page->state_json(static_cast<std::int64_t>(ply)));
    for (int side = 0; side < 2; ++side) {
      const auto trails = trails_of(state, side);
      if (trails.empty()) continue;
      // Each side's latest trail ends where its figure stands at this ply.
      const rapidjson::Value& figure = state["board"][side == 0 ? "david" : "goliath"];
      EXPECT_NEAR(trails.back().back().first, figure["x"].GetDouble(), 0.001) << "ply " << ply;
      EXPECT_NEAR(trails.back().back().second, figure["y"].GetDouble(), 0.001) << "ply " << ply;
    }
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    state["trails"].Accept(writer);
    distinct.insert(buffer.GetString());
  }
  EXPECT_GE(distinct.size(), 4u) << "the trails change as the replay steps";
}

// The God answers the page gave for a person (a roll in David's favour, by default not asked).
std::vector<bool> automatic_in_log(const rapidjson::Document& state) {
  std::vector<bool> marks;
  for (const auto& entry : state["log"].GetArray())
    marks.push_back(entry.HasMember("automatic") && entry["automatic"].GetBool());
  return marks;
}

TEST(WebPageState, AnswersGivenForAPersonAreMarkedInTheLog) {
  GameRecord record = load_record("duel-tie-flee.json");
  const DuelGame game = DuelGame::from_rules_json(record.rules);
  const std::vector<bool> marks = automatic_in_log(parse(replay_of(record)->state_json(-1)));
  ASSERT_EQ(marks.size(), record.history.size());
  DuelState s = game.initial_state();
  int marked = 0;
  for (std::size_t ply = 0; ply < record.history.size(); ++ply) {
    const bool unasked =
        s.phase == duel::Phase::kGod &&
        play::GameView<DuelGame>::unasked_answer(game, s, play::DiceQuestions::kAfterBadRolls) ==
            std::optional<Action>(record.history[ply]);
    EXPECT_EQ(marks[ply], unasked) << "ply " << ply + 1;
    marked += unasked;
    apply_any(game, s, record.history[ply]);
  }
  EXPECT_GE(marked, 3);
  // Agents answer every question themselves: nothing of theirs is marked.
  record.agents = {"easy", "strong"};
  for (bool mark : automatic_in_log(parse(replay_of(record)->state_json(-1)))) EXPECT_FALSE(mark);
}

TEST(WebPageState, TheAnalysisDoesNotRateAnswersGivenForThePlayer) {
  const GameRecord record = load_record("duel-tie-flee.json");
  const DuelGame game = DuelGame::from_rules_json(record.rules);
  // Values under which accepting the dice is always a grave error: only a re-roll keeps hope.
  const WinProbability<DuelGame> value = [](const DuelState& s) { return s.rerolling ? 0.9 : 0.1; };
  std::vector<bool> automatic(record.history.size(), false);
  DuelState s = game.initial_state();
  for (std::size_t ply = 0; ply < record.history.size(); ++ply) {
    automatic[ply] =
        play::GameView<DuelGame>::unasked_answer(game, s, play::DiceQuestions::kAfterBadRolls) ==
        std::optional<Action>(record.history[ply]);
    apply_any(game, s, record.history[ply]);
  }
  const GameAnalysis rated_all = analyse_record(game, record, value);
  const GameAnalysis rated_own = analyse_record(game, record, value, false, automatic);
  int accepts_blamed = 0;
  for (const PlyAnalysis& p : rated_all.plies)
    accepts_blamed += p.side == 0 && p.error != ErrorClass::kNone && automatic[p.ply - 1];
  ASSERT_GT(accepts_blamed, 0) << "the values make every automatic accept an error";
  for (const PlyAnalysis& p : rated_own.plies) {
    if (!automatic[p.ply - 1]) continue;
    EXPECT_TRUE(p.automatic);
    EXPECT_EQ(p.error, ErrorClass::kNone) << "ply " << p.ply;
  }
  EXPECT_EQ(rated_own.totals[0].decisions + accepts_blamed, rated_all.totals[0].decisions);
  EXPECT_NE(analysis_json(rated_own).find("\"automatic\": true"), std::string::npos);
  EXPECT_NE(analysis_text(rated_own, true).find("answered automatically, not rated"),
            std::string::npos);
}

TEST(WebPageState, TheAnalysisGraphEscapesWhatItWrites) {
  const GameRecord record = load_record("duel-tie-flee.json");
  const DuelGame game = DuelGame::from_rules_json(record.rules);
  GameRecord named = record;
  named.agents = {"external:cmd='a && b'", "x<y>\"z\""};
  GameAnalysis analysis =
      analyse_record(game, named, [](const DuelState& s) { return s.rerolling ? 0.9 : 0.1; });
  analysis.source = "a & b";
  const std::string svg = analysis_svg(analysis);
  // Outside its tags, character data has no raw '<', and every '&' starts an entity.
  bool in_tag = false;
  for (std::size_t i = 0; i < svg.size(); ++i) {
    if (svg[i] == '<') {
      EXPECT_FALSE(in_tag) << "a '<' inside a tag at " << i << ": " << svg.substr(i, 40);
      in_tag = true;
    } else if (svg[i] == '>') {
      in_tag = false;
    } else if (svg[i] == '&') {
      const std::string entity = svg.substr(i, svg.find(';', i) - i + 1);
      EXPECT_TRUE(entity == "&amp;" || entity == "&lt;" || entity == "&gt;" || entity == "&quot;" ||
                  entity == "&apos;")
          << "a bare '&' at " << i << ": " << svg.substr(i, 20);
    }
  }
  EXPECT_NE(svg.find("cmd=&apos;a &amp;&amp; b&apos;"), std::string::npos);
}

}  // namespace
}  // namespace sling::web

namespace sling::web {
namespace {

TEST(WebPageState, AWatchedStandOffPlaysAtFullSpeedUntilSomethingChanges) {
  // Two `normal` duel agents at seed 31 repeat the same moves until the turn limit.
  WebGameConfig config;
  config.sides = {"normal", "normal"};
  config.seed = 31;
  config.ai_delay_ms = 1000;
  WebGame<DuelGame> page(DuelGame(), config);
  EXPECT_EQ(page.ai_delay_ms(), 1000) << "a new game is watched at its speed";
  int decisions = 0, paused = 0;
  bool standoff_shown = false;
  while (page.ai_due()) {
    paused += page.ai_delay_ms() > 0;
    ++decisions;
    page.run_ai_step();
    if (decisions % 500 == 0) standoff_shown |= parse(page.state_json(-1))["standoff"].GetBool();
  }
  const rapidjson::Document end = parse(page.state_json(-1));
  ASSERT_TRUE(end["over"].GetBool());
  EXPECT_STREQ(end["end_reason"].GetString(), "turn limit");
  EXPECT_GT(decisions, 2000);
  EXPECT_LT(paused, decisions / 10) << "the stand-off's repeated positions are not paused on";
  EXPECT_TRUE(standoff_shown);
}

}  // namespace
}  // namespace sling::web
