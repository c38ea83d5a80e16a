#pragma once
// `sling serve`: a local web server for playing the three games in the browser.  It serves one
// page (play/web/assets, compiled into the binary) and a JSON API; the games themselves run here,
// in WebGame sessions, and the page only draws them.
//
// Safety: it binds 127.0.0.1 unless told otherwise; a state-changing request must come from a
// page of this server (its Host is one the server answers to, its Origin, when sent, the same
// host) and carry JSON; no request names a file on disk; bodies are limited in size; every bad
// request is a 4xx with a one-line JSON error and leaves the game as it was.

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>

namespace sling::web {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;            // 0: any free port (tests)
  std::string solution_file;  // the duel's exact solution, for `strong` and hints
  double ai_seconds = 10;     // time budget of a searching agent's move
  std::chrono::seconds idle_timeout{
      1800};                              // a game nobody has asked about for this long is dropped
  std::size_t max_body_bytes = 8u << 20;  // uploads (records, tournament records, rules)
  std::size_t max_games = 200;
  // Threads that run the agents' moves and hints: up to this many games think at once (a game
  // never has two jobs at a time); more wait for a free thread, never a request thread.
  int workers = 8;
  // Connections answered at once, each on its own thread (play/web/connection_threads.h): idle
  // browsers and slow clients hold threads of their own, not ones that others wait for.
  std::size_t connection_threads = 256;
  // A connection that sends nothing for this long, between or within requests, is closed.
  std::chrono::seconds read_timeout{5};
  // Agents the operator offers by name (`sling serve --agent NAME=SPEC`): the only way an agent
  // program (external:cmd=...) or an agent that reads a file reaches the page, which can never
  // name a command or a file itself.
  std::map<std::string, std::string> named_agents;
  // The duel's God prompt for a person playing David, as `sling play --god-prompt`: "bad-rolls"
  // (only after a roll that went against him) or "every"; a new game may ask for either.
  std::string god_prompt = "bad-rolls";
};

class WebServer {
 public:
  explicit WebServer(ServerOptions options);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  // Binds the socket; returns the port (the chosen one when options.port is 0).  Throws
  // SlingError when the address cannot be bound.
  int bind();
  // Serves until stop() (blocking).
  void run();
  // Makes run() return and the workers stop (they are joined by the destructor); safe to call
  // from any thread, and more than once.
  void stop();

  std::string url() const;
  std::size_t game_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sling::web
