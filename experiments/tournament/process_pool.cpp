// Isolation: one process per game, forked from this one, reporting through a pipe.
#include "experiments/tournament/process_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include "engine/core/errors.h"
#include "experiments/game_result_codec.h"

namespace sling {

namespace isolation {

namespace {

// Messages from a game process: 'S' + int32 side about to run agent code, 'A' + uint32 action
// applied, 'R' + uint32 length + the result.
constexpr char kSideTag = 'S';
constexpr char kActionTag = 'A';
constexpr char kResultTag = 'R';

void send_bytes(int fd, const std::string& bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) ::_exit(3);  // the parent is gone: nobody is left to report to
    written += static_cast<std::size_t>(n);
  }
}

void put_u32(std::string& out, std::uint32_t value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

struct Child {
  pid_t pid = -1;
  int fd = -1;
  GameRow row;
  std::string buffer;
  int side = -1;  // the side whose agent code ran last
  std::vector<Action> history;
  bool has_result = false;
  bool protocol_error = false;
  GameResult result;
  std::chrono::steady_clock::time_point start;
};

// Consumes the complete messages at the front of child.buffer.
void read_messages(Child& child) {
  std::size_t at = 0;
  const std::string& b = child.buffer;
  while (at < b.size()) {
    const char tag = b[at];
    if (tag == kSideTag || tag == kActionTag) {
      if (b.size() - at < 5) break;
      std::uint32_t value = 0;
      std::memcpy(&value, b.data() + at + 1, 4);
      if (tag == kSideTag) {
        child.side = static_cast<int>(value);
      } else {
        child.history.push_back(value);
      }
      at += 5;
    } else if (tag == kResultTag) {
      if (b.size() - at < 5) break;
      std::uint32_t length = 0;
      std::memcpy(&length, b.data() + at + 1, 4);
      if (b.size() - at - 5 < length) break;
      if (!decode_game_result(std::string_view(b).substr(at + 5, length), child.result)) {
        child.protocol_error = true;
        return;
      }
      child.has_result = true;
      at += 5 + length;
    } else {
      child.protocol_error = true;
      return;
    }
  }
  child.buffer.erase(0, at);
}

}  // namespace

void send_side(int fd, int side) {
  std::string message(1, kSideTag);
  put_u32(message, static_cast<std::uint32_t>(side));
  send_bytes(fd, message);
}

void send_action(int fd, Action action) {
  std::string message(1, kActionTag);
  put_u32(message, static_cast<std::uint32_t>(action));
  send_bytes(fd, message);
}

void send_result(int fd, const GameResult& result) {
  const std::string payload = encode_game_result(result);
  std::string message(1, kResultTag);
  put_u32(message, static_cast<std::uint32_t>(payload.size()));
  send_bytes(fd, message + payload);
}

void run_isolated(TournamentStore& store, const std::vector<std::int64_t>& pending, int slots,
                  const std::string& game_name, const std::string& rules,
                  const std::function<void(const GameRow& row, int fd)>& play_in_child) {
  std::vector<Child> running;
  std::size_t next = 0;
  auto spawn = [&](std::int64_t game_id) {
    Child child;
    child.row = store.scheduled_row(game_id);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      throw SlingError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    child.start = std::chrono::steady_clock::now();
    child.pid = ::fork();
    if (child.pid < 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      throw SlingError(std::string("cannot start a game process: ") + std::strerror(errno));
    }
    if (child.pid == 0) {
      ::close(fds[0]);
      try {
        play_in_child(child.row, fds[1]);
      } catch (...) {
      }
      ::_exit(0);  // no destructors, no atexit handlers: the parent owns every file
    }
    ::close(fds[1]);
    child.fd = fds[0];
    running.push_back(std::move(child));
  };
  auto finish = [&](Child& child) {
    ::close(child.fd);
    int status = 0;
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    GameRow row = child.row;
    GameRecord record;
    double seconds = 0;
    if (child.has_result && !child.protocol_error) {
      row = finished_row(row, child.result);
      record = std::move(child.result.record);
      seconds = child.result.seconds;
    } else {
      // The process died inside an agent: that agent loses, and the moves so far are kept.
      const int side = child.side >= 0 && child.side <= 1 ? child.side : 0;
      row.winner = 1 - side;
      row.end = "error";
      row.plies = static_cast<int>(child.history.size());
      if (child.protocol_error) {
        row.error = "the game process sent malformed results";
      } else if (WIFSIGNALED(status)) {
        row.error = std::string("agent crashed (") + ::strsignal(WTERMSIG(status)) + ")";
      } else {
        row.error = "agent process exited with status " +
                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
      }
      record = GameRecord{game_name, rules, row.seed, child.history};
      seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - child.start).count();
    }
    store.save(row, record, seconds);
    if (!row.error.empty()) store.log_error(row);
  };
  try {
    while (next < pending.size() || !running.empty()) {
      while (static_cast<int>(running.size()) < slots && next < pending.size()) {
        spawn(pending[next++]);
      }
      std::vector<pollfd> polls;
      for (const Child& child : running) polls.push_back({child.fd, POLLIN, 0});
      if (::poll(polls.data(), polls.size(), -1) < 0) {
        if (errno == EINTR) continue;
        throw SlingError(std::string("poll failed: ") + std::strerror(errno));
      }
      for (std::size_t i = running.size(); i-- > 0;) {
        if (polls[i].revents == 0) continue;
        Child& child = running[i];
        char chunk[65536];
        const ssize_t n = ::read(child.fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n > 0) {
          child.buffer.append(chunk, static_cast<std::size_t>(n));
          read_messages(child);
          continue;
        }
        finish(child);  // end of the pipe: the process has exited or is exiting
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
  } catch (...) {
    for (Child& child : running) {
      ::kill(child.pid, SIGKILL);
      ::close(child.fd);
      ::waitpid(child.pid, nullptr, 0);
    }
    throw;
  }
}

}  // namespace isolation

}  // namespace sling
