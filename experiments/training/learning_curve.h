#pragma once
// The learning curve of a self-play run (danelaw_generations.h): each generation's champion rated
// against the run's fixed reference from its paired games (the pentanomial score of
// experiments/sprt.h, Elo with a 95 % interval from the spread of the pair totals), written as
// report.md (the plain answer, then a table of every generation) and learning-curve.svg.

#include <string>
#include <vector>

#include "experiments/training/danelaw_generations.h"

namespace sling::danelaw {

struct CurveSettings {
  std::string agent;      // the spec every generation plays (with its model)
  std::string reference;  // the fixed opponent
  std::string command;
  bool reference_is_start = true;  // the reference is generation 0's agent: its Elo is 0
};

struct CurvePoint {
  int generation = 0;
  int champion = 0;
  int pairs = 0;       // 0: no games (generation 0 against itself)
  double score = 0.5;  // the champion's mean score against the reference
  double elo = 0, low = 0, high = 0;
};

std::vector<CurvePoint> learning_curve(const std::vector<GenerationRecord>& generations,
                                       bool reference_is_start);
std::string learning_curve_svg(const std::vector<CurvePoint>& points);

// Writes report.md and learning-curve.svg into `dir`; returns the report's path.
std::string write_learning_curve(const std::string& dir, const CurveSettings& settings,
                                 const std::vector<GenerationRecord>& generations);

}  // namespace sling::danelaw
