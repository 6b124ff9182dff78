#include "core/tick_batch.hpp"

#include <algorithm>

#include "core/sm.hpp"

namespace gpusim::core {

namespace {

// Waiting for the other threads: a spin (a batch takes microseconds) of up to `spins` rounds,
// then giving the core away, so that more threads than cores still make progress.
template <class Done>
void wait_until(Done done, int spins) {
  for (int round = 0; !done(); ++round) {
    if (round < spins) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield();
    }
  }
}

}  // namespace

std::string TickBatch::in_order_because(const kernel::Program& program, const exec::LaunchConfig& launch, bool profile,
                                        const memory::MemorySystem& memory) {
  for (const kernel::Instruction& in : program.code)
    if (in.op == kernel::Opcode::Atom || in.op == kernel::Opcode::Red) return "it has atomics";
  for (const kernel::CallSite& site : program.call_sites)
    if (site.callee == static_cast<int32_t>(kernel::Builtin::Vprintf)) return "it calls printf";
  if (profile) return "--source counts each instruction's L2 accesses";
  if (launch.out_of_bounds) return "--out-of-bounds continue logs accesses in the order run";
  if (!memory.sends_locally()) return "the memory system's SM side waits on its shared part";
  return "";
}

TickBatch::TickBatch(engine::EventQueue& events, int sm_count, std::vector<exec::Executor*> executors)
    : events_(events),
      event_(this, engine::priority::kSmTick + sm_count),  // after every SM's tick event
      executors_(std::move(executors)),
      // More threads than cores: a spinning thread would hold a core another one needs.
      spins_(executors_.size() <= std::max(1u, std::thread::hardware_concurrency()) ? 50000 : 0) {
  for (size_t t = 1; t < executors_.size(); ++t) workers_.emplace_back([this, t] { serve(t); });
}

TickBatch::~TickBatch() {
  stop_.store(true, std::memory_order_release);
  for (std::thread& w : workers_) w.join();
}

void TickBatch::due(Sm& sm) {
  if (due_.empty()) events_.schedule(event_, events_.now());
  due_.push_back(&sm);
}

void TickBatch::share(size_t thread) {
  const size_t n = running_.size(), threads = executors_.size();
  for (size_t i = n * thread / threads; i < n * (thread + 1) / threads; ++i)
    running_[i]->run_cycle(now_, *executors_[thread]);
}

void TickBatch::serve(size_t thread) {
  uint64_t seen = 0;
  for (;;) {
    wait_until([&] { return round_.load(std::memory_order_acquire) != seen || stop_.load(std::memory_order_acquire); },
               spins_);
    if (stop_.load(std::memory_order_acquire)) return;
    seen = round_.load(std::memory_order_acquire);
    share(thread);
    finished_.fetch_add(1, std::memory_order_acq_rel);
  }
}

void TickBatch::run() {
  now_ = events_.now();
  running_.swap(due_);
  due_.clear();
  if (workers_.empty() || running_.size() < kMinShared) {
    for (Sm* sm : running_) sm->run_cycle(now_, *executors_[0]);
  } else {
    finished_.store(0, std::memory_order_relaxed);
    round_.fetch_add(1, std::memory_order_acq_rel);
    share(0);
    wait_until([&] { return finished_.load(std::memory_order_acquire) == workers_.size(); }, spins_);
  }
  for (Sm* sm : running_) sm->end_cycle(now_);
}

}  // namespace gpusim::core
