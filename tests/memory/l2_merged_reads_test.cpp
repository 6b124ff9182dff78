// Many SMs reading one sector at once (memory.l2.merged_reads; micro_l2_same_lines: the H100
// serves one 32 KB region to 1056 blocks 16% faster than distinct regions). Numbers worked
// out by hand from memory/l2.hpp: one slice, one sector a cycle, 200 cycles back to the SM.
#include <gtest/gtest.h>

#include "memory/dram/dram.hpp"
#include "memory/l2.hpp"

namespace gpusim {
namespace {

struct OneSlice {  // an L2 of one slice holding sectors 0..96
  memory::MemoryStats stats;
  memory::Dram dram{{.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats};
  memory::L2 l2;
  explicit OneSlice(int merged) : l2(config(merged), 1, dram, stats) {
    for (uint64_t s = 0; s < 128; s += 32) l2.write(s, true, 0, 0);
  }
  static memory::L2Config config(int merged) {
    memory::L2Config c;
    c.size_bytes = 64 * 1024;
    c.associativity = 4;
    c.latency = 200;
    c.slices = 1;
    c.merged_reads = merged;
    return c;
  }
};

TEST(L2MergedReads, WithoutMergingEveryReadTakesASlot) {
  OneSlice w(0);
  w.l2.read(64, 0, 10);  // the slice is busy until 11
  EXPECT_EQ(w.l2.read(0, 0, 10), 211u);
  EXPECT_EQ(w.l2.read(0, 0, 10), 212u);
  EXPECT_EQ(w.l2.read(0, 0, 10), 213u);
}

TEST(L2MergedReads, AReadOfASectorStillQueuedSharesIt) {
  OneSlice w(2);
  w.l2.read(64, 0, 10);                  // taken at 10
  EXPECT_EQ(w.l2.read(0, 0, 10), 211u);  // queued: taken at 11
  EXPECT_EQ(w.l2.read(0, 0, 10), 211u);  // arrives before 11: the same data
  EXPECT_EQ(w.l2.read(0, 0, 11), 211u);  // arrives as it is taken: still shares it
  EXPECT_EQ(w.l2.read(0, 0, 12), 212u);  // too late: a slot of its own, from 12
  EXPECT_EQ(w.l2.read(32, 0, 12), 213u);  // another sector queues behind it
}

TEST(L2MergedReads, OnlyTheLastFewSectorsAreRemembered) {
  OneSlice w(1);
  w.l2.read(64, 0, 10);                  // taken at 10
  EXPECT_EQ(w.l2.read(0, 0, 10), 211u);  // taken at 11
  EXPECT_EQ(w.l2.read(32, 0, 10), 212u);  // taken at 12: sector 0 is forgotten
  EXPECT_EQ(w.l2.read(0, 0, 10), 213u);  // queued again, though the earlier read of it had not left
}

}  // namespace
}  // namespace gpusim
