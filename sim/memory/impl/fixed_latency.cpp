// Every global or local access answers after the DRAM latency, whatever its addresses:
// for hand-worked tests of the SM, and as the simplest memory model to compare with.
#include <algorithm>
#include <bit>

#include "memory/memory_config.hpp"
#include "memory/memory_system.hpp"

namespace gpusim::memory {
namespace {

class FixedLatencyMemory final : public MemorySystem {
 public:
  FixedLatencyMemory(const MemoryConfig& config, const MemorySystemContext& context)
      : MemorySystem(context), latency_(static_cast<engine::Cycle>(config.dram.latency)) {}

  Accepted send(const MemoryRequest& r) override {
    const uint64_t bytes = static_cast<uint64_t>(std::popcount(r.mask)) * r.bytes_per_lane;
    if (r.is_store) {
      ++stats_.global_store_requests;
      stats_.global_store_bytes += bytes;
      return {};
    }
    ++stats_.global_load_requests;
    stats_.global_load_bytes += bytes;
    respond(r.sm, r.tag, std::max(r.cycle, r.not_before) + latency_);
    return {};
  }

 private:
  engine::Cycle latency_;
};

}  // namespace

GPUSIM_REGISTER(MemorySystemRegistry, "fixed_latency", "every global or local access takes memory.dram.latency cycles",
                [](const MemoryConfig& config, const MemorySystemContext& context) {
                  return std::make_unique<FixedLatencyMemory>(config, context);
                })

}  // namespace gpusim::memory
