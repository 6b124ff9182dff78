// A sectored, set-associative cache with LRU replacement. Sectors remember when their
// data arrives, so a second miss to a sector already on its way merges with the first
// (what MSHRs do) instead of going to the next level again.
#pragma once

#include <cstdint>
#include <vector>

#include "arch/arch_config.hpp"

namespace gpusim::memory {

class SectoredCache {
 public:
  explicit SectoredCache(const arch::Cache& geometry);

  struct Probe {
    bool present = false;     // the sector is in the cache (possibly still arriving)
    uint64_t ready_at = 0;    // when its data is there
  };
  // Looks a sector up (address anywhere in it), refreshing LRU on a hit.
  Probe probe(uint64_t address, uint64_t now);
  // Installs a sector arriving at `ready_at`; returns the dirty sectors evicted.
  uint32_t fill(uint64_t address, uint64_t ready_at, bool dirty, uint64_t now);
  // Marks a present sector dirty (a write hit); false when absent.
  bool write_hit(uint64_t address, uint64_t now);
  uint32_t sector_bytes() const { return sector_; }
  // Dirty sectors still held (written back at the end).
  uint64_t dirty_sectors() const;

 private:
  struct Way {
    uint64_t tag = ~0ull;
    uint32_t valid = 0, dirty = 0;  // one bit per sector
    uint64_t last_use = 0;
    std::vector<uint64_t> ready;    // per sector
  };
  Way* find(uint64_t line, uint64_t set);

  uint32_t line_, sector_, sectors_per_line_, ways_;
  uint64_t sets_;
  std::vector<Way> ways_storage_;  // sets x ways
  uint64_t tick_ = 0;              // LRU clock
};

}  // namespace gpusim::memory
