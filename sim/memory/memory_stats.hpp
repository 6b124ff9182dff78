// The memory system's counters; declared (name, unit, description) in memory_stats.cpp.
#pragma once

#include <cstdint>
#include <span>

#include "stats/counter.hpp"

namespace gpusim::memory {

struct MemoryStats {
  uint64_t global_load_requests = 0, global_load_transactions = 0, global_load_bytes = 0;
  uint64_t global_store_requests = 0, global_store_transactions = 0, global_store_bytes = 0;
  uint64_t l1_hits = 0, l1_misses = 0;  // sectors
  uint64_t l2_hits = 0, l2_misses = 0;  // sectors
  uint64_t l2_far_hits = 0;             // sectors, of l2_hits
  uint64_t dram_read_bytes = 0, dram_write_bytes = 0;

  static std::span<const stats::Counter<MemoryStats>> counters();
  MemoryStats operator-(const MemoryStats& o) const { return stats::subtract_counters(*this, o, counters()); }
};

}  // namespace gpusim::memory
