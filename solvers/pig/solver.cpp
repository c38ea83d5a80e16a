#include "solvers/pig/solver.h"

#include <cereal/archives/binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/core/io.h"

namespace sling::pig {

namespace {
constexpr std::string_view kMagic = "sling-pig-policy";
constexpr double kTolerance = 1e-14;
constexpr int kMaxSweeps = 10000;
}  // namespace

void PigSolution::build_index() {
  row_start_.assign(static_cast<std::size_t>(goal_) + 1, 0);
  for (int mine = 0; mine < goal_; ++mine) {
    row_start_[mine + 1] = row_start_[mine] + static_cast<std::size_t>(goal_) * (goal_ - mine);
  }
}

double PigSolution::roll_value(int mine, int theirs, int turn_total) const {
  double value = (1.0 - win_probability(theirs, mine, 0)) / kFaces;
  for (int face = 2; face <= kFaces; ++face) {
    value += win_probability(mine, theirs, turn_total + face) / kFaces;
  }
  return value;
}

PigSolution PigSolution::solve(int goal) {
  if (goal < 1 || goal > kMaxSolvableGoal) {
    throw RulesError("pig solver: goal must be in [1, " + std::to_string(kMaxSolvableGoal) +
                     "], got " + std::to_string(goal));
  }
  PigSolution solution;
  solution.goal_ = goal;
  solution.build_index();
  solution.win_.assign(solution.row_start_[goal], 0.0);
  solution.roll_.assign(solution.row_start_[goal], 1);

  // One sweep over the turn totals of pair (mine, theirs), highest first; returns the change of
  // P(mine, theirs, 0).
  auto sweep_pair = [&solution, goal](int mine, int theirs) {
    const double pass_value = 1.0 - solution.win_probability(theirs, mine, 0);
    for (int turn_total = goal - mine - 1; turn_total >= 0; --turn_total) {
      double roll = pass_value / kFaces;
      for (int face = 2; face <= kFaces; ++face) {
        roll += solution.win_probability(mine, theirs, turn_total + face) / kFaces;
      }
      double value = roll;
      std::uint8_t roll_is_best = 1;
      if (turn_total > 0) {
        const double hold = solution.hold_value(mine, theirs, turn_total);
        if (hold >= roll) {
          value = hold;
          roll_is_best = 0;
        }
      }
      const std::size_t at = solution.index(mine, theirs, turn_total);
      solution.roll_[at] = roll_is_best;
      if (turn_total == 0) {
        const double change = std::abs(value - solution.win_[at]);
        solution.win_[at] = value;
        return change;
      }
      solution.win_[at] = value;
    }
    return 0.0;
  };

  for (int sum = 2 * goal - 2; sum >= 0; --sum) {
    const int low = std::max(0, sum - (goal - 1));
    const int high = std::min(goal - 1, sum);
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
      double largest_change = 0;
      for (int mine = low; mine <= high; ++mine) {
        largest_change = std::max(largest_change, sweep_pair(mine, sum - mine));
      }
      if (largest_change < kTolerance) break;
    }
  }
  return solution;
}

Action PigSolution::best_action(const PigState& state) const {
  const int mine = state.scores[state.to_move];
  const int theirs = state.scores[state.to_move ^ 1];
  const int turn_total = state.turn_total;
  if (mine + turn_total >= goal_) return kHold;
  return roll_[index(mine, theirs, turn_total)] ? kRoll : kHold;
}

std::string PigSolution::to_binary() const {
  std::ostringstream out(std::ios::binary);
  {
    cereal::BinaryOutputArchive archive(out);
    archive(std::string(kMagic), kFormatVersion, goal_, win_, roll_);
  }
  return out.str();
}

PigSolution PigSolution::from_binary(std::string_view bytes) {
  // Check the header before trusting any length prefix.
  std::istringstream in{std::string(bytes)};
  cereal::BinaryInputArchive archive(in);
  PigSolution solution;
  try {
    std::uint64_t magic_length = 0;
    in.read(reinterpret_cast<char*>(&magic_length), sizeof magic_length);
    if (!in || magic_length != kMagic.size()) throw FileFormatError("not a Sling pig policy file");
    in.seekg(0);
    std::string magic;
    int version = 0;
    archive(magic);
    if (magic != kMagic) throw FileFormatError("not a Sling pig policy file");
    archive(version);
    if (version != kFormatVersion) {
      throw FileFormatError("pig policy file version " + std::to_string(version) +
                            " is not supported (expected " + std::to_string(kFormatVersion) + ")");
    }
    archive(solution.goal_);
    if (solution.goal_ < 1 || solution.goal_ > kMaxSolvableGoal) {
      throw FileFormatError("pig policy file: goal " + std::to_string(solution.goal_) +
                            " is out of range");
    }
    solution.build_index();
    const std::size_t expected = solution.row_start_[solution.goal_];
    // Each table's length prefix must match the goal before cereal allocates it.
    const std::size_t remaining = bytes.size() - static_cast<std::size_t>(in.tellg());
    const std::size_t needed = 2 * sizeof(std::uint64_t) + expected * (sizeof(double) + 1);
    if (remaining != needed) throw FileFormatError("pig policy file is truncated or corrupted");
    archive(solution.win_, solution.roll_);
    if (solution.win_.size() != expected || solution.roll_.size() != expected) {
      throw FileFormatError("pig policy file: table sizes do not match the goal");
    }
    for (double p : solution.win_) {
      if (!(p >= 0.0 && p <= 1.0)) throw FileFormatError("pig policy file: value out of [0, 1]");
    }
  } catch (const cereal::Exception& e) {
    throw FileFormatError(std::string("pig policy file is malformed: ") + e.what());
  }
  return solution;
}

void PigSolution::save(const std::string& path) const {
  write_file_atomic(path, to_binary());
}

PigSolution PigSolution::load(const std::string& path) {
  return from_binary(read_file(path));
}

}  // namespace sling::pig
