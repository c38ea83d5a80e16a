#pragma once
// Running a tournament or a match across MPI ranks (Open MPI through Boost.MPI; see
// docs/tournament.md, "Across machines with MPI").
//
// Rank 0 owns the output: it holds the list of pending jobs (game ids), hands the next one to
// whichever worker asks, and receives each job's result as bytes; the workers (ranks 1..N-1) play.
// A worker keeps `slots` games in flight (its TBB threads) plus one game in hand, and asks again as
// each one finishes, so long and short games balance across ranks and no worker waits for a round
// trip between games.  Only the main thread of a process calls MPI
// (MPI_THREAD_FUNNELED).
//
// MPI is used only when the process was started by an MPI launcher (mpirun, srun) and the build has
// MPI (CMake finds Boost.MPI and an MPI library): a plain `sling` run never initialises it.  With
// one rank the single-process code runs unchanged.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sling::mpi {

// True when the build has MPI support.
bool available();
// True when this build has MPI and the process was started by an MPI launcher.  Cheap; it reads
// the environment and does not initialise MPI.
bool launched();
// This process's rank and the number of ranks (0 and 1 when not launched).  The first call under a
// launcher initialises MPI; it is finalised at exit.
int rank();
int size();
// True when there is more than one rank: the caller then runs the distributed path.
inline bool distributed() {
  return launched() && size() > 1;
}

// Collective: every rank describes the run it is about to make (command, configuration, options
// that change results) and whether it is ready (empty `local_error`) or why not.  Rank 0 compares
// the descriptions and this process's binary with its own; every rank then throws the same
// OptionError if any rank differs or failed, naming the rank and the first difference.
void require_same_run(const std::string& description, const std::string& local_error);

// Collective: rank 0 passes "" when it could start the run (its output directory is ready) or the
// reason why not; every rank gets rank 0's text back.
std::string share_start(const std::string& error_at_root);

// Collective: every rank gets rank 0's `text_at_root` (what the others pass is ignored).  A run
// whose rank 0 alone holds its state (a training run's directory) tells the workers with it what
// comes next.
std::string broadcast_text(const std::string& text_at_root);

// What rank 0 says when the launcher stops it.  The note goes to stderr, and to `file` when that is
// not empty: a launcher that is aborting a job may drop a rank's last output instead of forwarding
// it, so a run with an output directory also leaves the note there, where it cannot be lost.
struct StopNote {
  std::string text;
  std::string file;
};

// Rank 0: hands out `jobs` in order, one at a time, to the workers as they ask, and calls
// `on_result(job, bytes)` for each result as it arrives (in completion order).  Returns when every
// job is done and every worker has been told to stop.  Collective with work_on_jobs.  When the
// launcher stops rank 0 with SIGTERM or SIGINT meanwhile (it does so when another rank dies), rank
// 0 writes the stop note and exits: what it has written so far stays intact.
void serve_jobs(const std::vector<std::int64_t>& jobs,
                const std::function<void(std::int64_t job, std::string_view bytes)>& on_result,
                const StopNote& stop_note);

// Ranks 1..N-1: asks rank 0 for jobs and runs up to `slots` at a time on TBB threads, sending back
// what `run_job(job)` returns; returns when rank 0 has no job left.  `run_job` must not throw (a
// game's own failure is part of its result); if it does, every rank is stopped.
void work_on_jobs(int slots, const std::function<std::string(std::int64_t job)>& run_job);

// Stops every rank of the job at once (MPI_Abort), for a failure rank 0 cannot recover from.
[[noreturn]] void abort_all(int code);

// A fingerprint of this executable's bytes (ranks must all run the same program).
std::string binary_fingerprint();

}  // namespace sling::mpi
