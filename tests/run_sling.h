#pragma once
// Runs the `sling` binary of this build with a command line, for tests of the commands' output
// and exit status (one-line errors, files written or left alone).

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "tests/build_paths.h"

namespace sling::testing_support {

struct CommandRun {
  int status;
  std::string output;  // stdout and stderr
};

inline CommandRun run_sling(const std::string& arguments) {
  const std::string command = std::string(SLING_BINARY) + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  std::size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

inline int count_lines(const std::string& text) {
  int count = 0;
  for (char c : text) count += c == '\n';
  return count;
}

}  // namespace sling::testing_support
