#include "core/tick_batch.hpp"

#include <algorithm>
#include <bit>

#include "core/sm.hpp"
#include "core/thread_wait.hpp"

namespace gpusim::core {

using thread_wait::ticks;

std::string TickBatch::in_order_because(const kernel::Program& program, const exec::LaunchConfig& launch, bool profile,
                                        const memory::MemorySystem& memory) {
  if (kernel::has_atomics(program)) return "it has atomics";
  if (kernel::calls_printf(program)) return "it calls printf";
  if (profile) return "--source counts each instruction's L2 accesses";
  if (launch.out_of_bounds) return "--out-of-bounds continue logs accesses in the order run";
  if (!memory.sends_locally()) return "the memory system's SM side waits on its shared part";
  return "";
}

TickBatch::TickBatch(engine::EventQueue& events, const std::vector<std::unique_ptr<Sm>>& sms,
                     std::vector<exec::Executor*> executors, uint64_t& instructions, const exec::RunLimits& limits,
                     memory::MemorySystem& memory)
    : events_(events),
      event_(this, engine::priority::kSmTick + static_cast<int32_t>(sms.size())),  // after every SM's tick event
      calendar_(sms.size(), events.now()),
      executors_(std::move(executors)),
      instructions_(instructions),
      limits_(limits),
      memory_(memory) {
  for (const auto& sm : sms) {
    sms_.push_back(sm.get());
    sm->set_batch(this);
  }
  for (size_t t = 1; t < executors_.size(); ++t) workers_.emplace_back([this, t] { serve(t); });
}

TickBatch::~TickBatch() {
  for (Sm* sm : sms_) sm->set_batch(nullptr);  // (they may outlive it, their last requests unsettled)
  stop_.store(true, std::memory_order_release);
  round_.fetch_add(1, std::memory_order_acq_rel);  // wakes the workers, to see stop_
  round_.notify_all();
  for (std::thread& w : workers_) w.join();
}

void TickBatch::run_part(size_t part, size_t thread, uint64_t round) {
  Part& p = parts_[part];
  const size_t count = p.positions.size();
  if (part == thread && workers_.size() == 1) {
    // No other worker takes from this list: no locked add per SM, which waits for the
    // SM's cycle's stores to drain (7% of a two-thread run's samples on an AMD host).
    for (size_t rank = 0; rank < count; ++rank) run_one(p.positions[rank], thread, round);
    return;
  }
  // Another thread takes one only while two or more are left, so that the owner, busy with
  // one, runs the last itself: an SM's state moved to another core costs that core a cycle's
  // worth of cache misses, and the owner as many when it comes back.
  const size_t keep = part == thread ? 0 : 1;
  for (size_t rank; p.taken.load(std::memory_order_relaxed) + keep < count &&
                    (rank = p.taken.fetch_add(1, std::memory_order_relaxed)) < count;)
    run_one(p.positions[rank], thread, round);
}

void TickBatch::run_one(size_t i, size_t thread, uint64_t round) {
  if (whole_until_ != 0) {
    run_whole(i, whole_until_, thread);
  } else {
    running_[i]->run_cycle(now_, *executors_[thread]);
    end_alone(i, thread);
  }
  tickets_[i].done.store(round, std::memory_order_release);
}

void TickBatch::run_whole(size_t i, engine::Cycle end, size_t thread) {
  running_[i]->begin_quantum(from_[i], 0);
  running_[i]->run_until(end, *executors_[thread]);
}

void TickBatch::share(size_t thread, uint64_t round) {
  run_part(thread, thread, round);
  const size_t lists = workers_.size();
  for (size_t k = 1; k < lists; ++k) run_part(1 + (thread - 1 + k) % lists, thread, round);
}

void TickBatch::end_alone(size_t i, size_t thread) {
  Sm& sm = *running_[i];
  const std::optional<engine::Cycle> next = sm.end_cycle_alone();
  Ticket& ticket = tickets_[i];
  ticket.alone = next.has_value();
  if (!next) return;
  Part& p = parts_[thread];
  p.instructions += sm.cycle_instructions();
  // On the ticket's line: next_ by SM index would be written by every thread at once.
  ticket.next = *next;
  p.wake = std::min(p.wake, *next);
}

void TickBatch::settle(size_t i) {
  if (tickets_[i].alone) running_[i]->settle_memory_ended_alone();
  else running_[i]->settle_memory();
}

void TickBatch::end_shared() {
  uint64_t alone = 0, rest = 0;  // the batch's instructions: of the SMs that ended alone, of the others
  engine::Cycle wake = engine::kNever;
  for (size_t t = 0; t < executors_.size(); ++t) {
    alone += parts_[t].instructions;
    wake = std::min(wake, parts_[t].wake);
  }
  if (wake != engine::kNever) events_.schedule_by(event_, wake);
  for (size_t i = 0; i < running_.size(); ++i)
    if (!tickets_[i].alone) rest += running_[i]->cycle_instructions();
  if (!limits_.over_budget(instructions_ + alone + rest)) {  // nothing crosses it in this batch
    instructions_ += alone;  // end_cycle counts the rest
    for (size_t i = 0; i < running_.size(); ++i)
      if (!tickets_[i].alone) running_[i]->end_cycle(now_);
    return;
  }
  // The budget runs out in this batch: the SM where it does, in SM order, as end_cycle finds it.
  for (size_t i = 0; i < running_.size(); ++i) {
    if (!tickets_[i].alone) {
      running_[i]->end_cycle(now_);
      continue;
    }
    instructions_ += running_[i]->cycle_instructions();
    if (limits_.over_budget(instructions_)) running_[i]->report_over_budget();
  }
}

void TickBatch::wait_for_workers() {
  thread_wait::wait_for(finished_, [&] { return finished_.load(std::memory_order_acquire) == workers_.size(); });
}

void TickBatch::serve(size_t thread) {
  uint64_t seen = 0;
  for (;;) {
    thread_wait::wait_for(round_, [&] { return round_.load(std::memory_order_acquire) != seen; });
    if (stop_.load(std::memory_order_acquire)) return;
    seen = round_.load(std::memory_order_acquire);
    const uint64_t start = ticks();
    const bool trailing = trailing_;
    if (trailing) trail(thread);
    else if (resuming_) resume_queued(thread);
    else share(thread, seen);
    parts_[thread].busy = ticks() - start;  // its SMs' (balance: the stores are not theirs)
    if (trailing && thread == 1) apply_stores_once_done();
    finished_.fetch_add(1, std::memory_order_acq_rel);
    finished_.notify_all();
  }
}

void TickBatch::run() {
  now_ = events_.now();
  last_cycle_ = std::max(last_cycle_, now_);
  if (quantum_ > 1) {
    const engine::Cycle end = quantum_end();
    if (end > now_ + 1) return run_quantum(end);
  }
  do_releases(now_ + 1);
  if (!releases_.empty()) events_.schedule_by(event_, releases_.front().at);
  running_.clear();
  calendar_.take_due(now_, [this](size_t sm) { running_.push_back(sms_[sm]); });  // in SM order
  const engine::Cycle later = calendar_.earliest();  // the next tick of the SMs not due now
  if (later != engine::kNever) events_.schedule_by(event_, later);  // (the due SMs' next ticks move it)
  const size_t n = running_.size();
  if (workers_.empty() || n < kMinShared) {
    for (Sm* sm : running_) sm->run_cycle(now_, *executors_[0]);
    for (Sm* sm : running_) sm->settle_memory();
    for (Sm* sm : running_) sm->end_cycle(now_);
  } else {
    run_shared();
    end_shared();
  }
}

size_t TickBatch::part_of(size_t sm, size_t own_end) const {
  return sm < own_end ? 0 : 1 + sm % workers_.size();
}

void TickBatch::deal() {
  const size_t n = running_.size(), threads = executors_.size();
  // Each list holds the due SMs of fixed SM indices; only this thread's range moves, and
  // slowly (a worker's SMs above it do not change with it).
  const size_t sm_count = sms_.size();
  const double even = static_cast<double>(sm_count) / static_cast<double>(threads);
  const auto own_end = std::clamp<size_t>(static_cast<size_t>(own_share_ * even + 0.5), 1, sm_count);
  if (parts_.size() < threads) parts_ = std::vector<Part>(threads);
  for (Part& part : parts_) {
    part.positions.clear();
    part.taken.store(0, std::memory_order_relaxed);
    part.instructions = 0;
    part.wake = engine::kNever;
  }
  for (size_t i = 0; i < n; ++i) parts_[part_of(running_[i]->id(), own_end)].positions.push_back(i);
}

void TickBatch::balance(uint64_t busy) {
  uint64_t workers_busy = 0;
  for (size_t t = 1; t < executors_.size(); ++t) workers_busy = std::max(workers_busy, parts_[t].busy);
  constexpr double kStep = 0.01;
  const auto threads = static_cast<double>(executors_.size());
  if (busy < workers_busy) own_share_ = std::min(threads, own_share_ + kStep);
  else own_share_ = std::max(0.05, own_share_ - kStep);
}

void TickBatch::run_shared() {
  const size_t n = running_.size();
  deal();
  if (tickets_.size() < n) tickets_ = std::vector<Ticket>(sms_.size());
  const size_t own = parts_[0].positions.size();  // running_[0, own): SM indices below own_end
  finished_.store(0, std::memory_order_relaxed);
  const uint64_t round = round_.fetch_add(1, std::memory_order_acq_rel) + 1;
  round_.notify_all();
  const uint64_t start = ticks();
  for (size_t i = 0; i < own; ++i) run_one(i, 0, round);
  // Then every SM in order, each as soon as it has run (this thread's own at once).
  uint64_t waited = 0;  // for the workers' SMs
  for (size_t i = 0; i < n; ++i) {
    Ticket& ticket = tickets_[i];
    if (i >= own && ticket.done.load(std::memory_order_acquire) != round) {
      const uint64_t from = ticks();
      // A short spin, then the core to others (the worker, when threads outnumber cores).
      for (int spin = 0; ticket.done.load(std::memory_order_acquire) != round;) thread_wait::backoff(spin);
      waited += ticks() - from;
    }
    // Its next tick before its settle's wakes and any end_cycle (whose retired blocks may
    // launch others and wake their SMs), as if its own thread had woken it.
    if (ticket.alone) {
      calendar_.lower(running_[i]->id(), ticket.next);
    }
    settle(i);
  }
  const uint64_t busy = ticks() - start - waited;  // its SMs and the settle
  wait_for_workers();
  // Balanced when this thread's SMs and the settle take as long as the busiest worker's
  // SMs: then neither waits for the other but for the chain's last links. Measured, not
  // counted: an SM costs a worker more than this thread where their caches differ.
  if (own == n) return;  // no worker had an SM due: nothing learnt
  balance(busy);
}

engine::Cycle TickBatch::quantum_end() {
  const engine::Cycle end = std::min(now_ + quantum_, events_.next_cycle());
  if (end <= now_ + 1) return end;
  // Whether the budget can run out within it, counting every SM issuing all it can: then
  // cycle by cycle, where end_shared finds the SM whose cycle crosses it.
  uint64_t most = 0;
  for (const Sm* sm : sms_) most += sm->max_cycle_instructions();
  if (limits_.over_budget(instructions_ + most * (end - now_))) return now_ + 1;
  return end;
}

void TickBatch::do_first_release() {
  const Release r = releases_.front();
  std::pop_heap(releases_.begin(), releases_.end(), later_release);
  releases_.pop_back();
  last_cycle_ = std::max(last_cycle_, r.at);  // (a release's event was the launch's last in its cycle)
  sms_[r.sm]->release(r.at);
}

void TickBatch::do_releases(engine::Cycle until) {
  while (!releases_.empty() && releases_.front().at < until) do_first_release();
}

engine::Cycle TickBatch::do_releases_unread(engine::Cycle end) {
  while (!releases_.empty() && releases_.front().at < end) {
    const Release& r = releases_.front();
    // One read at the quantum's first cycle sees the SMs as they are now.
    if (reader_ && r.at > now_ && sms_[r.sm]->releasable_by(r.at) >= reader_->releases_before_read()) return r.at;
    do_first_release();
  }
  return end;
}

void TickBatch::run_quantum(engine::Cycle end) {
  // The quantum's releases first: what the dispatcher gives out then depends on nothing the
  // SMs do within it (their blocks' rooms come back later), and each SM places its blocks.
  planning_ = true;
  end = do_releases_unread(end);
  planning_ = false;
  // The SMs with a tick before `end` or a block to place, each with its first tick, in SM order.
  firsts_.clear();
  for (engine::Cycle at = now_; at < end; ++at)
    calendar_.take_due(at, [&](size_t sm) { firsts_.push_back({static_cast<uint32_t>(sm), at}); });
  // An SM given a block but due later ticks from the block's placing: its later tick goes,
  // as a wake for the block would have replaced it.
  for (uint32_t sm : planned_) firsts_.push_back({sm, calendar_.take(sm)});
  planned_.clear();
  std::sort(firsts_.begin(), firsts_.end(),
            [](const First& a, const First& b) { return a.sm < b.sm || (a.sm == b.sm && a.at < b.at); });
  running_.clear();
  from_.clear();
  ids_.clear();
  for (const First& f : firsts_) {
    if (!ids_.empty() && ids_.back() == f.sm) continue;  // due and given a block: from its tick
    ids_.push_back(f.sm);
    running_.push_back(sms_[f.sm]);
    from_.push_back(f.at);
  }
  const size_t n = running_.size();
  if (tickets_.size() < n) tickets_ = std::vector<Ticket>(sms_.size());
  // Rooms that come back as their blocks retire, while the dispatcher has blocks for them:
  // each SM runs up to its first retiring cycle, then the rooms go back in (cycle, SM)
  // order. The slices' settle, which would pass those cycles, waits for the quantum's end.
  const bool stops = n > 0 && running_.front()->retire_stops(now_);
  for (Sm* sm : running_) sm->stop_at_retire(stops);
  const bool shared = !workers_.empty() && n >= kMinShared;
  if (shared && !stops) {
    run_trailing(end);
  } else {
    if (!shared) {
      for (size_t i = 0; i < n; ++i) run_whole(i, end, 0);
      if (stops) hand_back_in_order(end);
    } else {  // each SM on any thread up to its first stop, as a cycle's SMs in run_shared
      whole_until_ = end;
      deal();
      finished_.store(0, std::memory_order_relaxed);
      const uint64_t round = round_.fetch_add(1, std::memory_order_acq_rel) + 1;
      round_.notify_all();
      share(0, round);
      wait_for_workers();
      hand_back_shared();
      whole_until_ = 0;
    }
    for (size_t i = 0; i < n; ++i) tickets_[i].next = running_[i]->finish_quantum();
    memory_.settle_until(ids_, end);
  }
  end_quantum();
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
  // As hand_back_in_order, but an SM given its room runs on on any thread, and the next
  // room goes back once no SM running on can still stop before its cycle: each has run past
  // it (its published progress), or stopped, and then it is a candidate itself.
  const size_t n = running_.size();
  if (resume_queue_.size() < n) resume_queue_.resize(n);
  for (size_t i = 0; i < n; ++i) running_[i]->publish_progress(&tickets_[i].progress);
  queued_.store(0, std::memory_order_relaxed);
  resume_taken_.store(0, std::memory_order_relaxed);
  resume_over_.store(false, std::memory_order_relaxed);
  resuming_ = true;
  finished_.store(0, std::memory_order_relaxed);
  round_.fetch_add(1, std::memory_order_acq_rel);
  round_.notify_all();
  planning_ = true;
  for (int spin = 0;;) {
    // Safe: no SM runs on that could stop before the first, and none stopped since
    // first_stopped looked at it that comes before (then it is looked for again).
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
    if (safe && first == n) break;  // none stopped, none running on
    if (!safe) {
      if (!resume_one(0)) thread_wait::backoff(spin);
      continue;
    }
    spin = 0;
    Sm& sm = *running_[first];
    const engine::Cycle at = sm.stopped_at();
    sm.hand_back_retired();
    tickets_[first].progress.store(at + 1, std::memory_order_relaxed);
    tickets_[first].resumed.store(true, std::memory_order_release);
    const size_t k = queued_.load(std::memory_order_relaxed);
    resume_queue_[k % n] = first;  // at most n queued and not done: the slot's last is taken
    queued_.store(k + 1, std::memory_order_release);
  }
  resume_over_.store(true, std::memory_order_release);
  wait_for_workers();
  resuming_ = false;
  planning_ = false;
  planned_.clear();
  for (Sm* sm : running_) sm->publish_progress(nullptr);
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
  for (int spin = 0;;) {
    if (resume_one(thread)) {
      spin = 0;
      continue;
    }
    if (resume_over_.load(std::memory_order_acquire) &&
        resume_taken_.load(std::memory_order_acquire) >= queued_.load(std::memory_order_acquire))
      return;
    thread_wait::backoff(spin);
  }
}

void TickBatch::apply_stores() {
  logs_.clear();
  for (Sm* sm : running_) logs_.push_back(&sm->store_log());
  exec::StoreLog::apply_in_cycle_order(logs_, store_parts_);
}

size_t TickBatch::first_fault() const {
  const size_t n = running_.size();
  size_t faulted = n;
  for (size_t i = 0; i < n; ++i)
    if (running_[i]->fault_cycle() != engine::kNever &&
        (faulted == n || running_[i]->fault_cycle() < running_[faulted]->fault_cycle()))
      faulted = i;
  return faulted;
}

void TickBatch::end_quantum() {
  const size_t n = running_.size();
  memory_.end_quantum(ids_);
  if (const size_t faulted = first_fault(); faulted != n) running_[faulted]->rethrow_fault();
  if (!stores_applied_) apply_stores();
  stores_applied_ = false;
  for (size_t i = 0; i < n; ++i) {
    Sm& sm = *running_[i];
    last_cycle_ = std::max(last_cycle_, sm.quantum_last());
    instructions_ += sm.end_quantum();
    if (tickets_[i].next != engine::kNever) calendar_.lower(sm.id(), tickets_[i].next);
  }
  if (n > 0 && limits_.past_deadline()) running_.front()->report_past_deadline();
  engine::Cycle next = calendar_.earliest();
  if (!releases_.empty()) next = std::min(next, releases_.front().at);
  if (next != engine::kNever) events_.schedule_by(event_, next);
}

}  // namespace gpusim::core
