// What each SM's cycle leaves to the rest of the GPU (its fault, stores, instructions
// towards the budget, retired blocks, next tick), in a batch (end_cycle) or as an event of its
// own (on_tick), and what the launch asks of the SM at its end or when it stops (the runaway
// warp, the stuck warps, the last stall charges). The SM's cycle itself, and the issue path
// it runs, are in sm.cpp.
#include <bit>
#include <exception>
#include <string>
#include <utility>

#include "core/sm.hpp"
#include "exec/exec_error.hpp"

namespace gpusim::core {

inline void Sm::after_cycle(engine::Cycle now, uint64_t before, engine::Cycle next) {
  *kernel_.instructions += stats_.warp_instructions - before;
  if (kernel_.limits->over_budget(*kernel_.instructions)) report_over_budget();
  if ((++ticks_ & 0xFFF) == 0 && kernel_.limits->past_deadline()) report_runaway(kernel_.limits->timeout_message());
  if (retired_ > 0) {
    dispatcher_.blocks_retired(id_, static_cast<uint64_t>(retired_), now);
    retired_ = 0;
  }
  if (every_cycle_ && has_warps()) next = now + 1;
  if (next != kNever) wake_at(next);
}

void Sm::end_cycle(engine::Cycle now) {
  if (fault_) rethrow_fault();
  stores_.apply();
  // Retired blocks' slots come back late (block_release), at a release scheduled here.
  schedule_release();
  after_cycle(now, instructions_before_, next_tick_);
}

void Sm::on_tick() {
  const engine::Cycle now = events_.now();
  const uint64_t before = stats_.warp_instructions;
  const engine::Cycle next = tick(now);
  memory_.settle(id_);  // what this cycle's requests leave to the L2 and DRAM, in the order sent
  after_cycle(now, before, next);
}

std::optional<engine::Cycle> Sm::end_cycle_alone() {
  if (fault_ || !stores_.empty() || retired_ > 0 || every_cycle_) return std::nullopt;
  if (!releasing_.empty() && !release_pending_) return std::nullopt;
  if (((ticks_ + 1) & 0xFFF) == 0) return std::nullopt;  // the deadline's check, in SM order
  ++ticks_;
  return next_tick_;
}

void Sm::report_over_budget() const { report_runaway(kernel_.limits->budget_message()); }

void Sm::report_runaway(const std::string& what) const {
  // The warp that issued last on a scheduler that has warps: where the loop is spinning.
  for (const Scheduler& s : schedulers_) {
    const TimedWarp& w = warps_[s.last_issued];
    if (s.live.empty() || w.done) continue;
    const uint32_t active = w.state.active_mask();
    executor().fault(w.state, blocks_[w.block_slot].state, active ? std::countr_zero(active) : 0, what);
  }
  throw exec::ExecError("kernel " + kernel_.program.name + ": " + what);
}

void Sm::finish(engine::Cycle end) {
  if (live_warps_ == 0)
    for (Scheduler& s : schedulers_) s.reason = Stall::Idle;
  account(end);
}

std::string Sm::describe_stuck() const {
  std::string out;
  int listed = 0, more = 0;
  for (const TimedWarp& w : warps_) {
    if (w.done) continue;
    if (listed == 4) {  // enough to see the pattern
      ++more;
      continue;
    }
    ++listed;
    if (!out.empty()) out.append(", ");
    out.append("SM ").append(std::to_string(id_)).append(" block ").append(std::to_string(blocks_[w.block_slot].linear));
    out.append(" warp ").append(std::to_string(w.state.warp_in_block));
    if (gate(w).at_barrier) out.append(" at barrier ").append(std::to_string(w.barrier_id));
    else out.append(" waiting for a memory response");
  }
  if (more) out.append(" and ").append(std::to_string(more)).append(" more warps of SM ").append(std::to_string(id_));
  return out;
}

}  // namespace gpusim::core
