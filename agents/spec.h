#pragma once
// Agent spec strings: "name" or "name:key=value,key=value"; a value holding commas is quoted,
// "external:cmd='prog --x=1,2'".  Parsing is strict: every option is
// declared with its default and range, and an unknown key or a bad value is an OptionError that
// names it and lists the valid choices.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/errors.h"

namespace sling {

struct AgentSpec {
  std::string name;
  // As typed.  A bare first value ("hold:20") is kept under the empty key, kPositional.
  std::map<std::string, std::string> options;
};
inline const std::string kPositional;  // the key of a bare first value

// One declared option, as listed by `sling agents`.
struct AgentOptionInfo {
  std::string key;
  std::string default_value;
  std::string range;
  std::string help;
};

AgentSpec parse_agent_spec(std::string_view text);

// Declares and reads the options of one agent.  Usage:
//   OptionReader r(spec);  int n = r.integer("iterations", 1000, 1, 10'000'000); r.finish();
// Every declaration is recorded (declared()), so the catalogue of options is produced by the same
// code that parses them and the two cannot drift apart.
class OptionReader {
 public:
  explicit OptionReader(const AgentSpec& spec) : spec_(spec), options_(spec.options) {
    const auto bare = options_.find(kPositional);
    if (bare != options_.end()) {
      positional_ = bare->second;
      options_.erase(bare);
    }
  }
  // Lets a bare value ("hold:20") stand for option `key` ("hold:at=20").
  void positional_means(const std::string& key);
  std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t low,
                       std::int64_t high, const std::string& help = "");
  double real(const std::string& key, double fallback, double low, double high,
              const std::string& help = "");
  std::string choice(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& allowed, const std::string& help = "");
  std::string text(const std::string& key, const std::string& fallback,
                   const std::string& help = "");
  // Throws if the spec named a key that was never read.
  void finish() const;
  const std::vector<AgentOptionInfo>& declared() const { return declared_; }

 private:
  const AgentSpec& spec_;
  std::map<std::string, std::string> options_;
  std::string positional_;
  bool positional_used_ = false;
  std::vector<std::string> known_;
  std::vector<AgentOptionInfo> declared_;
};

}  // namespace sling
