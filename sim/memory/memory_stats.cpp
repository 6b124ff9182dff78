#include "memory/memory_stats.hpp"

#include <array>

namespace gpusim::memory {

std::span<const stats::Counter<MemoryStats>> MemoryStats::counters() {
  using C = stats::Counter<MemoryStats>;
  static const std::array list{
      C{"global_load_requests", "memory", "requests", "warp loads from global or local memory",
        &MemoryStats::global_load_requests},
      C{"global_load_sectors", "memory", "transactions",
        "transactions those loads became (32-byte sectors from 3.x on; segments or lines before)",
        &MemoryStats::global_load_transactions},
      C{"global_load_bytes", "memory", "bytes", "bytes the active lanes asked to load", &MemoryStats::global_load_bytes},
      C{"global_store_requests", "memory", "requests", "warp stores and reductions to global or local memory",
        &MemoryStats::global_store_requests},
      C{"global_store_sectors", "memory", "transactions", "transactions those stores became",
        &MemoryStats::global_store_transactions},
      C{"global_store_bytes", "memory", "bytes", "bytes the active lanes stored", &MemoryStats::global_store_bytes},
      C{"l1_hit_sectors", "memory", "sectors", "L1 sector lookups that hit (data there or on its way)",
        &MemoryStats::l1_hits},
      C{"l1_miss_sectors", "memory", "sectors", "L1 sector lookups that missed", &MemoryStats::l1_misses},
      C{"l2_hit_sectors", "memory", "sectors", "L2 sector reads that hit", &MemoryStats::l2_hits},
      C{"l2_far_hit_sectors", "memory", "sectors",
        "L2 hits found only in a far partition (of l2_hit_sectors; the copy then stays near)", &MemoryStats::l2_far_hits},
      C{"l2_miss_sectors", "memory", "sectors", "L2 sector reads that went to DRAM", &MemoryStats::l2_misses},
      C{"dram_read_bytes", "memory", "bytes", "bytes read from DRAM", &MemoryStats::dram_read_bytes},
      C{"dram_write_bytes", "memory", "bytes", "bytes written to DRAM (write-backs; stores without an L2)",
        &MemoryStats::dram_write_bytes},
  };
  return list;
}

}  // namespace gpusim::memory
