#include "exec/block_runner.hpp"

#include <array>
#include <bit>
#include <string>
#include <vector>

namespace gpusim::exec {
namespace {

constexpr int kBarriers = 16;
constexpr int kQuantum = 256;  // instructions a warp runs before the next gets a turn

struct Barrier {
  uint32_t arrived = 0;   // warps
  uint32_t expected = 0;  // warps, from the count operand; 0 = every live warp
};

std::string block_name(const BlockState& b) {
  std::string s = "(";
  s.append(std::to_string(b.index[0])).append(",").append(std::to_string(b.index[1]));
  return s.append(",").append(std::to_string(b.index[2])).append(")");
}

}  // namespace

FunctionalStats run_functional(const kernel::Program& program, DeviceMemory& memory, const LaunchConfig& launch,
                               uint64_t max_warp_instructions) {
  Executor ex(program, memory, launch);
  FunctionalStats stats;
  const uint32_t warps_per_block = launch.warps_per_block();
  for (uint64_t block = 0; block < launch.block_count(); ++block) {
    BlockState b = ex.make_block(block);
    std::vector<WarpState> warps;
    warps.reserve(warps_per_block);
    for (uint32_t i = 0; i < warps_per_block; ++i) warps.push_back(ex.make_warp(b, i));
    std::array<Barrier, kBarriers> barriers{};
    uint32_t live = warps_per_block;

    while (live > 0) {
      bool progress = false;
      for (WarpState& w : warps) {
        if (w.done() || w.waiting) continue;
        for (int n = 0; n < kQuantum; ++n) {
          ex.set_clock(stats.warp_instructions);
          const StepResult r = ex.step(w, b);
          if (r.instruction) {
            ++stats.warp_instructions;
            stats.thread_instructions += static_cast<uint64_t>(std::popcount(r.active_mask));
            progress = true;
          }
          if (r.status == StepStatus::Exited) {
            --live;
            break;
          }
          if (r.status == StepStatus::Barrier) {
            Barrier& bar = barriers[r.barrier_id];
            bar.expected = r.barrier_threads ? (r.barrier_threads + kWarpSize - 1) / kWarpSize : 0;
            ++bar.arrived;
            if (r.barrier_waits) {
              w.waiting = true;
              w.barrier_id = r.barrier_id;
              break;
            }
          }
        }
        if (stats.warp_instructions > max_warp_instructions)
          ex.fault(w, b, 0, "more than " + std::to_string(max_warp_instructions) +
                                " warp instructions in this launch: an endless loop? (raise the limit with "
                                "--max-instructions)");
      }
      for (uint32_t id = 0; id < kBarriers; ++id) {
        Barrier& bar = barriers[id];
        const uint32_t expected = bar.expected ? bar.expected : live;
        if (bar.arrived == 0 || bar.arrived < expected) continue;
        for (WarpState& w : warps)
          if (w.waiting && w.barrier_id == id) w.waiting = false;
        bar = {};
        progress = true;
      }
      if (!progress && live > 0) {
        std::string waiting;
        for (const WarpState& w : warps) {
          if (!w.waiting) continue;
          const Barrier& bar = barriers[w.barrier_id];
          if (!waiting.empty()) waiting.append(", ");
          waiting.append("warp ").append(std::to_string(w.warp_in_block));
          waiting.append(" at barrier ").append(std::to_string(w.barrier_id));
          waiting.append(" (").append(std::to_string(bar.arrived)).append(" of ");
          waiting.append(std::to_string(bar.expected ? bar.expected : live)).append(" warps arrived)");
        }
        for (const WarpState& w : warps)
          if (w.waiting) ex.fault(w, b, 0, "barrier deadlock in block " + block_name(b) + ": " + waiting);
      }
    }
  }
  return stats;
}

}  // namespace gpusim::exec
