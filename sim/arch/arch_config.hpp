// ArchConfig: one GPU described by a configs/*.yaml file, as plain validated data.
// Everything downstream (occupancy, timing, memory) reads these structs, never YAML.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpusim::arch {

struct ComputeCapability {
  int major = 0;
  int minor = 0;
  auto operator<=>(const ComputeCapability&) const = default;
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
};

struct GpuInfo {
  std::string name;          // marketing name, e.g. "Tesla K20X"
  std::string architecture;  // family, e.g. "Kepler"
  ComputeCapability compute_capability;
  int sm_count = 0;
  double core_clock_mhz = 0;    // the clock all cycle counts are in
  double memory_clock_mhz = 0;
};

struct Limits {
  int max_threads_per_sm = 0;
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  int max_threads_per_block = 0;
  std::array<int64_t, 3> max_block_dims{};
  std::array<int64_t, 3> max_grid_dims{};
};

enum class RegisterAllocation { PerBlock, PerWarp };

struct Registers {
  int per_sm = 0;
  int max_per_block = 0;
  int max_per_thread = 0;
  int allocation_unit = 0;
  RegisterAllocation allocation = RegisterAllocation::PerWarp;
  // Per block: warps are rounded up to this before registers are counted (1.x).
  // Per warp: the register file is split into this many equal sub-partitions and a
  // block's warps are rounded up to it for the launch check (2.x and later).
  int warp_allocation_granularity = 1;
  // Some parts must also fit a sibling's register-file split to launch at all
  // (GP100 is checked as if it had GP10x's 4 sub-partitions). Equals the above otherwise.
  int launch_check_granularity = 1;
  // Registers per thread whose per-warp allocation uses a larger unit (Fermi).
  std::map<int, int> allocation_unit_overrides;

  int unit_for(int regs_per_thread) const {
    auto it = allocation_unit_overrides.find(regs_per_thread);
    return it == allocation_unit_overrides.end() ? allocation_unit : it->second;
  }
};

struct SharedMemory {
  int64_t per_sm = 0;               // default carve-out available to blocks
  int64_t max_per_block = 0;        // without opt-in
  int64_t max_per_block_optin = 0;  // with cudaFuncSetAttribute opt-in
  int64_t allocation_unit = 0;
  int64_t reserved_per_block = 0;   // taken by the driver for each block (8.0 and later)
  int banks = 0;
  int bank_width_bytes = 0;
  int conflict_scope_threads = 0;   // 16: conflicts counted per half-warp (1.x), 32: per warp
  int latency = 0;                  // load-to-use, cycles
  int replay_cycles = 1;            // each bank-conflict pass after the first adds this
};

enum class SchedulerPolicy { LooseRoundRobin, GreedyThenOldest, TwoLevel };

struct Scheduling {
  int warp_schedulers_per_sm = 0;
  int issue_width = 0;  // independent instructions one scheduler may issue per cycle
  SchedulerPolicy policy = SchedulerPolicy::LooseRoundRobin;
  bool sass_like = false;  // issue PTX as ptxas would emit it: fused pairs, list-scheduled blocks
};

struct BlockScheduling {
  std::vector<int> sm_order;      // the order blocks are offered to SMs (a permutation of 0..sm_count-1)
  int kernel_launch_cycles = 0;   // GPU-wide, before the first block
  int block_launch_cycles = 0;    // per block, from assignment to its warps' first issue
  double block_dispatch_interval = 0;  // GPU-wide cycles between two block assignments
};

// Results per clock per SM for each class (the CUDA guide's throughput table).
struct ExecutionUnits {
  int fp32 = 0;
  int int32 = 0;
  int fp64 = 0;
  int sfu = 0;
  int load_store = 0;
  int tensor_cores = 0;
};

// Dependent-issue latency per instruction class, in cycles.
struct Latencies {
  int fp32 = 0;
  int int32 = 0;
  int fp64 = 0;
  int sfu = 0;
  int barrier = 0;                // from the last arrival at bar.sync to the release
  double barrier_per_warp = 0;    // plus this per warp of the block
  int int_divide = 0;             // integer div/rem: no divider, SASS runs a sequence this long
  int int_divide_slots = 1;       // ...of this many instructions (issue cycles of the scheduler)
};

enum class CoalescingRule {
  Cc10,       // 1.0/1.1: strict per half-warp
  Cc12,       // 1.2/1.3: shrinking 128/64/32-byte segments per half-warp
  Cc20,       // 2.x: 128-byte L1 lines per warp
  Sectored32  // 3.x and later: 32-byte sectors
};

struct Cache {
  int64_t size_bytes = 0;
  int line_bytes = 0;
  int sector_bytes = 0;
  int associativity = 0;
  int latency = 0;  // hit latency, cycles
};

struct L1Cache : Cache {
  bool caches_global_loads = false;  // the generation's default for plain ld.global
  int miss_line_cycles = 0;          // an SM sends one line request to L2 per this many cycles; 0: no limit
};

struct L2Cache : Cache {
  int slices = 0;
};

struct Dram {
  int latency = 0;  // cycles to the SM on an L2 miss
  double bandwidth_gbs = 0;
  int channels = 0;
};

struct Memory {
  CoalescingRule coalescing = CoalescingRule::Sectored32;
  std::optional<L1Cache> l1;  // empty: no data cache for global memory
  std::optional<L2Cache> l2;
  Dram dram;
};

struct HostLink {
  std::string name;
  double bandwidth_gbs = 0;           // per direction, from pinned host memory
  double pageable_bandwidth_gbs = 0;  // from pageable host memory
  double latency_us = 0;
  int copy_engines = 0;      // 0: copies cannot overlap kernels
};

struct ArchConfig {
  std::string source_file;
  GpuInfo gpu;
  int warp_size = 0;
  Limits limits;
  Registers registers;
  SharedMemory shared_memory;
  Scheduling scheduling;
  BlockScheduling block_scheduler;
  ExecutionUnits units;
  Latencies latencies;
  Memory memory;
  HostLink host_link;
};

}  // namespace gpusim::arch
