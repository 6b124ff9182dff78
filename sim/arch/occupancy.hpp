// The occupancy calculator: how many blocks of a kernel fit on one SM, and why not
// more. Follows the CUDA Occupancy Calculator and cuda_occupancy.h, driven entirely by
// the ArchConfig so that one algorithm serves G80 through Hopper.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "arch/arch_config.hpp"

namespace gpusim::arch {

struct KernelResources {
  int threads_per_block = 0;
  int registers_per_thread = 0;
  int64_t shared_bytes_per_block = 0;  // static + dynamic, without the driver's reserve
};

enum class Limiter { Warps, Blocks, Registers, SharedMemory, NoneFit };

const char* limiter_name(Limiter l);

// Blocks per SM allowed by one resource; kUnlimited when the kernel does not use it.
constexpr int kUnlimited = std::numeric_limits<int>::max();

struct OccupancyResult {
  KernelResources kernel;
  int warps_per_block = 0;
  int registers_per_block = 0;          // as allocated, with granularities
  int64_t shared_bytes_per_block = 0;   // as allocated, reserve included
  int limit_warps = 0;                  // blocks per SM, each resource alone
  int limit_blocks = 0;
  int limit_registers = 0;
  int limit_shared_memory = 0;
  int active_blocks = 0;
  int active_warps = 0;
  int active_threads = 0;
  int max_warps_per_sm = 0;
  double occupancy = 0;                 // active warps / max warps per SM
  Limiter limiter = Limiter::NoneFit;   // the binding limit (first of ties, in enum order)
  std::vector<Limiter> limiters;        // every limit equal to the binding one
  std::string none_fit_reason;          // set when active_blocks == 0
};

// Arguments the SM can never accept for any launch (threads over the per-block limit,
// registers over the per-thread maximum, shared memory over the per-block opt-in
// limit, negative values). Returns an empty string when the request is valid.
std::string invalid_request(const ArchConfig& arch, const KernelResources& k);

// cudaOccupancyMaxActiveBlocksPerMultiprocessor and friends. A resource over its
// per-block limit allows 0 blocks; active_blocks == 0 comes with the reason.
OccupancyResult compute_occupancy(const ArchConfig& arch, const KernelResources& k);

// cudaOccupancyMaxPotentialBlockSize: the block size (a multiple of the warp size, or
// the per-block limit) with the most active threads per SM, for fixed registers and
// shared memory; ties go to the larger block.
struct BestBlockSize {
  int block_size = 0;
  int blocks_per_sm = 0;
  int min_grid_size = 0;  // blocks to fill every SM once
  double occupancy = 0;
};
BestBlockSize max_potential_block_size(const ArchConfig& arch, int registers_per_thread,
                                       int64_t shared_bytes_per_block);

}  // namespace gpusim::arch
