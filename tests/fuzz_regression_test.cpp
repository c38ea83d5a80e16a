// Inputs the libFuzzer targets of fuzz/ found (scripts/fuzz.sh), each read by the real loader: it
// must end in a one-line error in Sling's words that names the file or the field, never in a
// crash, a sanitizer report, an allocation sized by a corrupted length, or rapidjson's or cereal's
// own text.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/core/cereal_json.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/core/record.h"
#include "engine/core/state_io.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/tournament/tournament.h"
#include "solvers/duel/solver.h"

namespace sling {
namespace {

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "sling_fuzz_regression_" + std::to_string(::getpid()) + "_" + name;
}

// The message of the E thrown by f; fails the test when f throws nothing or something else.
template <class E, class F>
std::string error_of(const F& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw another exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "threw nothing";
  return "";
}

// One line, naming `names`, with none of the libraries' own words in it.
void expect_plain_one_line(const std::string& message, std::initializer_list<std::string> names) {
  EXPECT_FALSE(message.empty());
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  for (const std::string& name : names) EXPECT_NE(message.find(name), std::string::npos) << message;
  for (const char* library : {"rapidjson", "provided NVP", "Failed to read", "input stream",
                              "basic_string", "vector::", "max_size()", "bad_alloc"}) {
    EXPECT_EQ(message.find(library), std::string::npos) << message;
  }
}

std::string bytes_of(std::initializer_list<unsigned> values) {
  std::string bytes;
  for (const unsigned v : values) bytes.push_back(static_cast<char>(v));
  return bytes;
}

// fuzz_record: a JSON record with a key whose "\n" escapes decode to line breaks made the
// "unknown field" error several lines long.  Every SlingError now writes control characters as
// escapes (engine/core/errors.h, one_line).
TEST(FuzzRegression, RecordKeyWithALineBreakGivesAOneLineError) {
  const std::string path = temp_path("line-break-key.json");
  write_file_atomic(path,
                    "{\n    \"format\": \"sling-record\",\n    \"versiond_move\\\": 12,\\n"
                    "    \\\"goliath_move_shield\": 7}\n");
  const std::string message = error_of<FileFormatError>([&] { (void)load_record(path); });
  expect_plain_one_line(message, {path, "unknown field 'versiond_move\": 12,\\n    \"goliath"});
}

TEST(FuzzRegression, EveryErrorIsOneLine) {
  EXPECT_EQ(std::string(FileFormatError("a\nb\r\tc\x01").what()), "a\\nb\\r\\tc\\x01");
  EXPECT_EQ(std::string(RulesError(std::string("town 'York'")).what()), "town 'York'");
}

// fuzz_solution: a solution file whose magic string's length prefix was corrupted to 0x600000013
// made the loader allocate 24 GB for it (AddressSanitizer: out of memory); a length near 2^63 let
// std::string's own words out.  Every length is now checked against the bytes left first.
TEST(FuzzRegression, SolutionWithACorruptedLengthIsRefusedBeforeAllocating) {
  const std::string magic = "sling-duel-solution";
  for (const std::string& prefix :
       {bytes_of({0x13, 0, 0, 0, 0x06, 0, 0, 0}), bytes_of({0x13, 0, 0, 0, 0, 0, 0, 0x7f})}) {
    const std::string path = temp_path("corrupted-length.sol");
    write_file_atomic(path, prefix + magic + bytes_of({5, 0, 0, 0, 1, 0x16, 2, 0, 0, 0, 0, 0, 0}) +
                                "{\n    \"board_cm\": 16,\n    \"pitch_cm\": 5\n}");
    const std::string message =
        error_of<FileFormatError>([&] { (void)duel::DuelSolution::load(path, nullptr); });
    expect_plain_one_line(message, {path, "corrupted or truncated"});
  }
}

// The same for a length further in (the rules), and a file cut short: one line, no cereal text.
TEST(FuzzRegression, SolutionWithACorruptedRulesLengthOrCutShort) {
  const std::string magic = "sling-duel-solution";
  const std::string head = bytes_of({0x13, 0, 0, 0, 0, 0, 0, 0}) + magic +
                           bytes_of({6, 0, 0, 0, 1});  // version 6, complete
  const std::string path = temp_path("corrupted-rules.sol");
  write_file_atomic(path, head + bytes_of({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0}) + "{}");
  expect_plain_one_line(error_of<FileFormatError>([&] { (void)duel::DuelSolution::load(path); }),
                        {path, "corrupted or truncated"});
  write_file_atomic(path, head + bytes_of({2, 0, 0}));
  expect_plain_one_line(error_of<FileFormatError>([&] { (void)duel::DuelSolution::load(path); }),
                        {path, "truncated"});
}

// Found reading the loaders for the fuzz run: a binary danelaw state's army count was trusted
// (cereal resizes the list before reading it), so a corrupted count asked for any amount of memory.
// It is checked against kMaxArmies first; a cut state says so without cereal's words.
TEST(FuzzRegression, BinaryDanelawStateWithAHugeArmyCount) {
  const std::string huge = bytes_of({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f});
  expect_plain_one_line(
      error_of<FileFormatError>([&] { (void)state_from_binary<danelaw::State>(huge); }),
      {"malformed state", "field 'armies'"});
  const std::string cut = bytes_of({1, 0, 0, 0, 0, 0, 0, 0, 7});
  expect_plain_one_line(
      error_of<FileFormatError>([&] { (void)state_from_binary<danelaw::State>(cut); }),
      {"malformed state", "truncated or corrupted"});
}

// fuzz_state and fuzz_tournament: numbers whose digits are all zeros ("0e71", "0E-031", "0." and
// 23 zeros) sent rapidjson 1.1 down a path that normalises a zero (clz(0)) and indexes its powers
// of ten with the garbage: UBSan's report, then a SEGV under AddressSanitizer.  Every reader now
// rewrites such numbers first (safe_json_text), so the loaders end in a plain error.
TEST(FuzzRegression, ZeroSignificandNumbersEndInAPlainError) {
  const std::string state_text = "0e71us{}55\f";
  expect_plain_one_line(
      error_of<FileFormatError>([&] { (void)state_from_json<danelaw::State>(state_text); }),
      {"malformed state"});
  const std::string config_text = "       0E-031.444";
  expect_plain_one_line(error_of<FileFormatError>(
                            [&] { (void)TournamentConfig::from_json(config_text, "config.json"); }),
                        {"config.json"});
  expect_plain_one_line(error_of<FileFormatError>([] {
                          (void)state_from_json<danelaw::State>(R"({"state": {"armies": 0e71}})");
                        }),
                        {"malformed state"});
}

// fuzz_rules then found a tiny number, "0.0033333333033331E-00333", read outside rapidjson's table
// of powers of ten (a SEGV).  Every number that is zero or below 1e-300 in magnitude is rewritten
// as a zero of its sign; every other number, string or syntax error is left exactly as it was.
TEST(FuzzRegression, ZeroAndTinyNumbersAreReadAsZeroAndNothingElseChanges) {
  const std::string twenty_three_zeros = "0." + std::string(23, '0');
  const std::string zeros[] = {"0e71",
                               "-0E-031",
                               twenty_three_zeros,
                               "0.0e-400",
                               "-0.000000000000000000000000000000e+9",
                               "0.0033333333033331E-00333",
                               "1e-301",
                               "-123.5e-9999999999999",
                               "0.00000000000000000000000000000000000000000000000001e-290"};
  for (const std::string& zero : zeros) {
    const std::string text = "[" + zero + "]";
    EXPECT_EQ(safe_json_text(text).size(), text.size()) << text;
    rapidjson::Document document;
    parse_json(document, text);
    ASSERT_FALSE(document.HasParseError()) << text;
    ASSERT_TRUE(document[0].IsDouble()) << text;
    EXPECT_EQ(document[0].GetDouble(), 0.0) << text;
    EXPECT_EQ(std::signbit(document[0].GetDouble()), zero[0] == '-') << text;
  }
  for (const std::string kept :
       {"[1.0e71, 0.5e-3, 10e5, 0.01E+2, 100, 0, 0.0, 0e5, 1e-300]", R"({"0e71": "0.000e-99"})",
        "0.0e", "0.e71", "0.00000000000000000000000000000000000000000000000001e-250"}) {
    EXPECT_EQ(safe_json_text(kept), kept);
  }
  EXPECT_EQ(safe_json_text(R"({"a\"0e71": 0e71})"), R"({"a\"0e71": 0.0 })");
  EXPECT_EQ(json_syntax_problem("[0e71 x]"), json_syntax_problem("[1e71 x]"));
  rapidjson::Document document;
  parse_json(document,
             "[1e-300, 2.5e-3, 0.00000000000000000000000000000000000000000000000001e-250]");
  EXPECT_EQ(document[0].GetDouble(), 1e-300);
  EXPECT_EQ(document[1].GetDouble(), 2.5e-3);
  EXPECT_EQ(document[2].GetDouble(), 1e-300);
  expect_plain_one_line(error_of<RulesError>([] {
                          (void)duel::DuelGame::from_rules_json("0.0033333333033331E-00333;");
                        }),
                        {});
}

}  // namespace
}  // namespace sling
