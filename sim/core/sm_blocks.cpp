// The SM's blocks and barriers: a block's warps made resident, a barrier's arrivals and
// release, a warp's exit, and a retired block's slot given back to the dispatcher.
#include <algorithm>
#include <cmath>

#include "core/sm.hpp"

namespace gpusim::core {

void Sm::launch_block(uint64_t linear, engine::Cycle now, engine::Cycle eligible_at, engine::Cycle room_at) {
  if (batch_ && batch_->planning()) {
    if (planned_.empty()) batch_->planned(id_);
    planned_.push_back({linear, now, eligible_at, room_at});
    return;
  }
  place_block(linear, eligible_at, room_at);
  wake_at(now);
}

void Sm::place_block(uint64_t linear, engine::Cycle eligible_at, engine::Cycle room_at) {
  account(room_at);  // not to `now`, a cycle later: the SM's tick in cycle room_at charges that cycle
  uint32_t b = 0;
  while (blocks_[b].in_use) ++b;
  ResidentBlock& block = blocks_[b];
  block.barriers.reset();
  block.linear = linear;
  block.start = eligible_at;
  block.in_use = true;
  uint32_t slot = 0;
  const uint32_t count = static_cast<uint32_t>(warps_.size());
  const uint32_t per_block = executor().warps_per_block();
  for (uint32_t i = 0; i < per_block; ++i) {
    while (slot < count && !warps_[slot].done) ++slot;
    TimedWarp& w = warps_[slot];
    unready_warps_.push_back({slot, i});  // its state, and with warp 0 the block's: make_ready()
    LiveList& live = schedulers_[scheduler_of_[slot]].live;
    live_index_[slot] = static_cast<uint32_t>(live.size());
    live.push_back(slot);  // launch order is age order
    w.block_slot = b;
    w.slot = slot;
    w.age = next_age_++;
    gate(w).eligible_at = eligible_at;
    gate(w).eligible_wait = Stall::BlockLaunch;
    w.start = eligible_at;
    w.done = false;
    gate(w).at_barrier = false;
    gate(w).next_known = false;
    unpark(slot);
    w.scoreboard.clear();
    w.async = {};
    w.hoist.clear();
    w.hoist.value_used();
    w.next_set_aside = false;
    w.unrolled_trips = 0;
    w.next_waited_memory = false;
    w.issued_at = kNever;
  }
  block.live_warps = per_block;
  live_warps_ += per_block;
  wake_all();
  ++stats_.blocks;
}

void Sm::make_ready() {
  for (const UnreadyWarp& u : unready_warps_) {
    TimedWarp& w = warps_[u.slot];
    ResidentBlock& block = blocks_[w.block_slot];
    if (u.warp_in_block == 0) executor().reset_block(block.state, block.linear);  // a block's first warp comes first
    executor().reset_warp(w.state, block.state, u.warp_in_block);
  }
  unready_warps_.clear();
}

void Sm::release_barriers(uint32_t block_slot, uint32_t barriers, engine::Cycle at) {
  exec::BlockState& block = blocks_[block_slot].state;
  exec::Executor::complete_barriers(block, barriers);
  for (TimedWarp& other : warps_) {
    if (other.done || other.block_slot != block_slot || !gate(other).at_barrier || !(barriers >> other.barrier_id & 1u))
      continue;
    gate(other).at_barrier = false;
    unpark(other.slot);
    gate(other).eligible_at = std::max(gate(other).eligible_at, at);
    gate(other).eligible_wait = Stall::Barrier;
    executor().barrier_released(other.state, block);
  }
  wake_all();
}

void Sm::arrive_at_barrier(TimedWarp& w, const exec::StepResult& r, engine::Cycle now) {
  ResidentBlock& block = blocks_[w.block_slot];
  if (r.barrier_waits) {
    gate(w).at_barrier = true;
    w.barrier_id = r.barrier_id;
  }
  if (!block.barriers.arrive(r.barrier_id, r.barrier_threads, block.live_warps)) return;
  // The release takes the barrier latency, plus a share per warp of the block.
  const engine::Cycle release =
      now + 1 + static_cast<engine::Cycle>(config_.barrier_latency) +
      static_cast<engine::Cycle>(std::llround(config_.barrier_per_warp * executor().warps_per_block()));
  release_barriers(w.block_slot, 1u << r.barrier_id, release);
}

void Sm::retire_warp(TimedWarp& w, engine::Cycle now) {
  wake_all();
  w.done = true;
  Scheduler& s = schedulers_[scheduler_of_[w.slot]];
  const size_t j = live_index_[w.slot];
  s.live.erase_at(j);
  live_index_[w.slot] = kNotLive;
  for (size_t k = j; k < s.live.size(); ++k) live_index_[s.live[k]] = static_cast<uint32_t>(k);
  // The parked bits above j move down with their warps.
  const uint64_t below = j >= 64 ? ~uint64_t{0} : (uint64_t{1} << j) - 1;
  s.parked = (s.parked & below) | (s.parked >> 1 & ~below);
  // Keep the last issuer's position; if it is the one leaving, round robin resumes after
  // the warp before it.
  size_t& pos = s.last_pos;
  if (pos != std::string::npos && j <= pos) pos = (j == pos && j == 0) ? std::string::npos : pos - 1;
  --live_warps_;
  ResidentBlock& block = blocks_[w.block_slot];
  --block.live_warps;
  if (kernel_.trace_warps)
    warp_trace_.push_back({id_, w.slot, block.linear, w.state.warp_in_block, w.start, now + 1});
  if (block.live_warps == 0) {
    block.in_use = false;
    // The slot comes back late only while the dispatcher has blocks for it: the last
    // blocks' release does not lengthen the kernel.
    if (config_.block_release > 0 && dispatcher_.blocks_left_at(now)) {
      releasing_.push_back(now + static_cast<engine::Cycle>(config_.block_release));
      // (In a batch, the release is scheduled at the cycle's end.)
      if (!batch_) schedule_release();
    } else {
      ++retired_;  // its slot is free once the cycle's tick is over
    }
    block_trace_.push_back({id_, w.block_slot, block.linear, block.start, now + 1});
    stats_.busy_until = now + 1;
    return;
  }
  // Barriers waiting for every live warp may now be complete.
  if (const uint32_t done = block.barriers.warp_exited(block.live_warps)) release_barriers(w.block_slot, done, now + 1);
}

void Sm::release(engine::Cycle now) {
  release_pending_ = false;
  uint64_t released = 0;
  while (!releasing_.empty() && releasing_.front() <= now) {
    releasing_.pop_front();
    ++released;
  }
  schedule_release();
  dispatcher_.blocks_retired(id_, released, now);
}

void Sm::schedule_release() {
  if (releasing_.empty() || release_pending_) return;
  release_pending_ = true;
  if (batch_) batch_->release_at(id_, releasing_.front());
  else events_.schedule(release_event_, releasing_.front());
}

}  // namespace gpusim::core
