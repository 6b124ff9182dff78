// DRAM channels: each serves bytes at its share of the configured bandwidth, one access
// after another, so an access queues behind the ones before it on its channel and its
// latency grows with the load. Addresses are hashed over the channels in 256-byte chunks.
// Each channel has banks; an access holds its bank for bank_cycles (opening a row), so
// accesses that meet on a bank wait for it even when the channel's bus is free: what makes
// the latency grow long before the bus is full (validate/probes/dram_mix.py). With
// write_batch_bytes, write-backs wait in the channel's queue and go out together; the bus
// loses turnaround_cycles at each change of direction, and a read that comes meanwhile
// waits for the batch.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/event_queue.hpp"
#include "memory/dram/dram_config.hpp"
#include "memory/memory_stats.hpp"

namespace gpusim::memory {

// GPUs hash addresses onto L2 slices and DRAM channels so that power-of-two strides
// spread out; a multiplicative hash does the same here, deterministically.
inline size_t spread(uint64_t block, size_t n) {
  return static_cast<size_t>(((block * 0x9E3779B97F4A7C15ull) >> 32) % n);
}

class Dram {
 public:
  Dram(const DramConfig& config, double core_clock_mhz, MemoryStats& stats);
  // An access of `bytes` at `address` arriving at `now`; returns when its data reaches
  // the SM (a read) or it is done (a write).
  engine::Cycle access(uint64_t address, uint32_t bytes, bool write, engine::Cycle now);
  // When the last access queued so far leaves its channel.
  engine::Cycle drained_at() const;

 private:
  static constexpr uint64_t kInterleave = 256;  // bytes mapped to one channel before the next
  static constexpr uint64_t kBankUnit = 64;     // bytes of one access to one bank
  // Channel time is kept in fixed point (1/2^20 cycle): exact integers, so a kernel's
  // timing does not depend on where on the workload's clock it starts.
  static constexpr int kFraction = 20;
  static engine::Cycle ceil_cycles(uint64_t ticks);
  uint64_t bus_ticks(uint64_t bytes) const;  // the channel's bus time for `bytes`
  uint64_t turnaround_ticks() const;
  // Bus time to write the channel's queued writes, turning the bus first if it was reading.
  uint64_t batch_ticks(size_t channel) const;
  DramConfig config_;
  double ticks_per_byte_;                // per channel
  std::vector<uint64_t> channel_free_;   // per channel: when it is next free, in ticks
  std::vector<engine::Cycle> bank_free_; // per bank of every channel: when it can open a row again
  std::vector<uint32_t> queued_writes_;  // per channel: bytes of write-backs waiting for a batch
  std::vector<bool> writing_;            // per channel: its bus last carried a write batch
  MemoryStats& stats_;
};

}  // namespace gpusim::memory
