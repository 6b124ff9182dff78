// The SM's side of ptxas's loop unrolling (core/hoist_queue.hpp): setting aside what waits
// for memory, and issuing what was set aside. Which instruction a warp issues next
// (Sm::choose_next) is in sm.cpp, compiled into readiness(), its only caller.
#include <algorithm>
#include <bit>

#include "core/sm.hpp"

namespace gpusim::core {

void Sm::set_aside(TimedWarp& w, const InstructionTiming& t) {
  ResidentBlock& block = blocks_[w.block_slot];
  DeferredOp& op = w.hoist.push();
  op.timing = &t;
  op.ticket = w.hoist.next_ticket();
  w.scoreboard.dependencies(t, op.known, {op.waits.data(), DeferredOp::kMaxWaits});
  op.step = executor().step(w.state, block.state);
  // The executor reuses its buffer: keep this instruction's addresses (op.step.addresses
  // then only says there are some: the queue may move them before `op` issues).
  if (op.step.addresses) w.hoist.keep_addresses(op, op.step.addresses);
  w.scoreboard.defer(t, op.ticket);
}

void Sm::issue_set_aside(TimedWarp& w, Scheduler& s, engine::Cycle now) {
  const DeferredOp& op = w.hoist.front();
  const InstructionTiming& t = *op.timing;
  last_free_ = t.issue_slots == 0;
  exec::StepResult step = op.step;
  if (step.addresses) step.addresses = w.hoist.addresses(op, run_addresses_.data());
  const auto [ready, ticket, busy] = begin(w, t, step, now);
  occupy(s, t, busy, now);
  w.scoreboard.resolve(op.ticket, ready, ticket);
  w.hoist.resolve(op.ticket, ready, ticket);
  w.hoist.pop();
  pay_stall_count(w, t, now);
  w.hoist.value_used();
  w.next_waited_memory = false;
  gate(w).next_known = false;
  unpark(s, w.slot);
}

}  // namespace gpusim::core
