// Which execution unit an instruction occupies, for how long, and how soon its result
// is ready: the bridge from the IR to the architecture's units and latencies.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/units_config.hpp"
#include "kernel/ir.hpp"

namespace gpusim::core {

const char* unit_name(Unit u);

// cp.async's parts, as the SM tracks them per warp.
enum class AsyncRole : uint8_t { None, Copy, Commit, Wait, WaitAll };

struct InstructionTiming {
  Unit unit = Unit::Int32;
  Unit other_unit = Unit::Count;  // a second pipe that can take it (Count: none), whichever frees first
  uint16_t latency = 1;        // cycles until the result can be read (memory: decided at issue)
  uint32_t occupancy = kUnitTicks;  // unit time one warp instruction takes, in 1/kUnitTicks cycles
  uint16_t stall = 0;          // scheduling.static_stalls: cycles from its issue to the warp's next (core/static_stalls.hpp)
  uint16_t issue_slots = 1;    // scheduler cycles: >1 where SASS expands it (integer division), 0 where
                               // ptxas folds it into its user (core/ptxas_fusion.hpp)
  bool is_memory = false;      // latency comes from the memory model
  bool needs_mshr = false;     // a load or atomic that may go to global or local memory
  bool is_barrier = false;
  bool is_control = false;     // branches, exits: never dual-issued behind another instruction
  AsyncRole async = AsyncRole::None;
  uint8_t async_allowed = 0;   // Wait: committed groups that may still be in flight (wait_group N)
  uint16_t per_value = 0;      // match.sync: latency added per distinct value after the first
  bool rare = false;           // cp.async, match.sync or nanosleep: the SM's slower path after issue
  // ptxas's unrolled loops (core/hoist_queue.hpp): what a warp may issue ahead of earlier
  // instructions still waiting for memory.
  bool hoist_fence = false;    // barriers, atomics, fences, exits, calls, clock reads: everything before it issues first
  uint8_t unroll_trips = 1;    // a backward branch: trips ptxas unrolls its loop into one body (core/hoist_queue.hpp)
  bool closes_loop = false;    // a backward branch (to a label at or before it)
  bool is_store = false;       // st: a later load may pass it only where ptxas tells the two apart
  bool passes_stores = false;  // a load no store can change (ld.global.nc, constants, parameters)
  kernel::StateSpace space = kernel::StateSpace::Generic;  // ld/st: the space it names
  uint32_t root = 0;           // ld/st: its address's base (core/pointer_roots.hpp), 0: unknown
  std::array<uint32_t, 6> reads{};   // registers whose values it needs (kNoReg-terminated)
  uint32_t early_reg = kernel::kNoReg;  // a compare's predicate it reads as data (selp, a combining setp),
  uint16_t early_by = 0;                // which it may read this much before a guard or branch could
  std::array<uint32_t, 4> writes{};  // registers it writes (kNoReg-terminated)
  uint64_t reads_mask = 0;   // register_mask(reads): the scoreboard's quick test
  uint64_t writes_mask = 0;  // register_mask(writes)
};

// Which of `t`'s pipes takes it first, given when each frees up (ties: its own).
template <class Free>
Unit first_free_unit(const InstructionTiming& t, const Free& unit_free) {
  if (t.other_unit == Unit::Count) return t.unit;
  return unit_free[static_cast<size_t>(t.other_unit)] < unit_free[static_cast<size_t>(t.unit)] ? t.other_unit : t.unit;
}

// A 64-bit summary of a set of registers (bit reg % 64): disjoint summaries, disjoint sets.
template <size_t N>
constexpr uint64_t register_mask(const std::array<uint32_t, N>& regs) {
  uint64_t m = 0;
  for (uint32_t r : regs)
    if (r != kernel::kNoReg) m |= uint64_t{1} << (r % 64);
  return m;
}

// The architecture's part the classifier reads, by value.
struct ClassifierConfig {
  ExecutionUnits units;
  Latencies latencies;
  int warp_size = 32;
  int schedulers = 1;      // per SM: each has its share of the SM's lanes
  bool sass_like = false;  // fuse the pairs ptxas fuses (core/ptxas_fusion.hpp)
  InstructionClasses classes;
  int ptxas_unroll = 1;    // scheduling.ptxas_unroll
  bool static_stalls = false;  // scheduling.static_stalls
};

// Precomputed timing for every instruction of a program on one architecture.
std::vector<InstructionTiming> classify_program(const kernel::Program& program, const ClassifierConfig& config);

}  // namespace gpusim::core
