#include "play/web/server.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "engine/core/embedded.h"
#include "engine/core/errors.h"
#include "engine/core/json_text.h"
#include "play/web/connection_threads.h"
#include "play/web/game_factory.h"
#include "play/web/web_json.h"
#include "sling_web_assets.h"

namespace sling::web {
namespace {

std::string_view content_type(std::string_view name) {
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (name.ends_with(".css")) return "text/css; charset=utf-8";
  if (name.ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

const std::string_view* find_asset(std::string_view name) {
  for (const auto& [file, contents] : web_assets::kFiles) {
    if (!file.empty() && file == name) return &contents;
  }
  return nullptr;
}

bool is_wildcard(const std::string& host) {
  return host == "0.0.0.0" || host == "::" || host.empty();
}

}  // namespace

struct WebServer::Impl {
  enum class JobKind { kAi, kHint, kEval, kAnalysis };
  struct Job {
    std::weak_ptr<WebSession> session;
    JobKind kind;
  };

  ServerOptions options;
  httplib::Server http;
  int port = 0;

  mutable std::mutex games_mutex;
  std::map<std::string, std::shared_ptr<WebSession>> games;
  std::mt19937_64 id_source{std::random_device{}() * 0x100000001ULL + std::random_device{}()};

  std::mutex jobs_mutex;
  std::condition_variable jobs_changed;
  std::multimap<Clock::time_point, Job> jobs;
  std::set<const WebSession*> ai_queued;    // sessions with an agent move waiting in `jobs`
  std::set<const WebSession*> eval_queued;  // sessions with an evaluation waiting in `jobs`
  bool stopping = false;
  std::atomic<bool> serving{false};  // run() is in (or about to enter) httplib's listen loop
  std::vector<std::thread> workers;
  std::thread janitor;

  explicit Impl(ServerOptions o) : options(std::move(o)) {
    routes();
    http.new_task_queue = [this] { return new ConnectionThreads(options.connection_threads); };
    http.set_read_timeout(options.read_timeout);
    http.set_keep_alive_timeout(options.read_timeout.count());
    http.set_write_timeout(options.read_timeout);
    for (int i = 0; i < std::max(1, options.workers); ++i) workers.emplace_back([this] { work(); });
    janitor = std::thread([this] { sweep(); });
  }

  ~Impl() {
    stop();
    for (std::thread& t : workers) t.join();
    janitor.join();
  }

  // Asks everything to stop; the threads are joined by the destructor.
  void stop() {
    {
      std::lock_guard lock(jobs_mutex);
      stopping = true;
    }
    jobs_changed.notify_all();
    // httplib's stop() only stops a server already listening: if run() has been entered but has
    // not started listening yet, wait until it has (or has given up).
    while (serving && !http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    http.stop();
  }

  void run() {
    {
      std::lock_guard lock(jobs_mutex);
      if (stopping) return;
      serving = true;
    }
    http.listen_after_bind();
    serving = false;
  }

  // ---- the workers: agents' moves and hints, off the request threads -----------------------

  void schedule(const std::shared_ptr<WebSession>& session, JobKind kind, int delay_ms = 0) {
    std::lock_guard lock(jobs_mutex);
    if (stopping) return;
    if (kind == JobKind::kAi && !ai_queued.insert(session.get()).second) return;
    if (kind == JobKind::kEval && !eval_queued.insert(session.get()).second) return;
    jobs.emplace(Clock::now() + std::chrono::milliseconds(delay_ms), Job{session, kind});
    jobs_changed.notify_all();  // all: the janitor waits on it too
  }

  void schedule_ai_if_due(const std::shared_ptr<WebSession>& session) {
    if (session->ai_due()) schedule(session, JobKind::kAi, session->ai_delay_ms());
    if (session->eval_due()) schedule(session, JobKind::kEval);
  }

  void work() {
    while (true) {
      Job job;
      {
        std::unique_lock lock(jobs_mutex);
        while (true) {
          if (stopping) return;
          if (!jobs.empty() && jobs.begin()->first <= Clock::now()) break;
          if (jobs.empty()) {
            jobs_changed.wait(lock);
          } else {
            jobs_changed.wait_until(lock, jobs.begin()->first);
          }
        }
        job = jobs.begin()->second;
        jobs.erase(jobs.begin());
        if (const auto session = job.session.lock(); session && job.kind == JobKind::kAi)
          ai_queued.erase(session.get());
        if (const auto session = job.session.lock(); session && job.kind == JobKind::kEval)
          eval_queued.erase(session.get());
      }
      const std::shared_ptr<WebSession> session = job.session.lock();
      if (!session) continue;
      try {
        if (job.kind == JobKind::kHint) {
          session->run_hint();
        } else if (job.kind == JobKind::kAnalysis) {
          session->run_analysis();
        } else if (job.kind == JobKind::kEval) {
          session->run_eval();
        } else if (session->run_ai_step()) {
          schedule(session, JobKind::kAi, session->ai_delay_ms());
        }
        // The position may have moved on while the job ran: evaluate the new one.
        if (session->eval_due()) schedule(session, JobKind::kEval);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "sling serve: a game's worker failed: %s\n", e.what());
      }
    }
  }

  // Drops the games whose page has not asked about them for options.idle_timeout.
  void sweep() {
    const auto period = std::clamp<Clock::duration>(
        options.idle_timeout / 4, std::chrono::milliseconds(50), std::chrono::seconds(30));
    std::unique_lock lock(jobs_mutex);
    while (!stopping) {
      jobs_changed.wait_for(lock, period);
      if (stopping) return;
      lock.unlock();
      drop_idle();
      lock.lock();
    }
  }

  void drop_idle() {
    const Clock::time_point cutoff = Clock::now() - options.idle_timeout;
    std::lock_guard lock(games_mutex);
    for (auto it = games.begin(); it != games.end();) {
      it = it->second->last_seen() < cutoff ? games.erase(it) : std::next(it);
    }
  }

  // ---- the table of games -------------------------------------------------------------------

  std::string add(std::shared_ptr<WebSession> session) {
    drop_idle();
    std::lock_guard lock(games_mutex);
    if (games.size() >= options.max_games)
      throw HttpError(503, "the server holds too many games; close some and try again");
    char id[17];
    do {
      std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(id_source()));
    } while (games.count(id));
    games.emplace(id, std::move(session));
    return id;
  }

  std::shared_ptr<WebSession> find(const std::string& id) {
    std::lock_guard lock(games_mutex);
    const auto it = games.find(id);
    if (it == games.end()) throw HttpError(404, "no game '" + id + "' (it may have expired)");
    it->second->touch();
    return it->second;
  }

  // ---- request checks -----------------------------------------------------------------------

  bool host_allowed(const std::string& host_header) const {
    if (is_wildcard(options.host)) return !host_header.empty();
    const std::string suffix = ":" + std::to_string(port);
    for (const std::string& name :
         {std::string("127.0.0.1"), std::string("localhost"), std::string("[::1]"), options.host}) {
      if (host_header == name + suffix) return true;
    }
    return false;
  }

  // Another web page must not drive this server: a state-changing request names this server as
  // its Host (which defeats DNS rebinding), comes from a page of the same origin when the browser
  // says where it comes from, and is JSON (which a cross-site form cannot send).
  void check_origin(const httplib::Request& request) const {
    const std::string host = request.get_header_value("Host");
    if (!host_allowed(host)) throw HttpError(403, "refused: unexpected Host header '" + host + "'");
    if (request.has_header("Origin") && request.get_header_value("Origin") != "http://" + host)
      throw HttpError(403, "refused: a request from another site ('" +
                               request.get_header_value("Origin") + "')");
    if (!request.body.empty() &&
        request.get_header_value("Content-Type").rfind("application/json", 0) != 0)
      throw HttpError(415, "refused: the request body must be application/json");
  }

  // Runs a handler, turning every failure into a 4xx/5xx with a one-line JSON error.
  template <class F>
  httplib::Server::Handler guarded(bool changes_state, F handler) {
    return [this, changes_state, handler](const httplib::Request& request,
                                          httplib::Response& response) {
      try {
        if (changes_state) check_origin(request);
        handler(request, response);
      } catch (const HttpError& e) {
        respond_error(response, e.status(), e.what());
      } catch (const SlingError& e) {
        respond_error(response, 400, e.what());
      } catch (const std::exception& e) {
        respond_error(response, 500, std::string("internal error: ") + e.what());
      }
    };
  }

  static void respond_error(httplib::Response& response, int status, const std::string& message) {
    response.status = status;
    response.set_content(error_body(message), "application/json");
  }
  static void respond_json(httplib::Response& response, const std::string& body) {
    response.set_header("Cache-Control", "no-store");
    response.set_content(body, "application/json");
  }

  // ---- routes -------------------------------------------------------------------------------

  void routes() {
    http.set_payload_max_length(options.max_body_bytes);
    http.set_error_handler([](const httplib::Request&, httplib::Response& response) {
      if (!response.body.empty()) return;
      const std::string message = response.status == 413   ? "the upload is too large"
                                  : response.status == 404 ? "no such page"
                                                           : "bad request";
      response.set_content(error_body(message), "application/json");
    });
    http.set_exception_handler(
        [](const httplib::Request&, httplib::Response& response, std::exception_ptr) {
          respond_error(response, 500, "internal error");
        });

    http.Get("/", guarded(false, [](const httplib::Request&, httplib::Response& response) {
               serve_asset(response, "index.html");
             }));
    http.Get(R"(/assets/([a-z0-9_.-]+))",
             guarded(false, [](const httplib::Request& request, httplib::Response& response) {
               serve_asset(response, request.matches[1].str());
             }));
    http.Get("/api/info", guarded(false, [this](const httplib::Request&, httplib::Response& r) {
               respond_json(r, info_json(!options.solution_file.empty(), options.named_agents,
                                         options.god_prompt, options.idle_timeout));
             }));
    http.Post("/api/games",
              guarded(true, [this](const httplib::Request& request, httplib::Response& response) {
                const rapidjson::Document body = parse_body(request.body);
                std::shared_ptr<WebSession> session = make_game(body, factory_options(false));
                const std::string id = add(session);
                schedule_ai_if_due(session);
                respond_json(response, with_id(id, session->state_json()));
              }));
    http.Post("/api/replays",
              guarded(true, [this](const httplib::Request& request, httplib::Response& response) {
                const rapidjson::Document body = parse_body(request.body);
                std::shared_ptr<WebSession> session = make_game(body, factory_options(true));
                const std::string id = add(session);
                respond_json(response, with_id(id, session->state_json(0)));
              }));
    http.Post("/api/records",
              guarded(true, [](const httplib::Request& request, httplib::Response& response) {
                const rapidjson::Document body = parse_body(request.body);
                const std::optional<std::string> records = text_or_json_field(body, "records");
                if (!records)
                  throw bad_request("'records' (a tournament's records.jsonl) is missing");
                respond_json(response, records_list_json(*records));
              }));
    const std::string game = R"(/api/games/([0-9a-f]{16}))";
    http.Get(
        game, guarded(false, [this](const httplib::Request& request, httplib::Response& r) {
          std::int64_t ply = -1;
          if (request.has_param("ply")) {
            const std::string text = request.get_param_value("ply");
            if (text.empty() || text.size() > 9 ||
                !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
              throw bad_request("'ply' must be a number of plies");
            ply = std::stoll(text);
          }
          const std::string id = request.matches[1].str();
          respond_json(r, with_id(id, find(id)->state_json(ply)));
        }));
    http.Delete(game, guarded(true, [this](const httplib::Request& request, httplib::Response& r) {
                  const std::string id = request.matches[1].str();
                  find(id);
                  {
                    std::lock_guard lock(games_mutex);
                    games.erase(id);
                  }
                  respond_json(r, "{\"deleted\":true}");
                }));
    http.Get(game + "/record",
             guarded(false, [this](const httplib::Request& request, httplib::Response& response) {
               const std::string id = request.matches[1].str();
               const std::shared_ptr<WebSession> session = find(id);
               const std::string record = session->record_json();
               // Named after the game, as the page's own link names it.
               response.set_header("Content-Disposition",
                                   "attachment; filename=\"" + session->save_name() + "\"");
               respond_json(response, record);
             }));
    auto post_game = [&](const std::string& path, auto body_handler) {
      http.Post(game + path, guarded(true, [this, body_handler](const httplib::Request& request,
                                                                httplib::Response& response) {
                  const rapidjson::Document body = parse_body(request.body);
                  const std::string id = request.matches[1].str();
                  const std::shared_ptr<WebSession> session = find(id);
                  const std::string extra = body_handler(*session, body);
                  schedule_ai_if_due(session);
                  respond_json(response,
                               extra.empty() ? with_id(id, session->state_json()) : extra);
                }));
    };
    post_game("/act", [](WebSession& s, const rapidjson::Value& body) {
      s.act(body);
      return std::string();
    });
    post_game("/point", [](WebSession& s, const rapidjson::Value& body) { return s.point(body); });
    post_game("/undo", [](WebSession& s, const rapidjson::Value&) {
      s.undo();
      return std::string();
    });
    http.Post(game + "/hint",
              guarded(true, [this](const httplib::Request& request, httplib::Response& response) {
                parse_body(request.body);
                const std::string id = request.matches[1].str();
                const std::shared_ptr<WebSession> session = find(id);
                session->request_hint();
                schedule(session, JobKind::kHint);
                respond_json(response, with_id(id, session->state_json()));
              }));
    // The analysis of a finished game or a replay: POST starts it (on a worker: the duel's value
    // function may first solve a coarse lattice) and answers as GET does, with its status.
    http.Post(game + "/analysis",
              guarded(true, [this](const httplib::Request& request, httplib::Response& response) {
                parse_body(request.body);
                const std::string id = request.matches[1].str();
                const std::shared_ptr<WebSession> session = find(id);
                if (session->request_analysis()) schedule(session, JobKind::kAnalysis);
                respond_json(response, with_id(id, session->analysis_json()));
              }));
    http.Get(game + "/analysis",
             guarded(false, [this](const httplib::Request& request, httplib::Response& response) {
               const std::string id = request.matches[1].str();
               respond_json(response, with_id(id, find(id)->analysis_json()));
             }));
  }

  FactoryOptions factory_options(bool replay) const {
    FactoryOptions o;
    o.solution_file = options.solution_file;
    o.ai_seconds = options.ai_seconds;
    o.replay = replay;
    o.named_agents = options.named_agents;
    o.god_prompt = options.god_prompt;
    return o;
  }

  static std::string with_id(const std::string& id, const std::string& state) {
    // state is a JSON object: insert the id as its first member.
    return "{\"id\":" + json_string(id) + "," + state.substr(1);
  }

  static void serve_asset(httplib::Response& response, const std::string& name) {
    const std::string_view* asset = find_asset(name);
    if (!asset) throw HttpError(404, "no file '" + name + "'");
    response.set_header("Cache-Control", "no-cache");
    response.set_content(std::string(*asset), std::string(content_type(name)));
  }
};

WebServer::WebServer(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

WebServer::~WebServer() = default;

int WebServer::bind() {
  Impl& i = *impl_;
  if (i.options.port == 0) {
    i.port = i.http.bind_to_any_port(i.options.host);
  } else {
    i.port = i.http.bind_to_port(i.options.host, i.options.port) ? i.options.port : -1;
  }
  if (i.port <= 0) {
    throw SlingError("cannot listen on " + i.options.host + ":" + std::to_string(i.options.port) +
                     " (is the port in use? choose another with --port)");
  }
  return i.port;
}

void WebServer::run() {
  impl_->run();
}

void WebServer::stop() {
  impl_->stop();
}

std::string WebServer::url() const {
  const std::string& host = impl_->options.host;
  const std::string shown = is_wildcard(host)                     ? "127.0.0.1"
                            : host.find(':') != std::string::npos ? "[" + host + "]"
                                                                  : host;
  return "http://" + shown + ":" + std::to_string(impl_->port) + "/";
}

std::size_t WebServer::game_count() const {
  std::lock_guard lock(impl_->games_mutex);
  return impl_->games.size();
}

}  // namespace sling::web
