// The mechanisms behind issue 13's symptoms, each with numbers worked out by hand: the
// driver's shared carve-out and the L1 it leaves, a hashed L1 set index, DRAM's 64-byte
// access granularity and the read a partial-sector write needs.
#include <gtest/gtest.h>

#include "arch/arch_config.hpp"
#include "memory/cache/sectored_cache.hpp"
#include "memory/dram/dram.hpp"
#include "memory/l2.hpp"

namespace gpusim {
namespace {

arch::SharedMemory hopper_shared() {
  arch::SharedMemory s;
  s.per_sm = 228 * 1024;
  s.carveouts_kb = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  return s;
}

TEST(Carveout, TheSmallestCapacityThatHoldsTheResidentBlocks) {
  const arch::SharedMemory s = hopper_shared();
  EXPECT_EQ(s.carveout_for(0, -1), 0);                 // no shared memory: the L1 gets all 256 KB
  EXPECT_EQ(s.carveout_for(1024, -1), 8 * 1024);       // one block's 1 KB reserve
  EXPECT_EQ(s.carveout_for(32 * 1024, -1), 32 * 1024);  // 32 blocks x 1 KB fits exactly
  EXPECT_EQ(s.carveout_for(2 * 49 * 1024, -1), 100 * 1024);  // 98 KB needs the 100 KB carve-out
  EXPECT_EQ(s.carveout_for(228 * 1024, -1), 228 * 1024);
}

TEST(Carveout, APreferenceRaisesItButNeverBelowTheNeed) {
  const arch::SharedMemory s = hopper_shared();
  EXPECT_EQ(s.carveout_for(0, 50), 132 * 1024);    // 50% of 228 KB = 114 KB -> 132 KB
  EXPECT_EQ(s.carveout_for(0, 100), 228 * 1024);   // cudaSharedmemCarveoutMaxShared
  EXPECT_EQ(s.carveout_for(64 * 1024, 0), 64 * 1024);  // MaxL1 still holds the blocks
}

TEST(Carveout, WithoutCarveoutsSharedMemoryIsAlwaysPerSm) {
  arch::SharedMemory s;
  s.per_sm = 48 * 1024;
  EXPECT_EQ(s.carveout_for(0, -1), 48 * 1024);
  EXPECT_EQ(s.carveout_for(0, 0), 48 * 1024);
}

// 64 lines 16 KB apart (a power-of-two stride): with 8 sets of 4 ways taken modulo, they all
// fall in set 0 and only 4 stay; folded, they spread and every one stays.
int lines_that_stay(memory::SetIndex index) {
  memory::CacheConfig c;
  c.size_bytes = 256 * 128;  // 256 lines
  c.associativity = 32;      // 8 sets
  c.set_index = index;
  memory::SectoredCache cache(c);
  for (uint64_t k = 0; k < 64; ++k) cache.fill(k * 16384, 0, false);
  int stay = 0;
  for (uint64_t k = 0; k < 64; ++k) stay += cache.probe(k * 16384).present;
  return stay;
}

TEST(SetIndex, APowerOfTwoStrideCrowdsOneSetModuloButSpreadsHashed) {
  EXPECT_EQ(lines_that_stay(memory::SetIndex::Modulo), 32);  // one set of 32 ways
  EXPECT_EQ(lines_that_stay(memory::SetIndex::Hashed), 64);
}

memory::L2Config small_l2(int fetch_bytes, bool partial_write_reads) {
  memory::L2Config c;
  c.size_bytes = 64 * 1024;
  c.associativity = 4;
  c.latency = 200;
  c.slices = 4;
  c.fetch_bytes = fetch_bytes;
  c.partial_write_reads = partial_write_reads;
  return c;
}

TEST(DramGranularity, AMissBringsItsNeighbourSectorAlong) {
  memory::MemoryStats stats;
  memory::Dram dram({.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats);
  memory::L2 l2(small_l2(64, false), 1, dram, stats);
  l2.read(0, 0, 0);   // misses: bytes 0..63 come from DRAM
  l2.read(32, 0, 0);  // the neighbour is already there (or on its way)
  l2.read(64, 0, 0);  // the next chunk: another 64 bytes
  EXPECT_EQ(stats.dram_read_bytes, 128u);
  EXPECT_EQ(stats.l2_misses, 2u);
  EXPECT_EQ(stats.l2_hits, 1u);
}

TEST(PartialWrites, ReadTheirChunkFirstWholeSectorsDoNot) {
  memory::MemoryStats stats;
  memory::Dram dram({.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats);
  memory::L2 l2(small_l2(64, true), 1, dram, stats);
  l2.write(0, true, 0, 0);     // a whole sector: written without a read
  EXPECT_EQ(stats.dram_read_bytes, 0u);
  l2.write(128, false, 0, 0);  // 4 bytes of a missing sector: its 64-byte chunk is read
  EXPECT_EQ(stats.dram_read_bytes, 64u);
  l2.write(160, false, 0, 0);  // the chunk's other sector came along: no second read
  EXPECT_EQ(stats.dram_read_bytes, 64u);
}

}  // namespace
}  // namespace gpusim
