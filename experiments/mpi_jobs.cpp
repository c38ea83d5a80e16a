#include "experiments/mpi_jobs.h"

#include <fcntl.h>
#include <signal.h>
#include <tbb/task_arena.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "engine/core/errors.h"
#include "engine/core/random.h"

#if SLING_HAVE_MPI
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#endif

namespace sling::mpi {

std::string binary_fingerprint() {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  std::uint64_t hash = 0x736c696e67ULL, bytes = 0;
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    const std::streamsize n = in.gcount();
    for (std::streamsize i = 0; i < n; i += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, buffer + i, static_cast<std::size_t>(std::min<std::streamsize>(8, n - i)));
      hash = hash_combine(hash, word);
    }
    bytes += static_cast<std::uint64_t>(n);
  }
  std::ostringstream out;
  out << std::hex << hash << std::dec << " (" << bytes << " bytes)";
  return out.str();
}

#if SLING_HAVE_MPI

namespace {

// The first line where two descriptions differ, for a message.
std::string first_difference(const std::string& mine, const std::string& theirs) {
  std::istringstream a(mine), b(theirs);
  std::string line_a, line_b;
  while (true) {
    const bool more_a = static_cast<bool>(std::getline(a, line_a));
    const bool more_b = static_cast<bool>(std::getline(b, line_b));
    if (!more_a && !more_b) return "";
    if (!more_a) line_a = "(nothing)";
    if (!more_b) line_b = "(nothing)";
    if (line_a != line_b) return "rank 0 has '" + line_a + "', it has '" + line_b + "'";
  }
}

// Sleeps a little longer each time nothing happens, so that an idle rank costs no CPU while a busy
// one answers within microseconds.
class Backoff {
 public:
  void idle() {
    std::this_thread::sleep_for(std::chrono::microseconds(wait_));
    wait_ = std::min(wait_ * 2, 1000);
  }
  void busy() { wait_ = 10; }

 private:
  int wait_ = 10;
};

constexpr int kReadyTag = 1;   // worker -> 0: a free slot, nothing to report
constexpr int kResultTag = 2;  // worker -> 0: a free slot and the result of its last job
constexpr int kJobTag = 3;     // 0 -> worker: the job for that slot, or -1: stop

// The MPI runtime of the process, started on first use (a run without ranks never starts it) and
// finalised at exit.  MPI_THREAD_FUNNELED: TBB threads play games, only the main thread talks to
// other ranks.
struct MpiRuntime {
  boost::mpi::environment environment{boost::mpi::threading::funneled, false};
  boost::mpi::communicator communicator;
};
std::once_flag mpi_started;
std::unique_ptr<MpiRuntime> mpi_runtime;

boost::mpi::communicator& world() {
  std::call_once(mpi_started, [] { mpi_runtime = std::make_unique<MpiRuntime>(); });
  return mpi_runtime->communicator;
}

}  // namespace

bool available() {
  return true;
}

bool launched() {
  static const bool value = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") ||
                            std::getenv("PMI_RANK") || std::getenv("PMI_SIZE");
  return value;
}

int rank() {
  return launched() ? world().rank() : 0;
}
int size() {
  return launched() ? world().size() : 1;
}

void require_same_run(const std::string& description, const std::string& local_error) {
  const std::string mine = "binary " + binary_fingerprint() + "\n" + description;
  std::vector<std::string> all, errors;
  boost::mpi::gather(world(), mine, all, 0);
  boost::mpi::gather(world(), local_error, errors, 0);
  std::string verdict;
  if (world().rank() == 0) {
    for (std::size_t r = 0; r < errors.size() && verdict.empty(); ++r) {
      if (!errors[r].empty()) verdict = "rank " + std::to_string(r) + ": " + errors[r];
    }
    for (std::size_t r = 1; r < all.size() && verdict.empty(); ++r) {
      const std::string difference = first_difference(all[0], all[r]);
      if (!difference.empty()) {
        verdict = "MPI rank " + std::to_string(r) + " was started with another binary or " +
                  "configuration than rank 0 (" + difference +
                  "); every rank must run the same sling with the same options";
      }
    }
  }
  boost::mpi::broadcast(world(), verdict, 0);
  if (!verdict.empty()) throw OptionError(verdict);
}

std::string broadcast_text(const std::string& text_at_root) {
  std::string text = world().rank() == 0 ? text_at_root : "";
  boost::mpi::broadcast(world(), text, 0);
  return text;
}

std::string share_start(const std::string& error_at_root) {
  return broadcast_text(error_at_root);
}

namespace {

// What rank 0 says when the launcher stops it; read by the signal handler, so fixed buffers.
char g_stop_text[512];
std::size_t g_stop_text_size = 0;
char g_stop_file[4096];

// open, write, close and nanosleep are async-signal-safe.  The launcher forwards a rank's output
// as it reads it, but once it has seen the rank exit it may drop what it has not read yet: rank 0
// stays a moment after its note (well within the second the launcher allows before SIGKILL).
extern "C" void stop_on_signal(int signal) {
  if (g_stop_file[0] != '\0') {
    const int fd = ::open(g_stop_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      [[maybe_unused]] const ssize_t written = ::write(fd, g_stop_text, g_stop_text_size);
      ::close(fd);
    }
  }
  [[maybe_unused]] const ssize_t ignored = ::write(2, g_stop_text, g_stop_text_size);
  const struct timespec drain { 0, 300'000'000 };
  ::nanosleep(&drain, nullptr);
  ::_exit(128 + signal);
}

// Installs stop_on_signal for SIGTERM and SIGINT while it lives.
class StopNoteOnSignal {
 public:
  explicit StopNoteOnSignal(const StopNote& note) {
    g_stop_text_size = std::min(note.text.size(), sizeof g_stop_text);
    std::memcpy(g_stop_text, note.text.data(), g_stop_text_size);
    const std::size_t file_size = std::min(note.file.size(), sizeof g_stop_file - 1);
    std::memcpy(g_stop_file, note.file.data(), file_size);
    g_stop_file[file_size] = '\0';
    struct sigaction action {};
    action.sa_handler = stop_on_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGTERM, &action, &previous_term_);
    ::sigaction(SIGINT, &action, &previous_int_);
  }
  ~StopNoteOnSignal() {
    ::sigaction(SIGTERM, &previous_term_, nullptr);
    ::sigaction(SIGINT, &previous_int_, nullptr);
  }
  StopNoteOnSignal(const StopNoteOnSignal&) = delete;
  StopNoteOnSignal& operator=(const StopNoteOnSignal&) = delete;

 private:
  struct sigaction previous_term_ {};
  struct sigaction previous_int_ {};
};

}  // namespace

void serve_jobs(const std::vector<std::int64_t>& jobs,
                const std::function<void(std::int64_t, std::string_view)>& on_result,
                const StopNote& stop_note) {
  const StopNoteOnSignal note(stop_note);
  boost::mpi::communicator& comm = world();
  int my_slots = 0;
  std::vector<int> slots;
  boost::mpi::gather(comm, my_slots, slots, 0);
  int tokens = 0;  // every worker's tokens (slots + 1) come back until each is stopped
  for (int s : slots) tokens += s;
  std::size_t next = 0;
  int stopped = 0;
  Backoff backoff;
  std::string payload;
  while (stopped < tokens) {
    const boost::optional<boost::mpi::status> probe =
        comm.iprobe(boost::mpi::any_source, boost::mpi::any_tag);
    if (!probe) {
      backoff.idle();
      continue;
    }
    backoff.busy();
    const int source = probe->source();
    comm.recv(source, probe->tag(), payload);
    if (probe->tag() == kResultTag) {
      std::int64_t job = 0;
      if (payload.size() < sizeof job) throw SlingError("MPI rank sent a malformed message");
      std::memcpy(&job, payload.data(), sizeof job);
      on_result(job, std::string_view(payload).substr(sizeof job));
    }
    const std::int64_t reply = next < jobs.size() ? jobs[next++] : -1;
    if (reply < 0) ++stopped;
    comm.send(source, kJobTag, reply);
  }
}

void work_on_jobs(int slots, const std::function<std::string(std::int64_t)>& run_job) {
  boost::mpi::communicator& comm = world();
  // A job that throws breaks the promise that a game's failure is part of its result: rank 0 would
  // wait for it forever, so every rank stops.
  auto stop_every_rank = [&](const std::string& reason) {
    std::cerr << "sling: MPI rank " << comm.rank() << ": " << reason << "; stopping every rank"
              << std::endl;
    abort_all(1);
  };
  slots = std::max(slots, 1);
  // One token more than slots: the next game is already here when a slot frees up, so a worker
  // never waits for the round trip to rank 0 between games.
  const int tokens = slots + 1;
  std::vector<int> unused;
  boost::mpi::gather(comm, tokens, unused, 0);
  auto send_result = [&](std::int64_t job, const std::string& bytes) {
    std::string message(sizeof job, '\0');
    std::memcpy(message.data(), &job, sizeof job);
    message += bytes;
    comm.send(0, kResultTag, message);
  };
  struct Done {
    std::int64_t job;
    std::string bytes;
  };
  std::mutex mutex;
  std::vector<Done> done;
  std::string failure;
  std::optional<tbb::task_arena> arena;    // games run on the main thread when there is one slot
  if (slots > 1) arena.emplace(slots, 0);  // no slot reserved: the main thread talks to rank 0
  for (int t = 0; t < tokens; ++t) comm.send(0, kReadyTag, std::string());
  std::deque<std::int64_t> queued;
  int open = tokens, running = 0;
  Backoff backoff;
  while (open > 0) {  // a token retires only when free, so then nothing is queued or running
    bool busy = false;
    while (comm.iprobe(0, kJobTag)) {
      std::int64_t job = 0;
      comm.recv(0, kJobTag, job);
      busy = true;
      if (job < 0) {
        --open;
      } else {
        queued.push_back(job);
      }
    }
    if (!arena) {
      if (!queued.empty()) {
        const std::int64_t job = queued.front();
        queued.pop_front();
        std::string bytes;
        try {
          bytes = run_job(job);
        } catch (const std::exception& e) {
          stop_every_rank(e.what());
        }
        send_result(job, bytes);
        busy = true;
      }
    } else {
      for (; running < slots && !queued.empty(); ++running) {
        const std::int64_t job = queued.front();
        queued.pop_front();
        busy = true;
        arena->enqueue([&, job] {
          std::string bytes, error;
          try {
            bytes = run_job(job);
          } catch (const std::exception& e) {
            error = e.what();
          }
          std::lock_guard<std::mutex> lock(mutex);
          if (!error.empty() && failure.empty()) failure = error;
          done.push_back({job, std::move(bytes)});
        });
      }
      std::vector<Done> finished;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure.empty()) stop_every_rank(failure);
        finished.swap(done);
      }
      for (const Done& d : finished) {
        --running;
        send_result(d.job, d.bytes);
        busy = true;
      }
    }
    if (busy) {
      backoff.busy();
    } else {
      backoff.idle();
    }
  }
}

void abort_all(int code) {
  world().abort(code);
  std::_Exit(code);
}

#else  // no MPI in this build: a single process, and the distributed entry points are never used

bool available() {
  return false;
}
bool launched() {
  return false;
}
int rank() {
  return 0;
}
int size() {
  return 1;
}

void require_same_run(const std::string&, const std::string&) {}
std::string broadcast_text(const std::string& text_at_root) {
  return text_at_root;
}

std::string share_start(const std::string& error_at_root) {
  return error_at_root;
}

void serve_jobs(const std::vector<std::int64_t>&,
                const std::function<void(std::int64_t, std::string_view)>&, const StopNote&) {
  throw SlingError("this sling was built without MPI");
}

void work_on_jobs(int, const std::function<std::string(std::int64_t)>&) {
  throw SlingError("this sling was built without MPI");
}

void abort_all(int code) {
  std::_Exit(code);
}

#endif

}  // namespace sling::mpi
