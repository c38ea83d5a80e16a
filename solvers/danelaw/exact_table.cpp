#include "solvers/danelaw/exact_table.h"

#include <string>

namespace sling::danelaw {

namespace {
constexpr std::size_t kInitialSlots = std::size_t{1} << 12;
}  // namespace

ExactTable::ExactTable(std::size_t max_states)
    : entries_(kInitialSlots, Entry{empty_exact_key(), 0.0}),
      mask_(kInitialSlots - 1),
      max_states_(max_states) {}

std::size_t ExactTable::slot_of(const ExactKey& key) const {
  std::size_t slot = static_cast<std::size_t>(exact_key_hash(key)) & mask_;
  while (!is_empty_exact_key(entries_[slot].key) && !(entries_[slot].key == key)) {
    slot = (slot + 1) & mask_;
  }
  return slot;
}

const double* ExactTable::find(const ExactKey& key) const {
  const Entry& e = entries_[slot_of(key)];
  return is_empty_exact_key(e.key) ? nullptr : &e.value;
}

void ExactTable::insert(const ExactKey& key, double value) {
  if (size_ >= max_states_) {
    throw ScenarioTooLargeError(
        "danelaw exact solver: the scenario has more than " + std::to_string(max_states_) +
        " states (--max-states); solve a smaller scenario (fewer armies, hexes or turns) or allow "
        "more states");
  }
  if (4 * (size_ + 1) > 3 * entries_.size()) grow();
  Entry& e = entries_[slot_of(key)];
  e.key = key;
  e.value = value;
  ++size_;
}

void ExactTable::grow() {
  std::vector<Entry> old(entries_.size() * 2, Entry{empty_exact_key(), 0.0});
  old.swap(entries_);
  mask_ = entries_.size() - 1;
  for (const Entry& e : old) {
    if (!is_empty_exact_key(e.key)) entries_[slot_of(e.key)] = e;
  }
}

}  // namespace sling::danelaw
