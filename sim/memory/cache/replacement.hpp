// Which way of a full set a cache evicts. Each policy is a plug-in in replacement/,
// named in the architecture file (memory.l1.replacement, memory.l2.replacement).
#pragma once

#include <cstdint>

#include "util/registry.hpp"

namespace gpusim::memory {

class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy() = default;
  // A way was filled with a new line, or hit.
  virtual void filled(uint64_t set, uint32_t way) = 0;
  virtual void touched(uint64_t set, uint32_t way) = 0;
  // Another sector of a line arrived (a DRAM chunk's sectors: once for them all), or a request
  // met a sector still on its way: the same access continuing, which a policy that tells reuse
  // from first use does not count as a hit.
  virtual void continued(uint64_t set, uint32_t way) { touched(set, way); }
  // A way was filled with a line to give up before the others unless it is hit first.
  virtual void filled_evict_first(uint64_t set, uint32_t way) { filled(set, way); }
  // The way to evict from a set whose ways are all valid.
  virtual uint32_t victim(uint64_t set) const = 0;
};

// Factories take (sets, ways).
using ReplacementRegistry = util::Registry<ReplacementPolicy, uint64_t, uint32_t>;

}  // namespace gpusim::memory
