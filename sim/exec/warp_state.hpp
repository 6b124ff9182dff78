// Functional state of one warp (per-lane registers, SIMT reconvergence stack) and of
// one thread block (shared memory).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace gpusim::exec {

constexpr int kWarpSize = 32;

struct SimtEntry {
  int32_t pc = 0;
  int32_t reconverge_pc = -1;  // pop when pc reaches it; -1: never (the bottom entry)
  uint32_t mask = 0;
};

struct WarpState {
  uint32_t warp_in_block = 0;
  uint32_t valid_mask = 0;  // lanes that are threads of the block (the last warp may be partial)
  uint32_t exited = 0;
  std::vector<SimtEntry> stack;
  std::vector<uint32_t> narrow;   // [slot][lane]: registers of 32 bits or fewer
  std::vector<uint64_t> wide;     // [slot][lane]: 64-bit registers
  std::vector<uint32_t> defined;  // per register: lanes that have written it
  std::vector<uint8_t> local;     // [lane][local_bytes]
  // Barrier bookkeeping, owned by the block runner.
  bool waiting = false;
  uint32_t barrier_id = 0;

  bool done() const { return stack.empty(); }
  int32_t pc() const { return stack.back().pc; }
  uint32_t active_mask() const { return stack.back().mask & ~exited; }
};

struct BlockState {
  std::array<uint32_t, 3> index{};
  uint32_t linear_index = 0;
  std::vector<uint8_t> shared;
};

}  // namespace gpusim::exec
