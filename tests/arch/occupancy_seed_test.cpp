// Worked examples from the seeds (../shared/seeds/000, 001, 003) and hand-worked
// cases for the generations cuda_occupancy.h no longer covers (1.x, 2.x).
#include <gtest/gtest.h>

#include "arch/arch_loader.hpp"
#include "arch/occupancy.hpp"
#include "test_paths.hpp"

namespace gpusim::arch {
namespace {

OccupancyResult occ(const char* config, int threads, int regs, int64_t smem = 0) {
  return compute_occupancy(load_arch_config(test::config_path(config)), {threads, regs, smem});
}

// Seed 001: CC 1.0 holds 768 threads, 8 blocks. 128-thread blocks give 6 blocks,
// 256-thread blocks 3, and 64-thread blocks 8 (the block limit), not 12.
TEST(OccupancySeeds, G80BlockSizes) {
  EXPECT_EQ(occ("g80", 128, 0).active_blocks, 6);
  EXPECT_EQ(occ("g80", 256, 0).active_blocks, 3);
  const OccupancyResult small = occ("g80", 64, 0);
  EXPECT_EQ(small.active_blocks, 8);
  EXPECT_EQ(small.limit_warps, 12);
  EXPECT_EQ(small.limiter, Limiter::Blocks);
  EXPECT_EQ(small.active_threads, 512);
  // 96 threads (3 warps) x 8 blocks = 24 warps: the seed's "96 (8 blocks per SM)".
  EXPECT_EQ(occ("g80", 96, 0).active_blocks, 8);
}

// Seed 001: with 16 registers a thread, G80's 8192 registers hold 512 threads; with 32, 256.
TEST(OccupancySeeds, G80Registers) {
  const OccupancyResult r16 = occ("g80", 256, 16);
  EXPECT_EQ(r16.registers_per_block, 4096);  // 8 warps x 32 x 16, already a multiple of 256
  EXPECT_EQ(r16.active_threads, 512);
  EXPECT_EQ(r16.limiter, Limiter::Registers);
  EXPECT_EQ(occ("g80", 256, 32).active_threads, 256);
  // Per-block allocation rounds warps up to 2: 3 warps x 32 x 10 registers count as 4 warps
  // = 1280 registers, 8192 / 1280 = 6 blocks (not 8192 / 960 = 8).
  EXPECT_EQ(occ("g80", 96, 10).registers_per_block, 1280);
  EXPECT_EQ(occ("g80", 96, 10).active_blocks, 6);
}

// GT200 allocates registers per block in units of 512: 8 warps x 32 x 17 = 4352 -> 4608;
// 16384 / 4608 = 3 blocks.
TEST(OccupancySeeds, Gt200RegisterUnit) {
  const OccupancyResult r = occ("gt200", 256, 17);
  EXPECT_EQ(r.registers_per_block, 4608);
  EXPECT_EQ(r.active_blocks, 3);
  EXPECT_EQ(occ("gt200", 256, 16).active_blocks, 4);  // 4096 registers: 4 blocks, also the warp limit
}

// Fermi (CUDA 7.0's occupancy header): 64-register units per warp, but 21 registers
// allocate in units of 128. 20 registers: 640 per warp, 16384 per sub-partition / 640 = 25
// warps x 2 = 50 warps -> 6 blocks of 8 warps (and 6 by warps). 21 registers: 672 -> 768,
// 16384 / 768 = 21 x 2 = 42 warps -> 5 blocks.
TEST(OccupancySeeds, FermiAllocationUnits) {
  const OccupancyResult r20 = occ("fermi", 256, 20);
  EXPECT_EQ(r20.limit_registers, 6);
  EXPECT_EQ(r20.active_warps, 48);
  const OccupancyResult r21 = occ("fermi", 256, 21);
  EXPECT_EQ(r21.registers_per_block, 768 * 8);
  EXPECT_EQ(r21.active_blocks, 5);
  EXPECT_EQ(r21.limiter, Limiter::Registers);
}

// Seed 000: on 6.x, 64 registers x 512 threads fit two blocks (32 warps, 1024 threads);
// 65 registers fit only one.
TEST(OccupancySeeds, PascalSixtyFourVersusSixtyFiveRegisters) {
  const OccupancyResult r64 = occ("pascal", 512, 64);
  EXPECT_EQ(r64.active_blocks, 2);
  EXPECT_EQ(r64.active_warps, 32);
  EXPECT_EQ(r64.active_threads, 1024);
  const OccupancyResult r65 = occ("pascal", 512, 65);
  EXPECT_EQ(r65.active_blocks, 1);
  EXPECT_EQ(r65.active_warps, 16);
  EXPECT_EQ(r65.limiter, Limiter::Registers);
}

// Seed 003, example 1: 256 threads, 47 registers: 1504 -> 1536 per warp, 65536 / 1536 = 42.7
// -> 40 warps (granularity 4), so 5 blocks of 8 warps.
TEST(OccupancySeeds, FortySevenRegisters) {
  for (const char* config : {"kepler", "maxwell", "volta", "ampere", "hopper"}) {
    const OccupancyResult r = occ(config, 256, 47);
    EXPECT_EQ(r.active_warps, 40) << config;
    EXPECT_EQ(r.registers_per_block, 1536 * 8) << config;
    EXPECT_EQ(r.limiter, Limiter::Registers) << config;
  }
}

// Seed 003, example 2: 128 threads, 133 registers: 4256 -> 4352 per warp, 65536 / 4352 = 15.1
// -> 12 warps.
TEST(OccupancySeeds, OneHundredThirtyThreeRegisters) {
  for (const char* config : {"kepler", "maxwell", "volta", "ampere", "hopper"}) {
    EXPECT_EQ(occ(config, 128, 133).active_warps, 12) << config;
  }
}

// Seed 003: 1000 bytes of shared memory round to 1024 (unit 256); a 64 KB SM holds 64
// such blocks as far as shared memory goes.
TEST(OccupancySeeds, SharedMemoryRounding) {
  const OccupancyResult r = occ("pascal", 32, 0, 1000);
  EXPECT_EQ(r.shared_bytes_per_block, 1024);
  EXPECT_EQ(r.limit_shared_memory, 64);
  EXPECT_EQ(r.active_blocks, 32);  // the block limit binds first
  // From 8.0 the driver reserves 1 KB per block and the unit is 128: 1000 + 1024 -> 2048.
  EXPECT_EQ(occ("ampere", 32, 0, 1000).shared_bytes_per_block, 2048);
  // Hopper, 100 KB: 102400 + 1024 = 103424 bytes, 233472 / 103424 = 2 blocks.
  const OccupancyResult big = occ("hopper", 256, 32, 100 * 1024);
  EXPECT_EQ(big.active_blocks, 2);
  EXPECT_EQ(big.limiter, Limiter::SharedMemory);
}

TEST(OccupancySeeds, StencilOnKepler) {
  // The README's stencil: 32x8 threads, 18 registers. 576 -> 768 registers per warp;
  // 16384 / 768 = 21 warps per sub-partition x 4 = 84 warps = 10 blocks by registers;
  // 64 / 8 = 8 blocks by warps, which binds: 100% occupancy.
  const OccupancyResult r = occ("kepler", 256, 18);
  EXPECT_EQ(r.limit_registers, 10);
  EXPECT_EQ(r.active_blocks, 8);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.limiter, Limiter::Warps);
}

TEST(Occupancy, NoneFitWhenRegistersExceedTheBlockLimit) {
  // 1024 threads x 255 registers: 8160 -> 8192 per warp x 32 warps = 262144 > 65536.
  const OccupancyResult r = occ("kepler", 1024, 255);
  EXPECT_EQ(r.active_blocks, 0);
  EXPECT_EQ(r.limiter, Limiter::NoneFit);
  EXPECT_NE(r.none_fit_reason.find("262144"), std::string::npos) << r.none_fit_reason;
}

TEST(Occupancy, InvalidRequestsAreRejectedWithReasons) {
  const ArchConfig k = load_arch_config(test::config_path("kepler"));
  EXPECT_NE(invalid_request(k, {2048, 16, 0}).find("threads per block"), std::string::npos);
  EXPECT_NE(invalid_request(k, {256, 256, 0}).find("registers per thread"), std::string::npos);
  EXPECT_NE(invalid_request(k, {256, 16, 49153}).find("shared memory"), std::string::npos);
  EXPECT_EQ(invalid_request(k, {256, 16, 49152}), "");
  EXPECT_EQ(compute_occupancy(k, {0, 16, 0}).limiter, Limiter::NoneFit);
}

TEST(Occupancy, MaxPotentialBlockSizeByHand) {
  // Kepler, 18 registers: 1024-thread blocks fill the SM twice (2 x 32 warps), the first
  // size tried; the minimum grid is 2 blocks x 14 SMs.
  const BestBlockSize b = max_potential_block_size(load_arch_config(test::config_path("kepler")), 18, 0);
  EXPECT_EQ(b.block_size, 1024);
  EXPECT_EQ(b.blocks_per_sm, 2);
  EXPECT_EQ(b.min_grid_size, 28);
  // G80 with 16 registers: at most 512 threads fit (8192 registers), e.g. one 512-thread block.
  const BestBlockSize g = max_potential_block_size(load_arch_config(test::config_path("g80")), 16, 0);
  EXPECT_EQ(g.block_size * g.blocks_per_sm, 512);
  EXPECT_EQ(g.block_size, 512);
}

}  // namespace
}  // namespace gpusim::arch
