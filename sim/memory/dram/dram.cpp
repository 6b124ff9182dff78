#include "memory/dram/dram.hpp"

#include <algorithm>
#include <cmath>

#include "util/rounding.hpp"

namespace gpusim::memory {

Dram::Dram(const DramConfig& config, double core_clock_mhz, MemoryStats& stats)
    : config_(config),
      ticks_per_byte_(std::ldexp(1.0, kFraction) /
                      (config.bandwidth_gbs * 1e9 / (core_clock_mhz * 1e6) / config.channels)),
      channel_free_(static_cast<size_t>(config.channels), 0),
      bank_free_(config.bank_cycles > 0 ? static_cast<size_t>(config.channels) * static_cast<size_t>(config.banks) : 0, 0),
      queued_writes_(static_cast<size_t>(config.channels), 0),
      writing_(static_cast<size_t>(config.channels), false),
      stats_(stats) {}

engine::Cycle Dram::access(uint64_t address, uint32_t bytes, bool write, engine::Cycle now) {
  const size_t channel = spread(address / kInterleave, channel_free_.size());
  uint64_t& free = channel_free_[channel];
  if (write && config_.write_batch_bytes > 0) {
    stats_.dram_write_bytes += bytes;
    uint32_t& queued = queued_writes_[channel];
    queued += bytes;
    if (queued < static_cast<uint32_t>(config_.write_batch_bytes)) return now;  // written with its batch
    free = std::max(now << kFraction, free) + batch_ticks(channel);
    queued = 0;
    writing_[channel] = true;
    return ceil_cycles(free);
  }
  engine::Cycle start = now;
  if (!bank_free_.empty()) {
    // A second hash (of the 64-byte unit) picks the bank, so that a line's two units and a
    // stream's neighbouring units fall on different banks.
    const size_t bank = channel * static_cast<size_t>(config_.banks) +
                        spread(address / kBankUnit * 0xD1B54A32D192ED03ull, static_cast<size_t>(config_.banks));
    start = std::max(now, bank_free_[bank]);
    bank_free_[bank] = start + static_cast<engine::Cycle>(config_.bank_cycles);
  }
  if (writing_[channel]) {  // the bus turns back to reading
    free += turnaround_ticks();
    writing_[channel] = false;
  }
  free = std::max(start << kFraction, free) + bus_ticks(bytes);
  (write ? stats_.dram_write_bytes : stats_.dram_read_bytes) += bytes;
  return ceil_cycles(free) + static_cast<engine::Cycle>(config_.latency);
}

engine::Cycle Dram::ceil_cycles(uint64_t ticks) { return (ticks + (uint64_t{1} << kFraction) - 1) >> kFraction; }

uint64_t Dram::bus_ticks(uint64_t bytes) const { return util::round_nonnegative(static_cast<double>(bytes) * ticks_per_byte_); }

uint64_t Dram::turnaround_ticks() const { return static_cast<uint64_t>(config_.turnaround_cycles) << kFraction; }

uint64_t Dram::batch_ticks(size_t channel) const {
  if (queued_writes_[channel] == 0) return 0;
  return (writing_[channel] ? 0 : turnaround_ticks()) + bus_ticks(queued_writes_[channel]);
}

engine::Cycle Dram::drained_at() const {
  // Writes still queued go out at the end, as one more batch.
  uint64_t last = 0;
  for (size_t c = 0; c < channel_free_.size(); ++c) last = std::max(last, channel_free_[c] + batch_ticks(c));
  return ceil_cycles(last);
}

}  // namespace gpusim::memory
