// libFuzzer target: duel solution and checkpoint files (DuelSolution::load), read from a file
// in memory-backed storage because that is the loader's interface.  A corrupted length, count or
// checksum must be a FileFormatError before any allocation it would size.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "solvers/duel/solver.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/dev/shm/sling-fuzz-solution-" + std::to_string(::getpid());
  if (FILE* file = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, file);
    std::fclose(file);
  } else {
    return 0;
  }
  try {
    (void)sling::duel::DuelSolution::load(path, nullptr,
                                          sling::duel::DuelSolution::Accept::kSolutionOrCheckpoint);
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, std::string_view(reinterpret_cast<const char*>(data), size));
  }
  std::remove(path.c_str());
  return 0;
}
