// What a timed kernel launch produced: the counters reports are written from.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/instruction_profile.hpp"
#include "core/stall.hpp"
#include "core/units_config.hpp"
#include "memory/memory_stats.hpp"
#include "stats/counter.hpp"

namespace gpusim::core {

// Per SM; the counters are declared (name, unit, description) in launch_stats.cpp.
struct SmStats {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t predicated_on_threads = 0;  // of those, lanes whose guard predicate held
  uint64_t issue_cycles = 0;         // scheduler-cycles with at least one issue
  uint64_t dual_issues = 0;          // second (or later) instructions a warp issued in the same cycle
  uint64_t active_cycles = 0;        // cycles with at least one resident warp
  uint64_t warp_cycles = 0;          // resident warps summed over cycles
  uint64_t blocks = 0;
  uint64_t busy_until = 0;           // the cycle its last block retired
  uint64_t shared_requests = 0;      // warp accesses to shared memory
  uint64_t shared_passes = 0;        // bank passes they took (conflicts add passes)
  uint64_t l1_wavefronts = 0;        // cycles of the L1/shared data stage: shared passes and global lines
  std::array<uint64_t, kStallCount> stalls{};
  std::array<uint64_t, kUnitCount> pipe_busy{};  // each unit's busy time, in 1/kUnitTicks scheduler cycles

  static std::span<const stats::Counter<SmStats>> counters();
};

struct BlockSlice {  // for the trace
  uint32_t sm = 0;
  uint32_t slot = 0;  // the SM's resident-block slot it occupied
  uint64_t block = 0;
  uint64_t start = 0, end = 0;
};

struct WarpSlice {
  uint32_t sm = 0, slot = 0;
  uint64_t block = 0;
  uint32_t warp = 0;
  uint64_t start = 0, end = 0;
};

// GPU-wide counters at a cycle of the launch (relative to its start), for the trace's
// counter tracks; cumulative from the launch's start but for active warps.
struct CounterSample {
  uint64_t cycle = 0;
  uint64_t warp_instructions = 0;
  uint64_t active_warps = 0;  // resident at that cycle
  uint64_t dram_bytes = 0;
  uint64_t l2_hits = 0, l2_lookups = 0;
};

// What --sample did (core/wave_sampler.hpp); not `sampled`: every block was timed.
struct SampleReport {
  bool sampled = false;
  uint64_t simulated_blocks = 0;  // timed in detail; the others ran functionally
  uint64_t measured_waves = 0;    // waves timed until two ran at the same rate
  uint64_t wave_cycles = 0;       // the last one's duration; its cycles per warp instruction set the rest's
  double error_estimate = 0;      // relative, on cycles: the last two waves' rates' difference on the extrapolated share
  // --sample was asked for and the launch was timed in full: why (empty otherwise).
  std::string declined;
};

struct LaunchStats {
  uint64_t cycles = 0;
  uint64_t blocks = 0;
  int blocks_per_sm = 0;      // theoretical, from the occupancy calculator
  double theoretical_occupancy = 0;
  int schedulers_per_sm = 0;
  int issue_width = 0;
  int max_warps_per_sm = 0;
  uint64_t tail_cycles = 0;   // from the first SM running out of work to the last
  int64_t shared_carveout_bytes = 0;  // shared memory the driver configured per SM for this kernel
  int64_t l1_bytes = 0;               // the L1 data capacity per SM that leaves
  std::vector<SmStats> per_sm;
  memory::MemoryStats memory;  // this launch's share of the memory system's counters
  std::vector<BlockSlice> blocks_trace;
  std::vector<WarpSlice> warps_trace;
  std::vector<CounterSample> samples;  // with TimingOptions::sample_counters (core/counter_sampler.hpp)
  InstructionProfile profile;  // with TimingOptions::profile: per instruction, summed over SMs
  SampleReport sample;

  SmStats total() const;
};

}  // namespace gpusim::core
