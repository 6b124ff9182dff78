// GPU-wide counters over one launch, for the trace's counter tracks. Samples are read
// between the engine's events, never scheduled as events, so sampling changes no timing:
// every 64 cycles at first, the interval doubling (every other sample kept) whenever 1024
// are reached.
#pragma once

#include <memory>
#include <vector>

#include "core/launch_stats.hpp"
#include "core/sm.hpp"
#include "engine/event_queue.hpp"
#include "memory/memory_system.hpp"

namespace gpusim::core {

class CounterSampler {
 public:
  CounterSampler(engine::Cycle start, const memory::MemorySystem& memory, const std::vector<std::unique_ptr<Sm>>& sms,
                 const uint64_t& instructions);
  // Processes the engine's events until none is left, sampling between them.
  void run(engine::EventQueue& events);
  // The samples, the last at the launch's end (`cycles` after its start).
  std::vector<CounterSample> finish(uint64_t cycles);

 private:
  void sample(engine::Cycle at);

  engine::Cycle start_;
  const memory::MemorySystem& memory_;
  memory::MemoryStats before_;
  const std::vector<std::unique_ptr<Sm>>& sms_;
  const uint64_t& instructions_;
  uint64_t interval_ = 64;
  std::vector<CounterSample> samples_;
};

}  // namespace gpusim::core
