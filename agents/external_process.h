#pragma once
// A child program that Sling talks to by lines of text on its stdin and stdout (the agent protocol,
// docs/protocol.md).  Every read and write has a deadline, so a program that hangs, floods its
// output or stops reading cannot stall the caller; its stderr is appended to a log file so that it
// never mixes with Sling's own output.

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>

namespace sling {

struct ChildProcessOptions {
  std::string command;            // run by /bin/sh -c
  std::string working_directory;  // empty: the caller's
  std::string log_file;           // the child's stderr is appended here; empty: /dev/null
  std::size_t max_line_bytes = std::size_t{1} << 20;
};

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  enum class ReadStatus { kLine, kTimeout, kClosed, kTooLong };

  // Starts the program; throws SlingError("could not start: ...") when it cannot be spawned.
  explicit ChildProcess(ChildProcessOptions options);
  ~ChildProcess();  // kills the program's process group and reaps it
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes `line` and a newline.  False when the deadline passes first or the program closed its
  // stdin (it exited).
  bool write_line(std::string_view line, Clock::time_point deadline);
  // Reads one line (without its newline) into `line`.
  ReadStatus read_line(std::string& line, Clock::time_point deadline);
  // True when a complete line, or the end of the output, is waiting to be read now.
  bool has_pending_output();
  // Asks the program to end by closing its stdin, waits until `grace` has passed, then kills its
  // process group.  Safe to call twice.
  void stop(std::chrono::milliseconds grace);
  // "exited with status 3", "was killed by signal 11", or "is running"; waits up to `wait` for
  // the program to end first.
  std::string exit_description(std::chrono::milliseconds wait);
  pid_t pid() const { return pid_; }

 private:
  bool fill_buffer(Clock::time_point deadline);  // false: timeout or end of output
  bool reap(bool block);

  ChildProcessOptions options_;
  pid_t pid_ = -1;
  int to_child_ = -1;    // the program's stdin
  int from_child_ = -1;  // the program's stdout
  std::string buffer_;   // read but not yet returned
  bool closed_ = false;  // the program's stdout reached its end
  bool reaped_ = false;
  int wait_status_ = 0;
};

}  // namespace sling
