// sling serve [--port 8080] [--host 127.0.0.1] [--solution FILE] [--open]: the three games in the
// browser (play/web/server.h).  The page and the games run on this machine; the page is compiled
// into the binary.
#include <spawn.h>
#include <sys/wait.h>

#include <pthread.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli/command.h"
#include "engine/core/errors.h"
#include "play/web/server.h"

extern char** environ;

namespace sling::cli {
namespace {

struct ServeCommand {
  web::ServerOptions options;
  int idle_minutes = 30;
  bool open = false;
  std::vector<std::string> named_agents;  // NAME=SPEC
};

// Opens the URL in the desktop's browser, if there is one; a failure is only a note.
void open_browser(const std::string& url) {
  const char* argv[] = {"xdg-open", url.c_str(), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, "xdg-open", nullptr, nullptr, const_cast<char* const*>(argv), environ) !=
      0) {
    std::cerr << "sling serve: cannot open a browser (no xdg-open); open the URL yourself\n";
  }
}

const RegisterCommand kRegister(
    "serve", "Play the games in a web browser: a local server with a board you click",
    [](CLI::App& sub) {
      auto command = std::make_shared<ServeCommand>();
      sub.footer(
          "Example:\n"
          "  sling serve                      # then open http://127.0.0.1:8080/\n"
          "  sling serve --port 9000 --solution duel.sol --open\n"
          "The page plays the duel, danelaw and Pig against any preset or agent spec, with hints,\n"
          "undo, save and load (the terminal's save format), replays and AI-against-AI games.\n"
          "See docs/play.md.");
      sub.add_option("--port", command->options.port, "Port to listen on (0: any free port)")
          ->capture_default_str();
      sub.add_option("--host", command->options.host,
                     "Address to listen on; anything but 127.0.0.1 lets other machines play")
          ->capture_default_str();
      sub.add_option("--solution", command->options.solution_file,
                     "The duel's exact solution (`sling solve duel --out`): `strong` and hints "
                     "play from it");
      sub.add_option("--ai-seconds", command->options.ai_seconds,
                     "Time budget of a searching agent's move")
          ->capture_default_str();
      sub.add_option("--idle-minutes", command->idle_minutes,
                     "Drop a game whose page has not been seen for this long")
          ->capture_default_str();
      sub.add_option("--god-prompt", command->options.god_prompt,
                     "duel, a person as David: when God's question comes, as in `sling play`. "
                     "bad-rolls: only after a roll that went against David (the others are "
                     "accepted for him); every: after every roll")
          ->check(CLI::IsMember({"bad-rolls", "every"}))
          ->capture_default_str();
      sub.add_flag("--open", command->open, "Open the page in the desktop's browser");
      sub.add_option("--agent", command->named_agents,
                     "NAME=SPEC: offer an agent on the page by NAME, e.g. "
                     "mine=external:cmd='python3 my_agent.py' (the page itself can name no "
                     "program and no file); repeatable")
          ->type_name("NAME=SPEC");
      sub.callback([command] {
        if (command->options.port < 0 || command->options.port > 65535)
          throw OptionError("--port must be from 1 to 65535 (or 0: any free port)");
        if (command->idle_minutes < 1) throw OptionError("--idle-minutes must be at least 1");
        if (!(command->options.ai_seconds > 0)) throw OptionError("--ai-seconds must be positive");
        command->options.idle_timeout = std::chrono::minutes(command->idle_minutes);
        for (const std::string& entry : command->named_agents) {
          const std::size_t eq = entry.find('=');
          const std::string name = entry.substr(0, eq);
          if (eq == std::string::npos || name.empty() || eq + 1 == entry.size() ||
              name.find_first_of(":,= ") != std::string::npos) {
            throw OptionError(
                error_text("bad --agent", entry,
                           "expected NAME=SPEC, e.g. mine=external:cmd='python3 my_agent.py'"));
          }
          if (!command->options.named_agents.emplace(name, entry.substr(eq + 1)).second) {
            throw OptionError(
                error_text("bad --agent", entry, "the name '" + name + "' is given twice"));
          }
        }
        const std::string& host = command->options.host;
        if (host != "127.0.0.1" && host != "localhost" && host != "::1") {
          std::cerr << "sling serve: warning: listening on " << host
                    << ", so other machines on the network can reach this server and play on "
                       "it\n";
        }
        // A browser that closes a connection mid-answer must not kill the server; Ctrl-C and
        // SIGTERM are taken by this thread (blocked in the server's threads) to stop it cleanly.
        std::signal(SIGPIPE, SIG_IGN);
        sigset_t stop_signals;
        sigemptyset(&stop_signals);
        sigaddset(&stop_signals, SIGINT);
        sigaddset(&stop_signals, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
        web::WebServer server(command->options);
        server.bind();
        std::cout << "Sling is serving at " << server.url() << "  (Ctrl-C stops it)" << std::endl;
        if (command->open) open_browser(server.url());
        std::thread serving([&server] { server.run(); });
        int received = 0;
        sigwait(&stop_signals, &received);
        server.stop();
        serving.join();
      });
    });

}  // namespace
}  // namespace sling::cli
