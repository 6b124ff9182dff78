// A coalescing rule family: how one warp's lane addresses become memory transactions
// under one generation's rules. Each family is a plug-in in this folder, named in the
// architecture file (memory.coalescing).
#pragma once

#include <cstdint>
#include <vector>

#include "util/registry.hpp"

namespace gpusim::memory {

struct Transaction {
  uint64_t address = 0;  // aligned to its size
  uint32_t bytes = 0;
};

class CoalescingRule {
 public:
  virtual ~CoalescingRule() = default;
  // Fills `out` (cleared first) with the transactions of one warp access: `size` bytes
  // per lane (vector accesses included) at each lane of `mask`. `through_l1` selects a
  // family's cached path where it has one. `one_run`: the caller found `mask` full and the
  // lanes one run (util::consecutive_lanes(addresses, size)).
  virtual void coalesce(std::vector<Transaction>& out, const uint64_t* addresses, uint32_t mask, uint32_t size,
                        bool through_l1, bool one_run) const = 0;
};

using CoalescingRegistry = util::Registry<CoalescingRule>;

// The rule registered under `name` (built once; rules are stateless).
const CoalescingRule& coalescing_rule(const std::string& name);

}  // namespace gpusim::memory
