// Tests of the shared core: the random source, fixed-capacity lists, options files and records.

#include <gtest/gtest.h>

#include "engine/core/cereal_json.h"  // first: rapidjson failures become plain errors

#include <set>

#include "engine/core/fixed_vector.h"
#include "engine/core/json_options.h"
#include "engine/core/random.h"
#include "engine/core/record.h"

namespace sling {
namespace {

TEST(Rng, SameSeedAndStreamGiveSameDraws) {
  Rng a(42, 7), b(42, 7), c(42, 8);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next();
    EXPECT_EQ(x, b.next());
    differs |= (x != c.next());
  }
  EXPECT_TRUE(differs);
}

TEST(Rng, UniformIsUnbiasedWithinSampleTolerance) {
  // 60,000 draws of a d6: each face expects 10,000 with sd sqrt(60000*1/6*5/6) = 91.3; 5 sd.
  Rng rng(1, 2);
  int counts[6] = {};
  for (int i = 0; i < 60000; ++i) ++counts[rng.uniform(6)];
  for (int face = 0; face < 6; ++face) EXPECT_NEAR(counts[face], 10000, 5 * 91.3);
}

TEST(Rng, DerivedStreamsAreDistinct) {
  Rng base(9, 0);
  std::set<std::uint64_t> firsts;
  for (int i = 0; i < 1000; ++i) firsts.insert(base.derive(i).next());
  EXPECT_EQ(firsts.size(), 1000u);
}

TEST(FixedVector, PushAndIterate) {
  FixedVector<int, 4> v;
  v.push_back(1);
  v.push_back(2);
  EXPECT_EQ(v.size(), 2u);
  int sum = 0;
  for (int x : v) sum += x;
  EXPECT_EQ(sum, 3);
}

struct ExampleOptions {
  int count = 3;
  double weight = 0.5;
  bool flag = false;
  template <class A>
  void serialize(A& ar) {
    ar(CEREAL_NVP(count), CEREAL_NVP(weight), CEREAL_NVP(flag));
  }
  void validate() const {
    if (count < 0) throw RulesError("example: 'count' must be >= 0");
  }
};

TEST(OptionsJson, PartialFileKeepsDefaults) {
  const auto o = options_from_json<ExampleOptions>(R"({"count": 5})", "example");
  EXPECT_EQ(o.count, 5);
  EXPECT_DOUBLE_EQ(o.weight, 0.5);
}

TEST(OptionsJson, UnknownKeyIsNamed) {
  try {
    options_from_json<ExampleOptions>(R"({"cuont": 5})", "example");
    FAIL();
  } catch (const RulesError& e) {
    EXPECT_NE(std::string(e.what()).find("cuont"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("count"), std::string::npos);
  }
}

TEST(OptionsJson, WrongKindAndMalformedAndRangeAreErrors) {
  EXPECT_THROW(options_from_json<ExampleOptions>(R"({"count": 1.5})", "x"), RulesError);
  EXPECT_THROW(options_from_json<ExampleOptions>(R"({"flag": 1})", "x"), RulesError);
  EXPECT_THROW(options_from_json<ExampleOptions>(R"({"count": )", "x"), RulesError);
  EXPECT_THROW(options_from_json<ExampleOptions>(R"([1,2])", "x"), RulesError);
  EXPECT_THROW(options_from_json<ExampleOptions>(R"({"count": -1})", "x"), RulesError);
}

TEST(GameRecordFile, JsonAndBinaryRoundTrip) {
  GameRecord r{"duel", "{}", 77, {1, 2, 3, 4000}};
  EXPECT_EQ(record_from_text(record_to_json(r)), r);
  EXPECT_EQ(record_from_text(record_to_binary(r)), r);
}

TEST(GameRecordFile, CorruptionIsAFileFormatError) {
  GameRecord r{"duel", "{}", 77, {1, 2, 3}};
  std::string binary = record_to_binary(r);
  for (std::size_t cut = 0; cut < binary.size(); ++cut) {
    EXPECT_THROW(record_from_text(binary.substr(0, cut)), FileFormatError) << cut;
  }
  std::string json = record_to_json(r);
  EXPECT_THROW(record_from_text(json.substr(0, json.size() / 2)), FileFormatError);
  EXPECT_THROW(record_from_text("{\"format\": \"other\"}"), FileFormatError);
  // A length prefix flipped to a huge value must not allocate: it is caught by the layout check.
  std::string huge = binary;
  huge[7] = '\x7f';
  EXPECT_THROW(record_from_text(huge), FileFormatError);
}

}  // namespace
}  // namespace sling
