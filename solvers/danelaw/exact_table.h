#pragma once
// The exact solver's transposition table: P(the Danes win) under optimal play for every state the
// solve has reached, keyed by the packed state (exact_key.h).  Open addressing with linear probing,
// 64 bytes an entry, doubling while the load stays under three quarters.  It holds at most
// `max_states` states: one more is a ScenarioTooLargeError, so a scenario too big to solve is
// refused in one line instead of exhausting memory (at most 2 2/3 slots a state, so under 171
// bytes a state allowed, and half as much again while it doubles).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/core/errors.h"
#include "solvers/danelaw/exact_key.h"

namespace sling::danelaw {

// A scenario with more states than the solver was allowed.
class ScenarioTooLargeError : public SlingError {
 public:
  using SlingError::SlingError;
};

class ExactTable {
 public:
  explicit ExactTable(std::size_t max_states);

  // The value stored under `key`, or null.
  const double* find(const ExactKey& key) const;
  // Stores a value for a key not yet in the table; throws ScenarioTooLargeError past max_states.
  void insert(const ExactKey& key, double value);

  std::size_t size() const { return size_; }
  std::size_t max_states() const { return max_states_; }
  std::size_t bytes() const { return entries_.size() * sizeof(Entry); }

  // Calls visit(key, value) for every stored state, in table order.
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (const Entry& e : entries_) {
      if (!is_empty_exact_key(e.key)) visit(e.key, e.value);
    }
  }

 private:
  struct Entry {
    ExactKey key;
    double value;
  };
  static_assert(sizeof(Entry) == 64, "an entry is one cache line");

  std::size_t slot_of(const ExactKey& key) const;
  void grow();

  std::vector<Entry> entries_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
  std::size_t max_states_;
};

}  // namespace sling::danelaw
