#include "core/tick_batch.hpp"

#include <algorithm>
#include <bit>

#include "core/sm.hpp"
#include "core/thread_wait.hpp"

namespace gpusim::core {

using thread_wait::ticks;

std::string TickBatch::in_order_because(const kernel::Program& program, const exec::LaunchConfig& launch, bool profile,
                                        const memory::MemorySystem& memory) {
  if (kernel::atomics_need_sm_order(program)) return kernel::kAtomicsNeedOrder;
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

uint64_t TickBatch::start_round() {
  finished_.store(0, std::memory_order_relaxed);
  const uint64_t round = round_.fetch_add(1, std::memory_order_acq_rel) + 1;
  round_.notify_all();
  return round;
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
  const uint64_t round = start_round();
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
  // From one due cycle to the next: a look at each cycle of the quantum cost G80's
  // 500-cycle quanta 2.4% of its stencil's host instructions.
  for (engine::Cycle at = now_; at < end; at = calendar_.earliest())
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
  if (!workers_.empty() && n >= kMinShared && !stops) run_trailing(end);
  else run_whole_quanta(end, stops);
  end_quantum();
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
