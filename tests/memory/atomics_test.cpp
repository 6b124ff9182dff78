// Atomics at the L2 and in shared memory (issue 13: reductions and histograms were 4-50x
// too fast), with numbers worked out by hand from the rules in memory/l2.hpp and banks.hpp.
#include <gtest/gtest.h>

#include "memory/banks.hpp"
#include "memory/dram/dram.hpp"
#include "memory/l2.hpp"

namespace gpusim {
namespace {

struct WarmL2 {  // an L2 whose first line (sectors 0..96) is already there
  memory::MemoryStats stats;
  memory::Dram dram{{.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats};
  memory::L2 l2;
  WarmL2() : l2(config(), 1, dram, stats) {
    for (uint64_t s = 0; s < 128; s += 32) l2.write(s, true, 0, 0);
  }
  static memory::L2Config config() {
    memory::L2Config c;
    c.size_bytes = 64 * 1024;
    c.associativity = 4;
    c.latency = 200;
    c.slices = 4;
    c.atomic_cycles = 1.5;
    c.atomic_float_cycles = 3.5;
    return c;
  }
};

TEST(L2Atomics, LanesOnOneWordTakeTheirTurns) {
  WarmL2 w;
  // 32 integer updates of word 0 arriving at cycle 10: done at 10 + 32 x 1.5 = 58, back at 258.
  EXPECT_EQ(w.l2.atomic(0, 0, 32, false, 0, 10), 258u);
  EXPECT_EQ(w.stats.dram_read_bytes, 0u);  // the line was there
}

TEST(L2Atomics, TheWordsOfOneLineShareTheLinesUnit) {
  WarmL2 w;
  EXPECT_EQ(w.l2.atomic(0, 0, 1, false, 0, 10), 212u);    // 10 + 1.5 -> 11.5, rounded up, + 200
  EXPECT_EQ(w.l2.atomic(32, 36, 1, false, 0, 10), 213u);  // same line, next sector: from 11.5 to 13
}

TEST(L2Atomics, FloatUpdatesOfOneWordWaitForTheOneBefore) {
  WarmL2 w;
  EXPECT_EQ(w.l2.atomic(0, 0, 1, true, 0, 10), 214u);  // 10 + 3.5 = 13.5 -> 14
  EXPECT_EQ(w.l2.atomic(0, 0, 1, true, 0, 10), 217u);  // starts when word 0 is done: 13.5 + 3.5 = 17
  // Another word of the line need not wait for word 0, only for the unit (free at 13.5 + 1.5).
  EXPECT_EQ(w.l2.atomic(0, 8, 1, true, 0, 10), 219u);  // 15 + 3.5 = 18.5 -> 19
}

TEST(L2Atomics, AMissingSectorComesFromDramFirst) {
  WarmL2 w;
  // Sector 4096 is cold: DRAM's 500 cycles, and the update after it.
  const engine::Cycle back = w.l2.atomic(4096, 4096, 1, false, 0, 0);
  EXPECT_GE(back, 500u);
  EXPECT_LT(back, 520u);
  EXPECT_EQ(w.stats.l2_misses, 1u);
}

int shared_atomic_passes(bool serialise, uint64_t stride) {
  memory::SharedAccessConfig banks;
  banks.atomics_serialise_same_word = serialise;
  uint64_t a[32];
  for (int k = 0; k < 32; ++k) a[k] = static_cast<uint64_t>(k) * stride;
  return memory::shared_passes(a, 0xffffffffu, 4, banks, true);
}

TEST(SharedAtomics, OneWordIsOnePassWhereTheHardwareCombinesIt) {
  EXPECT_EQ(shared_atomic_passes(true, 0), 32);   // every lane on word 0, one after another
  EXPECT_EQ(shared_atomic_passes(false, 0), 1);   // H100: as fast as 32 words in 32 banks
  EXPECT_EQ(shared_atomic_passes(false, 4), 1);
  EXPECT_EQ(shared_atomic_passes(false, 128), 32);  // 32 words in one bank: a bank conflict either way
}

// 1.x: 16 banks, each half-warp served on its own. Atomics on one word serialise: a half-warp
// takes a pass per lane on its busiest word. First half: words 0, 1, 2 by lane % 3 (6, 5 and
// 5 lanes); second half: words 16 and 17 by lane % 2 (8 each). Words in different banks, so
// the banks alone would take one pass a half.
TEST(SharedAtomics, EachHalfWarpTakesAPassPerLaneOnItsBusiestWord) {
  memory::SharedAccessConfig banks;
  banks.banks = 16;
  banks.conflict_scope_threads = 16;
  uint64_t a[32];
  for (int k = 0; k < 16; ++k) a[k] = 4 * static_cast<uint64_t>(k % 3);
  for (int k = 16; k < 32; ++k) a[k] = 64 + 4 * static_cast<uint64_t>(k % 2);
  EXPECT_EQ(memory::shared_passes(a, 0xffffffffu, 4, banks, true), 6 + 8);
  // Without lanes 0-3 the first half has 4 lanes on each of its words.
  EXPECT_EQ(memory::shared_passes(a, 0xfffffff0u, 4, banks, true), 4 + 8);
  // Only lanes 16 and 18 (both word 16): 2 passes; lanes 16 and 17 (two words): 1.
  EXPECT_EQ(memory::shared_passes(a, 0x00050000u, 4, banks, true), 2);
  EXPECT_EQ(memory::shared_passes(a, 0x00030000u, 4, banks, true), 1);
  // Loads of the same words are broadcasts: one pass a half.
  EXPECT_EQ(memory::shared_passes(a, 0xffffffffu, 4, banks, false), 2);
}

}  // namespace
}  // namespace gpusim
