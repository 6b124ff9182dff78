// The interface between the SMs and the memory system: the SM hands over each warp
// memory instruction as it issues (with its lanes' addresses) and learns when its data
// is back and how long the load/store pipeline is busy with it.
// FixedLatencyMemory charges each state space a fixed latency (for hand-worked tests);
// MemoryHierarchy (hierarchy.hpp) models coalescing, banks, caches and DRAM.
#pragma once

#include <cstdint>

#include "arch/arch_config.hpp"
#include "kernel/ir.hpp"

namespace gpusim::memory {

struct MemoryRequest {
  kernel::StateSpace space = kernel::StateSpace::Global;  // resolved (generic accesses decoded)
  bool is_store = false;
  bool is_atomic = false;
  kernel::CacheOp cache_op = kernel::CacheOp::Default;
  uint32_t mask = 0;               // lanes that access memory
  uint32_t bytes_per_lane = 0;
  const uint64_t* addresses = nullptr;  // per lane, in the state space
  uint32_t sm = 0;
};

struct MemoryResponse {
  uint32_t latency = 0;          // cycles from issue until loaded data can be read
  uint32_t pipeline_cycles = 1;  // cycles the load/store pipeline spends (wavefronts, passes)
};

struct MemoryStats {
  uint64_t global_load_requests = 0, global_load_transactions = 0, global_load_bytes = 0;
  uint64_t global_store_requests = 0, global_store_transactions = 0, global_store_bytes = 0;
  uint64_t shared_requests = 0, shared_passes = 0;
  uint64_t l1_hits = 0, l1_misses = 0;  // sectors
  uint64_t l2_hits = 0, l2_misses = 0;  // sectors
  uint64_t dram_read_bytes = 0, dram_write_bytes = 0;

  MemoryStats operator-(const MemoryStats& o) const;
};

class MemoryModel {
 public:
  virtual ~MemoryModel() = default;
  virtual MemoryResponse access(const MemoryRequest& request, uint64_t now) = 0;
  virtual MemoryStats stats() const { return {}; }
  // A new kernel starts at cycle 0 (caches keep their contents, queues drain).
  virtual void start_kernel() {}
  // The cycle by which every transfer the kernel started has finished.
  virtual uint64_t drained_at() const { return 0; }
};

class FixedLatencyMemory final : public MemoryModel {
 public:
  explicit FixedLatencyMemory(const arch::ArchConfig& arch) : arch_(arch) {}
  MemoryResponse access(const MemoryRequest& request, uint64_t now) override;

 private:
  const arch::ArchConfig& arch_;
};

}  // namespace gpusim::memory
