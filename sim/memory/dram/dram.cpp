#include "memory/dram/dram.hpp"

#include <algorithm>
#include <cmath>

namespace gpusim::memory {

Dram::Dram(const DramConfig& config, double core_clock_mhz, MemoryStats& stats)
    : config_(config),
      ticks_per_byte_(std::ldexp(1.0, kFraction) /
                      (config.bandwidth_gbs * 1e9 / (core_clock_mhz * 1e6) / config.channels)),
      channel_free_(static_cast<size_t>(config.channels), 0),
      stats_(stats) {}

engine::Cycle Dram::access(uint64_t address, uint32_t bytes, bool write, engine::Cycle now) {
  uint64_t& free = channel_free_[spread(address / kInterleave, channel_free_.size())];
  free = std::max(now << kFraction, free) + static_cast<uint64_t>(std::llround(bytes * ticks_per_byte_));
  (write ? stats_.dram_write_bytes : stats_.dram_read_bytes) += bytes;
  return ceil_cycles(free) + static_cast<engine::Cycle>(config_.latency);
}

engine::Cycle Dram::ceil_cycles(uint64_t ticks) { return (ticks + (uint64_t{1} << kFraction) - 1) >> kFraction; }

engine::Cycle Dram::drained_at() const {
  uint64_t last = 0;
  for (uint64_t f : channel_free_) last = std::max(last, f);
  return ceil_cycles(last);
}

}  // namespace gpusim::memory
