// The modelled memory system: per-architecture coalescing, shared-memory banks, a
// sectored L1 per SM and a shared L2 (LRU, with miss merging), and DRAM channels that
// serve bytes at the configured bandwidth with queueing, so a bandwidth-bound kernel is
// limited by bytes per cycle and a latency-bound one by the latencies.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "memory/cache.hpp"
#include "memory/coalescer.hpp"
#include "memory/memory_model.hpp"

namespace gpusim::memory {

class MemoryHierarchy final : public MemoryModel {
 public:
  explicit MemoryHierarchy(const arch::ArchConfig& arch);
  MemoryResponse access(const MemoryRequest& request, uint64_t now) override;
  MemoryStats stats() const override { return stats_; }
  void start_kernel() override;
  uint64_t drained_at() const override;

 private:
  MemoryResponse shared(const MemoryRequest& r);
  MemoryResponse global(const MemoryRequest& r, uint64_t now);
  // One DRAM access of `bytes` at `address` arriving at `now`; returns when it completes.
  uint64_t dram(uint64_t address, uint32_t bytes, bool write, uint64_t now);
  // A 32-byte sector through L2 (and DRAM on a miss); returns when its data is back.
  uint64_t l2_read(uint64_t address, uint64_t now);
  bool through_l1(const MemoryRequest& r) const;

  const arch::ArchConfig& arch_;
  std::vector<SectoredCache> l1_;  // per SM (empty: no L1)
  std::optional<SectoredCache> l2_;
  // Cycle at which an L2 slice can take the sector at `address`, arriving at `now`.
  // When the request for `address`'s line leaves SM `sm`: one line per l1.miss_line_cycles.
  uint64_t departure(uint32_t sm, uint64_t address, uint64_t now);
  uint64_t l2_slot(uint64_t address, uint64_t now);

  std::vector<double> channel_free_;  // per DRAM channel: cycle it is next free
  std::vector<uint64_t> slice_free_;  // per L2 slice: one 32-byte sector per cycle
  std::vector<uint64_t> miss_port_free_;  // per SM: when its L1 can send the next line request to L2
  std::vector<std::pair<uint64_t, uint64_t>> departed_;  // scratch: line -> when its request left the SM
  double bytes_per_cycle_per_channel_ = 0;
  MemoryStats stats_;
  std::vector<Transaction> tx_;     // scratch, reused by every request
  std::vector<uint64_t> lines_;     // scratch
};

}  // namespace gpusim::memory
