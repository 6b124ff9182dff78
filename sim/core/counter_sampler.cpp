#include "core/counter_sampler.hpp"

namespace gpusim::core {

CounterSampler::CounterSampler(engine::Cycle start, const memory::MemorySystem& memory,
                               const std::vector<std::unique_ptr<Sm>>& sms, const uint64_t& instructions)
    : start_(start), memory_(memory), before_(memory.stats()), sms_(sms), instructions_(instructions) {}

void CounterSampler::sample(engine::Cycle at) {
  const memory::MemoryStats m = memory_.stats() - before_;
  CounterSample c{at - start_, instructions_, 0, m.dram_read_bytes + m.dram_write_bytes, m.l2_hits, m.l2_hits + m.l2_misses};
  for (const auto& s : sms_) c.active_warps += s->live_warps();
  samples_.push_back(c);
}

void CounterSampler::run(engine::EventQueue& events) {
  sample(start_);
  engine::Cycle next = start_ + interval_;
  while (!events.empty()) {
    if (events.next_cycle() <= next) {
      events.step();
      continue;
    }
    sample(next);
    if (samples_.size() == 1024) {
      for (size_t k = 0; 2 * k < samples_.size(); ++k) samples_[k] = samples_[2 * k];
      samples_.resize(512);
      interval_ *= 2;
    }
    next = start_ + samples_.back().cycle + interval_;
  }
}

std::vector<CounterSample> CounterSampler::finish(uint64_t cycles) {
  sample(start_ + cycles);
  samples_.back().active_warps = 0;  // every block has retired
  return std::move(samples_);
}

}  // namespace gpusim::core
