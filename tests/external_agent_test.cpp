// The agent protocol (docs/protocol.md), both sides: Sling hosting agent programs through
// `external:cmd=...` (hostile ones included: each loses its game with a named cause and the match
// goes on), and Sling serving its own agents (`sling protocol`), driven message by message,
// out-of-order and malformed messages included.  The reference: `external:cmd='sling protocol X'`
// plays exactly the games of X.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "agents/external_server.h"
#include "agents/registry.h"
#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "experiments/match.h"
#include "experiments/play_game.h"
#include "tests/build_paths.h"

namespace sling {
namespace {

namespace fs = std::filesystem;
using pig::PigGame;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("external-" + name);
  fs::create_directories(dir);
  return dir;
}

// A shell agent program: `on_act` runs when an act arrives (after a correct hello and ready).
std::string shell_agent(const std::string& name, const std::string& on_act,
                        const std::string& on_hello = R"(echo '{"type":"hello","protocol":1}')") {
  const fs::path script = scratch("scripts") / (name + ".sh");
  std::ofstream out(script);
  out << "while IFS= read -r line; do\n"
      << "  case \"$line\" in\n"
      << "    *'\"type\":\"hello\"'*) " << on_hello << " ;;\n"
      << "    *'\"type\":\"new_game\"'*) echo '{\"type\":\"ready\"}' ;;\n"
      << "    *'\"type\":\"act\"'*) " << on_act << " ;;\n"
      << "    *'\"type\":\"quit\"'*) exit 0 ;;\n"
      << "  esac\n"
      << "done\n";
  out.close();
  return "sh " + script.string();
}

std::string sling_protocol(const std::string& agent) {
  return std::string(SLING_BINARY) + " protocol " + agent;
}

std::string external(const std::string& command, const std::string& options = "") {
  const std::string log = (scratch("logs") / "agents.log").string();
  return "external:cmd='" + command + "',log=" + log + (options.empty() ? "" : "," + options);
}

// The first error of a match of `spec` (first player) against random, and how many games it lost.
MatchResult hostile_match(const std::string& spec, int games = 3) {
  const PigGame game;
  MatchOptions options;
  options.games = games;
  options.threads = 1;
  options.seed = 5;
  return run_match(game, {spec, "random"}, options);
}

TEST(AgentSpecQuoting, AQuotedValueKeepsItsCommasAndSpaces) {
  const AgentSpec spec = parse_agent_spec("external:cmd='python3 a.py --x=1,2 ',move_time=1");
  EXPECT_EQ(spec.options.at("cmd"), "python3 a.py --x=1,2 ");
  EXPECT_EQ(spec.options.at("move_time"), "1");
  EXPECT_EQ(parse_agent_spec("external:cmd=\"it's\"").options.at("cmd"), "it's");
  EXPECT_EQ(parse_agent_spec("mcts:iterations=5").options.at("iterations"), "5");
  EXPECT_THROW(parse_agent_spec("external:cmd='open"), OptionError);
  EXPECT_THROW(parse_agent_spec("external:cmd='a'b"), OptionError);
}

TEST(ExternalAgent, ItsSpecSpellsEveryOptionAndRebuildsItself) {
  const PigGame game;
  const AgentPtr<PigGame> agent = make_agent(game, "external:cmd='prog --a=1,2',move_time=0.5");
  const std::string spec = agent->spec();
  EXPECT_NE(spec.find("cmd='prog --a=1,2'"), std::string::npos) << spec;
  EXPECT_NE(spec.find("move_time=0.5"), std::string::npos) << spec;
  EXPECT_NE(spec.find("process=keep"), std::string::npos) << spec;
  EXPECT_EQ(make_agent(game, spec)->spec(), spec);
  EXPECT_THROW(make_agent(game, "external"), OptionError);  // cmd is required
  EXPECT_THROW(make_agent(game, "external:cmd=x,process=sometimes"), OptionError);
}

TEST(ExternalAgent, SlingServingAnAgentPlaysExactlyItsGames) {
  // Pig's solver, a seeded MCTS (its randomness comes from new_game's seed), and the duel's
  // heuristic with blunders: the same games through the protocol as in process.
  const PigGame pig;
  for (const std::string agent : {"strong", "mcts:iterations=60"}) {
    MatchOptions options;
    options.games = 6;
    options.threads = 2;
    options.seed = 17;
    const std::string dir_in = (scratch("ref") / ("in-" + std::to_string(agent.size()))).string();
    const std::string dir_out = (scratch("ref") / ("out-" + std::to_string(agent.size()))).string();
    options.record_dir = dir_in;
    const MatchResult in_process = run_match(pig, {agent, "random"}, options);
    options.record_dir = dir_out;
    // The served solver solves Pig before its `ready`: slow under the sanitizers.
    const MatchResult served =
        run_match(pig, {external(sling_protocol(agent), "startup_time=300"), "random"}, options);
    EXPECT_EQ(served.errors[0], 0) << served.first_error;
    EXPECT_EQ(served.wins, in_process.wins) << agent;
    for (int i = 0; i < options.games; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "game-%06d.json", i);
      EXPECT_EQ(load_record((fs::path(dir_in) / name).string()).history,
                load_record((fs::path(dir_out) / name).string()).history)
          << agent << " game " << i;
    }
  }
  const duel::DuelGame duel;
  const AgentPtr<duel::DuelGame> own = make_agent(duel, "heuristic:blunder=0.2");
  const AgentPtr<duel::DuelGame> served =
      make_agent(duel, external(sling_protocol("heuristic:blunder=0.2")));
  AgentPtr<duel::DuelGame> goliath = make_agent(duel, "heuristic");
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const GameResult a = play_game(duel, *own, *goliath, seed, 3000);
    const GameResult b = play_game(duel, *served, *goliath, seed, 3000);
    EXPECT_EQ(b.error, "");
    EXPECT_EQ(a.record.history, b.record.history) << "seed " << seed;
  }
  // Danelaw, whose state holds a list of armies (a protocol state the server once could not read
  // back): a served random agent as the Danes and as the English plays a whole game as in process.
  const danelaw::DanelawGame danelaw;
  const AgentPtr<danelaw::DanelawGame> own_random = make_agent(danelaw, "random");
  const AgentPtr<danelaw::DanelawGame> served_random =
      make_agent(danelaw, external(sling_protocol("random")));
  AgentPtr<danelaw::DanelawGame> opponent = make_agent(danelaw, "random");
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    const GameResult danes = play_game(danelaw, *own_random, *opponent, seed);
    const GameResult served_danes = play_game(danelaw, *served_random, *opponent, seed);
    EXPECT_EQ(served_danes.error, "");
    EXPECT_EQ(danes.record.history, served_danes.record.history) << "danes, seed " << seed;
    const GameResult english = play_game(danelaw, *opponent, *own_random, seed);
    const GameResult served_english = play_game(danelaw, *opponent, *served_random, seed);
    EXPECT_EQ(served_english.error, "");
    EXPECT_EQ(english.record.history, served_english.record.history) << "english, seed " << seed;
    EXPECT_TRUE(danelaw.is_terminal(replay(danelaw, served_english.record))) << "seed " << seed;
  }
}

TEST(ExternalAgent, AnAgentThatCrashesLosesEachGameWithItsExitStatus) {
  const MatchResult result = hostile_match(external(shell_agent("crash", "exit 3")));
  EXPECT_EQ(result.errors[0], 3);
  EXPECT_EQ(result.wins[1], 3);
  EXPECT_EQ(result.first_error, "external agent exited with status 3");
}

TEST(ExternalAgent, AnAgentKilledByASignalSaysWhich) {
  const MatchResult result = hostile_match(external(shell_agent("segv", "kill -SEGV $$")), 1);
  // The program's shell reports it (dash does not exec its last command).
  EXPECT_EQ(result.first_error, "external agent exited with status 139 (killed by signal 11)");
  const MatchResult direct = hostile_match(external("kill -SEGV $$"), 1);
  EXPECT_EQ(direct.first_error, "external agent was killed by signal 11");
}

TEST(ExternalAgent, AnAgentThatHangsLosesAfterItsMoveTime) {
  const auto start = std::chrono::steady_clock::now();
  const MatchResult result =
      hostile_match(external(shell_agent("hang", "sleep 60"), "move_time=0.2"), 2);
  EXPECT_EQ(result.errors[0], 2);
  EXPECT_EQ(result.first_error, "external agent timed out after 0.2 s");
  // Two games of 0.2 s each and the kills: far below the agent's 60 s sleep.
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20);
}

TEST(ExternalAgent, AnIllegalOrUnknownActionLoses) {
  const MatchResult illegal =
      hostile_match(external(shell_agent("illegal", R"(echo '{"type":"action","id":7}')")), 1);
  EXPECT_EQ(illegal.first_error, "external agent answered an illegal action 7");
  const MatchResult negative =
      hostile_match(external(shell_agent("negative", R"(echo '{"type":"action","id":-1}')")), 1);
  EXPECT_NE(negative.first_error.find("malformed line"), std::string::npos) << negative.first_error;
}

TEST(ExternalAgent, GarbageAndFloodsLoseWithTheCause) {
  const MatchResult garbage = hostile_match(external(shell_agent("garbage", "echo 'e2e4'")), 1);
  EXPECT_EQ(garbage.first_error.rfind("external agent wrote a malformed line: ", 0), 0u)
      << garbage.first_error;
  const MatchResult wrong_type =
      hostile_match(external(shell_agent("wrong", R"(echo '{"type":"ready"}')")), 1);
  EXPECT_EQ(wrong_type.first_error, "external agent answered 'ready' where 'action' was due");
  // A flood of legal answers: the first is taken, the rest were never asked for.  A line is
  // unasked only if it is there before the next request: on a loaded machine the flood can be
  // descheduled after each line, so that every request finds one line waiting for it, and the
  // flood then plays on as an agent that answers but never reads the plies it is sent, until its
  // input pipe is full (the other cause, after the write's 30 s).
  const MatchResult flood = hostile_match(
      external(shell_agent("flood", R"(while true; do echo '{"type":"action","id":0}'; done)")), 2);
  EXPECT_EQ(flood.errors[0], 2);
  EXPECT_TRUE(flood.first_error.find("not asked for") != std::string::npos ||
              flood.first_error == "external agent stopped reading its input (it is running)")
      << flood.first_error;
  // One endless line.
  const MatchResult long_line =
      hostile_match(external(shell_agent("long", "tr -d '\\n' < /dev/zero")), 1);
  EXPECT_EQ(long_line.first_error, "external agent wrote a line over 1 MiB");
}

// 400,000 nested lists: under the 1 MiB line limit, and deep enough to overflow any thread's stack
// in a parser that recurses once per level.
std::string deeply_nested(std::size_t levels = 400000) {
  return std::string(levels, '[') + std::string(levels, ']');
}

TEST(ExternalAgent, AnAnswerNestedTooDeepLosesItsGameAndTheMatchGoesOn) {
  const fs::path answer = scratch("scripts") / "deep-answer.json";
  std::ofstream(answer) << R"({"type":"action","id":)" << deeply_nested() << "}\n";
  const MatchResult result =
      hostile_match(external(shell_agent("deep", "cat " + answer.string())), 2);
  EXPECT_EQ(result.errors[0], 2);
  EXPECT_EQ(result.wins[1], 2);
  const std::string shown = R"({"type":"action","id":)" + std::string(80 - 22, '[') + "...";
  EXPECT_EQ(result.first_error,
            "external agent wrote a malformed line: JSON nested deeper than 128 levels at line 1, "
            "column 150: '" +
                shown + "'");
}

TEST(ExternalAgent, AnAgentThatExitsWhileItsChildHoldsThePipeLosesWithItsExitStatus) {
  // The background sleep inherits the program's stdout, so the pipe stays open after the exit.
  const auto start = std::chrono::steady_clock::now();
  const MatchResult result =
      hostile_match(external(shell_agent("forker", "sleep 60 & exit 4"), "move_time=30"), 1);
  EXPECT_EQ(result.first_error, "external agent exited with status 4");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20);
}

TEST(ExternalAgent, HandshakeFailuresAreNamed) {
  const MatchResult version = hostile_match(
      external(shell_agent("version", "exit 1", R"(echo '{"type":"hello","protocol":2}')")), 1);
  EXPECT_EQ(version.first_error, "external agent speaks protocol 2; Sling speaks 1");
  const MatchResult missing = hostile_match(external("/nonexistent/agent-program"), 1);
  EXPECT_EQ(missing.first_error, "external agent exited with status 127");
  const MatchResult silent =
      hostile_match(external(shell_agent("silent", "exit 1", "sleep 60"), "startup_time=0.2"), 1);
  EXPECT_EQ(silent.first_error, "external agent timed out after 0.2 s");
  const MatchResult no_dir =
      hostile_match(external(shell_agent("nodir", "exit 1"), "dir=/nonexistent/dir"), 1);
  EXPECT_NE(no_dir.first_error.find("could not start"), std::string::npos) << no_dir.first_error;
}

TEST(ExternalAgent, ResigningLosesWithTheReason) {
  const MatchResult result = hostile_match(
      external(shell_agent("resign", R"(echo '{"type":"resign","reason":"lost cause"}')")), 1);
  EXPECT_EQ(result.first_error, "external agent resigned: lost cause");
}

TEST(ExternalAgent, ItsStderrGoesToItsLogAndOneProcessServesManyGames) {
  const fs::path log = scratch("stderr") / "agent.log";
  const std::string spec =
      "external:cmd='" +
      shell_agent("chatty", R"(echo "thinking" >&2; echo '{"type":"action","id":1}')") +
      "',log=" + log.string();
  const MatchResult kept = hostile_match(spec, 4);
  EXPECT_EQ(kept.errors[0], 0) << kept.first_error;
  std::ifstream in(log);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto count = [&](const std::string& what) {
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
      ++n;
    return n;
  };
  EXPECT_GT(count("thinking"), 0);
  EXPECT_EQ(count("--- sling: started pid"), 1);  // process=keep: one program for the match
  const MatchResult per_game = hostile_match(spec + ",process=game", 4);
  EXPECT_EQ(per_game.errors[0], 0) << per_game.first_error;
  std::ifstream again(log);
  const std::string after((std::istreambuf_iterator<char>(again)),
                          std::istreambuf_iterator<char>());
  int started = 0;
  for (std::size_t at = after.find("--- sling: started pid"); at != std::string::npos;
       at = after.find("--- sling: started pid", at + 1)) {
    ++started;
  }
  EXPECT_EQ(started, 1 + 4);
}

TEST(ExternalAgent, TheAgentsEvaluationIsItsAnalysis) {
  const PigGame game;
  const AgentPtr<PigGame> agent = make_agent(
      game,
      external(shell_agent(
          "eval",
          R"(echo '{"type":"action","id":0,"win_probability":0.75,"nodes":42,"actions":[{"id":0,"win_probability":0.75,"visits":9},{"id":1,"win_probability":0.5}]}')")));
  agent->new_game(1);
  PigGame::State state = game.initial_state();
  EXPECT_EQ(agent->act(state), 0u);
  const Analysis analysis = agent->last_analysis();
  EXPECT_DOUBLE_EQ(analysis.value, 0.5);
  EXPECT_EQ(analysis.nodes, 42);
  ASSERT_EQ(analysis.actions.size(), 2u);
  EXPECT_EQ(analysis.actions[0].visits, 9);
  EXPECT_DOUBLE_EQ(analysis.actions[1].value, 0.0);
}

// ---- The agent's side: `serve_agent` driven message by message.

struct ServerRun {
  std::string answers;
  std::string error;  // empty when the run ended normally
};

ServerRun serve(const std::string& messages, const std::string& agent = "random") {
  std::istringstream in(messages);
  std::ostringstream out;
  ServerRun run;
  try {
    protocol::serve_agent(in, out, agent, [&](const protocol::NewGame& message) {
      if (message.game != "pig") throw OptionError("only pig in this test");
      return std::unique_ptr<protocol::ServedGame>(
          std::make_unique<protocol::ServedGameOf<PigGame>>(
              PigGame::from_rules_json(message.rules_json), agent, message.rules_json));
    });
  } catch (const protocol::ProtocolError& e) {
    run.error = e.what();
  }
  run.answers = out.str();
  return run;
}

const std::string kHello = R"({"type":"hello","protocol":1,"sling":"test"})"
                           "\n";
const std::string kNewGame =
    R"({"type":"new_game","game":"pig","rules":{"goal":100},"side":0,"sides":["first","second"],"seed":7,"time":{"move":1,"game":0},"state":{"scores":[0,0],"turn_total":0,"to_move":0,"phase":0}})"
    "\n";
const std::string kAct =
    R"({"type":"act","ply":0,"player":0,"time_left":1,"state":{"scores":[0,0],"turn_total":0,"to_move":0,"phase":0},"state_text":"","legal":[{"id":0,"text":"roll"},{"id":1,"text":"hold"}]})"
    "\n";

TEST(ProtocolServer, AnswersEveryMessageThatNeedsAnAnswerAndIgnoresUnknownOnes) {
  const ServerRun run =
      serve(kHello + kNewGame +
            R"({"type":"shiny_new_thing","x":1})"
            "\n" +
            kAct +
            R"({"type":"ply","ply":0,"player":0,"action":0,"text":"roll"})"
            "\n" +
            R"({"type":"ply","ply":1,"player":-1,"action":4,"text":"4"})"
            "\n" +
            R"({"type":"game_over","winner":-1,"returns":[0,0],"reason":"abandoned","plies":2})"
            "\n" +
            kNewGame + kAct +
            R"({"type":"quit"})"
            "\n" +
            kAct);
  EXPECT_EQ(run.error, "");
  std::istringstream lines(run.answers);
  std::string line;
  std::vector<std::string> answers;
  while (std::getline(lines, line)) answers.push_back(line);
  ASSERT_EQ(answers.size(), 5u)
      << run.answers;  // hello, ready, action, ready, action; none after quit
  EXPECT_NE(answers[0].find(R"("type":"hello","protocol":1)"), std::string::npos);
  EXPECT_EQ(answers[1], R"({"type":"ready"})");
  EXPECT_NE(answers[2].find(R"("type":"action","id":)"), std::string::npos);
  EXPECT_EQ(answers[2], answers[4]);  // the same seed: the same choice
}

TEST(ProtocolServer, OutOfOrderAndMalformedMessagesAreProtocolErrors) {
  auto error_of = [](const std::string& messages) { return serve(messages).error; };
  EXPECT_NE(error_of(kNewGame).find("before hello"), std::string::npos);
  EXPECT_NE(error_of(kHello + kHello).find("a second hello"), std::string::npos);
  EXPECT_NE(error_of(R"({"type":"hello","protocol":2})"
                     "\n")
                .find("protocol 2"),
            std::string::npos);
  EXPECT_NE(error_of(kHello + kAct).find("outside a game"), std::string::npos);
  EXPECT_NE(error_of(kHello + "not json\n").find("line 2"), std::string::npos);
  EXPECT_NE(error_of(kHello + "[1,2]\n").find("not a JSON object"), std::string::npos);
  EXPECT_NE(error_of(kHello + R"({"kind":"hello"})"
                              "\n")
                .find("'type'"),
            std::string::npos);
  EXPECT_NE(error_of(kHello + kNewGame +
                     R"({"type":"ply","ply":3,"player":0,"action":0})"
                     "\n")
                .find("ply 0 was due"),
            std::string::npos);
  EXPECT_NE(error_of(kHello + kNewGame +
                     R"({"type":"ply","ply":0,"player":0,"action":9})"
                     "\n")
                .find("ply 0"),
            std::string::npos);
  EXPECT_NE(error_of(kHello + kNewGame +
                     R"({"type":"ply","ply":0,"player":1,"action":0})"
                     "\n")
                .find("player 0 is to move"),
            std::string::npos);
  // An act whose state is not where the plies lead, and one for the other side.
  std::string wrong_state = kAct;
  wrong_state.replace(wrong_state.find(R"("turn_total":0)"), 14, R"("turn_total":5)");
  EXPECT_NE(error_of(kHello + kNewGame + wrong_state).find("not the state"), std::string::npos);
  std::string other_side = kNewGame;
  other_side.replace(other_side.find(R"("side":0)"), 8, R"("side":1)");
  EXPECT_NE(error_of(kHello + other_side + kAct).find("plays side 1"), std::string::npos);
  EXPECT_NE(error_of(kHello +
                     R"({"type":"new_game","game":"chess","rules":{},"side":0,"seed":1,"state":{}})"
                     "\n")
                .find("only pig"),
            std::string::npos);
  EXPECT_NE(error_of(kHello + R"({"type":"new_game","game":"pig","side":0,"seed":1})"
                              "\n")
                .find("'rules' and 'state'"),
            std::string::npos);
}

TEST(ProtocolServer, ALineNestedTooDeepIsAProtocolErrorOnEveryField) {
  // As a whole line, as the state of an act, and as the rules of a new game.
  EXPECT_NE(serve(kHello + deeply_nested() + "\n").error.find("nested deeper than 128 levels"),
            std::string::npos);
  std::string deep_state = kAct;
  deep_state.replace(deep_state.find(R"("scores":[0,0])"), 14, R"("scores":)" + deeply_nested());
  EXPECT_NE(serve(kHello + kNewGame + deep_state).error.find("nested deeper than 128 levels"),
            std::string::npos);
  std::string deep_rules = kNewGame;
  deep_rules.replace(deep_rules.find(R"({"goal":100})"), 12, deeply_nested());
  EXPECT_NE(serve(kHello + deep_rules).error.find("nested deeper than 128 levels"),
            std::string::npos);
}

TEST(ProtocolServer, TheCommandRefusesALineNestedTooDeepWithOneLine) {
  const fs::path input = scratch("scripts") / "deep-hello.txt";
  std::ofstream(input) << kHello << deeply_nested() << "\n";
  const std::string command =
      std::string(SLING_BINARY) + " protocol random < " + input.string() + " 2>&1 >/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[512];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_NE(WEXITSTATUS(status), 0);
  EXPECT_EQ(std::count(output.begin(), output.end(), '\n'), 1) << output;
  EXPECT_NE(output.find("nested deeper than 128 levels"), std::string::npos) << output;
}

TEST(ProtocolServer, TheCommandRefusesAnUnknownAgentAtOnce) {
  const std::string command = std::string(SLING_BINARY) + " protocol alphazero < /dev/null 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[512];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(output.find("unknown agent 'alphazero'"), std::string::npos) << output;
}

}  // namespace
}  // namespace sling
