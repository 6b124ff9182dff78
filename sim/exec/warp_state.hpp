// Functional state of one warp (per-lane registers, SIMT reconvergence stack) and of
// one thread block (shared memory).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

// GCC 12 reports a false overflow in small_vector's element moves (it cannot see the size checks).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
#include <boost/container/small_vector.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace gpusim::exec {

constexpr int kWarpSize = 32;

// reconverge_pc of the entry a call pushes: it never reconverges by PC; lanes leave it by
// returning, and it pops when none is left.
constexpr int32_t kCallEntry = -2;

struct SimtEntry {
  int32_t pc = 0;
  int32_t reconverge_pc = -1;  // pop when pc reaches it; -1: never (the bottom entry); kCallEntry
  uint32_t mask = 0;
};

// One lane's activation of a device function.
struct CallRecord {
  uint32_t caller_fp = 0;
  uint32_t site = 0;        // Program::call_sites index
  uint32_t saved_from = 0;  // where its saved registers start in the lane's `saved`
};

// Per-lane call stacks, allocated only by kernels that call device functions.
struct CallState {
  std::array<uint32_t, 32> fp{};  // frame pointer: offset of the current frame in the lane's local memory
  std::array<std::vector<CallRecord>, 32> calls;
  std::array<std::vector<uint64_t>, 32> saved;  // registers of recursive functions, saved around calls
};

// bar.red's reduction of one barrier's predicate over the block.
struct BarrierReduction {
  uint32_t count = 0;  // threads whose predicate held
  bool all = true;
  bool any = false;
};

struct WarpState {
  uint32_t warp_in_block = 0;
  uint32_t valid_mask = 0;  // lanes that are threads of the block (the last warp may be partial)
  uint32_t exited = 0;
  uint32_t carry_flag = 0;  // per lane: the condition code's carry (add.cc, addc, ...)
  // Inline for the usual few entries: the warp's issue reads its top every instruction, and a
  // heap block of its own was a host cache miss each time.
  boost::container::small_vector<SimtEntry, 4> stack;
  std::vector<uint32_t> narrow;   // [slot][lane]: registers of 32 bits or fewer
  std::vector<uint64_t> wide;     // [slot][lane]: 64-bit registers
  std::vector<uint32_t> defined;  // per register: lanes that have written it
  std::vector<uint8_t> local;     // [lane][local_bytes]
  std::unique_ptr<CallState> calls;  // null until the warp's first call
  // Barrier bookkeeping, owned by the block runner.
  bool waiting = false;
  uint32_t barrier_id = 0;
  // A bar.red waiting for its barrier: the result goes to these lanes of this register on release.
  uint32_t reduction_reg = 0xFFFFFFFFu;
  uint32_t reduction_lanes = 0;
  uint8_t reduction_mode = 0;

  bool done() const { return stack.empty(); }
  uint32_t fp(uint32_t lane) const { return calls ? calls->fp[lane] : 0; }
  int32_t pc() const { return stack.back().pc; }
  uint32_t active_mask() const { return stack.back().mask & ~exited; }
};

struct BlockState {
  std::array<uint32_t, 3> index{};
  uint32_t linear_index = 0;
  std::vector<uint8_t> shared;
  std::array<BarrierReduction, 16> reducing{};  // per barrier id: the arrivals so far
  std::array<BarrierReduction, 16> reduced{};   // per barrier id: the result of its last completion
};

}  // namespace gpusim::exec
