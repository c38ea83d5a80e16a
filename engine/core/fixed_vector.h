#pragma once
// A vector with a compile-time capacity that lives on the stack.  Action and chance lists use it
// so that generating moves never touches the heap (the search loops call it millions of times).

#include <array>
#include <cassert>
#include <cstddef>
#include <stdexcept>
#include <type_traits>

namespace sling {

template <class T, std::size_t Capacity>
class FixedVector {
  static_assert(std::is_trivially_copyable_v<T>, "FixedVector holds plain values only");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  static constexpr std::size_t capacity() { return Capacity; }

  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr void clear() { size_ = 0; }

  constexpr void push_back(const T& value) {
    assert(size_ < Capacity && "FixedVector capacity exceeded");
    items_[size_++] = value;
  }
  template <class... Args>
  constexpr T& emplace_back(Args&&... args) {
    assert(size_ < Capacity && "FixedVector capacity exceeded");
    items_[size_] = T{std::forward<Args>(args)...};
    return items_[size_++];
  }
  constexpr void pop_back() { --size_; }
  constexpr void resize(std::size_t n) {
    assert(n <= Capacity);
    size_ = n;
  }

  constexpr T& operator[](std::size_t i) { return items_[i]; }
  constexpr const T& operator[](std::size_t i) const { return items_[i]; }
  constexpr T& back() { return items_[size_ - 1]; }
  constexpr const T& back() const { return items_[size_ - 1]; }

  constexpr T* begin() { return items_.data(); }
  constexpr T* end() { return items_.data() + size_; }
  constexpr const T* begin() const { return items_.data(); }
  constexpr const T* end() const { return items_.data() + size_; }
  constexpr T* data() { return items_.data(); }
  constexpr const T* data() const { return items_.data(); }

 private:
  std::size_t size_ = 0;
  std::array<T, Capacity> items_;
};

}  // namespace sling
