#pragma once
// The learning curve of a self-play run (danelaw_generations.h): each generation's champion rated
// against the run's fixed reference from its paired games (the pentanomial score of
// experiments/sprt.h, Elo with a 95 % interval from the spread of the pair totals), drawn with each
// generation's gate (its candidate against the champion) and written as report.md (the plain
// answer, then a table of every generation) and learning-curve.svg.

#include <string>
#include <vector>

#include "experiments/training/danelaw_generations.h"

namespace sling::danelaw {

struct CurveSettings {
  std::string agent;      // the spec every generation plays (with its model)
  std::string reference;  // the fixed opponent
  std::string command;
  bool reference_is_start = true;  // the reference is generation 0's agent: its Elo is 0
  // Otherwise generation 0's agent against the reference (GenerationCheckpoint's), if played.
  std::vector<int> start_curve_winners;
};

struct CurvePoint {
  int generation = 0;
  int champion = 0;
  int pairs = 0;       // 0: no games (generation 0 against itself)
  double score = 0.5;  // the champion's mean score against the reference
  double elo = 0, low = 0, high = 0;
};

// The champions' points; generation 0's first where the reference is generation 0's agent (Elo 0)
// or `start_curve_winners` rates it.
std::vector<CurvePoint> learning_curve(const std::vector<GenerationRecord>& generations,
                                       bool reference_is_start,
                                       const std::vector<int>& start_curve_winners = {});
// Each generation's candidate against the champion it met, from the gate's paired games.
std::vector<CurvePoint> gate_points(const std::vector<GenerationRecord>& generations);
// The champions against the reference, joined by a line, and the gates beside them.
std::string learning_curve_svg(const std::vector<CurvePoint>& points,
                               const std::vector<CurvePoint>& gates);

// Writes report.md and learning-curve.svg into `dir`; returns the report's path.
std::string write_learning_curve(const std::string& dir, const CurveSettings& settings,
                                 const std::vector<GenerationRecord>& generations);

}  // namespace sling::danelaw
