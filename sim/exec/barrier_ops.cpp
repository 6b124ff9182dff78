// Block-wide barriers as instructions: bar.sync/bar.arrive, and bar.red (__syncthreads_count,
// __syncthreads_and, __syncthreads_or), whose result every thread gets when the barrier completes.
#include "exec/executor.hpp"

namespace gpusim::exec {

using kernel::BarMode;

void Executor::barrier_arrive(WarpState& w, BlockState& b, const Instruction& in, uint32_t mask, StepResult& r) {
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(mask));
  const bool reduces = in.mode >= static_cast<uint8_t>(BarMode::RedPopc);
  const int count_operand = reduces ? in.num_src - 1 : in.num_src;  // bar.red's last operand is its predicate
  r.status = StepStatus::Barrier;
  r.barrier_id = static_cast<uint32_t>(read(w, b, in.src[0], first));
  r.barrier_threads = count_operand > 1 ? static_cast<uint32_t>(read(w, b, in.src[1], first)) : 0;
  r.barrier_waits = in.mode != static_cast<uint8_t>(BarMode::Arrive);
  if (r.barrier_id >= 16) fault(w, b, first, "barrier id " + std::to_string(r.barrier_id) + " is over 15");
  if (!reduces) return;
  BarrierReduction& acc = b.reducing[r.barrier_id];
  for_each_lane(mask, [&](uint32_t lane) {
    const bool p = read(w, b, in.src[in.num_src - 1], lane) & 1u;
    acc.count += p;
    acc.all = acc.all && p;
    acc.any = acc.any || p;
  });
  w.barrier_id = r.barrier_id;
  w.reduction_reg = in.dst.reg;
  w.reduction_lanes = mask;
  w.reduction_mode = in.mode;
}

void Executor::complete_barriers(BlockState& b, uint32_t barriers) {
  for_each_lane(barriers, [&](uint32_t id) {
    b.reduced[id] = b.reducing[id];
    b.reducing[id] = {};
  });
}

void Executor::barrier_released(WarpState& w, const BlockState& b) const {
  if (w.reduction_reg == kernel::kNoReg) return;
  const BarrierReduction& red = b.reduced[w.barrier_id];
  uint64_t value = red.count;
  if (w.reduction_mode == static_cast<uint8_t>(BarMode::RedAnd)) value = red.all;
  if (w.reduction_mode == static_cast<uint8_t>(BarMode::RedOr)) value = red.any;
  for_each_lane(w.reduction_lanes, [&](uint32_t lane) { write(w, w.reduction_reg, lane, value); });
  w.reduction_reg = kernel::kNoReg;
}

}  // namespace gpusim::exec
