// DRAM channels, banks and batched writes (memory/dram/dram.cpp) on numbers worked out by
// hand: a 1000 MHz core clock, one channel, latency 100 cycles.
#include <gtest/gtest.h>

#include "memory/dram/dram.hpp"

namespace gpusim::memory {
namespace {

// 64 bytes a cycle: a 64-byte access holds the bus for one cycle. Two accesses to one
// 64-byte unit (one bank) at cycle 0: the second waits for the bank (50 cycles) and then
// the bus (one cycle); without banks it waits for the bus alone.
TEST(Dram, AnAccessWaitsForItsBank) {
  MemoryStats stats;
  Dram banked({.latency = 100, .bandwidth_gbs = 64, .channels = 1, .banks = 2, .bank_cycles = 50}, 1000, stats);
  EXPECT_EQ(banked.access(0, 64, false, 0), 101u);
  EXPECT_EQ(banked.access(0, 64, false, 0), 151u);
  Dram open({.latency = 100, .bandwidth_gbs = 64, .channels = 1}, 1000, stats);
  EXPECT_EQ(open.access(0, 64, false, 0), 101u);
  EXPECT_EQ(open.access(0, 64, false, 0), 102u);
  EXPECT_EQ(stats.dram_read_bytes, 4u * 64u);
}

// One byte a cycle, writes in batches of 256 bytes, 10 cycles to turn the bus around. The
// first 128-byte write waits in the queue; the second fills the batch, which turns the bus
// (10) and writes 256 bytes: done at 266. A read then turns it back (10) and takes 64: its
// data is back at 266 + 10 + 64 + 100 = 440. A third write stays queued: the channel is done
// once it has turned (10) and written it (128), at 340 + 138 = 478.
TEST(Dram, WritesGoOutInBatchesAndTheBusTurnsAround) {
  MemoryStats stats;
  Dram dram({.latency = 100, .bandwidth_gbs = 1, .channels = 1, .write_batch_bytes = 256, .turnaround_cycles = 10},
            1000, stats);
  EXPECT_EQ(dram.access(0, 128, true, 0), 0u);
  EXPECT_EQ(dram.access(128, 128, true, 0), 266u);
  EXPECT_EQ(dram.access(1024, 64, false, 0), 440u);
  dram.access(256, 128, true, 0);
  EXPECT_EQ(dram.drained_at(), 478u);
  EXPECT_EQ(stats.dram_write_bytes, 384u);
  EXPECT_EQ(stats.dram_read_bytes, 64u);
}

}  // namespace
}  // namespace gpusim::memory
