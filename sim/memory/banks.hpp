// Shared-memory banks: how many passes (wavefronts) one warp access needs, and the
// parameters of the SM's shared-memory path (core/load_store_unit.cpp uses them).
#pragma once

#include <cstdint>
#include <optional>

#include "util/params.hpp"

namespace gpusim::memory {

struct SharedAccessConfig {
  int banks = 32;
  int bank_width_bytes = 4;
  int conflict_scope_threads = 32;
  int latency = 0;
  int replay_cycles = 1;
  bool atomics_serialise_same_word = true;

  template <class V>
  void declare(V& v) {
    v.integer("banks", banks, {.min = 1, .max = 64, .def = 32, .doc = "shared-memory banks (a power of two)"});
    v.integer("bank_width_bytes", bank_width_bytes,
              {.min = 1, .max = 64, .def = 4, .unit = "bytes", .doc = "bytes one bank serves per pass (a power of two)"});
    v.integer("conflict_scope_threads", conflict_scope_threads,
              {.min = 1, .max = 32, .def = 32, .unit = "threads",
               .doc = "threads whose accesses are served together: 16 (half-warps, 1.x) or 32 (a warp)"});
    v.integer("latency", latency, {.min = 1, .max = 100000, .unit = "cycles", .doc = "shared-memory load to use"});
    v.integer("replay_cycles", replay_cycles,
              {.min = 1, .max = 1000, .def = 1, .unit = "cycles", .doc = "each bank-conflict pass after the first adds this"});
    v.flag("atomics_serialise_same_word", atomics_serialise_same_word,
           {.def = true, .doc = "lanes of a shared-memory atomic on one word take a pass each; false: they take one pass "
                                "together, as a load's lanes on one word do"});
    v.check([&](const params::Checker& c) {
      c.require((banks & (banks - 1)) == 0, "banks", "must be a power of two");
      c.require((bank_width_bytes & (bank_width_bytes - 1)) == 0, "bank_width_bytes", "must be a power of two");
      c.require((conflict_scope_threads & (conflict_scope_threads - 1)) == 0, "conflict_scope_threads",
                "must be a power of two (a whole number of scopes per warp)");
    });
  }
};

// Passes one warp access needs: the largest number of distinct words any bank is asked
// for (the same word broadcasts), per conflict scope, summed over the scopes. Atomics
// also serialise on equal addresses where the generation does so. `half_stride`, when
// known: a full warp whose each half-warp's addresses step by it, so that the common shapes
// are told from four lanes instead of a pass over all 32.
int shared_passes(const uint64_t* addresses, uint32_t mask, uint32_t size, const SharedAccessConfig& banks, bool atomic,
                  std::optional<uint64_t> half_stride = std::nullopt);

}  // namespace gpusim::memory
