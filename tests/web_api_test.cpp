// `sling serve`'s JSON API, driven through an HTTP client against a server in this process: whole
// games of each game as a person (whose choices come from the game's own rule of thumb, read off
// a local replay of the saved record), undo, save and load, replays, and bad requests.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/core/game_limit.h"
#include "engine/core/record.h"
#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "experiments/tournament/tournament.h"
#include "play/web/server.h"
#include "play/web/web_json.h"
#include "tests/build_paths.h"
#include "tests/danelaw_strip.h"

namespace sling::web {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// How long a test waits for a state (an agent's move, a hint, an estimate, a game dropped) while
// nothing happens in its game before it gives up: far longer than any of them takes on a loaded
// machine under the sanitizers, so that it fails only when something is stuck, and within ctest's
// 600 s for a test.  No verdict here depends on how fast the machine is.
constexpr auto kPatience = std::chrono::minutes(4);

class WebApi : public ::testing::Test {
 protected:
  void SetUp() override { start(ServerOptions{}); }
  void TearDown() override { stop(); }

  void start(ServerOptions options) {
    std::signal(SIGPIPE, SIG_IGN);
    options.port = 0;
    server_ = std::make_unique<WebServer>(options);
    port_ = server_->bind();
    thread_ = std::thread([this] { server_->run(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
    client_->set_read_timeout(std::chrono::duration_cast<std::chrono::seconds>(kPatience).count(),
                              0);
  }
  void stop() {
    server_->stop();
    thread_.join();
    server_.reset();
  }

  struct Reply {
    int status = 0;
    rapidjson::Document json;
    std::string body;
  };

  Reply finish(const httplib::Result& result) {
    Reply reply;
    EXPECT_TRUE(result) << "no answer from the server";
    if (!result) return reply;
    reply.status = result->status;
    reply.body = result->body;
    reply.json.Parse(reply.body.c_str());
    EXPECT_FALSE(reply.json.HasParseError()) << reply.body;
    if (reply.status >= 400) {
      EXPECT_TRUE(reply.json.IsObject() && reply.json.HasMember("error")) << reply.body;
      EXPECT_EQ(reply.body.find('\n'), std::string::npos) << "a one-line error: " << reply.body;
    }
    return reply;
  }
  Reply get(const std::string& path) { return finish(client_->Get(path.c_str())); }
  Reply post(const std::string& path, const std::string& body) {
    return finish(client_->Post(path.c_str(), body, "application/json"));
  }

  std::string create(const std::string& body) {
    Reply reply = post("/api/games", body);
    EXPECT_EQ(reply.status, 200) << reply.body;
    return reply.json.IsObject() && reply.json.HasMember("id") ? reply.json["id"].GetString() : "";
  }

  // Asks for the game's state every `every` until `done` holds, and returns that state (or a
  // refusal).  Gives up, failing with `what`, only after kPatience without a move in the game: a
  // game that moves on (agents playing a long game) is not stuck.
  Reply poll_until(const std::string& id, const std::function<bool(const Reply&)>& done,
                   const std::string& what, Clock::duration every = 5ms) {
    auto deadline = Clock::now() + kPatience;
    std::uint64_t ply = std::numeric_limits<std::uint64_t>::max();
    while (true) {
      Reply reply = get("/api/games/" + id);
      if (reply.status != 200 || done(reply)) return reply;
      if (reply.json["ply"].GetUint64() != ply) {
        ply = reply.json["ply"].GetUint64();
        deadline = Clock::now() + kPatience;
      } else if (Clock::now() > deadline) {
        ADD_FAILURE() << "still waiting for " << what << " after " << kPatience.count()
                      << " minutes without a move:\n"
                      << reply.body;
        return reply;
      }
      std::this_thread::sleep_for(every);
    }
  }

  // The state once no agent is thinking (agents move on the server's workers).
  Reply settled(const std::string& id) {
    return poll_until(
        id,
        [](const Reply& r) {
          return !r.json["thinking"].GetBool() &&
                 (r.json["over"].GetBool() || r.json["human_turn"].GetBool() ||
                  r.json["ai_error"].GetStringLength() > 0);
        },
        "an agent's move");
  }

  GameRecord record_of(const std::string& id) {
    const auto result = client_->Get(("/api/games/" + id + "/record").c_str());
    EXPECT_TRUE(result && result->status == 200);
    return record_from_text(result ? result->body : "");
  }

  // The person's decision in `state` (settled, at their turn) by the game's rule of thumb (chosen
  // on a local replay of the record the server saves), answering God's first offer by re-rolling;
  // returns the server's answer to it.
  template <class G>
  Reply decide(const G& game, const std::string& id, const Reply& state, Rng& rng, bool* used_god) {
    EXPECT_TRUE(state.json["human_turn"].GetBool()) << state.body;
    EXPECT_STREQ(state.json["ai_error"].GetString(), "");
    const GameRecord record = record_of(id);
    const auto local = replay(game, record);
    EXPECT_EQ(record.history.size(), state.json["ply"].GetUint64());
    Action action = game.heuristic_action(local, rng);
    if constexpr (std::is_same_v<G, duel::DuelGame>) {
      if (state.json["board"]["god_prompt"].GetBool() && used_god && !*used_god) {
        action = duel::act::kRerollFirst;
        *used_god = true;
      }
      if (state.json["point_input"].GetBool()) {
        // A click exactly on the destination's centre snaps to it.
        const double x =
            game.centre_x(static_cast<duel::Side>(local.actor), duel::act::destination_x(action)) /
            20.0;
        const double y =
            game.centre_y(static_cast<duel::Side>(local.actor), duel::act::destination_y(action)) /
            20.0;
        Reply snap = post("/api/games/" + id + "/point",
                          "{\"x\":" + std::to_string(x) + ",\"y\":" + std::to_string(y) + "}");
        EXPECT_EQ(snap.status, 200) << snap.body;
        EXPECT_EQ(snap.json["action"].GetUint(), action);
        EXPECT_GE(snap.json["move_cm"].GetDouble(), 0.0);
      }
    }
    Reply after = post("/api/games/" + id + "/act",
                       "{\"action\":" + std::to_string(action) +
                           ",\"ply\":" + std::to_string(record.history.size()) + "}");
    EXPECT_EQ(after.status, 200) << after.body;
    return after;
  }

  // Plays a person's side with decide() until the game is over, `done` holds or `max_decisions`
  // are made.  Returns the final state's JSON.
  template <class G>
  Reply play_out(const G& game, const std::string& id, int max_decisions, bool* used_god = nullptr,
                 const std::function<bool(const Reply&)>& done = {}) {
    Rng rng(7, 1);
    for (int decision = 0; decision < max_decisions; ++decision) {
      Reply state = settled(id);
      if (state.status != 200 || state.json["over"].GetBool() || (done && done(state)))
        return state;
      Reply after = decide(game, id, state, rng, used_god);
      if (after.status != 200) return after;
    }
    return settled(id);
  }

  std::unique_ptr<WebServer> server_;
  std::thread thread_;
  int port_ = 0;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(WebApi, AWholeDuelAsDavidWithGodAgainstAnAgent) {
  const std::string id = create(R"({"game":"duel","sides":["human","easy"],"seed":11})");
  bool used_god = false;
  Reply end = play_out(duel::DuelGame(), id, 500, &used_god);
  ASSERT_EQ(end.status, 200);
  EXPECT_TRUE(end.json["over"].GetBool()) << end.body;
  EXPECT_TRUE(used_god);
  EXPECT_FALSE(end.json["board"]["god_available"].GetBool());
  EXPECT_NE(std::string(end.json["result"].GetString()), "");
  // Every die is in the log, with its faces; the record replays to the end.
  int dice = 0;
  for (const auto& entry : end.json["log"].GetArray()) dice += entry["side"].GetInt() == -1;
  EXPECT_GT(dice, 3);
  const GameRecord record = record_of(id);
  const duel::DuelGame game;
  EXPECT_TRUE(game.is_terminal(replay(game, record)));
  EXPECT_EQ(record.seed, 11u);
  // The agent's analysis is empty for the rule of thumb, but its move is reported.
  EXPECT_TRUE(end.json["analysis"][1].IsObject());
}

// God's question comes by the terminal's rule (play/duel_view.h, unasked_answer): by default not
// after the initiative, which never goes against David, and after every roll when asked; its box
// carries the stakes, David's win chance accepting and re-rolling by the strong agent.
TEST_F(WebApi, GodIsAskedByTheTerminalsRuleWithWhatIsAtStake) {
  Reply state = settled(create(R"({"game":"duel","sides":["human","easy"],"seed":11})"));
  EXPECT_FALSE(state.json["board"]["god_prompt"].GetBool()) << state.body;
  ASSERT_GE(state.json["log"].Size(), 2u);
  // Answered for him, and marked so.
  EXPECT_STREQ(state.json["log"][1]["text"].GetString(), "David: accept (answered automatically)");
  EXPECT_TRUE(state.json["log"][1]["automatic"].GetBool());

  const std::string id =
      create(R"({"game":"duel","sides":["human","easy"],"seed":11,"god_prompt":"every"})");
  state = settled(id);
  ASSERT_TRUE(state.json["board"]["god_prompt"].GetBool()) << state.body;
  EXPECT_EQ(state.json["ply"].GetUint64(), 1u);
  // Until the strong agent's estimate comes, it is pending.
  state = poll_until(
      id,
      [](const Reply& r) {
        if (!r.json["stakes"].IsNull()) return true;
        EXPECT_TRUE(r.json["eval_pending"].GetBool()) << r.body;
        return false;
      },
      "God's stakes", 50ms);
  ASSERT_TRUE(state.json["stakes"].IsObject()) << state.body;
  EXPECT_STREQ(state.json["stakes"]["error"].GetString(), "");
  const auto& choices = state.json["stakes"]["choices"];
  ASSERT_EQ(choices.Size(), 3u) << state.body;  // accept, re-roll David's die, re-roll Goliath's
  bool accept = false;
  for (const auto& choice : choices.GetArray()) {
    accept = accept || choice["code"].GetUint() == duel::act::kAccept;
    EXPECT_GE(choice["win"].GetDouble(), 0.0);
    EXPECT_LE(choice["win"].GetDouble(), 1.0);
  }
  EXPECT_TRUE(accept);
  EXPECT_FALSE(get("/api/games/" + id).json["eval_pending"].GetBool());
  EXPECT_EQ(
      post("/api/games", R"({"game":"duel","sides":["human","easy"],"god_prompt":"some"})").status,
      400);
}

// Each side's last move, as a trail from where the figure stood to where it is.
TEST_F(WebApi, TheLastMoveOfEachSideIsATrail) {
  const std::string id = create(R"({"game":"duel","sides":["easy","easy"],"seed":5})");
  Reply end = settled(id);
  ASSERT_TRUE(end.json["over"].GetBool()) << end.body;
  const auto& trails = end.json["trails"];
  ASSERT_EQ(trails.Size(), 2u);
  for (const char* side : {"david", "goliath"}) {
    const auto& group = trails[std::string(side) == "david" ? 0 : 1];
    ASSERT_EQ(group.Size(), 1u) << end.body;
    const auto& to = group[0][group[0].Size() - 1];
    EXPECT_DOUBLE_EQ(to[0].GetDouble(), end.json["board"][side]["x"].GetDouble()) << side;
    EXPECT_DOUBLE_EQ(to[1].GetDouble(), end.json["board"][side]["y"].GetDouble()) << side;
  }
}

// A game without a person always ends: two agents that hold their ground (seed 31) draw at the
// turn limit of games between agents, and the save carries it.
TEST_F(WebApi, AWatchedGameEndsAtTheTurnLimit) {
  const std::string id = create(R"({"game":"duel","sides":["normal","normal"],"seed":31})");
  Reply end = settled(id);
  ASSERT_TRUE(end.json["over"].GetBool()) << end.body;
  EXPECT_STREQ(end.json["end_reason"].GetString(), "turn limit");
  EXPECT_EQ(end.json["turn_limit"].GetInt(), kDefaultAgentTurnLimit);
  EXPECT_EQ(end.json["board"]["turn"].GetInt(), kDefaultAgentTurnLimit);
  const GameRecord record = record_of(id);
  EXPECT_EQ(record.turn_limit, kDefaultAgentTurnLimit);
  EXPECT_TRUE(duel::DuelGame().is_terminal(replay(duel::DuelGame(), record)));
  // A person's game has no limit.
  EXPECT_EQ(settled(create(R"({"game":"duel","sides":["human","easy"],"seed":31})"))
                .json["turn_limit"]
                .GetInt(),
            0);
}

TEST_F(WebApi, ASearchingAgentReportsItsWinEstimateAndAlternatives) {
  const std::string id = create(
      R"({"game":"duel","sides":["mcts:iterations=300,rollout=heuristic","human"],"seed":5})");
  Reply state = settled(id);
  // Whoever won the initiative, by the time David (the agent) has moved once it reports an
  // estimate; play Goliath's side until then.
  Reply end = play_out(duel::DuelGame(), id, 50, nullptr,
                       [](const Reply& r) { return r.json["analysis"][0].IsObject(); });
  ASSERT_TRUE(end.json["analysis"][0].IsObject()) << end.body;
  const auto& analysis = end.json["analysis"][0];
  EXPECT_TRUE(analysis["estimated"].GetBool());
  EXPECT_GE(analysis["win"].GetDouble(), 0.0);
  EXPECT_LE(analysis["win"].GetDouble(), 1.0);
  EXPECT_TRUE(analysis["alternatives"].IsArray());
}

TEST_F(WebApi, ADanelawTurnWithABattle) {
  const std::string id = create(R"({"game":"danelaw","sides":["human","easy"],"seed":3})");
  const danelaw::DanelawGame game;
  auto battled = [](const Reply& r) {
    // Done once the Danes have fought and the English have had their half-turn.
    bool battle = false, english = false;
    for (const auto& entry : r.json["log"].GetArray()) {
      const std::string text = entry["text"].GetString();
      battle = battle || (entry["side"].GetInt() == -1 && text.rfind("Battle:", 0) == 0);
      english = english || (battle && entry["side"].GetInt() == 1);
    }
    return battle && english;
  };
  Reply state = play_out(game, id, 400, nullptr, battled);
  ASSERT_EQ(state.status, 200);
  EXPECT_TRUE(battled(state)) << "no battle in the Danes' first turns";
  EXPECT_GE(state.json["board"]["turn"].GetInt(), 1);
  EXPECT_TRUE(state.json["board"]["svg"].GetStringLength() > 1000);
}

TEST_F(WebApi, ADanelawMoveListsEachDestinationWithItsCost) {
  const std::string id = create(R"({"game":"danelaw","sides":["human","human"],"seed":3})");
  const danelaw::DanelawGame game;
  Reply state = play_out(game, id, 400, nullptr, [](const Reply& r) {
    for (const auto& a : r.json["actions"].GetArray())
      if (a.HasMember("kind") && std::string(a["kind"].GetString()) == "move") return true;
    return false;
  });
  int destinations = 0;
  for (const auto& a : state.json["actions"].GetArray()) {
    if (!a.HasMember("kind") || std::string(a["kind"].GetString()) != "move") continue;
    ++destinations;
    EXPECT_TRUE(a.HasMember("cost") && a["cost"].GetInt() >= 1) << a["label"].GetString();
    EXPECT_TRUE(a.HasMember("x") && a.HasMember("y"));
  }
  EXPECT_GT(destinations, 0);
  EXPECT_TRUE(state.json["board"]["selected"].IsObject());
}

TEST_F(WebApi, AWholeGameOfPig) {
  const std::string id = create(R"({"game":"pig","sides":["human","easy"],"seed":2})");
  Reply end = play_out(pig::PigGame(), id, 2000);
  ASSERT_EQ(end.status, 200);
  EXPECT_TRUE(end.json["over"].GetBool());
  const auto& scores = end.json["board"]["scores"];
  EXPECT_TRUE(scores[0].GetInt() >= 100 || scores[1].GetInt() >= 100);
}

TEST_F(WebApi, AnAgentProgramPlaysOnlyWhenTheServerOffersItByName) {
  // The page can never start a program: an `external` spec in a request is refused.
  const Reply refused =
      post("/api/games", R"({"game":"pig","sides":["human","external:cmd=touch pwned"],"seed":2})");
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(refused.body.find("--agent NAME="), std::string::npos) << refused.body;
  EXPECT_EQ(get("/api/info").body.find("\"external\""), std::string::npos);
  // Offered by the operator (`sling serve --agent served=...`), it plays a whole game.
  stop();
  ServerOptions options;
  options.named_agents["served"] =
      "external:cmd='" + std::string(SLING_BINARY) + " protocol strong',log=" +
      (std::filesystem::temp_directory_path() / "web-external.log").string() +
      ",startup_time=300";  // the served solver solves Pig first: slow under the sanitizers
  start(options);
  const Reply info = get("/api/info");
  ASSERT_EQ(info.json["named_agents"].Size(), 1u);
  EXPECT_STREQ(info.json["named_agents"][0]["name"].GetString(), "served");
  const std::string id = create(R"({"game":"pig","sides":["human","served"],"seed":2})");
  Reply end = play_out(pig::PigGame(), id, 2000);
  ASSERT_EQ(end.status, 200);
  EXPECT_TRUE(end.json["over"].GetBool());
  EXPECT_STREQ(end.json["ai_error"].GetString(), "");
}

// A TCP connection to the server that sends `text` and then nothing (or whatever the test sends).
int open_connection(int port, const std::string& text) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  if (!text.empty()) {
    EXPECT_EQ(::send(fd, text.data(), text.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(text.size()));
  }
  return fd;
}

// Whether the server still holds `fd`'s connection open: it has neither closed it nor answered.
bool still_open(int fd) {
  char byte = 0;
  return ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) < 0 &&
         (errno == EAGAIN || errno == EWOULDBLOCK);
}

TEST_F(WebApi, IdleAndSlowConnectionsDoNotDelayAnyoneElse) {
  // A server that let idle or slow connections hold up others would answer the requests below
  // only once it had given up on some of them, closing them at its read timeout (made long here,
  // so that it closes none of them in this test otherwise).  So the verdict is an order of
  // events, not a time: the requests are answered while every one of those connections is still
  // open.  They connect first, so the server takes them up before the requests however soon the
  // requests come.
  stop();
  ServerOptions options;
  options.read_timeout = std::chrono::seconds(120);
  start(options);
  // 50 connections that send nothing, and 20 that send a request's headers one line at a time.
  std::vector<int> idle, slow;
  for (int i = 0; i < 50; ++i) idle.push_back(open_connection(port_, ""));
  for (int i = 0; i < 20; ++i) {
    slow.push_back(open_connection(port_, "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
  }
  std::atomic<bool> done{false};
  std::thread trickle([&] {
    for (int round = 0; round < 100 && !done; ++round) {  // at most 10 s
      for (const int fd : slow) ::send(fd, "X-Slow: 1\r\n", 11, MSG_NOSIGNAL);
      std::this_thread::sleep_for(100ms);
    }
  });
  const std::string id = create(R"({"game":"pig","sides":["human","easy"],"seed":2})");
  const Reply moved = post("/api/games/" + id + "/act", R"({"action":0,"ply":0})");
  int open = 0;
  for (const int fd : idle) open += still_open(fd);
  for (const int fd : slow) open += still_open(fd);
  done = true;
  trickle.join();
  for (const int fd : idle) ::close(fd);
  for (const int fd : slow) ::close(fd);
  EXPECT_EQ(moved.status, 200) << moved.body;
  EXPECT_EQ(open, 70) << "the requests were answered only after the server gave up on " << 70 - open
                      << " idle or slow connections";
}

TEST_F(WebApi, UndoGoesBackToThePersonsDecisionAndKeepsTheDice) {
  const std::string id = create(R"({"game":"pig","sides":["human","human"],"seed":9})");
  Reply start = settled(id);
  EXPECT_FALSE(start.json["can_undo"].GetBool());
  EXPECT_EQ(post("/api/games/" + id + "/undo", "{}").status, 409);
  const std::string roll = "{\"action\":" + std::to_string(pig::kRoll) + "}";
  Reply first = post("/api/games/" + id + "/act", roll);
  ASSERT_EQ(first.status, 200);
  const std::string first_log = first.body.substr(first.body.find("\"log\""));
  Reply undone = post("/api/games/" + id + "/undo", "{}");
  ASSERT_EQ(undone.status, 200);
  EXPECT_EQ(undone.json["ply"].GetUint64(), 0u);
  Reply again = post("/api/games/" + id + "/act", roll);
  EXPECT_EQ(again.body.substr(again.body.find("\"log\"")), first_log) << "the same die again";
}

TEST_F(WebApi, AHintGivesEveryActionsWinChanceFromTheStrongestAnalysis) {
  // Pig's strongest analysis is its exact solver: the hint's values are exact.
  const std::string id = create(R"({"game":"pig","sides":["human","human"],"seed":6})");
  Reply started = post("/api/games/" + id + "/hint", "{}");
  ASSERT_EQ(started.status, 200) << started.body;
  EXPECT_EQ(post("/api/games/" + id + "/hint", "{}").status, 409) << "one hint at a time";
  Reply state = poll_until(
      id, [](const Reply& r) { return !r.json["hint"].IsNull(); }, "the hint", 10ms);
  ASSERT_TRUE(state.json["hint"].IsObject()) << state.body;
  const auto& hint = state.json["hint"];
  EXPECT_STREQ(hint["error"].GetString(), "");
  EXPECT_TRUE(hint["exact"].GetBool());
  ASSERT_EQ(hint["actions"].Size(), 2u);  // roll and hold
  EXPECT_TRUE(hint["actions"][0]["best"].GetBool());
  EXPECT_GE(hint["actions"][0]["win"].GetDouble(), hint["actions"][1]["win"].GetDouble());
  EXPECT_EQ(state.json["ply"].GetUint64(), 0u) << "a hint plays nothing";
}

TEST_F(WebApi, SaveAndLoadRoundTrip) {
  for (const char* game : {"duel", "danelaw", "pig"}) {
    const std::string id = create(std::string(R"({"game":")") + game +
                                  R"(","sides":["easy","easy"],"seed":4,"delay_ms":0})");
    std::this_thread::sleep_for(30ms);  // part of the way through
    const auto saved = client_->Get(("/api/games/" + id + "/record").c_str());
    ASSERT_TRUE(saved && saved->status == 200);
    const GameRecord record = record_from_text(saved->body);
    EXPECT_EQ(record.game, game);
    // The save names the players, as a terminal save does.
    EXPECT_EQ(record.agents, (std::vector<std::string>{"easy", "easy"}));
    // Loading it as a replay shows the same plies; loading it to play continues it.
    Reply replayed = post("/api/replays", "{\"record\":" + saved->body + "}");
    ASSERT_EQ(replayed.status, 200) << replayed.body;
    EXPECT_EQ(replayed.json["plies"].GetUint64(), record.history.size());
    EXPECT_EQ(replayed.json["actions"].Size(), 0u);
    const std::string loaded =
        create("{\"sides\":[\"human\",\"human\"],\"record\":" + saved->body + "}");
    const auto again = client_->Get(("/api/games/" + loaded + "/record").c_str());
    ASSERT_TRUE(again);
    const GameRecord reloaded = record_from_text(again->body);
    // A record that ended on a die's throw continues with the dice that come next; otherwise
    // the two records are the same.
    ASSERT_GE(reloaded.history.size(), record.history.size());
    EXPECT_TRUE(std::equal(record.history.begin(), record.history.end(), reloaded.history.begin()));
    EXPECT_EQ(reloaded.seed, record.seed);
    EXPECT_EQ(reloaded.rules, record.rules);
    EXPECT_EQ(reloaded.agents, (std::vector<std::string>{"human", "human"}));
  }
}

// Text as a JSON string (an uploaded file's content in a request).
std::string json_string(const std::string& text) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.String(text.c_str(), static_cast<rapidjson::SizeType>(text.size()));
  return buffer.GetString();
}

// Rules that fit the strip map of tests/danelaw_strip.h (towns Alpha, Beta and Gamma).
constexpr const char* kStripRules =
    R"({"field_army_towns":["Beta"],"towns_to_win":2,"danes_at_sea":2})";

TEST_F(WebApi, ADanelawGameOnAnUploadedMapIsSavedAndLoadedWithItsMapFile) {
  const std::string map = danelaw::strip_map();
  const std::string id = create(R"({"game":"danelaw","sides":["human","human"],"seed":5,"rules":)" +
                                std::string(kStripRules) + ",\"map\":" + json_string(map) +
                                R"(,"map_name":"C:\\maps\\strip.json"})");
  // The game is on the uploaded map: its three towns, Gamma among them, are on the board.
  Reply state = settled(id);
  ASSERT_EQ(state.status, 200) << state.body;
  EXPECT_EQ(state.json["board"]["towns"].GetInt(), 3);
  EXPECT_NE(std::string(state.json["board"]["svg"].GetString()).find("Gamma"), std::string::npos);
  // The save names the map by the file's name, with its content hash, as a terminal save names
  // the map file of `--map FILE`.
  const auto strip = std::make_shared<const danelaw::HexMap>(danelaw::HexMap::parse(map, "strip"));
  const danelaw::DanelawGame game = danelaw::DanelawGame::from_rules_json(
      R"({"map":"strip.json","field_army_towns":["Beta"],"towns_to_win":2,"danes_at_sea":2})",
      strip);
  state = play_out(game, id, 100, nullptr, [](const Reply& r) {
    for (const auto& entry : r.json["log"].GetArray())
      if (std::string(entry["text"].GetString()).rfind("Danes: to ", 0) == 0) return true;
    return false;
  });
  const GameRecord record = record_of(id);
  EXPECT_EQ(record.rules, game.rules_json());
  ASSERT_GT(record.history.size(), 3u);

  // Loading it needs the map file: without it, or with another map, a one-line refusal.
  const std::string saved = record_to_json(record);
  Reply without = post("/api/games", "{\"record\":" + saved + "}");
  EXPECT_EQ(without.status, 400);
  EXPECT_NE(without.body.find("not built into Sling"), std::string::npos) << without.body;
  Reply other =
      post("/api/games", "{\"record\":" + saved + ",\"map\":" +
                             json_string(danelaw::strip_map("", "", "[[1, 1, 2, 1]]")) + "}");
  EXPECT_EQ(other.status, 400);
  EXPECT_NE(other.body.find("does not fit the save"), std::string::npos) << other.body;
  const std::string loaded =
      create(R"({"sides":["human","human"],"record":)" + saved + ",\"map\":" + json_string(map) +
             ",\"map_name\":\"copy.json\"}");
  const GameRecord reloaded = record_of(loaded);
  EXPECT_EQ(reloaded.rules, record.rules) << "the save's name for its map is kept";
  ASSERT_GE(reloaded.history.size(), record.history.size());
  EXPECT_TRUE(std::equal(record.history.begin(), record.history.end(), reloaded.history.begin()));
  Reply replayed =
      post("/api/replays", "{\"record\":" + saved + ",\"map\":" + json_string(map) + "}");
  ASSERT_EQ(replayed.status, 200) << replayed.body;
  EXPECT_EQ(replayed.json["plies"].GetUint64(), record.history.size());
}

TEST_F(WebApi, AMalformedOrMisfittingMapFileIsRefusedOnOneLine) {
  auto refused = [&](const std::string& fields, const std::string& expected) {
    Reply reply =
        post("/api/games", R"({"game":"danelaw","sides":["human","human"],)" + fields + "}");
    EXPECT_EQ(reply.status, 400) << fields;
    EXPECT_NE(reply.body.find(expected), std::string::npos) << reply.body;
  };
  const std::string rules = std::string(",\"rules\":") + kStripRules;
  std::string unknown = danelaw::strip_map();
  unknown.insert(unknown.find("\"hex_km\""), "\"colour\": 1, ");
  refused("\"map\":" + json_string("{\"name\": \"x\", \"hexes\": [") + rules,
          "map (uploaded-map.json)");
  refused("\"map\":" + json_string(unknown) + rules, "unknown key 'colour'");
  refused(
      "\"map\":" + json_string(danelaw::strip_map("{\"q\": 9, \"r\": 1, \"terrain\": \"lava\"}")) +
          ",\"map_name\":\"lava.json\"" + rules,
      "map (lava.json): hex 0901: unknown terrain 'lava'");
  // England's rules do not fit the strip: the rules are checked against the uploaded map.
  refused("\"map\":" + json_string(danelaw::strip_map()),
          "'towns_to_win' exceeds the map's 3 towns");
  refused("\"map\":" + json_string(danelaw::strip_map()) + R"(,"rules":{"towns_to_win":2})",
          "field army town 'Winchester' is not on the map");
  refused("\"map\":" + json_string(danelaw::strip_map()) + ",\"map_name\":\"england.json\"" + rules,
          "has the name of a file built into Sling");
  refused("\"map_name\":\"strip.json\"", "'map_name' needs a 'map' file");
  refused("\"map\":\"strip.json\"", "map 'strip.json' is not built into Sling");
  EXPECT_EQ(post("/api/games", R"({"game":"pig","map":"{}"})").status, 400);
  // England exported by `sling map danelaw --json` and uploaded is England.
  const std::string england = danelaw::HexMap::load("england.json").export_json();
  Reply same = post("/api/games", R"({"game":"danelaw","sides":["human","human"],"map":)" +
                                      json_string(england) + R"(,"map_name":"england.json"})");
  ASSERT_EQ(same.status, 200) << same.body;
  EXPECT_EQ(record_of(same.json["id"].GetString()).rules, danelaw::DanelawGame().rules_json());
}

TEST_F(WebApi, ReplaysATournamentGameFromItsRecords) {
  GameRecord record{"pig", pig::PigGame().rules_json(), 77, {}};
  {
    const pig::PigGame game;
    auto s = game.initial_state();
    Rng rng(77, 0);
    while (!game.is_terminal(s)) {
      const Action a = game.current_player(s) == kChancePlayer ? sample_chance(game, s, rng)
                                                               : game.heuristic_action(s, rng);
      record.history.push_back(a);
      apply_any(game, s, a);
    }
  }
  const std::string records = record_line(3, record) + record_line(8, record);
  const std::string text = json_string(records);
  Reply list = post("/api/records", "{\"records\":" + text + "}");
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.json.Size(), 2u);
  EXPECT_EQ(list.json[1]["game_id"].GetInt(), 8);
  Reply replay_state = post("/api/replays", "{\"game_id\":8,\"records\":" + text + "}");
  ASSERT_EQ(replay_state.status, 200) << replay_state.body;
  const std::string id = replay_state.json["id"].GetString();
  EXPECT_EQ(replay_state.json["ply"].GetUint64(), 0u);
  Reply at_end = get("/api/games/" + id + "?ply=" + std::to_string(record.history.size()));
  EXPECT_TRUE(at_end.json["over"].GetBool());
  EXPECT_EQ(get("/api/games/" + id + "?ply=99999").status, 400);
  EXPECT_EQ(post("/api/games/" + id + "/act", R"({"action":0})").status, 409);
  EXPECT_EQ(post("/api/replays", "{\"game_id\":4,\"records\":" + text + "}").status, 400);
}

TEST_F(WebApi, BadRequestsGetAOneLineErrorAndLeaveTheGameAlone) {
  const std::string id =
      create(R"({"game":"duel","sides":["human","human"],"seed":1,"god_prompt":"every"})");
  // The game at rest: God's question is open, and its stakes, which the strong agent estimates
  // on a worker, have come (on a loaded machine they may come at any time later), so that only a
  // request could change the state.
  const Reply at_rest = poll_until(
      id, [](const Reply& r) { return !r.json["eval_pending"].GetBool(); }, "God's stakes", 50ms);
  const std::string before = at_rest.body;
  const std::string game = "/api/games/" + id;
  EXPECT_EQ(post(game + "/act", "{bad json").status, 400);
  EXPECT_EQ(post(game + "/act", "[1,2]").status, 400);
  EXPECT_EQ(post(game + "/act", R"({"action":"accept"})").status, 400);
  EXPECT_EQ(post(game + "/act", R"({"action":123456})").status, 400);
  EXPECT_EQ(post(game + "/act", R"({"action":-1})").status, 400);
  EXPECT_EQ(post(game + "/act", R"({"action":16,"ply":0})").status, 409);  // stale
  EXPECT_EQ(post(game + "/act", "{}").status, 400);
  EXPECT_EQ(post(game + "/point", R"({"x":"a","y":1})").status, 400);
  EXPECT_EQ(post(game + "/point", R"({"x":1,"y":1})").status, 409);  // not a destination now
  EXPECT_EQ(get("/api/games/0123456789abcdef").status, 404);
  EXPECT_EQ(post("/api/games/0123456789abcdef/act", R"({"action":16})").status, 404);
  EXPECT_EQ(get("/api/nothing").status, 404);
  EXPECT_EQ(get(game + "?ply=x").status, 400);
  EXPECT_EQ(get("/api/games/" + id).body, before) << "the game changed";

  EXPECT_EQ(post("/api/games", R"({"game":"chess"})").status, 400);
  EXPECT_EQ(post("/api/games", R"({"game":"duel","sides":["human"]})").status, 400);
  EXPECT_EQ(post("/api/games", R"({"game":"duel","sides":["human","nosuchagent"]})").status, 400);
  EXPECT_EQ(
      post("/api/games", R"({"game":"duel","sides":["human","solver:file=/etc/passwd"]})").status,
      400);
  EXPECT_EQ(post("/api/games", R"({"game":"duel","rules":{"board_cm":-3}})").status, 400);
  EXPECT_EQ(post("/api/games", R"({"game":"duel","rules":{"no_such_rule":1}})").status, 400);
  EXPECT_EQ(post("/api/games", R"({"game":"danelaw","rules":{"map":"/etc/passwd"}})").status, 400);
  EXPECT_EQ(post("/api/games", R"({"game":"danelaw","map":"../england.json"})").status, 400);
  EXPECT_EQ(post("/api/games", R"({"game":"pig","seed":-4})").status, 400);
  EXPECT_EQ(post("/api/games", R"({"record":"not a record"})").status, 400);
  EXPECT_EQ(post("/api/games", R"({"record":{"game":"pig"}})").status, 400);
  EXPECT_EQ(post("/api/records", R"({"records":"{\"x\":1}\n"})").status, 400);

  // Another site cannot drive the server; nor can a form post (not JSON).
  httplib::Headers evil = {{"Origin", "http://evil.example"}};
  auto refused =
      client_->Post((game + "/act").c_str(), evil, R"({"action":16})", "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 403);
  httplib::Headers rebound = {{"Host", "evil.example:" + std::to_string(port_)}};
  auto rebinding =
      client_->Post((game + "/act").c_str(), rebound, R"({"action":16})", "application/json");
  ASSERT_TRUE(rebinding);
  EXPECT_EQ(rebinding->status, 403);
  auto form = client_->Post((game + "/act").c_str(), "action=16", "text/plain");
  ASSERT_TRUE(form);
  EXPECT_EQ(form->status, 415);
  // A same-origin request from the page is accepted.
  httplib::Headers page = {{"Origin", "http://127.0.0.1:" + std::to_string(port_)}};
  auto accepted =
      client_->Post((game + "/act").c_str(), page, R"({"action":16})", "application/json");
  ASSERT_TRUE(accepted);
  EXPECT_EQ(accepted->status, 200) << accepted->body;
}

// 400,000 nested lists (800 kB, under the upload limit) in each place a request carries JSON: the
// body itself, a record, rules, and a line of tournament records.  Each is a 400 with one line,
// sent as the page sends its requests, and the server goes on serving.
TEST_F(WebApi, JsonNestedTooDeepIsRefusedWithOneLineAtEveryRoute) {
  const std::string deep = std::string(400000, '[') + std::string(400000, ']');
  const std::string id = create(R"({"game":"pig","sides":["human","human"]})");
  const std::string before = get("/api/games/" + id).body;
  httplib::Headers page = {{"Origin", "http://127.0.0.1:" + std::to_string(port_)}};
  auto page_post = [&](const std::string& path, const std::string& body) {
    return finish(client_->Post(path.c_str(), page, body, "application/json"));
  };
  for (const std::string& path :
       {std::string("/api/games"), std::string("/api/replays"), std::string("/api/records"),
        "/api/games/" + id + "/act", "/api/games/" + id + "/point", "/api/games/" + id + "/undo",
        "/api/games/" + id + "/hint", "/api/games/" + id + "/analysis"}) {
    const Reply reply = page_post(path, deep);
    EXPECT_EQ(reply.status, 400) << path << ": " << reply.body.substr(0, 200);
    EXPECT_NE(reply.body.find("nested deeper than 128 levels"), std::string::npos)
        << path << ": " << reply.body.substr(0, 200);
  }
  const std::string wrapped_deep = "{\"x\":" + deep + "}";
  EXPECT_EQ(page_post("/api/games", R"({"game":"duel","rules":)" + wrapped_deep + "}").status, 400);
  EXPECT_EQ(page_post("/api/games", "{\"record\":" + json_string(deep) + "}").status, 400);
  const Reply records = page_post("/api/records", "{\"records\":" + json_string(deep + "\n") + "}");
  EXPECT_EQ(records.status, 400);
  EXPECT_NE(records.body.find("nested deeper than 128 levels"), std::string::npos)
      << records.body.substr(0, 200);
  EXPECT_EQ(get("/api/info").status, 200);
  EXPECT_EQ(get("/api/games/" + id).body, before) << "the game changed";
}

TEST_F(WebApi, UploadsHaveASizeLimit) {
  stop();
  ServerOptions options;
  options.max_body_bytes = 4096;
  start(options);
  Reply big = post("/api/games", "{\"record\":\"" + std::string(10000, 'x') + "\"}");
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(get("/api/info").status, 200);
}

TEST_F(WebApi, AnIdleGameIsDropped) {
  stop();
  ServerOptions options;
  options.idle_timeout = std::chrono::seconds(1);
  start(options);
  const auto asked = Clock::now();  // the game is last seen after this, as it is created
  const std::string id = create(R"({"game":"pig","sides":["human","human"]})");
  // Kept within its idle timeout of being seen: a count that ends within it must find the game.
  // (On a machine so loaded that the count comes later, the game may rightly be gone already.)
  const std::size_t kept = server_->game_count();
  if (Clock::now() - asked < options.idle_timeout) {
    EXPECT_EQ(kept, 1u);
  }
  // Dropped once nobody has asked about it for its idle timeout, by a sweep every quarter of it:
  // however late a loaded machine runs the sweep, the game goes, and never before its time.
  const auto deadline = Clock::now() + kPatience;
  while (server_->game_count() != 0 && Clock::now() < deadline) std::this_thread::sleep_for(10ms);
  const auto gone = Clock::now();
  ASSERT_EQ(server_->game_count(), 0u) << "the idle game was never dropped";
  EXPECT_GE(gone - asked, options.idle_timeout) << "the game was dropped before its idle timeout";
  EXPECT_EQ(get("/api/games/" + id).status, 404);
}

TEST_F(WebApi, AnAgentsMoveDoesNotBlockOtherGamesAndKeepsToItsTimeBudget) {
  stop();
  ServerOptions options;
  options.ai_seconds = 0.5;
  start(options);
  // An agent with far too many iterations thinks on a worker; another game answers meanwhile,
  // and the budget ends the agent's move.
  auto turn_began = Clock::now();  // no later than the agent's turn began
  const std::string slow = create(
      R"({"game":"duel","sides":["mcts:iterations=50000000,rollout=heuristic","human"],"seed":2})");
  // The agent's turn, its decisions half a second each, ends well within this even on a loaded
  // machine; its iterations alone would take tens of minutes (some 20,000 a second on one core).
  constexpr auto kTurnWithinBudget = 60s;
  const duel::DuelGame game;
  Rng rng(7, 1);
  // Another game answers while the agent thinks, and the agent's game refuses an undo meanwhile
  // (it would touch the agent): made between two looks at the agent's game that both find it
  // thinking on the same ply, these requests did not wait for the move.  That is an order of
  // events, not a time: on a machine too loaded to make them within a move's half second, the
  // agent's next move is watched, until such a window is seen.
  bool answered_while_thinking = false;
  const auto give_up = Clock::now() + kPatience;
  while (!answered_while_thinking) {
    ASSERT_LT(Clock::now(), give_up) << "the other game was never seen answered while the agent "
                                        "thought";
    const Reply begun = poll_until(
        slow,
        [](const Reply& r) {
          return r.json["thinking"].GetBool() || r.json["human_turn"].GetBool() ||
                 r.json["over"].GetBool() || r.json["ai_error"].GetStringLength() > 0;
        },
        "the agent's move to begin");
    if (begun.json["thinking"].GetBool()) {
      const int undone = post("/api/games/" + slow + "/undo", "{}").status;
      const std::string quick = create(R"({"game":"pig","sides":["human","human"]})");
      const int answered = get("/api/games/" + quick).status;
      const Reply still = get("/api/games/" + slow);
      if (still.json["thinking"].GetBool() &&
          still.json["ply"].GetUint64() == begun.json["ply"].GetUint64()) {
        answered_while_thinking = true;
        EXPECT_EQ(undone, 409) << "an undo while the agent thinks";
        EXPECT_EQ(answered, 200);
      }
    }
    const Reply moved = settled(slow);
    ASSERT_EQ(moved.status, 200) << moved.body;
    ASSERT_STREQ(moved.json["ai_error"].GetString(), "");
    EXPECT_LT(Clock::now() - turn_began, kTurnWithinBudget) << "the budget did not end the turn";
    if (answered_while_thinking) {
      EXPECT_TRUE(moved.json["analysis"][0].IsObject()) << moved.body;
      break;
    }
    ASSERT_FALSE(moved.json["over"].GetBool()) << "the game ended before the other game was seen "
                                                  "answered while the agent thought";
    turn_began = Clock::now();
    ASSERT_EQ(decide(game, slow, moved, rng, nullptr).status, 200);
  }
}

// Random requests, some well-formed and most not, against every endpoint: every answer is JSON
// with a status the API defines, and the server stays up.
TEST_F(WebApi, SurvivesAFuzzOfRequests) {
  const std::string id = create(R"({"game":"duel","sides":["human","human"],"seed":1})");
  std::mt19937_64 random(20261202);
  const std::vector<std::string> paths = {"/api/games",
                                          "/api/replays",
                                          "/api/records",
                                          "/api/games/" + id + "/act",
                                          "/api/games/" + id + "/point",
                                          "/api/games/" + id + "/undo",
                                          "/api/games/" + id + "/hint",
                                          "/api/games/" + id + "x/act",
                                          "/api/games//act"};
  const std::vector<std::string> pieces = {"{",
                                           "}",
                                           "[",
                                           "]",
                                           ",",
                                           ":",
                                           "\"game\"",
                                           "\"duel\"",
                                           "\"pig\"",
                                           "\"danelaw\"",
                                           "\"action\"",
                                           "16",
                                           "17",
                                           "-1",
                                           "1e308",
                                           "null",
                                           "true",
                                           "\"sides\"",
                                           "[\"human\",\"human\"]",
                                           "\"record\"",
                                           "\"rules\"",
                                           "{\"board_cm\":0}",
                                           "\"x\"",
                                           "\"y\"",
                                           "\"seed\"",
                                           "\"\\u0000\"",
                                           "\"ply\"",
                                           "99999999999999999999",
                                           "\"records\"",
                                           "\"game_id\"",
                                           "\xff\xfe",
                                           "\"map\""};
  int answered = 0;
  for (int i = 0; i < 400; ++i) {
    std::string body;
    if (random() % 3 == 0) {
      body = "{\"action\":" + std::to_string(static_cast<int>(random() % 40) - 2) + "}";
    } else {
      const int n = static_cast<int>(random() % 12);
      for (int k = 0; k < n; ++k) body += pieces[random() % pieces.size()];
    }
    const std::string& path = paths[random() % paths.size()];
    const auto result = client_->Post(path.c_str(), body, "application/json");
    ASSERT_TRUE(result) << "the server stopped answering at request " << i;
    const int status = result->status;
    EXPECT_TRUE(status == 200 || status == 400 || status == 404 || status == 409 || status == 503)
        << status << " for " << path << " " << body << ": " << result->body;
    rapidjson::Document document;
    document.Parse(result->body.c_str());
    EXPECT_FALSE(document.HasParseError()) << result->body;
    ++answered;
  }
  EXPECT_EQ(answered, 400);
  EXPECT_EQ(get("/api/info").status, 200);
  EXPECT_EQ(get("/api/games/" + id).status, 200);
}

// The save downloads under the game's name; the strip follows the strong agent's estimate.  (Last:
// it builds Pig's solver, which would let the hint test's first hint end before its second.)
TEST_F(WebApi, TheSaveIsNamedAfterTheGameAndTheStripFollowsIt) {
  const std::string id =
      create(R"({"game":"pig","sides":["human","easy"],"seed":5,"win_strip":true})");
  Reply state = settled(id);
  const auto saved = client_->Get(("/api/games/" + id + "/record").c_str());
  ASSERT_TRUE(saved);
  EXPECT_EQ(saved->get_header_value("Content-Disposition"),
            "attachment; filename=\"sling-pig-seed5-ply" +
                std::to_string(state.json["ply"].GetUint64()) + ".json\"");
  state = poll_until(
      id, [](const Reply& r) { return !r.json["strip"].Empty(); }, "the strip's estimate", 50ms);
  ASSERT_EQ(state.json["strip"].Size(), 1u) << state.body;
  EXPECT_EQ(state.json["strip"][0][0].GetUint64(), state.json["ply"].GetUint64());
  const double win = state.json["strip"][0][1].GetDouble();
  EXPECT_GT(win, 0.3);  // the first player's exact chance at the start is about 0.53
  EXPECT_LT(win, 0.7);
}

}  // namespace
}  // namespace sling::web
