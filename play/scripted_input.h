#pragma once
// An input stream whose lines are produced on demand by a function: code (a test, a demo script)
// can answer a session's prompts by looking at the position it is asked about, exactly as a person
// typing at the terminal would.  The function returning nullopt is the end of input.

#include <functional>
#include <istream>
#include <optional>
#include <streambuf>
#include <string>

namespace sling::play {

class ScriptedInput : public std::streambuf {
 public:
  using Responder = std::function<std::optional<std::string>()>;
  explicit ScriptedInput(Responder responder) : responder_(std::move(responder)) {}

 protected:
  // Called only when the previous line has been consumed, i.e. when the session asks again.
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const std::optional<std::string> line = responder_();
    if (!line) return traits_type::eof();
    buffer_ = *line + "\n";
    setg(buffer_.data(), buffer_.data(), buffer_.data() + buffer_.size());
    return traits_type::to_int_type(*gptr());
  }

 private:
  Responder responder_;
  std::string buffer_;
};

}  // namespace sling::play
