// What the L2 holds, set by set: --sample (core/wave_sampler.hpp) times waves only once the
// L2 is steady, and tells that from these.
#pragma once

#include <cstdint>
#include <vector>

namespace gpusim::memory {

struct L2Occupancy {
  uint64_t capacity_bytes = 0;  // 0: no L2
  uint64_t entered_bytes = 0;   // sectors installed (copies included) since the simulation began
  uint32_t ways = 0;
  // Every partition's sets, one partition after another: the lines each holds as their home
  // (a copy of a line homed elsewhere is clean, and evicted first).
  std::vector<uint32_t> lines_per_set;
};

struct AddressRange {
  uint64_t base = 0, bytes = 0;
};

}  // namespace gpusim::memory
