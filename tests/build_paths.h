#pragma once
// Where this build's source tree and `sling` binary are, for the tests and benchmarks that run the
// binary or read sources.  The paths are defined in one small source that CMake generates
// (build_paths.cpp in the build folder), not as compile definitions of every file: a definition
// holding an absolute path would change the compile command of each file with the folder of the
// checkout, and ccache would compile the whole suite again for a fresh clone elsewhere.

namespace sling::build_paths {

extern const char* const kSourceDir;        // the source tree's root
extern const char* const kSlingBinary;      // this build's `sling`
extern const char* const kExampleCppAgent;  // the C++ example agent program (examples/cpp)

}  // namespace sling::build_paths

#define SLING_SOURCE_DIR ::sling::build_paths::kSourceDir
#define SLING_BINARY ::sling::build_paths::kSlingBinary
#define SLING_EXAMPLE_CPP_AGENT ::sling::build_paths::kExampleCppAgent
