// Coalescing by rule family and shared-memory bank conflicts on the textbook patterns,
// with every count worked out by hand from the CUDA guide's rules.
#include "memory/banks.hpp"
#include "memory/coalescing/rule.hpp"
#include "util/bits.hpp"

#include <gtest/gtest.h>

#include <array>
#include <optional>

namespace gpusim::memory {
namespace {

constexpr uint64_t kBase = 0x10000;  // 128-byte aligned
constexpr uint32_t kAll = 0xFFFFFFFFu;

template <typename F>
std::array<uint64_t, 32> lanes(F f) {
  std::array<uint64_t, 32> a{};
  for (int k = 0; k < 32; ++k) a[k] = static_cast<uint64_t>(f(k));
  return a;
}

std::vector<Transaction> coalesce(const std::string& rule, const uint64_t* a, uint32_t mask, uint32_t bytes, bool l1) {
  std::vector<Transaction> out;
  coalescing_rule(rule).coalesce(out, a, mask, bytes, l1, mask == 0xFFFFFFFFu && util::consecutive_lanes(a, bytes));
  return out;
}

std::vector<uint32_t> sizes(const std::string& r, const std::array<uint64_t, 32>& a, bool l1 = false, uint32_t bytes = 4,
                            uint32_t mask = kAll) {
  std::vector<uint32_t> out;
  for (const Transaction& t : coalesce(r, a.data(), mask, bytes, l1)) out.push_back(t.bytes);
  return out;
}

size_t count(const std::string& r, const std::array<uint64_t, 32>& a, bool l1 = false, uint32_t bytes = 4) {
  return coalesce(r, a.data(), kAll, bytes, l1).size();
}

const auto consecutive = lanes([](int k) { return kBase + 4ull * k; });
const auto offset_by_one = lanes([](int k) { return kBase + 4ull * (k + 1); });
const auto stride2 = lanes([](int k) { return kBase + 8ull * k; });
const auto stride32 = lanes([](int k) { return kBase + 128ull * k; });
const auto reversed = lanes([](int k) { return kBase + 4ull * (31 - k); });
// A fixed shuffle of the 32 words of one 128-byte line.
const auto shuffled = lanes([](int k) { return kBase + 4ull * ((k * 7 + 3) % 32); });
// Seed 004: out[i][j] in a 512-float-wide array. j from the thread index: consecutive;
// i from the thread index: a stride of 2048 bytes.
const auto row_major_j = lanes([](int k) { return kBase + 4ull * (5 * 512 + k); });
const auto row_major_i = lanes([](int k) { return kBase + 4ull * (k * 512 + 5); });

TEST(Coalescing, Cc10StrictHalfWarps) {
  EXPECT_EQ(sizes("cc1.0", consecutive), (std::vector<uint32_t>{64, 64}));  // one 64 B per half-warp
  EXPECT_EQ(count("cc1.0", offset_by_one), 32u);  // misaligned: one per thread
  EXPECT_EQ(count("cc1.0", stride2), 32u);
  EXPECT_EQ(count("cc1.0", stride32), 32u);
  EXPECT_EQ(count("cc1.0", reversed), 32u);  // thread k must read word k
  EXPECT_EQ(count("cc1.0", shuffled), 32u);
  EXPECT_EQ(count("cc1.0", row_major_j), 2u);
  EXPECT_EQ(count("cc1.0", row_major_i), 32u);
  // Inactive threads do not break coalescing; 8-byte words make one 128 B per half-warp.
  EXPECT_EQ(sizes("cc1.0", consecutive, false, 4, 0x0000FFF0u), (std::vector<uint32_t>{64}));
  const auto doubles = lanes([](int k) { return kBase + 8ull * k; });
  EXPECT_EQ(sizes("cc1.0", doubles, false, 8), (std::vector<uint32_t>{128, 128}));
}

TEST(Coalescing, Cc12ShrinkingSegments) {
  EXPECT_EQ(sizes("cc1.2", consecutive), (std::vector<uint32_t>{64, 64}));
  // Half 0 spans both halves of its 128 B segment; half 1 uses the upper 64 B of the same
  // segment plus 4 bytes of the next, which shrink to 32 B.
  EXPECT_EQ(sizes("cc1.2", offset_by_one), (std::vector<uint32_t>{128, 64, 32}));
  EXPECT_EQ(sizes("cc1.2", stride2), (std::vector<uint32_t>{128, 128}));
  EXPECT_EQ(count("cc1.2", stride32), 32u);  // each thread alone, shrunk to 32 B
  EXPECT_EQ(sizes("cc1.2", stride32)[0], 32u);
  EXPECT_EQ(sizes("cc1.2", reversed), (std::vector<uint32_t>{64, 64}));  // any order
  EXPECT_EQ(sizes("cc1.2", shuffled), (std::vector<uint32_t>{128, 128}));
  EXPECT_EQ(count("cc1.2", row_major_i), 32u);
}

TEST(Coalescing, Cc20CacheLinesOrSegments) {
  EXPECT_EQ(count("cc2.0", consecutive, true), 1u);   // one 128 B line
  EXPECT_EQ(count("cc2.0", consecutive, false), 4u);  // four 32 B segments (-dlcm=cg)
  EXPECT_EQ(count("cc2.0", offset_by_one, true), 2u);
  EXPECT_EQ(count("cc2.0", offset_by_one, false), 5u);
  EXPECT_EQ(count("cc2.0", stride2, true), 2u);
  EXPECT_EQ(count("cc2.0", stride32, true), 32u);
  EXPECT_EQ(count("cc2.0", reversed, true), 1u);
  EXPECT_EQ(count("cc2.0", shuffled, true), 1u);
  // 16-byte accesses are four quarter-warp requests of 128 B each.
  const auto float4s = lanes([](int k) { return kBase + 16ull * k; });
  EXPECT_EQ(count("cc2.0", float4s, true, 16), 4u);
}

// A full warp of consecutive doubles from 8 bytes into a line: each half-warp is its own
// request, of the lines it spans, in address order. Lane 0 off takes the lane-by-lane path
// (no full warp), which must give the same lines: half 0 still spans both.
TEST(Coalescing, Cc20HalfWarpsOfConsecutiveDoubles) {
  const auto doubles = lanes([](int k) { return kBase + 8 + 8ull * k; });
  const std::vector<uint64_t> expected{kBase, kBase + 128, kBase + 128, kBase + 256};
  for (const uint32_t mask : {kAll, kAll & ~1u}) {
    std::vector<uint64_t> got;
    for (const Transaction& t : coalesce("cc2.0", doubles.data(), mask, 8, true)) {
      EXPECT_EQ(t.bytes, 128u);
      got.push_back(t.address);
    }
    EXPECT_EQ(got, expected) << "mask " << mask;
  }
}

TEST(Coalescing, Sectored32Sectors) {
  EXPECT_EQ(count("sectored32", consecutive), 4u);
  EXPECT_EQ(count("sectored32", offset_by_one), 5u);
  EXPECT_EQ(count("sectored32", stride2), 8u);
  EXPECT_EQ(count("sectored32", stride32), 32u);
  EXPECT_EQ(count("sectored32", reversed), 4u);
  EXPECT_EQ(count("sectored32", shuffled), 4u);
  EXPECT_EQ(count("sectored32", row_major_j), 4u);
  EXPECT_EQ(count("sectored32", row_major_i), 32u);
  const auto float4s = lanes([](int k) { return kBase + 16ull * k; });
  EXPECT_EQ(count("sectored32", float4s, false, 16), 16u);  // 512 bytes
}

template <typename F>
int passes(F f, uint32_t size = 4, int banks = 32, int scope = 32, bool atomic = false,
           std::optional<uint64_t> half_stride = std::nullopt) {
  const auto a = lanes(f);
  SharedAccessConfig config;
  config.banks = banks;
  config.bank_width_bytes = 4;
  config.conflict_scope_threads = scope;
  return shared_passes(a.data(), kAll, size, config, atomic, half_stride);
}
// The same, told (as the executor tells it) that each half-warp's addresses step by `stride`.
template <typename F>
int passes_known(F f, uint64_t stride, uint32_t size = 4) {
  return passes(f, size, 32, 32, false, stride);
}

TEST(SharedBanks, StridesPaddingAndBroadcast) {
  EXPECT_EQ(passes([](int k) { return 4ull * k; }), 1);         // stride 1
  EXPECT_EQ(passes([](int k) { return 8ull * k; }), 2);         // stride 2: 2-way
  EXPECT_EQ(passes([](int k) { return 4ull * 32 * k; }), 32);   // stride 32: one bank
  EXPECT_EQ(passes([](int k) { return 4ull * 33 * k; }), 1);    // stride 33: padded
  EXPECT_EQ(passes([](int) { return uint64_t{64}; }), 1);       // broadcast
  EXPECT_EQ(passes([](int k) { return 4ull * (k / 4); }), 1);   // groups share words
  // 1.x: 16 banks, per half-warp: two requests of one pass each; stride 2 is 2-way in each.
  EXPECT_EQ(passes([](int k) { return 4ull * k; }, 4, 16, 16), 2);
  EXPECT_EQ(passes([](int k) { return 8ull * k; }, 4, 16, 16), 4);
  // 8-byte words over 4-byte banks: 256 bytes need 2 passes.
  EXPECT_EQ(passes([](int k) { return 8ull * k; }, 8), 2);
  // Shared atomics on one address serialise.
  EXPECT_EQ(passes([](int) { return uint64_t{0}; }, 4, 32, 32, true), 32);
}

// The shapes of a 16 x 16 tile, half-warp by half-warp (each half one row of the block):
// a row read along k (one word per half), a row read across (16 consecutive words per half).
TEST(SharedBanks, HalfWarpRowsOfSixteenWideTiles) {
  EXPECT_EQ(passes([](int k) { return 4ull * (k / 16 * 5); }), 1);         // words 0 and 5: banks 0 and 5
  EXPECT_EQ(passes([](int k) { return 4ull * (k / 16 * 32); }), 2);        // words 0 and 32: both bank 0
  EXPECT_EQ(passes([](int k) { return 4ull * (k / 16 * 16 + 7); }), 1);    // one row apart in a 16-wide tile
  EXPECT_EQ(passes([](int k) { return 4ull * (k % 16); }), 1);             // both halves the same 16 words
  EXPECT_EQ(passes([](int k) { return 4ull * (k % 16 + 16 * (k / 16)); }), 1);  // 32 consecutive words
  // Halves of 16 consecutive words 100 words apart: banks 4..15 each hold one word of each half.
  EXPECT_EQ(passes([](int k) { return 4ull * (k % 16 + 100 * (k / 16)); }), 2);
  // Halves of 16 consecutive words 16 apart but the second reversed: all 32 banks, one word each.
  EXPECT_EQ(passes([](int k) { return 4ull * (k < 16 ? k : 47 - k); }), 1);
  // Bytes: lanes 0-3 share word 0 (its bytes), lanes 4-7 word 1, ...: 8 words in 8 banks.
  EXPECT_EQ(passes([](int k) { return uint64_t(k); }, 1), 1);
  // Bytes 128 apart: every lane in bank 0, each a different word.
  EXPECT_EQ(passes([](int k) { return 128ull * k; }, 1), 32);
}

// The same shapes with the executor's word that each half-warp is a progression of a known
// stride: the counts from four lanes are those of the pass over all 32, and the shapes that
// rule does not cover (8-byte steps, a misaligned start, bytes) still count lane by lane.
TEST(SharedBanks, HalfWarpProgressionsToldByTheExecutor) {
  EXPECT_EQ(passes_known([](int k) { return 4ull * (k / 16 * 5); }, 0), 1);
  EXPECT_EQ(passes_known([](int k) { return 4ull * (k / 16 * 32); }, 0), 2);
  EXPECT_EQ(passes_known([](int k) { return 4ull * (k / 16 * 16 + 7); }, 0), 1);
  EXPECT_EQ(passes_known([](int) { return uint64_t{64}; }, 0), 1);
  EXPECT_EQ(passes_known([](int k) { return 4ull * (k % 16); }, 4), 1);
  EXPECT_EQ(passes_known([](int k) { return 4ull * (k % 16 + 16 * (k / 16)); }, 4), 1);
  EXPECT_EQ(passes_known([](int k) { return 4ull * (k % 16 + 17 * (k / 16)); }, 4), 2);   // halves overlap in bank 16
  EXPECT_EQ(passes_known([](int k) { return 4ull * (k % 16 + 100 * (k / 16)); }, 4), 2);
  EXPECT_EQ(passes_known([](int k) { return 8ull * k; }, 8), 2);                            // stride 2 words: 2-way
  EXPECT_EQ(passes_known([](int k) { return 4ull * 32 * k; }, 128), 32);                    // one bank
  EXPECT_EQ(passes_known([](int k) { return 2 + 8ull * (k % 16) + 64 * (k / 16); }, 8, 2), 2);  // misaligned halfwords
  EXPECT_EQ(passes_known([](int k) { return uint64_t(k); }, 1, 1), 1);                      // bytes of 8 words
}

TEST(SharedBanks, TransposeTileAndPrefixSum) {
  // Reading a column of a 32x32 float tile: every lane in bank c; with the +1 pad, none share.
  EXPECT_EQ(passes([](int x) { return 4ull * (x * 32 + 5); }), 32);
  EXPECT_EQ(passes([](int x) { return 4ull * (x * 33 + 5); }), 1);
  // Prefix-sum up-sweep with offset 2: ai = 4 tid + 1 hits 8 banks 4 times each; with
  // ai + ai / 32 the 32 lanes land in 32 banks.
  EXPECT_EQ(passes([](int t) { return 4ull * (4 * t + 1); }), 4);
  EXPECT_EQ(passes([](int t) { const uint64_t ai = 4ull * t + 1; return 4 * (ai + ai / 32); }), 1);
  // Offset 1 (ai = 2 tid): 2-way.
  EXPECT_EQ(passes([](int t) { return 4ull * (2 * t); }), 2);
}

// A warp whose words step by s: lanes k and k' meet on a bank when (k - k') s is a multiple of
// the bank count B, so g = gcd(s mod B, B) lanes share each bank hit (B / g banks), every word
// distinct: max(1, 32 g / B) passes. Worked out for B = 32 and 64, strides up and down, and
// as the executor tells them (each half's stride, the halves one progression).
TEST(SharedBanks, OneProgressionOfAnyStride) {
  const auto words_by = [](int64_t s) { return [s](int k) { return 4 * static_cast<uint64_t>(4096 + s * k); }; };
  EXPECT_EQ(passes(words_by(64)), 32);   // g = 32
  EXPECT_EQ(passes(words_by(16)), 16);
  EXPECT_EQ(passes(words_by(24)), 8);    // gcd(24, 32)
  EXPECT_EQ(passes(words_by(6)), 2);
  EXPECT_EQ(passes(words_by(7)), 1);
  EXPECT_EQ(passes(words_by(-32)), 32);  // down a column
  EXPECT_EQ(passes(words_by(-6)), 2);
  EXPECT_EQ(passes(words_by(-3)), 1);
  EXPECT_EQ(passes(words_by(4), 4, 64), 2);    // 64 banks: g = 4, 16 banks hit
  EXPECT_EQ(passes(words_by(2), 4, 64), 1);    // g = 2: 32 banks, one lane each
  EXPECT_EQ(passes(words_by(64), 4, 64), 32);  // one bank
  EXPECT_EQ(passes_known(words_by(32), 4 * 32), 32);
  EXPECT_EQ(passes_known(words_by(12), 4 * 12), 4);
  EXPECT_EQ(passes_known(words_by(-8), static_cast<uint64_t>(-4 * 8)), 8);
  // Each half a progression of stride 32, the halves apart (not one progression): 16 + 16
  // words, each half in one bank, the banks 3 apart: 16 passes.
  EXPECT_EQ(passes([](int k) { return 4ull * (32 * (k % 16) + 3 * (k / 16)); }), 16);
  EXPECT_EQ(passes_known([](int k) { return 4ull * (32 * (k % 16) + 3 * (k / 16)); }, 4 * 32), 16);
  // Not one word per lane: 8-byte lanes stepping by 64 words are two banks, 32 words each.
  EXPECT_EQ(passes(words_by(64), 8), 32);
  // One-byte banks (a sweep's setting) and a step of 2^60 bytes: lane k + 16 wraps onto lane
  // k's word, so 16 words, all in bank 0, not 32.
  SharedAccessConfig bytes;
  bytes.bank_width_bytes = 1;
  const auto wrapping = lanes([](int k) { return uint64_t(k) << 60; });
  EXPECT_EQ(shared_passes(wrapping.data(), kAll, 1, bytes, false, std::nullopt), 16);
}

}  // namespace
}  // namespace gpusim::memory
