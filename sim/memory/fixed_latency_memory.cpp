#include "memory/memory_model.hpp"

namespace gpusim::memory {

uint32_t FixedLatencyMemory::latency(const MemoryRequest& r, uint64_t) {
  switch (r.space) {
    case kernel::StateSpace::Shared:
      return static_cast<uint32_t>(arch_.shared_memory.latency);
    case kernel::StateSpace::Param:
    case kernel::StateSpace::Const:
      // Kernel parameters and constants come from the constant cache: as fast as shared memory.
      return static_cast<uint32_t>(arch_.shared_memory.latency);
    default:
      return static_cast<uint32_t>(arch_.memory.dram.latency);
  }
}

}  // namespace gpusim::memory
