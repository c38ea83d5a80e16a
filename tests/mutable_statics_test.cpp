// No library keeps hidden state in a function-level `static` variable: a cache belongs in a
// KeyedCache (engine/core/keyed_cache.h) that says what it holds and how much, a setting in an
// explicit object such as disk_cache_settings (engine/core/disk_cache.h).  This test reads every
// .h and .cpp of the libraries and fails on a mutable static declared inside a function body or a
// lambda (`static const` and `static constexpr` are allowed; class members and namespace-scope
// variables are not function-level).
//
// The scan strips comments, literals and preprocessor lines, then follows the braces: a brace
// opens a namespace (after `namespace` or `extern`), a class (after a class key outside any
// template parameter list, before any parenthesis) or else a block (a function body, a lambda, a
// statement, an initializer).  A statement in a block that starts with `static` must go on with
// `const` or `constexpr`.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "engine/core/io.h"
#include "tests/build_paths.h"

namespace sling {
namespace {

// `code` with comments, string and character literals and preprocessor lines blanked (newlines
// kept, so that positions keep their line numbers).
std::string strip(const std::string& code) {
  std::string out = code;
  const std::size_t n = code.size();
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < n; ++k) {
      if (out[k] != '\n') out[k] = ' ';
    }
  };
  bool line_start = true;
  for (std::size_t i = 0; i < n;) {
    const char c = code[i];
    if (line_start && c == '#') {  // a directive, with its continuation lines
      std::size_t end = i;
      while (end < n && !(code[end] == '\n' && code[end - 1] != '\\')) ++end;
      blank(i, end);
      i = end;
      continue;
    }
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) line_start = false;
    if (c == '/' && i + 1 < n && code[i + 1] == '/') {
      std::size_t end = code.find('\n', i);
      if (end == std::string::npos) end = n;
      blank(i, end);
      i = end;
    } else if (c == '/' && i + 1 < n && code[i + 1] == '*') {
      std::size_t end = code.find("*/", i + 2);
      end = end == std::string::npos ? n : end + 2;
      blank(i, end);
      i = end;
    } else if (c == 'R' && i + 1 < n && code[i + 1] == '"' &&
               (i == 0 || !std::isalnum(static_cast<unsigned char>(code[i - 1])))) {
      const std::size_t open = code.find('(', i + 2);
      const std::string close = ")" + code.substr(i + 2, open - i - 2) + "\"";
      std::size_t end = code.find(close, open);
      end = end == std::string::npos ? n : end + close.size();
      blank(i, end);
      i = end;
    } else if (c == '"' || (c == '\'' && (i == 0 || !std::isalnum(static_cast<unsigned char>(
                                                        code[i - 1]))))) {  // 1'000 is a number
      std::size_t end = i + 1;
      while (end < n && code[end] != c) end += code[end] == '\\' ? 2 : 1;
      blank(i, end + 1);
      i = end + 1;
    } else {
      ++i;
    }
  }
  return out;
}

// `head` without its template parameter lists (`template <class T>` names a class key that opens
// no class).
std::string without_template_parameters(const std::string& head) {
  std::string out;
  std::size_t i = 0;
  const std::regex keyword(R"(\btemplate\s*<)");
  std::smatch match;
  std::string rest = head;
  while (std::regex_search(rest, match, keyword)) {
    out += rest.substr(0, static_cast<std::size_t>(match.position(0)));
    i = static_cast<std::size_t>(match.position(0) + match.length(0));
    for (int depth = 1; i < rest.size() && depth > 0; ++i) {
      if (rest[i] == '<') ++depth;
      if (rest[i] == '>') --depth;
    }
    rest = rest.substr(i);
  }
  return out + rest;
}

enum class Scope { kNamespace, kClass, kBlock };

Scope scope_opened_by(const std::string& raw_head) {
  const std::string head = without_template_parameters(raw_head);
  static const std::regex namespace_key(R"(\b(namespace|extern)\b)");
  static const std::regex class_key(R"(\b(class|struct|union|enum)\b)");
  if (std::regex_search(head, namespace_key)) return Scope::kNamespace;
  std::smatch match;
  if (std::regex_search(head, match, class_key)) {
    const std::size_t paren = head.find('(');
    if (paren == std::string::npos || static_cast<std::size_t>(match.position(0)) < paren) {
      return Scope::kClass;
    }
  }
  return Scope::kBlock;
}

// The lines (1-based) of `code` that declare a mutable static in a block.
std::vector<int> mutable_statics(const std::string& code) {
  static const std::regex mutable_static(R"(^static\s+(?!const\b|constexpr\b))");
  const std::string text = strip(code);
  std::vector<Scope> scopes;
  std::vector<int> lines;
  std::size_t head_start = 0;
  auto check = [&](std::size_t end) {
    std::size_t from = head_start;
    while (from < end && std::isspace(static_cast<unsigned char>(text[from]))) ++from;
    const std::string head = text.substr(from, end - from);
    if (!scopes.empty() && scopes.back() == Scope::kBlock &&
        std::regex_search(head, mutable_static)) {
      lines.push_back(1 + static_cast<int>(std::count(text.begin(), text.begin() + from, '\n')));
    }
    return head;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ';') {
      check(i);
      head_start = i + 1;
    } else if (c == '{') {
      scopes.push_back(scope_opened_by(check(i)));
      head_start = i + 1;
    } else if (c == '}') {
      if (!scopes.empty()) scopes.pop_back();
      head_start = i + 1;
    }
  }
  return lines;
}

TEST(MutableStatics, TheScanTellsFunctionLevelStaticsFromMembersAndConstants) {
  EXPECT_EQ(mutable_statics("int f() {\n  static int calls = 0;\n  return ++calls;\n}\n"),
            std::vector<int>{2});
  EXPECT_EQ(mutable_statics("void f() {\n  if (x) {\n    static std::mutex m{};\n  }\n}\n"),
            std::vector<int>{3});
  EXPECT_EQ(mutable_statics("auto g = [] {\n  static std::map<int, int> memo;\n};\n"),
            std::vector<int>{2});
  EXPECT_EQ(mutable_statics("template <class T>\nT& one() {\n  static T t;\n  return t;\n}\n"),
            std::vector<int>{3});
  const std::string allowed =
      "namespace a {\n"
      "static int counter = 0;  // namespace scope: visible, not hidden in a function\n"
      "template <class T>\n"
      "struct S : std::function<void(int)> {\n"
      "  static S make(int goal);\n"
      "  static constexpr int kSize = 4;\n"
      "  static int at(int k) { static_assert(true); return k; }\n"
      "};\n"
      "int f() {\n"
      "  static const std::regex r(\"{ static int x; }\");\n"
      "  static constexpr char kQuote = '{';\n"
      "  // static int commented_out;\n"
      "  struct Local { static int twice(int x) { return 2 * x; } };\n"
      "  return static_cast<int>(1'000) + Local::twice(1);\n"
      "}\n"
      "#define ONCE() static int once\n"
      "}  // namespace a\n";
  EXPECT_EQ(mutable_statics(allowed), std::vector<int>{});
}

TEST(MutableStatics, NoLibraryDeclaresOne) {
  const std::filesystem::path root = SLING_SOURCE_DIR;
  std::string violations;
  for (const char* layer : {"engine", "solvers", "search", "agents", "experiments", "play"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / layer)) {
      const std::filesystem::path& path = entry.path();
      if (!entry.is_regular_file() || (path.extension() != ".h" && path.extension() != ".cpp")) {
        continue;
      }
      const std::string relative = std::filesystem::relative(path, root).string();
      if (relative.find("/tests/") != std::string::npos) continue;  // tests, not the library
      for (const int line : mutable_statics(read_file(path.string()))) {
        violations += "  " + relative + ":" + std::to_string(line) + "\n";
      }
    }
  }
  EXPECT_EQ(violations, "") << "function-level mutable statics (use a KeyedCache or an explicit "
                               "object at namespace scope):\n"
                            << violations;
}

}  // namespace
}  // namespace sling
