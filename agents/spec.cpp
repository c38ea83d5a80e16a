#include "agents/spec.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace sling {

namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// One item of an option list, "key=value" or a bare value.
struct SpecItem {
  std::string text;
  bool quoted = false;  // the value was quoted: kept exactly, spaces and all
};

// The next item of an option list: up to the next comma outside quotes.  A value in single or
// double quotes ("cmd='python3 a.py --x=1,2'") keeps its commas; the quotes are not part of it.
// Advances `rest` past the item and its comma.
SpecItem next_item(std::string_view& rest, const std::string& agent) {
  SpecItem item;
  std::size_t i = 0;
  char quote = 0;
  for (; i < rest.size(); ++i) {
    const char c = rest[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        item.text += c;
      }
      continue;
    }
    if (c == ',') break;
    const std::size_t eq = item.text.find('=');
    const bool value_starts =
        eq != std::string::npos && item.text.find_first_not_of(" \t", eq + 1) == std::string::npos;
    if ((c == '\'' || c == '"') && value_starts && !item.quoted) {
      quote = c;
      item.quoted = true;
      item.text.erase(eq + 1);  // spaces between '=' and the quote
      continue;
    }
    if (item.quoted && c != ' ' && c != '\t') {
      throw OptionError("agent '" + agent + "': text after a quoted value in '" +
                        std::string(rest.substr(0, i + 1)) + "'");
    }
    if (!item.quoted) item.text += c;
  }
  if (quote != 0) {
    throw OptionError("agent '" + agent + "': a quote is not closed in '" + std::string(rest) +
                      "'");
  }
  rest = i < rest.size() ? rest.substr(i + 1) : std::string_view();
  return item;
}

}  // namespace

AgentSpec parse_agent_spec(std::string_view text) {
  AgentSpec spec;
  const auto colon = text.find(':');
  spec.name = trim(text.substr(0, colon));
  if (spec.name.empty()) throw OptionError("empty agent spec");
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  bool first = true;
  while (!rest.empty()) {
    const SpecItem item = next_item(rest, spec.name);
    const auto eq = item.text.find('=');
    if (eq == std::string::npos && first && !trim(item.text).empty()) {
      spec.options[kPositional] = trim(item.text);
      first = false;
      continue;
    }
    first = false;
    if (eq == std::string::npos) {
      throw OptionError("agent '" + spec.name + "': option '" + trim(item.text) +
                        "' needs the form key=value");
    }
    const std::string key = trim(std::string_view(item.text).substr(0, eq));
    if (spec.options.count(key)) {
      throw OptionError("agent '" + spec.name + "': option '" + key + "' given twice");
    }
    const std::string value = item.text.substr(eq + 1);
    spec.options[key] = item.quoted ? value : trim(value);
  }
  return spec;
}

void OptionReader::positional_means(const std::string& key) {
  if (positional_.empty()) return;
  if (options_.count(key)) {
    throw OptionError("agent '" + spec_.name + "': option '" + key + "' given twice (as '" +
                      positional_ + "' and as " + key + "=" + options_.at(key) + ")");
  }
  options_[key] = positional_;
  positional_used_ = true;
}

std::int64_t OptionReader::integer(const std::string& key, std::int64_t fallback, std::int64_t low,
                                   std::int64_t high, const std::string& help) {
  known_.push_back(key);
  declared_.push_back({key, std::to_string(fallback),
                       "[" + std::to_string(low) + ", " + std::to_string(high) + "]", help});
  const auto it = options_.find(key);
  if (it == options_.end()) return fallback;
  std::int64_t value = 0;
  const std::string& s = it->second;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (error != std::errc() || end != s.data() + s.size()) {
    throw OptionError("agent '" + spec_.name + "': option '" + key + "' must be an integer, got '" +
                      s + "'");
  }
  if (value < low || value > high) {
    throw OptionError("agent '" + spec_.name + "': option '" + key + "' must be in [" +
                      std::to_string(low) + ", " + std::to_string(high) + "], got " + s);
  }
  return value;
}

double OptionReader::real(const std::string& key, double fallback, double low, double high,
                          const std::string& help) {
  known_.push_back(key);
  {
    std::ostringstream text, range;
    text << fallback;
    range << "[" << low << ", " << high << "]";
    declared_.push_back({key, text.str(), range.str(), help});
  }
  const auto it = options_.find(key);
  if (it == options_.end()) return fallback;
  const std::string& s = it->second;
  double value = 0;
  std::size_t used = 0;
  try {
    value = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || s.empty() || !std::isfinite(value)) {
    throw OptionError("agent '" + spec_.name + "': option '" + key + "' must be a number, got '" +
                      s + "'");
  }
  if (value < low || value > high) {
    std::ostringstream range;
    range << "[" << low << ", " << high << "]";
    throw OptionError("agent '" + spec_.name + "': option '" + key + "' must be in " + range.str() +
                      ", got " + s);
  }
  return value;
}

std::string OptionReader::choice(const std::string& key, const std::string& fallback,
                                 const std::vector<std::string>& allowed, const std::string& help) {
  known_.push_back(key);
  declared_.push_back({key, fallback, join(allowed), help});
  const auto it = options_.find(key);
  if (it == options_.end()) return fallback;
  if (std::find(allowed.begin(), allowed.end(), it->second) == allowed.end()) {
    throw OptionError("agent '" + spec_.name + "': option '" + key + "' must be one of " +
                      join(allowed) + ", got '" + it->second + "'");
  }
  return it->second;
}

std::string OptionReader::text(const std::string& key, const std::string& fallback,
                               const std::string& help) {
  known_.push_back(key);
  declared_.push_back({key, fallback.empty() ? "(none)" : fallback, "text", help});
  const auto it = options_.find(key);
  return it == options_.end() ? fallback : it->second;
}

void OptionReader::finish() const {
  if (!positional_.empty() && !positional_used_) {
    throw OptionError("agent '" + spec_.name + "': '" + positional_ +
                      "' needs the form key=value (valid options: " +
                      (known_.empty() ? "none" : join(known_)) + ")");
  }
  for (const auto& [key, value] : options_) {
    if (std::find(known_.begin(), known_.end(), key) == known_.end()) {
      throw OptionError("agent '" + spec_.name + "': unknown option '" + key +
                        "' (valid options: " + (known_.empty() ? "none" : join(known_)) + ")");
    }
  }
}

}  // namespace sling
