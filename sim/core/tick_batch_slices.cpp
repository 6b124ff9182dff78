// TickBatch's quantum on several threads, in slices (run_trailing): each thread runs its
// list's SMs a slice at a time and takes what the others' lists have left of it; the batch's
// thread settles each slice once every SM has run it, while they run the next; the first
// worker applies the stores while the last slice is settled.
#include <algorithm>

#include "core/sm.hpp"
#include "core/thread_wait.hpp"
#include "core/tick_batch.hpp"

namespace gpusim::core {

using thread_wait::ticks;

void TickBatch::run_slice(size_t i, uint32_t slice, size_t thread) {
  Sm& sm = *running_[i];
  if (slice == 0) sm.begin_quantum(from_[i], slices());
  sm.run_until(slice_end(slice), *executors_[thread]);
  memory_.hand_off(sm.id(), slice);
  if (slice + 1 == slices()) tickets_[i].next = sm.finish_quantum();
}

void TickBatch::run_taken(size_t i, uint32_t slice, size_t thread) {
  // Its previous slice may still be running on the thread that took it: a moment at most,
  // unless that thread waits for a CPU (more threads than CPUs), so not a spin alone.
  for (int spin = 0; tickets_[i].slices.load(std::memory_order_acquire) < slice;) thread_wait::backoff(spin);
  run_slice(i, slice, thread);
  tickets_[i].slices.store(slice + 1, std::memory_order_release);
  slices_done_[slice].fetch_add(1, std::memory_order_acq_rel);
}

bool TickBatch::take_slice(size_t part, uint32_t slice, size_t thread) {
  Part& p = parts_[part];
  std::atomic<uint32_t>& taken = p.taken_in[slice];
  const auto count = static_cast<uint32_t>(p.positions.size());
  bool ran = false;
  if (part == thread) {
    for (uint32_t rank; (rank = taken.fetch_add(1, std::memory_order_relaxed)) < count; ran = true)
      run_taken(p.positions[rank], slice, thread);
    return ran;
  }
  // The owner runs its last itself (as in run_part: an SM's state moved to another core costs
  // both cores its cache misses), and one whose previous slice it has not run yet waits for it.
  for (uint32_t rank = taken.load(std::memory_order_relaxed); rank + 1 < count;) {
    const size_t i = p.positions[rank];
    if (tickets_[i].slices.load(std::memory_order_acquire) < slice) break;
    if (!taken.compare_exchange_weak(rank, rank + 1, std::memory_order_relaxed)) continue;  // (rank reloaded)
    run_taken(i, slice, thread);
    ran = true;
    rank = taken.load(std::memory_order_relaxed);
  }
  return ran;
}

bool TickBatch::take_others(uint32_t slice, size_t thread) {
  const size_t threads = executors_.size();
  bool ran = false;
  for (size_t k = 1; k < threads; ++k) ran |= take_slice((thread + k) % threads, slice, thread);
  return ran;
}

void TickBatch::trail(size_t thread) {
  for (uint32_t slice = 0; slice < slices(); ++slice) {
    take_slice(thread, slice, thread);
    take_others(slice, thread);
  }
}

void TickBatch::cut_slices(engine::Cycle end) {
  slice_ends_.clear();
  const engine::Cycle last = std::min(kLastSliceCycles, end - now_), before = end - now_ - last;
  const engine::Cycle count = (before + kSliceCycles - 1) / kSliceCycles;  // as even as can be
  for (engine::Cycle k = 1; k <= count; ++k) slice_ends_.push_back(now_ + (before * k + count - 1) / count);
  slice_ends_.push_back(end);
}

void TickBatch::clear_slice_counts() {
  const uint32_t slices = this->slices();
  if (slices_done_.size() < slices) slices_done_ = std::vector<std::atomic<uint32_t>>(slices);
  for (uint32_t slice = 0; slice < slices; ++slice) slices_done_[slice].store(0, std::memory_order_relaxed);
  for (Part& part : parts_) {
    if (part.taken_in.size() < slices) part.taken_in = std::vector<std::atomic<uint32_t>>(slices);
    for (uint32_t slice = 0; slice < slices; ++slice) part.taken_in[slice].store(0, std::memory_order_relaxed);
  }
  for (size_t i = 0; i < running_.size(); ++i) tickets_[i].slices.store(0, std::memory_order_relaxed);
}

void TickBatch::run_trailing(engine::Cycle end) {
  trailing_ = true;
  cut_slices(end);
  const uint32_t slices = this->slices();
  deal();  // this thread's list shorter than the workers', as it also settles
  clear_slice_counts();  // before the round, whose start publishes them
  start_round();
  const uint64_t start = ticks();
  uint64_t waited = 0;
  uint32_t settled = 0;  // slices settled
  const auto settle = [&](uint32_t slice) { memory_.settle_handed(ids_, slice, slice_start(slice), slice_end(slice)); };
  for (uint32_t slice = 0; slice < slices; ++slice) {
    take_slice(0, slice, 0);
    while (settled <= slice && slice_done(settled)) settle(settled++);
  }
  uint64_t busy = 0;  // its SMs and the settle but for the last slice's, which waits for every SM
  for (; settled < slices; ++settled) {
    // Until every SM has run the slice: the workers' SMs that are left, else a wait.
    for (int spin = 0; !slice_done(settled);) {
      if (take_others(settled, 0)) continue;
      const uint64_t from = ticks();
      thread_wait::backoff(spin);
      waited += ticks() - from;
    }
    if (settled + 1 == slices) busy = ticks() - start - waited;
    settle(settled);
  }
  if (busy == 0) busy = ticks() - start - waited;
  wait_for_workers();
  trailing_ = false;
  balance(busy);
}

void TickBatch::apply_stores_once_done() {
  for (int spin = 0; !slice_done(slices() - 1);) thread_wait::backoff(spin);
  if (first_fault() != running_.size()) return;  // end_quantum throws it
  apply_stores();
  stores_applied_ = true;
}

}  // namespace gpusim::core
