#pragma once
// The God study's words: names of the rolls and of the moments to spend God, a God decision's
// situation in plain terms, number formats, and the report's "in short" and rules-of-thumb
// sections.  Kept apart from the simulation (god_study.cpp) and the figures (god_study_svg.h) so
// that each part of the study reads on its own.

#include <cstdint>
#include <map>
#include <ostream>
#include <string>

#include "experiments/studies/god_study.h"

namespace sling::duel::god_study {

inline constexpr int kTurnBuckets = 8;
extern const char* const kTurnBucketNames[kTurnBuckets];
// The bucket of kTurnBucketNames that a turn falls in.
int turn_bucket(int turn);

// The kinds of roll the study reports on, in the report's order.
inline constexpr Roll kStudiedRolls[] = {Roll::kInitiative,  Roll::kDavidMove,   Roll::kStoneToHit,
                                         Roll::kStoneDamage, Roll::kStoneDaze,   Roll::kSearch,
                                         Roll::kFleeTest,    Roll::kFleeMove,    Roll::kMelee,
                                         Roll::kJavelin,     Roll::kGoliathMove, Roll::kRecover};

std::string roll_title(Roll roll);
// The roll as a player would name the moment to spend God on it (the roll gone against David).
std::string roll_advice(Roll roll);
// A God decision's situation in words a player can recognise at the table.
std::string situation(const DuelGame& game, const DuelState& s);

std::string pct(double v, int digits = 1);
std::string num(double v, int digits = 4);

// God decisions met in one situation, and how optimal play answered them.
struct SituationStats {
  std::int64_t offered = 0, rerolled = 0;
  double gain = 0;
};

// "In short": a few plain sentences drawn from the numbers, for a player at the table.
void write_advice(std::ostream& md, const GodStudyResult& result, const SolveSummary& summary,
                  double n);
// The rules of thumb: for each kind of roll, when optimal David spends God on it.
void write_rules_of_thumb(std::ostream& md, const GodStudyResult& result,
                          std::map<Roll, std::map<std::string, SituationStats>>& situations,
                          double n);

}  // namespace sling::duel::god_study
