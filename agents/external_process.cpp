#include "agents/external_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "engine/core/errors.h"

extern char** environ;

namespace sling {

namespace {

// A program that exits while Sling writes to it must not kill Sling with SIGPIPE: the write
// fails with EPIPE instead, and the agent loses its game.  Once per process.
std::once_flag broken_pipes_ignored;
void ignore_broken_pipes() {
  std::call_once(broken_pipes_ignored, [] { ::signal(SIGPIPE, SIG_IGN); });
}

int milliseconds_until(ChildProcess::Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - ChildProcess::Clock::now());
  return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 1 << 30));
}

// How often a wait for the program's output also checks whether the program has exited.
constexpr int kExitCheckMilliseconds = 20;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

struct SpawnActions {
  posix_spawn_file_actions_t actions;
  SpawnActions() { posix_spawn_file_actions_init(&actions); }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
};

struct SpawnAttributes {
  posix_spawnattr_t attributes;
  SpawnAttributes() { posix_spawnattr_init(&attributes); }
  ~SpawnAttributes() { posix_spawnattr_destroy(&attributes); }
};

}  // namespace

ChildProcess::ChildProcess(ChildProcessOptions options) : options_(std::move(options)) {
  ignore_broken_pipes();
  // Close-on-exec everywhere: a program started by another thread at the same moment must not
  // inherit this one's pipes (it would keep them open after this program exits).
  int in_pipe[2], out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) {
    throw SlingError(std::string("could not start: pipe: ") + std::strerror(errno));
  }
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    throw SlingError(std::string("could not start: pipe: ") + std::strerror(errno));
  }
  int log_fd = ::open(options_.log_file.empty() ? "/dev/null" : options_.log_file.c_str(),
                      O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const int log_errno = errno;
  auto close_all = [&] {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    if (log_fd >= 0) ::close(log_fd);
  };
  if (log_fd < 0) {
    close_all();
    throw SlingError("could not open its log file " + options_.log_file + ": " +
                     std::strerror(log_errno));
  }
  SpawnActions actions;
  posix_spawn_file_actions_adddup2(&actions.actions, in_pipe[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions.actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions.actions, log_fd, STDERR_FILENO);
  if (!options_.working_directory.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions.actions, options_.working_directory.c_str());
  }
  // Its own process group, so that stop() also ends whatever the program started (a shell's
  // children, a Python launcher's interpreter).
  SpawnAttributes attributes;
  posix_spawnattr_setflags(&attributes.attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attributes.attributes, 0);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attributes.attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes.attributes, &empty);
  const std::string shell = "/bin/sh";
  std::string dash_c = "-c";
  std::string command = options_.command;
  char* argv[] = {const_cast<char*>(shell.c_str()), dash_c.data(), command.data(), nullptr};
  const int failure =
      ::posix_spawn(&pid_, shell.c_str(), &actions.actions, &attributes.attributes, argv, environ);
  if (failure != 0) {
    close_all();
    pid_ = -1;
    std::string why = std::strerror(failure);
    if (!options_.working_directory.empty())
      why += " (working directory " + options_.working_directory + ")";
    throw SlingError("could not start: " + why);
  }
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(log_fd);
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
  ::fcntl(to_child_, F_SETFL, ::fcntl(to_child_, F_GETFL) | O_NONBLOCK);
  ::fcntl(from_child_, F_SETFL, ::fcntl(from_child_, F_GETFL) | O_NONBLOCK);
}

ChildProcess::~ChildProcess() {
  stop(std::chrono::milliseconds(0));
}

bool ChildProcess::write_line(std::string_view line, Clock::time_point deadline) {
  if (to_child_ < 0) return false;
  std::string text(line);
  text += '\n';
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(to_child_, text.data() + written, text.size() - written);
    if (n > 0) {
      written += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) return false;  // EPIPE: the program is gone
    pollfd ready{to_child_, POLLOUT, 0};
    const int timeout = milliseconds_until(deadline);
    if (timeout == 0 || ::poll(&ready, 1, timeout) == 0) return false;
  }
  return true;
}

bool ChildProcess::fill_buffer(Clock::time_point deadline) {
  char chunk[65536];
  bool program_exited = false;
  while (true) {
    const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
    if (n == 0) {
      closed_ = true;
      return false;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) {
      closed_ = true;
      return false;
    }
    // The program itself has ended while its stdout is still open: a child it started holds the
    // pipe.  Nothing it wrote is lost (the read above found the pipe empty), and what ended the
    // game is the program's exit, so report the end of its output instead of waiting out the clock.
    // One more read after the exit is seen: a line written just before it is in the pipe by now.
    if (program_exited) {
      closed_ = true;
      return false;
    }
    if (reap(false)) {
      program_exited = true;
      continue;
    }
    pollfd ready{from_child_, POLLIN, 0};
    const int timeout = milliseconds_until(deadline);
    if (timeout == 0) return false;
    const int polled = ::poll(&ready, 1, std::min(timeout, kExitCheckMilliseconds));
    if (polled < 0 && errno != EINTR) return false;
    if (polled == 0 && milliseconds_until(deadline) == 0) return false;
  }
}

ChildProcess::ReadStatus ChildProcess::read_line(std::string& line, Clock::time_point deadline) {
  std::size_t searched = 0;
  while (true) {
    const std::size_t newline = buffer_.find('\n', searched);
    if (newline != std::string::npos) {
      if (newline > options_.max_line_bytes) return ReadStatus::kTooLong;
      line.assign(buffer_, 0, newline);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buffer_.erase(0, newline + 1);
      return ReadStatus::kLine;
    }
    searched = buffer_.size();
    if (buffer_.size() > options_.max_line_bytes) return ReadStatus::kTooLong;
    if (closed_ || from_child_ < 0) return ReadStatus::kClosed;
    if (!fill_buffer(deadline)) return closed_ ? ReadStatus::kClosed : ReadStatus::kTimeout;
  }
}

bool ChildProcess::has_pending_output() {
  if (buffer_.find('\n') != std::string::npos) return true;
  if (closed_ || from_child_ < 0) return false;
  fill_buffer(Clock::now());
  return buffer_.find('\n') != std::string::npos || (!buffer_.empty() && closed_);
}

bool ChildProcess::reap(bool block) {
  if (reaped_ || pid_ < 0) return true;
  while (true) {
    const pid_t done = ::waitpid(pid_, &wait_status_, block ? 0 : WNOHANG);
    if (done == pid_) {
      reaped_ = true;
      return true;
    }
    if (done < 0 && errno == EINTR) continue;
    if (done < 0) {  // not our child any more (reaped elsewhere): nothing left to wait for
      reaped_ = true;
      wait_status_ = 0;
      return true;
    }
    return false;
  }
}

std::string ChildProcess::exit_description(std::chrono::milliseconds wait) {
  const auto deadline = Clock::now() + wait;
  while (!reap(false) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (!reaped_) return "is running";
  if (WIFEXITED(wait_status_)) {
    const int status = WEXITSTATUS(wait_status_);
    std::string text = "exited with status " + std::to_string(status);
    // The program runs under /bin/sh -c, which reports its child's death by signal N as 128 + N.
    if (status > 128 && status < 128 + 32) {
      text += " (killed by signal " + std::to_string(status - 128) + ")";
    }
    return text;
  }
  if (WIFSIGNALED(wait_status_))
    return "was killed by signal " + std::to_string(WTERMSIG(wait_status_));
  return "ended";
}

void ChildProcess::stop(std::chrono::milliseconds grace) {
  close_fd(to_child_);
  if (pid_ >= 0 && !reaped_) {
    const auto deadline = Clock::now() + grace;
    while (!reap(false) && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    // The whole group: the program may have left children of its own behind.
    ::kill(-pid_, SIGKILL);
    reap(true);
  }
  close_fd(from_child_);
}

}  // namespace sling
