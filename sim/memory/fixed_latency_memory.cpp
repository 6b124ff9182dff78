#include "memory/memory_model.hpp"

namespace gpusim::memory {

MemoryStats MemoryStats::operator-(const MemoryStats& o) const {
  MemoryStats d;
  d.global_load_requests = global_load_requests - o.global_load_requests;
  d.global_load_transactions = global_load_transactions - o.global_load_transactions;
  d.global_load_bytes = global_load_bytes - o.global_load_bytes;
  d.global_store_requests = global_store_requests - o.global_store_requests;
  d.global_store_transactions = global_store_transactions - o.global_store_transactions;
  d.global_store_bytes = global_store_bytes - o.global_store_bytes;
  d.shared_requests = shared_requests - o.shared_requests;
  d.shared_passes = shared_passes - o.shared_passes;
  d.l1_hits = l1_hits - o.l1_hits;
  d.l1_misses = l1_misses - o.l1_misses;
  d.l2_hits = l2_hits - o.l2_hits;
  d.l2_misses = l2_misses - o.l2_misses;
  d.dram_read_bytes = dram_read_bytes - o.dram_read_bytes;
  d.dram_write_bytes = dram_write_bytes - o.dram_write_bytes;
  return d;
}

MemoryResponse FixedLatencyMemory::access(const MemoryRequest& r, uint64_t) {
  switch (r.space) {
    case kernel::StateSpace::Shared:
    case kernel::StateSpace::Param:
    case kernel::StateSpace::Const:
      // Parameters and constants come from the constant cache: as fast as shared memory.
      return {static_cast<uint32_t>(arch_.shared_memory.latency), 1};
    default:
      return {static_cast<uint32_t>(arch_.memory.dram.latency), 1};
  }
}

}  // namespace gpusim::memory
