// setp.ftz.f32 and cvt.ftz from f32 to an integer: subnormal operands are zeros of their
// sign (PTX ISA, setp and cvt: "subnormal inputs are flushed to sign-preserving zero").
// Pairs of f32 bit patterns (validate/probes/ftz_semantics.py's, for the GPU): subnormals
// of both signs against each other, zeros, normals and NaN, each through the decoded form
// and through the general path, against values worked out here by that rule; and the rule
// against what an H100 gave for the same pairs (validate/results/ftz_semantics_h100.csv).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "exec/ptx_run.hpp"
#include "test_paths.hpp"

namespace gpusim::exec {
namespace {

constexpr size_t kColumns = 12;

struct Pair {
  uint32_t a = 0, b = 0;
};

// ftz_semantics.py's pairs: each subnormal against every subnormal and every other value,
// then every other value against each subnormal.
std::vector<Pair> probe_pairs() {
  const std::array<uint32_t, 6> subnormals = {0x00000001, 0x00400000, 0x007FFFFF, 0x80000001, 0x80400000, 0x807FFFFF};
  const std::array<uint32_t, 7> others = {0x00000000, 0x80000000, 0x00800000, 0x80800000,
                                          0x3F800000, 0xBF800000, 0x7FC00000};
  std::vector<Pair> pairs;
  for (uint32_t s : subnormals) {
    for (uint32_t t : subnormals) pairs.push_back({s, t});
    for (uint32_t o : others) pairs.push_back({s, o});
  }
  for (uint32_t o : others)
    for (uint32_t s : subnormals) pairs.push_back({o, s});
  return pairs;
}

// What each column gives for (a, b), by the rule: with .ftz a subnormal is a zero of its sign.
uint32_t expected(size_t column, const Pair& p) {
  const bool ftz = column % 2 == 0;
  const auto value = [ftz](uint32_t bits) {
    const float f = std::bit_cast<float>(bits);
    return ftz && std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f;
  };
  const float x = value(p.a), y = value(p.b);
  const bool unordered = std::isnan(x) || std::isnan(y);
  switch (column / 2) {
    case 0: return !unordered && x < y;  // setp.lt
    case 1: return !unordered && x == y;  // setp.eq
    case 2: return unordered || x > y;    // setp.gtu
    default: break;
  }
  // cvt.rmi.s32, cvt.rpi.s32, cvt.rpi.u32: rounded, clamped to the type, NaN to 0.
  if (std::isnan(x)) return 0;
  const bool down = column / 2 == 3, unsigned_type = column / 2 == 5;
  const double rounded = down ? std::floor(double{x}) : std::ceil(double{x});
  if (unsigned_type) return static_cast<uint32_t>(std::clamp(rounded, 0.0, 4294967295.0));
  return static_cast<uint32_t>(static_cast<int32_t>(std::clamp(rounded, -2147483648.0, 2147483647.0)));
}

// Each column's instruction (writing %r5 from %f1 and %f2), as the decoded form takes it and
// in a form that only the general path runs: setp combined with a predicate that is true, and
// cvt with .sat, which a float-to-integer conversion does anyway (PTX ISA, cvt).
// `b`: the second operand's register.
std::string setp(const std::string& cmp, bool general, const std::string& b = "%f2") {
  std::string ptx = general ? "setp.eq.u32 %p2, %r1, %r1;\n  setp." : "setp.";
  ptx.append(cmp).append(".").append(general ? "and." : "").append("f32 %p1, %f1, ").append(b);
  return ptx.append(general ? ", %p2;" : ";").append("\n  selp.u32 %r5, 1, 0, %p1;");
}
const char* const kSetp[] = {"lt.ftz", "lt", "eq.ftz", "eq", "gtu.ftz", "gtu"};
std::string cvt(const std::string& rounding, const std::string& type, bool ftz, bool general) {
  std::string ptx = "cvt.";
  ptx.append(rounding).append(ftz ? ".ftz" : "").append(general ? ".sat" : "");
  return ptx.append(".").append(type).append(".f32 %r5, %f1;");
}
std::string instruction(size_t column, bool general) {
  if (column < 6) return setp(kSetp[column], general);
  const size_t c = column - 6;
  return cvt(c < 2 ? "rmi" : "rpi", c < 4 ? "s32" : "u32", c % 2 == 0, general);
}

// The pairs as a global table, `pairs`, for the kernels below.
std::string pairs_table(const std::vector<Pair>& pairs) {
  std::string table = ".global .align 4 .b32 pairs[" + std::to_string(2 * pairs.size()) + "] = {";
  for (size_t i = 0; i < pairs.size(); ++i)
    table.append(i ? "," : "").append(std::to_string(pairs[i].a)).append(",").append(std::to_string(pairs[i].b));
  return table + "};\n";
}
// Thread i's pair in %f1 and %f2, then `instruction`, whose %r5 each thread stores.
std::string pair_kernel(const std::vector<Pair>& pairs, const std::string& instruction) {
  const std::string body = R"(
  .reg .f32 %f<4>;
  mul.wide.u32 %rd4, %r4, 8;
  mov.u64 %rd5, pairs;
  add.s64 %rd5, %rd5, %rd4;
  ld.global.f32 %f1, [%rd5];
  ld.global.f32 %f2, [%rd5+4];
  )" + instruction + R"(
  st.global.u32 [%rd3], %r5;
  ret;)";
  return kernel_with_body(body, pairs_table(pairs));
}

TEST(FtzSemantics, SubnormalsCompareAndConvertAsZerosOfTheirSign) {
  const std::vector<Pair> pairs = probe_pairs();
  const auto threads = static_cast<uint32_t>(pairs.size());  // three full warps and a partial one
  for (size_t column = 0; column < kColumns; ++column) {
    for (bool general : {false, true}) {
      const Result r = run_ptx(pair_kernel(pairs, instruction(column, general)), threads);
      for (size_t i = 0; i < pairs.size(); ++i) {
        char pair[32];
        std::snprintf(pair, sizeof pair, "0x%08X, 0x%08X", pairs[i].a, pairs[i].b);
        EXPECT_EQ(r.out[i], expected(column, pairs[i])) << instruction(column, general) << " of " << pair;
      }
    }
  }
}

// The general path's other way in: an operand some lanes never wrote (they read 0) is
// gathered, not compared in place. Even threads copy b into %f3; odd ones leave it unwritten.
TEST(FtzSemantics, GatheredOperandsCompareAsZerosOfTheirSign) {
  const std::vector<Pair> pairs = probe_pairs();
  const auto threads = static_cast<uint32_t>(pairs.size());
  for (size_t column = 0; column < 6; ++column) {
    const std::string ptx = std::string("and.b32 %r6, %r4, 1;\n  setp.eq.u32 %p3, %r6, 0;\n  @%p3 mov.f32 %f3, %f2;\n  ")
                                .append(setp(kSetp[column], true, "%f3"));
    const Result r = run_ptx(pair_kernel(pairs, ptx), threads);
    for (size_t i = 0; i < pairs.size(); ++i) {
      const Pair read = {pairs[i].a, i % 2 == 0 ? pairs[i].b : 0u};
      char pair[32];
      std::snprintf(pair, sizeof pair, "0x%08X, 0x%08X", read.a, read.b);
      EXPECT_EQ(r.out[i], expected(column, read)) << kSetp[column] << " of " << pair << ", thread " << i;
    }
  }
}

// The rows of a probe's CSV ('#' lines, a header, then comma-separated words, hex or not).
std::vector<std::vector<std::string>> csv_rows(const std::string& relative) {
  std::ifstream in(test::repo_path(relative));
  EXPECT_TRUE(in) << relative;
  std::vector<std::vector<std::string>> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (std::exchange(header, false)) continue;
    std::stringstream fields(line);
    std::vector<std::string>& row = rows.emplace_back();
    for (std::string field; std::getline(fields, field, ',');) row.push_back(field);
  }
  return rows;
}
uint32_t word(const std::string& field) { return static_cast<uint32_t>(std::stoul(field, nullptr, 0)); }

// The rule above is what the GPU does: every pair and column as the H100 gave it.
TEST(FtzSemantics, TheRuleIsWhatAnH100Gave) {
  const std::vector<Pair> pairs = probe_pairs();
  const auto rows = csv_rows("validate/results/ftz_semantics_h100.csv");
  ASSERT_EQ(rows.size(), pairs.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), kColumns + 2);
    EXPECT_EQ(word(rows[i][0]), pairs[i].a);
    EXPECT_EQ(word(rows[i][1]), pairs[i].b);
    for (size_t column = 0; column < kColumns; ++column)
      EXPECT_EQ(expected(column, pairs[i]), word(rows[i][column + 2])) << instruction(column, false) << " of " << rows[i][0]
                                                                       << ", " << rows[i][1];
  }
}

// NaN to integers (Conversions.NotANumberToIntegersOfEachWidth): 0 from f32 to 32 bits, else
// the destination's top bit alone, as the H100 gave (validate/results/ftz_semantics_nan_h100.csv).
TEST(FtzSemantics, NotANumberToIntegersAsAnH100Gave) {
  const auto rows = csv_rows("validate/results/ftz_semantics_nan_h100.csv");
  const uint32_t top = 0x80000000u;
  const std::vector<std::pair<std::string, uint32_t>> want = {
      {"s32_f32", 0},     {"u32_f32", 0},          {"s32_f64", top},     {"u32_f64", top},
      {"s64_f32_low", 0}, {"s64_f32_high", top}, {"u64_f64_low", 0}, {"u64_f64_high", top}};
  ASSERT_EQ(rows.size(), want.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 2u);
    EXPECT_EQ(rows[i][0], want[i].first);
    EXPECT_EQ(word(rows[i][1]), want[i].second) << rows[i][0];
  }
}

}  // namespace
}  // namespace gpusim::exec
