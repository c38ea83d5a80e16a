#include "agents/duel_background_value.h"

#include <exception>
#include <utility>

namespace sling {

DuelBackgroundValue::DuelBackgroundValue(Compute compute)
    : start_(std::chrono::steady_clock::now()) {
  thread_ = std::thread([this, compute = std::move(compute)] {
    std::shared_ptr<const duel::CoarseDuelValue> value;
    std::string error;
    try {
      value = compute([this] { return cancel_.load(std::memory_order_relaxed); });
      if (!value) error = "no value was computed";
    } catch (const std::exception& e) {
      error = e.what();
    }
    const std::lock_guard lock(mutex_);
    value_ = std::move(value);
    error_ = std::move(error);
    end_ = std::chrono::steady_clock::now();
    finished_ = true;
  });
}

DuelBackgroundValue::~DuelBackgroundValue() {
  cancel_.store(true, std::memory_order_relaxed);
  thread_.join();
}

bool DuelBackgroundValue::finished() const {
  const std::lock_guard lock(mutex_);
  return finished_;
}

std::shared_ptr<const duel::CoarseDuelValue> DuelBackgroundValue::value() const {
  const std::lock_guard lock(mutex_);
  return value_;
}

std::string DuelBackgroundValue::error() const {
  const std::lock_guard lock(mutex_);
  return error_;
}

double DuelBackgroundValue::seconds() const {
  const std::lock_guard lock(mutex_);
  const auto end = finished_ ? end_ : std::chrono::steady_clock::now();
  return std::chrono::duration<double>(end - start_).count();
}

}  // namespace sling
