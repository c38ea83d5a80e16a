#include "agents/external_agent.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "sling_version.h"

namespace sling {

namespace {

constexpr double kMaxSeconds = 7 * 24 * 3600.0;
constexpr std::chrono::milliseconds kQuitGrace{1000};

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, seconds >= 0.1 ? "%.1f" : "%.3f", seconds);
  return text;
}

// A value that parse_agent_spec reads back as it is: quoted when it holds a comma or a quote.
std::string spec_value(const std::string& value) {
  const bool plain = value.find_first_of(",'\"") == std::string::npos && !value.empty() &&
                     value.front() != ' ' && value.back() != ' ';
  if (plain) return value;
  const char quote = value.find('\'') == std::string::npos ? '\'' : '"';
  return quote + value + quote;
}

ChildProcess::Clock::time_point deadline_after(double seconds) {
  if (seconds <= 0) return ChildProcess::Clock::time_point::max();
  return ChildProcess::Clock::now() + std::chrono::duration_cast<ChildProcess::Clock::duration>(
                                          std::chrono::duration<double>(seconds));
}

// A line of Sling's in the program's log, among its own stderr: when each program started and
// what it calls itself, so that a log shared by many runs reads.
void log_line(const std::string& log_file, const std::string& text) {
  if (log_file.empty()) return;
  const int fd = ::open(log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const std::string line = "--- sling: " + one_line(text) + "\n";
  [[maybe_unused]] const ssize_t written = ::write(fd, line.data(), line.size());
  ::close(fd);
}

}  // namespace

ExternalAgentOptions read_external_options(OptionReader& reader) {
  ExternalAgentOptions options;
  options.command = reader.text("cmd", "",
                                "the agent program's command line, run by /bin/sh -c (quote it as "
                                "cmd='...' when it holds a comma)");
  options.move_seconds = reader.real("move_time", options.move_seconds, 0, kMaxSeconds,
                                     "seconds for each decision (0: no limit)");
  options.game_seconds = reader.real("game_time", options.game_seconds, 0, kMaxSeconds,
                                     "seconds for all of a game's decisions (0: no limit)");
  options.startup_seconds = reader.real("startup_time", options.startup_seconds, 0.01, kMaxSeconds,
                                        "seconds for the program's hello and each ready");
  options.working_directory = reader.text("dir", "", "the program's working directory");
  options.process_per_game =
      reader.choice("process", "keep", {"keep", "game"},
                    "keep: one process plays game after game; game: a new process per game") ==
      "game";
  options.log_file =
      reader.text("log", options.log_file, "the file the program's stderr is appended to");
  if (options.command.empty()) {
    throw OptionError(
        "agent 'external': option 'cmd' is required (the agent program's command "
        "line, e.g. external:cmd='python3 my_agent.py'; docs/protocol.md)");
  }
  return options;
}

std::string external_spec(const ExternalAgentOptions& options) {
  std::string spec = "external:cmd=" + spec_value(options.command);
  char number[128];
  std::snprintf(number, sizeof number, ",move_time=%g,game_time=%g,startup_time=%g",
                options.move_seconds, options.game_seconds, options.startup_seconds);
  spec += number;
  if (!options.working_directory.empty()) spec += ",dir=" + spec_value(options.working_directory);
  spec += std::string(",process=") + (options.process_per_game ? "game" : "keep");
  spec += ",log=" + spec_value(options.log_file);
  return spec;
}

ExternalConnection::~ExternalConnection() {
  stop();
}

void ExternalConnection::start() {
  if (process_) return;
  ChildProcessOptions child;
  child.command = options_.command;
  child.working_directory = options_.working_directory;
  child.log_file = options_.log_file;
  try {
    process_ = std::make_unique<ChildProcess>(child);
  } catch (const SlingError& e) {
    throw SlingError(std::string("external agent ") + e.what());
  }
  const std::string pid = std::to_string(process_->pid());
  log_line(options_.log_file, "started pid " + pid + ": " + options_.command);
  const protocol::Answer hello =
      request(protocol::hello_message(kSlingVersion), "hello", options_.startup_seconds);
  if (hello.protocol != protocol::kVersion) {
    fail("external agent speaks protocol " + std::to_string(hello.protocol) + "; Sling speaks " +
         std::to_string(protocol::kVersion));
  }
  if (!hello.name.empty()) log_line(options_.log_file, "pid " + pid + " is " + hello.name);
}

void ExternalConnection::send(const std::string& message) {
  if (!process_ || !pending_error_.empty()) return;
  if (!process_->write_line(message, deadline_after(options_.startup_seconds))) {
    pending_error_ = "external agent stopped reading its input (it " + describe_exit() + ")";
    process_->stop(std::chrono::milliseconds(0));
    process_.reset();
  }
}

protocol::Answer ExternalConnection::request(const std::string& message, const char* expected,
                                             double seconds) {
  if (!pending_error_.empty()) {
    const std::string cause = std::move(pending_error_);
    pending_error_.clear();
    fail(cause);
  }
  if (!process_) fail("external agent is not running");
  std::string line;
  if (process_->has_pending_output()) {
    // A line written unasked would be taken for the answer to this request.
    if (process_->read_line(line, Clock::now()) == ChildProcess::ReadStatus::kLine) {
      fail("external agent wrote a line it was not asked for: '" + one_line(line.substr(0, 80)) +
           "'");
    }
    fail("external agent " + describe_exit());
  }
  const auto deadline = deadline_after(seconds);
  if (!process_->write_line(message, deadline)) {
    const std::string state = describe_exit();
    if (state == "is running")
      fail("external agent timed out after " + seconds_text(seconds) + " s");
    fail("external agent " + state);
  }
  switch (process_->read_line(line, deadline)) {
    case ChildProcess::ReadStatus::kLine:
      break;
    case ChildProcess::ReadStatus::kTimeout:
      fail("external agent timed out after " + seconds_text(seconds) + " s");
    case ChildProcess::ReadStatus::kClosed:
      fail("external agent " + describe_exit());
    case ChildProcess::ReadStatus::kTooLong:
      fail("external agent wrote a line over 1 MiB");
  }
  protocol::Answer answer;
  try {
    answer = protocol::parse_answer(line);
  } catch (const SlingError& e) {
    fail(std::string("external agent wrote a malformed line: ") + e.what());
  }
  if (answer.type == "resign") {
    throw SlingError("external agent resigned" +
                     (answer.reason.empty() ? std::string() : ": " + answer.reason));
  }
  if (answer.type != expected) {
    fail("external agent answered '" + answer.type + "' where '" + expected + "' was due");
  }
  return answer;
}

void ExternalConnection::stop() {
  if (!process_) return;
  process_->write_line(protocol::quit_message(), Clock::now() + std::chrono::milliseconds(100));
  process_->stop(kQuitGrace);
  process_.reset();
}

void ExternalConnection::fail(const std::string& cause) {
  // A program that broke the protocol may be in any state: it is ended at once.
  if (process_) process_->stop(std::chrono::milliseconds(0));
  process_.reset();
  throw SlingError(cause);
}

std::string ExternalConnection::describe_exit() {
  return process_ ? process_->exit_description(std::chrono::milliseconds(200)) : "is not running";
}

}  // namespace sling
