// Per-instruction counters for the source view (gpusim run --source): how often each
// instruction issued and with how many lanes, the cycles warps spent in each state while
// it was their next instruction (Nsight Compute's warp-state sampling, taken every cycle),
// and its memory traffic. Collected only when asked: it costs a pass over the SM's warps
// at every tick.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/stall.hpp"
#include "stats/counter.hpp"

namespace gpusim::kernel {
struct Program;
}

namespace gpusim::core {

struct InstructionCounters {
  uint64_t warp_executions = 0;
  uint64_t thread_executions = 0;     // active lanes summed over executions
  uint64_t predicated_threads = 0;    // of those, lanes whose guard predicate held
  uint64_t global_requests = 0;       // warp accesses to global or local memory
  uint64_t global_sectors = 0;        // the sectors (transactions) they took
  uint64_t l1_hit_sectors = 0, l1_miss_sectors = 0;
  uint64_t l2_hit_sectors = 0, l2_miss_sectors = 0;
  uint64_t shared_requests = 0;
  uint64_t shared_passes = 0;         // bank passes (a conflict adds passes)
  std::array<uint64_t, kWarpStateCount> warp_cycles{};  // by warp state (kSelected, kNotSelected, stalls)

  uint64_t total_warp_cycles() const;
  void add(const InstructionCounters& o);
  static std::span<const stats::Counter<InstructionCounters>> counters();
};

// Where an instruction of the program as run came from.
struct InstructionSite {
  int32_t ptx_line = 0;
  int32_t source_line = 0;   // 0: no line information
  uint16_t source_file = 0;  // index in InstructionProfile::source_files
};

struct InstructionProfile {
  std::string ptx_file;
  std::vector<std::string> source_files;
  std::vector<InstructionSite> sites;           // per instruction
  std::vector<InstructionCounters> counters;    // per instruction

  bool empty() const { return sites.empty(); }
  // Sized for `program`, counters zero.
  static InstructionProfile for_program(const kernel::Program& program);
  // Adds another SM's or launch's counters of the same program.
  void add(const InstructionProfile& o);
};

}  // namespace gpusim::core
