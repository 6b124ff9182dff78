// The occupancy calculator against NVIDIA's own: cuda_occupancy.h (host-only code from
// the CUDA toolkit) over a large grid of block sizes, register counts and shared-memory
// sizes, for every config of compute capability 3.5 and later.
//
// The device properties handed to NVIDIA's code are what cudaGetDeviceProperties
// reports for each GPU (CUDA guide tables; the H100 row as read on the device), typed
// here independently of configs/; the per-architecture rules (granularities, blocks
// per SM, sub-partitions, carve-outs) come from the header itself. So the test checks
// both our algorithm and the numbers in our YAML files.
#include <cuda_occupancy.h>
#include <gtest/gtest.h>

#include "arch/arch_loader.hpp"
#include "arch/occupancy.hpp"
#include "test_paths.hpp"

namespace gpusim::arch {
namespace {

struct DeviceRow {
  const char* config;
  int major, minor;
  int sms;
  int max_threads_per_sm;
  size_t smem_per_sm, smem_per_block_optin, reserved_per_block;
};

// cudaDeviceProp values per GPU; regs 65536 per SM and per block, 1024 threads and
// 48 KB default shared memory per block hold for all of them.
const DeviceRow kDevices[] = {
    {"kepler", 3, 5, 14, 2048, 49152, 49152, 0},       // Tesla K20X
    {"maxwell", 5, 2, 16, 2048, 98304, 49152, 0},      // GTX 980
    {"pascal", 6, 0, 56, 2048, 65536, 49152, 0},       // P100
    {"volta", 7, 0, 80, 2048, 98304, 98304, 0},        // V100
    {"turing", 7, 5, 68, 1024, 65536, 65536, 0},       // RTX 2080 Ti
    {"ampere", 8, 0, 108, 2048, 167936, 166912, 1024}, // A100
    {"hopper", 9, 0, 132, 2048, 233472, 232448, 1024}, // H100 SXM5 (validate/results/h100_device_query.txt)
};

void PrintTo(const DeviceRow& d, std::ostream* os) { *os << d.config; }

cudaOccDeviceProp device_props(const DeviceRow& d) {
  cudaOccDeviceProp p;
  p.computeMajor = d.major;
  p.computeMinor = d.minor;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsPerMultiprocessor = d.max_threads_per_sm;
  p.regsPerBlock = 65536;
  p.regsPerMultiprocessor = 65536;
  p.warpSize = 32;
  p.sharedMemPerBlock = 49152;
  p.sharedMemPerMultiprocessor = d.smem_per_sm;
  p.numSms = d.sms;
  p.sharedMemPerBlockOptin = d.smem_per_block_optin;
  p.reservedSharedMemPerBlock = d.reserved_per_block;
  return p;
}

// A kernel with `regs` registers that may opt in to the device's largest dynamic
// shared memory, as a kernel configured with cudaFuncSetAttribute would.
cudaOccFuncAttributes func_attrs(int regs, const cudaOccDeviceProp& p) {
  cudaOccFuncAttributes f;
  f.maxThreadsPerBlock = 1024;
  f.numRegs = regs;
  f.sharedSizeBytes = 0;
  f.partitionedGCConfig = PARTITIONED_GC_OFF;
  f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  f.maxDynamicSharedSizeBytes = p.sharedMemPerBlockOptin;
  f.numBlockBarriers = 1;  // what every kernel with __syncthreads has
  return f;
}

unsigned our_limiter_bits(const OccupancyResult& r) {
  unsigned bits = 0;
  for (Limiter l : r.limiters) {
    if (l == Limiter::Warps) bits |= OCC_LIMIT_WARPS;
    if (l == Limiter::Registers) bits |= OCC_LIMIT_REGISTERS;
    if (l == Limiter::SharedMemory) bits |= OCC_LIMIT_SHARED_MEMORY;
    if (l == Limiter::Blocks) bits |= OCC_LIMIT_BLOCKS;
  }
  return bits;
}

class CudaOracle : public ::testing::TestWithParam<DeviceRow> {};

TEST_P(CudaOracle, ConfigMatchesDeviceProperties) {
  const DeviceRow& d = GetParam();
  const ArchConfig a = load_arch_config(test::config_path(d.config));
  EXPECT_EQ(a.gpu.compute_capability, (ComputeCapability{d.major, d.minor}));
  EXPECT_EQ(a.gpu.sm_count, d.sms);
  EXPECT_EQ(a.limits.max_threads_per_sm, d.max_threads_per_sm);
  EXPECT_EQ(a.shared_memory.per_sm, static_cast<int64_t>(d.smem_per_sm));
  EXPECT_EQ(a.shared_memory.max_per_block_optin, static_cast<int64_t>(d.smem_per_block_optin));
  EXPECT_EQ(a.shared_memory.reserved_per_block, static_cast<int64_t>(d.reserved_per_block));
  EXPECT_EQ(a.registers.per_sm, 65536);
  EXPECT_EQ(a.registers.max_per_block, 65536);
}

TEST_P(CudaOracle, ActiveBlocksAndLimitsAgreeOverTheGrid) {
  const DeviceRow& d = GetParam();
  const ArchConfig a = load_arch_config(test::config_path(d.config));
  const cudaOccDeviceProp props = device_props(d);
  const cudaOccDeviceState state;
  const int64_t optin = a.shared_memory.max_per_block_optin;
  const int64_t smem_sizes[] = {0, 1, 1000, 2048, 12345, 40000, 48 * 1024, 48 * 1024 + 1, 100000, optin - 1, optin, optin + 1};

  int64_t compared = 0;
  for (int64_t smem : smem_sizes) {
    for (int regs = 0; regs <= 255; ++regs) {
      const cudaOccFuncAttributes attrs = func_attrs(regs, props);
      for (int threads = 1; threads <= a.limits.max_threads_per_block; ++threads) {
        cudaOccResult cuda;
        ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&cuda, &props, &attrs, &state, threads, smem),
                  CUDA_OCC_SUCCESS);
        const OccupancyResult ours = compute_occupancy(a, {threads, regs, smem});
        const auto where = [&] {
          return std::string(d.config) + " threads=" + std::to_string(threads) + " regs=" + std::to_string(regs) +
                 " smem=" + std::to_string(smem);
        };
        ASSERT_EQ(ours.active_blocks, cuda.activeBlocksPerMultiprocessor) << where();
        ASSERT_EQ(ours.limit_registers, cuda.blockLimitRegs) << where();
        ASSERT_EQ(ours.limit_shared_memory, cuda.blockLimitSharedMem) << where();
        ASSERT_EQ(ours.limit_warps, cuda.blockLimitWarps) << where();
        ASSERT_EQ(ours.limit_blocks, cuda.blockLimitBlocks) << where();
        ASSERT_EQ(our_limiter_bits(ours), cuda.limitingFactors & 0xF) << where();
        ASSERT_EQ(ours.registers_per_block, cuda.allocatedRegistersPerBlock) << where();
        ASSERT_EQ(ours.shared_bytes_per_block, static_cast<int64_t>(cuda.allocatedSharedMemPerBlock)) << where();
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 12 * 256 * a.limits.max_threads_per_block);
}

TEST_P(CudaOracle, MaxPotentialBlockSizeAgrees) {
  const DeviceRow& d = GetParam();
  const ArchConfig a = load_arch_config(test::config_path(d.config));
  const cudaOccDeviceProp props = device_props(d);
  const cudaOccDeviceState state;
  for (int64_t smem : {int64_t{0}, int64_t{4096}, int64_t{30000}, int64_t{48 * 1024}, a.shared_memory.max_per_block_optin}) {
    for (int regs = 0; regs <= 255; regs += 3) {
      const cudaOccFuncAttributes attrs = func_attrs(regs, props);
      int min_grid = 0, block = 0;
      ASSERT_EQ(cudaOccMaxPotentialOccupancyBlockSize(&min_grid, &block, &props, &attrs, &state, smem),
                CUDA_OCC_SUCCESS);
      const BestBlockSize ours = max_potential_block_size(a, regs, smem);
      ASSERT_EQ(ours.block_size, block) << d.config << " regs=" << regs << " smem=" << smem;
      ASSERT_EQ(ours.min_grid_size, min_grid) << d.config << " regs=" << regs << " smem=" << smem;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ModernConfigs, CudaOracle, ::testing::ValuesIn(kDevices),
                         [](const auto& info) { return std::string(info.param.config); });

}  // namespace
}  // namespace gpusim::arch
