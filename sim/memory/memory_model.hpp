// The interface between the SMs and the memory system: the SM hands over each warp
// memory instruction as it issues and learns when its data is back. The first cut
// (FixedLatencyMemory) charges each state space its latency from the arch file; the
// modelled hierarchy (coalescer, caches, DRAM) will implement the same interface.
#pragma once

#include <cstdint>

#include "arch/arch_config.hpp"
#include "kernel/ir.hpp"

namespace gpusim::memory {

struct MemoryRequest {
  kernel::StateSpace space = kernel::StateSpace::Global;  // resolved (generic accesses decoded)
  bool is_store = false;
  bool is_atomic = false;
  uint32_t active_lanes = 0;
  uint32_t sm = 0;
};

class MemoryModel {
 public:
  virtual ~MemoryModel() = default;
  // Cycles from issue until the loaded data can be read (for stores: until accepted).
  virtual uint32_t latency(const MemoryRequest& request, uint64_t now) = 0;
};

class FixedLatencyMemory final : public MemoryModel {
 public:
  explicit FixedLatencyMemory(const arch::ArchConfig& arch) : arch_(arch) {}
  uint32_t latency(const MemoryRequest& request, uint64_t now) override;

 private:
  const arch::ArchConfig& arch_;
};

}  // namespace gpusim::memory
