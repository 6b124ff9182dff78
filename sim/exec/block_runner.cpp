#include "exec/block_runner.hpp"

#include <array>
#include <bit>
#include <string>
#include <vector>

#include "exec/barrier.hpp"
#include "util/bits.hpp"

namespace gpusim::exec {
namespace {

constexpr int kQuantum = 256;  // instructions a warp runs before the next gets a turn

std::string block_name(const BlockState& b) {
  std::string s = "(";
  s.append(std::to_string(b.index[0])).append(",").append(std::to_string(b.index[1]));
  return s.append(",").append(std::to_string(b.index[2])).append(")");
}

void release(const Executor& ex, BlockState& b, std::vector<WarpState>& warps, uint32_t barriers) {
  Executor::complete_barriers(b, barriers);
  for (WarpState& w : warps)
    if (w.waiting && (barriers >> w.barrier_id & 1u)) {
      w.waiting = false;
      ex.barrier_released(w, b);
    }
}

}  // namespace

void run_block(Executor& ex, std::vector<WarpState>& warps, uint64_t block, const RunLimits& limits,
               FunctionalStats& stats) {
  BlockState b = ex.make_block(block);
  const auto warps_per_block = static_cast<uint32_t>(warps.size());
  for (uint32_t i = 0; i < warps_per_block; ++i) ex.reset_warp(warps[i], b, i);
  BarrierTable barriers;
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
          stats.thread_instructions += static_cast<uint64_t>(util::lane_count(r.active_mask));
          stats.predicated_on_threads += static_cast<uint64_t>(util::lane_count(r.executed_mask));
          progress = true;
        }
        if (r.status == StepStatus::Exited) {
          release(ex, b, warps, barriers.warp_exited(--live));
          break;
        }
        if (r.status == StepStatus::Barrier) {
          if (r.barrier_waits) {
            w.waiting = true;
            w.barrier_id = r.barrier_id;
          }
          if (barriers.arrive(r.barrier_id, r.barrier_threads, live)) {
            release(ex, b, warps, 1u << r.barrier_id);
            progress = true;
          }
          if (w.waiting) break;
        }
      }
      if (limits.over_budget(stats.warp_instructions)) ex.fault(w, b, 0, limits.budget_message());
      if (limits.past_deadline()) ex.fault(w, b, 0, limits.timeout_message());
    }
    if (!progress && live > 0) {
      std::string waiting;
      for (const WarpState& w : warps) {
        if (!w.waiting) continue;
        if (!waiting.empty()) waiting.append(", ");
        waiting.append("warp ").append(std::to_string(w.warp_in_block));
        waiting.append(" at barrier ").append(std::to_string(w.barrier_id));
        waiting.append(" (").append(std::to_string(barriers.arrived(w.barrier_id))).append(" of ");
        waiting.append(std::to_string(barriers.expected(w.barrier_id, live))).append(" warps arrived)");
      }
      for (const WarpState& w : warps)
        if (w.waiting) ex.fault(w, b, 0, "barrier deadlock in block " + block_name(b) + ": " + waiting);
    }
  }
}

FunctionalStats run_functional(const kernel::Program& program, DeviceMemory& memory, const LaunchConfig& launch,
                               const RunLimits& limits, uint64_t first_block, int threads) {
  if (threads > 1 && side_by_side_refused(program, launch).empty() && launch.block_count() > first_block + 1)
    return run_blocks_side_by_side(program, memory, launch, limits, first_block, threads);
  Executor ex(program, memory, launch);
  FunctionalStats stats;
  std::vector<WarpState> warps(launch.warps_per_block());  // reused block after block: registers are not cleared
  for (uint64_t block = first_block; block < launch.block_count(); ++block) run_block(ex, warps, block, limits, stats);
  return stats;
}

}  // namespace gpusim::exec
