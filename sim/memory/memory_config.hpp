// The memory system's part of the architecture file: which model, the coalescing rule
// family, the caches and DRAM.
#pragma once

#include <optional>
#include <string>

#include "memory/cache/cache_config.hpp"
#include "memory/coalescing/rule.hpp"
#include "memory/dram/dram_config.hpp"
#include "memory/memory_system.hpp"
#include "util/params.hpp"

namespace gpusim::memory {

struct MemoryConfig {
  std::string model = "hierarchy";
  std::string coalescing = "sectored32";
  std::optional<L1Config> l1;
  std::optional<L2Config> l2;
  DramConfig dram;

  template <class V>
  void declare(V& v) {
    v.plugin("model", model, params::options_of(MemorySystemRegistry::instance()),
             {.def = "hierarchy", .doc = "which memory-system model serves global and local memory"});
    v.plugin("coalescing", coalescing, params::options_of(CoalescingRegistry::instance()),
             {.def = "sectored32", .doc = "how a warp's addresses become transactions"});
    v.optional_section("l1", l1, "The per-SM L1 data cache, or none where the GPU has none");
    v.optional_section("l2", l2, "The shared L2 cache, or none where the GPU has none");
    v.section("dram", dram, "Device memory");
    v.check([&](const params::Checker& c) {
      if (l1 && l2) {
        c.require(l2->latency > l1->latency, "l2", "latency must exceed the L1's");
        c.require(l2->sector_bytes <= l1->sector_bytes && l1->sector_bytes % l2->sector_bytes == 0, "l1",
                  "sector_bytes must be a multiple of the L2's (an L1 sector is filled from whole L2 sectors)");
      }
      if (l2) c.require(dram.latency > l2->latency, "dram", "latency must exceed the L2's");
    });
  }
};

}  // namespace gpusim::memory
