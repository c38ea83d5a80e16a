#pragma once
// A binary file's next length prefix (cereal's 64-bit size before a string or vector), checked
// against the bytes that remain before anything is sized by it: a corrupt or truncated file then
// fails with a plain FileFormatError instead of a multi-gigabyte allocation.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <istream>
#include <string>
#include <string_view>
#include <utility>

#include "engine/core/errors.h"

namespace sling {

class LengthPrefixCheck {
 public:
  // `bytes`: the whole file (or section) that `in` reads; `where` names it in errors.  Both must
  // outlive the check.
  LengthPrefixCheck(std::string_view bytes, std::istream& in, std::string where)
      : bytes_(bytes), in_(in), where_(std::move(where)) {}

  // Peeks at the length at the stream's position; throws unless that many elements of
  // `element_bytes` each fit in what follows it.
  void operator()(std::size_t element_bytes) const {
    const std::streamoff at = in_.tellg();
    std::uint64_t length = 0;
    if (at < 0 || bytes_.size() - static_cast<std::size_t>(at) < sizeof(length))
      throw FileFormatError(where_ + ": truncated");
    std::memcpy(&length, bytes_.data() + at, sizeof(length));
    const std::size_t left = bytes_.size() - static_cast<std::size_t>(at) - sizeof(length);
    if (length > left / element_bytes) {
      throw FileFormatError(where_ + ": corrupted or truncated (a length of " +
                            std::to_string(length) + " runs past the end of the file)");
    }
  }

 private:
  std::string_view bytes_;
  std::istream& in_;
  std::string where_;
};

}  // namespace sling
