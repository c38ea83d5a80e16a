// libFuzzer target: the bodies of `sling serve`'s POST routes (play/web/server.cpp), without a
// network.  The input is a request body handed to the functions the route calls; the first byte
// picks the route:
//
//   0  /api/games          parse_body, make_game, the new game's state_json
//   1  /api/replays        parse_body, make_game for a replay, state_json(0)
//   2  /api/records        parse_body, the "records" field, records_list_json
//   3  /api/games/ID/act   on a new game between two people: byte 1 picks it (even: the duel, odd:
//                          Pig), byte 2 is its seed, byte 3 the number of plies played first (from
//                          the actions its state lists); then each line of the rest is one body
//                          given to act
//   4  /api/games/ID/point the same, each line given to point, and the destination it names then
//                          played through act, as the page does (100 lines at most)
//
// The server's `guarded` answers an HttpError with its status and a SlingError with 400; anything
// else is a 500, so here it is a crash.  Every refusal must be a 4xx with one line in Sling's words
// (fuzz_check.h), and a refused act or point must leave the game as it was (play/web/server.h).
#include "play/web/web_json.h"  // first: makes rapidjson assertions throw

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

#include "agents/registry.h"
#include "agents/spec.h"
#include "engine/games.h"
#include "fuzz/fuzz_check.h"
#include "play/web/game_factory.h"

namespace {

using sling::web::HttpError;

sling::web::FactoryOptions factory_options(bool replay) {
  sling::web::FactoryOptions options;
  options.replay = replay;
  // As `sling serve --agent friend=heuristic`: the page may name the operator's agents.
  options.named_agents = {{"friend", "heuristic"}};
  return options;
}

// What the page reads of a refusal: error_body joins the message's lines.
void check_refusal(const HttpError& error, std::string_view body) {
  if (error.status() < 400 || error.status() > 499) {
    std::fprintf(stderr, "fuzz: a bad body got status %d: %s\n", error.status(), error.what());
    std::abort();
  }
  std::string message = error.what();
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  sling::fuzz::check_error_text(message, body);
}

[[noreturn]] void internal_error(const std::exception& error) {
  std::fprintf(stderr, "fuzz: the server would answer 500 (internal error): %s\n", error.what());
  std::abort();
}

// Runs one request the way `guarded` does, checking each refusal as the page would read it.
template <class Handler>
bool answered(std::string_view body, Handler handler) {
  try {
    handler();
    return true;
  } catch (const HttpError& e) {
    check_refusal(e, body);
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, body);
  } catch (const std::exception& e) {
    internal_error(e);
  }
  return false;
}

// Every agent and preset name of every game.
const std::set<std::string>& agent_names() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out = {"easy", "normal", "strong"};
    sling::for_each_registered_game([&]<class G>(std::type_identity<G>) {
      for (const sling::AgentInfo& agent : sling::agent_catalogue(G())) out.insert(agent.name);
    });
    return out;
  }();
  return names;
}

// Whether the factory builds this side quickly or refuses it before building anything: a person,
// a name it does not know, a spec it cannot parse or may not take from a page, or an agent that
// prepares nothing.  `normal`, `strong`, the solvers, lookahead, planner and the searches with a
// value function solve or load for seconds when built, which would make the fuzzer useless.
bool builds_fast(const std::string& side) {
  if (side.empty() || side.size() > 300 || side == "human" || side == "easy") return true;
  sling::AgentSpec spec;
  try {
    spec = sling::parse_agent_spec(side);
  } catch (const sling::SlingError&) {
    return true;
  }
  for (const auto& [key, value] : spec.options) {
    if (key == "file" || key == "table" || value.find_first_of("/\\") != std::string::npos)
      return true;
  }
  static const std::set<std::string> kFast = {"random", "heuristic", "hold", "external", "easy"};
  return kFast.count(spec.name) != 0 || agent_names().count(spec.name) == 0;
}

// A new game as the page asks for it, with two changes that keep an input fast and reproducible: a
// side that would take seconds to build plays `random` (so does the default `normal` side when
// "sides" is absent), and a seed left to the factory's random_device is 1.
void make_fast(rapidjson::Document& request) {
  auto& allocator = request.GetAllocator();
  const auto sides = request.FindMember("sides");
  if (sides == request.MemberEnd()) {
    rapidjson::Value pair(rapidjson::kArrayType);
    pair.PushBack("human", allocator).PushBack("random", allocator);
    request.AddMember("sides", pair, allocator);
  } else if (sides->value.IsArray()) {
    for (rapidjson::Value& side : sides->value.GetArray()) {
      // As the factory reads it: up to the first NUL.
      if (side.IsString() && !builds_fast(side.GetString())) side.SetString("random");
    }
  }
  const auto seed = request.FindMember("seed");
  if (seed == request.MemberEnd()) {
    request.AddMember("seed", 1, allocator);
  } else if (seed->value.IsNull() ||
             (seed->value.IsString() && seed->value.GetStringLength() == 0)) {
    seed->value.SetUint64(1);
  }
}

void new_game(std::string_view body, bool replay) {
  answered(body, [&] {
    rapidjson::Document request = sling::web::parse_body(body);
    // A replay builds no agents and takes its seed from the record.
    if (!replay) make_fast(request);
    const auto session = sling::web::make_game(request, factory_options(replay));
    (void)session->state_json(replay ? 0 : -1);
  });
}

void records(std::string_view body) {
  answered(body, [&] {
    const rapidjson::Document request = sling::web::parse_body(body);
    if (const auto text = sling::web::text_or_json_field(request, "records"))
      (void)sling::web::records_list_json(*text);
  });
}

rapidjson::Document json_of(const std::string& text) {
  rapidjson::Document document;
  sling::parse_json(document, text);
  if (document.HasParseError() || !document.IsObject()) {
    std::fprintf(stderr, "fuzz: the server wrote JSON it cannot read: %s\n", text.c_str());
    std::abort();
  }
  return document;
}

// {"action": code} at the current ply, as the page sends it.
rapidjson::Document action_request(std::int64_t code, std::int64_t ply) {
  rapidjson::Document request;
  request.SetObject();
  request.AddMember("action", code, request.GetAllocator());
  request.AddMember("ply", ply, request.GetAllocator());
  return request;
}

// Plays the destination a point request chose, which must be legal now.
void act_on_point(sling::web::WebSession& session, const std::string& answer, std::int64_t ply) {
  const rapidjson::Document chosen = json_of(answer);
  session.act(action_request(chosen["action"].GetInt64(), ply));
}

// One decision from the actions the state lists (or a point on the duel's board), as a person
// clicking would make it; false when nobody human is to decide.
bool play_listed(sling::web::WebSession& session, unsigned pick) {
  const rapidjson::Document state = json_of(session.state_json());
  if (!state["human_turn"].GetBool()) return false;
  const std::int64_t ply = state["ply"].GetInt64();
  const auto& actions = state["actions"];
  if (!actions.Empty()) {
    session.act(action_request(actions[pick % actions.Size()]["code"].GetInt64(), ply));
    return true;
  }
  if (!state["point_input"].GetBool()) return false;
  rapidjson::Document point;
  point.SetObject();
  point.AddMember("x", static_cast<double>(pick % 31), point.GetAllocator());
  point.AddMember("y", static_cast<double>(pick * 7 % 31), point.GetAllocator());
  act_on_point(session, session.point(point), ply);
  return true;
}

void session_route(const std::uint8_t* data, std::size_t size, bool point) {
  if (size < 4) return;
  // Not danelaw: its state lists hundreds of options, each labelled by running the rule of thumb,
  // so one state_json takes about 80 ms under the sanitizers.  /api/games covers its requests.
  static constexpr const char* kGames[] = {"duel", "pig"};
  rapidjson::Document request;
  request.SetObject();
  auto& allocator = request.GetAllocator();
  request.AddMember("game", rapidjson::StringRef(kGames[data[1] % 2]), allocator);
  rapidjson::Value sides(rapidjson::kArrayType);
  sides.PushBack("human", allocator).PushBack("human", allocator);
  request.AddMember("sides", sides, allocator);
  request.AddMember("seed", static_cast<unsigned>(data[2]), allocator);
  // A valid request built from the state's own listing: an exception here is a bug, not a refusal.
  const std::shared_ptr<sling::web::WebSession> session =
      sling::web::make_game(request, factory_options(false));
  for (unsigned ply = 0; ply < data[3] % 32u; ++ply) {
    if (!play_listed(*session, data[2] + ply)) break;
  }
  // Each line is one request: the fuzzer can play several moves in one input.  At most
  // kMaxRequests, which bounds an input's time: a megabyte of line breaks would be a million.
  constexpr int kMaxRequests = 100;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 4, size - 4);
  std::size_t start = 0;
  for (int request = 0; request < kMaxRequests && start <= rest.size(); ++request) {
    std::size_t end = rest.find('\n', start);
    if (end == std::string_view::npos) end = rest.size();
    const std::string_view body = rest.substr(start, end - start);
    start = end + 1;
    const std::string before = session->state_json();
    const std::int64_t ply = json_of(before)["ply"].GetInt64();
    std::string answer;
    const bool done = answered(body, [&] {
      const rapidjson::Document parsed = sling::web::parse_body(body);
      if (point) {
        answer = session->point(parsed);
      } else {
        session->act(parsed);
      }
    });
    if (!done) {
      if (session->state_json() != before) {
        std::fprintf(stderr, "fuzz: a refused request changed the game\n");
        std::abort();
      }
      continue;
    }
    if (point) act_on_point(*session, answer, ply);
    (void)session->state_json();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
    case 0:
      new_game(body, false);
      break;
    case 1:
      new_game(body, true);
      break;
    case 2:
      records(body);
      break;
    case 3:
      session_route(data, size, false);
      break;
    default:
      session_route(data, size, true);
      break;
  }
  return 0;
}
