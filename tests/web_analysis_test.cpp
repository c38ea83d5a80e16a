// The page's Analysis panel through `sling serve`'s API: a short game of Pig played against an
// agent, then analysed on a worker (POST starts it, GET reads it); the totals reconcile with the
// listed plies, an error is listed with its better move, and a replay of the saved record gives the
// same analysis.  A game in progress and an unknown game are refused with one-line errors.

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <memory>
#include <string>
#include <thread>

#include "engine/pig/pig.h"
#include "play/web/server.h"
#include "play/web/web_json.h"

namespace sling::web {
namespace {

using namespace std::chrono_literals;

class WebAnalysisApi : public ::testing::Test {
 protected:
  void SetUp() override {
    std::signal(SIGPIPE, SIG_IGN);
    ServerOptions options;
    options.port = 0;
    server_ = std::make_unique<WebServer>(options);
    const int port = server_->bind();
    thread_ = std::thread([this] { server_->run(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port);
    client_->set_read_timeout(60, 0);
  }
  void TearDown() override {
    server_->stop();
    thread_.join();
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

  // The state once the agent has moved: a person's turn, or the end.
  Reply settled(const std::string& id) {
    for (int i = 0; i < 6000; ++i) {
      Reply reply = get("/api/games/" + id);
      if (reply.status != 200 || reply.json["over"].GetBool() ||
          (reply.json["human_turn"].GetBool() && !reply.json["thinking"].GetBool()))
        return reply;
      std::this_thread::sleep_for(5ms);
    }
    ADD_FAILURE() << "the agent never moved";
    return get("/api/games/" + id);
  }

  // Starts the analysis and waits for it.
  Reply analysed(const std::string& id) {
    Reply reply = post("/api/games/" + id + "/analysis", "{}");
    EXPECT_EQ(reply.status, 200) << reply.body;
    for (int i = 0; i < 1200 && reply.status == 200 &&
                    std::string(reply.json["status"].GetString()) == "running";
         ++i) {
      std::this_thread::sleep_for(50ms);
      reply = get("/api/games/" + id + "/analysis");
    }
    EXPECT_STREQ(reply.json["status"].GetString(), "done") << reply.body;
    return reply;
  }

  std::unique_ptr<WebServer> server_;
  std::thread thread_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(WebAnalysisApi, AFinishedGameOfPigIsAnalysedWithItsErrorsAndBetterMoves) {
  // Pig to 30 against the easy agent; the person holds at once, every turn, which passes the
  // turn for nothing: errors by the exact solution, whose better move is to roll.
  Reply made =
      post("/api/games", R"({"game":"pig","sides":["human","easy"],"seed":3,"rules":{"goal":30}})");
  ASSERT_EQ(made.status, 200) << made.body;
  const std::string id = made.json["id"].GetString();
  Reply state = settled(id);
  EXPECT_EQ(post("/api/games/" + id + "/analysis", "{}").status, 409) << "not over yet";
  EXPECT_STREQ(get("/api/games/" + id + "/analysis").json["status"].GetString(), "none");
  for (int i = 0; i < 2000 && state.status == 200 && !state.json["over"].GetBool(); ++i) {
    ASSERT_EQ(
        post("/api/games/" + id + "/act", "{\"action\":" + std::to_string(pig::kHold) + "}").status,
        200);
    state = settled(id);
  }
  ASSERT_TRUE(state.json["over"].GetBool()) << state.body;
  const std::size_t plies = state.json["plies"].GetUint64();

  const Reply reply = analysed(id);
  ASSERT_TRUE(reply.json["analysis"].IsObject()) << reply.body;
  EXPECT_EQ(reply.json["id"].GetString(), id);
  EXPECT_EQ(std::string(reply.json["svg"].GetString()).rfind("<svg", 0), 0u);
  const auto& a = reply.json["analysis"];
  EXPECT_TRUE(a["values"]["exact"].GetBool());
  EXPECT_TRUE(a["finished"].GetBool());
  ASSERT_EQ(a["plies"].Size(), plies);
  EXPECT_STREQ(a["sides"][0]["player"].GetString(), "human");

  // The totals are the plies' sums; with exact values, the result is the start plus the luck
  // less the person's losses plus the agent's.
  double loss[2] = {0, 0}, luck0 = 0;
  int errors[2][4] = {};
  int decisions[2] = {0, 0};
  bool listed = false;
  const char* names[4] = {"", "doubtful", "bad", "very bad"};
  for (const auto& p : a["plies"].GetArray()) {
    const int side = p["side"].GetInt();
    if (side < 0) {
      luck0 += p["luck"].GetDouble();
      continue;
    }
    if (p["alternatives"].GetInt() < 2) continue;
    ++decisions[side];
    loss[side] += p["loss"].GetDouble();
    for (int c = 0; c < 4; ++c) errors[side][c] += std::string(p["error"].GetString()) == names[c];
    if (side == 0 && std::string(p["error"].GetString()) != "") {
      listed = true;
      EXPECT_STREQ(p["best_text"].GetString(), "roll") << "the better move than a pass";
      EXPECT_GT(p["best"].GetDouble(), p["chosen"].GetDouble());
      EXPECT_NEAR(p["loss"].GetDouble(), p["best"].GetDouble() - p["chosen"].GetDouble(), 1e-9);
    }
  }
  EXPECT_TRUE(listed) << "the person's passes are listed as errors";
  for (int side = 0; side < 2; ++side) {
    const auto& t = a["sides"][side]["totals"];
    EXPECT_EQ(t["decisions"].GetInt(), decisions[side]);
    for (int c = 1; c < 4; ++c) EXPECT_EQ(t["errors"][names[c]].GetInt(), errors[side][c]);
    EXPECT_NEAR(t["total_loss"].GetDouble(), loss[side], 1e-9);
    EXPECT_NEAR(t["luck"].GetDouble(), side == 0 ? luck0 : -luck0, 1e-9);
    EXPECT_NEAR(t["adjusted_result"].GetDouble(), t["result"].GetDouble() - t["luck"].GetDouble(),
                1e-9);
  }
  EXPECT_NEAR(a["result"].GetDouble(), a["start"].GetDouble() + luck0 - loss[0] + loss[1], 1e-9);
  EXPECT_NEAR(a["drift"].GetDouble(), 0, 1e-9);

  // A replay of the saved record: the same analysis.
  const auto record = client_->Get(("/api/games/" + id + "/record").c_str());
  ASSERT_TRUE(record && record->status == 200);
  rapidjson::StringBuffer buffer;
  JsonWriter out(buffer);
  out.StartObject();
  write_key(out, "record");
  write_string(out, record->body);
  out.EndObject();
  Reply replay = post("/api/replays", buffer.GetString());
  ASSERT_EQ(replay.status, 200) << replay.body;
  const Reply again = analysed(replay.json["id"].GetString());
  ASSERT_TRUE(again.json["analysis"].IsObject()) << again.body;
  EXPECT_EQ(again.json["analysis"]["plies"].Size(), plies);
  EXPECT_DOUBLE_EQ(again.json["analysis"]["sides"][0]["totals"]["total_loss"].GetDouble(),
                   a["sides"][0]["totals"]["total_loss"].GetDouble());
}

TEST_F(WebAnalysisApi, AnUnknownGameIsRefused) {
  EXPECT_EQ(post("/api/games/0123456789abcdef/analysis", "{}").status, 404);
  EXPECT_EQ(get("/api/games/0123456789abcdef/analysis").status, 404);
}

}  // namespace
}  // namespace sling::web
