// Helpers the coalescing rules share.
#pragma once

#include <cstdint>
#include <vector>

#include "memory/coalescing/rule.hpp"

namespace gpusim::memory {

inline uint64_t align_down(uint64_t a, uint64_t n) { return a / n * n; }

inline void add_unique(std::vector<Transaction>& out, uint64_t address, uint32_t bytes) {
  for (const Transaction& t : out)
    if (t.address == address && t.bytes == bytes) return;
  out.push_back({address, bytes});
}

}  // namespace gpusim::memory
