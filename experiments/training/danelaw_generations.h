#pragma once
// Self-play by generations (`sling train danelaw --generations N --dir DIR`), as engine testing
// trains: each generation
//   1. plays the champion against itself (both sides search with the same agent, scoring with
//      the champion's value model) and adds the games to everything played so far;
//   2. fits a candidate model on all the positions so far (the logistic model of
//      danelaw_linear_fit.h, or with --hidden the network of danelaw_network_fit.h; its held-out
//      log loss is reported).  With --tune-iterations the candidate is instead the champion tuned
//      by play (danelaw_play_tuning.h): SPSA on paired games between the champion's agent with
//      its weights perturbed one way and the other, on the gate's rules; step 1 is then skipped,
//      since those games are the generation's self-play;
//   3. gates it: the agent with the candidate against the agent with the champion, pairs of games
//      on shared dice fed in order to an SPRT (experiments/sprt.h) until it decides or the budget
//      is spent.  The candidate becomes the champion only when the test accepts H1 (it is elo1
//      stronger, not elo0);
//   4. rates the generation's champion against a fixed reference agent, paired, for the learning
//      curve (learning_curve.h: Elo by generation with intervals, report.md and an SVG); a
//      reference other than generation 0's agent rates generation 0 as well, once, at the start.
//
// Every step's seed derives from the run's seed and the generation, and every step is the same on
// any thread count and any number of MPI ranks, so a run is reproducible.  Under mpirun every rank
// runs the command: the games are dealt out as any match's (experiments/match.h), and rank 0 alone
// fits, decides and writes, telling the workers what comes next; the workers read the models from
// the run's directory, so the ranks must share it (one machine, or a shared filesystem).  The run's
// directory is its checkpoint: after the self-play of a generation and after its last step the
// state is saved atomically (run.json, the games in games.bin, each model as gen-K.json), and the
// same command continues a killed run from there with the same figures; a larger --generations
// extends a finished one.  A directory written under other settings is refused, naming the first
// that differs.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "experiments/sprt.h"
#include "experiments/training/danelaw_play_tuning.h"

namespace sling::danelaw {

struct GenerationOptions {
  int generations = 4;
  int games = 400;  // self-play games a generation
  // The agent both sides play (a spec or a preset that scores with the value model); every
  // generation's agents are this spec with value_model naming a model file of the run.
  std::string agent = "normal";
  std::string start_model;  // the first champion's model file; empty: the embedded model
  // The learning curve's fixed opponent; empty: the agent with the start model (generation 0).
  std::string reference;
  SprtParameters gate{0, 20, 0.05, 0.05};
  int gate_pairs = 200;   // the gate's budget; undecided at the budget is a rejection
  int curve_pairs = 100;  // pairs a generation plays against the reference
  bool mixed_rules = false;
  double l2 = 1e-3;
  int hidden = 0;  // the candidates' hidden units (danelaw_network_fit.h); 0: the linear model
  bool town_terms = false;   // the candidates: the linear model with single towns' terms
  double td_lambda = 1;      // below 1: TD(lambda) targets from the champion's values
  PlayTuningOptions tuning;  // iterations > 0: candidates tuned by play instead of fitted
  // The rules the gate and the learning curve play, on the run's map (null: the run's own rules).
  // A pair of games tells the agents apart only when its two games have different winners, so
  // rules where each side wins about half its games measure more for the same pairs: on the
  // default rules `normal`-sized planners' Danes win one game in seven, and there the gate had
  // put candidates level (-23 +/- 27 Elo) that lost 82 Elo on rules with even chances
  // (docs/results/danelaw-training).
  std::shared_ptr<const DanelawGame> match_game;
  std::uint64_t seed = 1;
  int threads = 0;      // 0 = every core
  std::string dir;      // the run's directory (created; the checkpoint and the report)
  std::string command;  // recorded in each model and the report
};

// What one generation did.
struct GenerationRecord {
  int generation = 0;  // 1, 2, ...
  int games = 0;       // self-play games, or the tuning's games (then positions is 0)
  int danish_wins = 0;
  int positions = 0;                     // in the fit (all generations so far)
  double log_loss = 0;                   // the candidate's, on the held-out positions so far
  double champion_log_loss = 0;          // the champion's, on the same positions
  std::string gate;                      // the SPRT's summary line
  double gate_elo = 0, gate_elo_ci = 0;  // candidate against champion
  bool accepted = false;
  int champion = 0;  // the generation whose model is the champion after this one (0: the start)
  // The learning curve's games of this generation: for each pair, the winner (side index, -1 a
  // draw) of the game with the champion as Danes, then of the one with it as the English.
  std::vector<int> curve_winners;
  bool operator==(const GenerationRecord&) const = default;
};

struct GenerationRun {
  std::vector<GenerationRecord> generations;
  std::string report_path;  // report.md in the directory
};

// Runs (or continues) the generations of `options`; `progress` receives one line per step.
// Throws OptionError for bad options, FileFormatError for a damaged checkpoint.
GenerationRun run_generations(const DanelawGame& game, const GenerationOptions& options,
                              const std::function<void(const std::string&)>& progress);

}  // namespace sling::danelaw
