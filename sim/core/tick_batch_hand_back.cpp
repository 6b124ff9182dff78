// TickBatch's quantum where each SM runs its cycles of it at once (on one thread, or where
// blocks' rooms come back as they retire) rather than in slices: run_whole_quanta. Where a
// room comes back at once (no release time) while the dispatcher has blocks, each SM stops
// after a cycle that retires one (Sm::stop_at_retire), and the rooms go back in (cycle, SM)
// order, each SM running on before the next: on this thread (hand_back_in_order), or on
// every thread, each giving rooms back and running SMs on as it is free (hand_back_shared).
#include <algorithm>
#include <mutex>

#include "core/sm.hpp"
#include "core/thread_wait.hpp"
#include "core/tick_batch.hpp"

namespace gpusim::core {

void TickBatch::run_whole_quanta(engine::Cycle end, bool stops) {
  const size_t n = running_.size();
  if (workers_.empty() || n < kMinShared) {
    for (size_t i = 0; i < n; ++i) run_whole(i, end, 0);
    if (stops) hand_back_in_order(end);
  } else {  // each SM on any thread up to its first stop, as a cycle's SMs in run_shared
    whole_until_ = end;
    deal();
    share(0, start_round());
    wait_for_workers();
    hand_back_shared();
    whole_until_ = 0;
  }
  for (size_t i = 0; i < n; ++i) tickets_[i].next = running_[i]->finish_quantum();
  memory_.settle_until(ids_, end);
}

void TickBatch::run_whole(size_t i, engine::Cycle end, size_t thread) {
  running_[i]->begin_quantum(from_[i], 0);
  running_[i]->run_until(end, *executors_[thread]);
}

size_t TickBatch::first_stopped() const {
  const size_t n = running_.size();
  size_t first = n;
  for (size_t i = 0; i < n; ++i) {
    if (tickets_[i].resumed.load(std::memory_order_acquire)) continue;
    const engine::Cycle at = running_[i]->stopped_at();
    if (at != engine::kNever && (first == n || at < running_[first]->stopped_at())) first = i;
  }
  return first;
}

void TickBatch::hand_back_in_order(engine::Cycle end) {
  // Every SM has run up to the end or past its first stop; the earliest stop (lowest SM
  // first: running_ is in SM order) is the next room the dispatcher sees, as end_cycle's
  // would be. Its SM alone then runs on, up to the end or its next stop.
  planning_ = true;
  for (size_t i; (i = first_stopped()) != running_.size();) {
    // While the dispatcher has blocks, it fills every room as it comes back: this room is
    // the only one, and the blocks it gives out go to this SM, placed as it runs on.
    running_[i]->hand_back_retired();
    running_[i]->run_until(end, *executors_[0]);
  }
  planning_ = false;
  planned_.clear();  // (the SMs given blocks ran on already)
}

void TickBatch::hand_back_shared() {
  // As hand_back_in_order, but an SM given its room runs on on any thread, and whichever
  // thread is free gives the next room back (hand_back_next). A thread giving rooms back
  // alone, which also ran SMs on, left the others waiting while it ran one (session 72).
  const size_t n = running_.size();
  if (resume_queue_.size() < n) resume_queue_.resize(n);
  for (size_t i = 0; i < n; ++i) running_[i]->publish_progress(&tickets_[i].progress);
  queued_.store(0, std::memory_order_relaxed);
  resume_taken_.store(0, std::memory_order_relaxed);
  resume_over_.store(false, std::memory_order_relaxed);
  resuming_ = true;
  planning_ = true;  // (before the round starts: a worker may give the first room back)
  start_round();
  resume_queued(0);
  wait_for_workers();
  resuming_ = false;
  planning_ = false;
  planned_.clear();
  for (Sm* sm : running_) sm->publish_progress(nullptr);
}

bool TickBatch::hand_back_next() {
  // One thread at a time: the dispatcher and the queue's tail are its alone while it holds this.
  const std::unique_lock lock(hand_back_lock_, std::try_to_lock);
  if (!lock.owns_lock()) return false;
  // The next room goes back once no SM running on can still stop before its cycle: each has
  // run past it (its published progress), or stopped, and then it is a candidate itself.
  // Only the thread holding the hand-back resumes SMs, so none starts running on meanwhile,
  // and one that stopped since first_stopped looked is looked at below.
  const size_t n = running_.size();
  const size_t first = first_stopped();
  const engine::Cycle before = first == n ? engine::kNever : running_[first]->stopped_at();
  bool safe = true;
  for (size_t i = 0; i < n && safe; ++i) {
    if (tickets_[i].resumed.load(std::memory_order_acquire)) {
      safe = first != n && tickets_[i].progress.load(std::memory_order_relaxed) > before;
    } else if (i != first) {
      const engine::Cycle at = running_[i]->stopped_at();
      safe = at == engine::kNever || at > before || (at == before && i > first);
    }
  }
  if (!safe) return false;
  if (first == n) {
    resume_over_.store(true, std::memory_order_release);  // none stopped, none running on
    return false;
  }
  running_[first]->hand_back_retired();
  tickets_[first].progress.store(before + 1, std::memory_order_relaxed);
  tickets_[first].resumed.store(true, std::memory_order_release);
  const size_t k = queued_.load(std::memory_order_relaxed);
  resume_queue_[k % n] = first;  // at most n queued and not done: the slot's last is taken
  queued_.store(k + 1, std::memory_order_release);
  return true;
}

bool TickBatch::resume_one(size_t thread) {
  const size_t n = running_.size();
  size_t k = resume_taken_.load(std::memory_order_relaxed), i = 0;
  do {
    if (k >= queued_.load(std::memory_order_acquire)) return false;
    i = resume_queue_[k % n];  // read before taking it: once taken, its slot may be reused
  } while (!resume_taken_.compare_exchange_weak(k, k + 1, std::memory_order_acq_rel));
  running_[i]->run_until(whole_until_, *executors_[thread]);
  tickets_[i].resumed.store(false, std::memory_order_release);
  return true;
}

void TickBatch::resume_queued(size_t thread) {
  // Rooms first: each one given back is an SM some thread can run on.
  for (int spin = 0;;) {
    if (hand_back_next() || resume_one(thread)) {
      spin = 0;
      continue;
    }
    // Over only once no SM is running on or queued: nothing is left to take.
    if (resume_over_.load(std::memory_order_acquire)) return;
    thread_wait::backoff(spin);
  }
}

}  // namespace gpusim::core
