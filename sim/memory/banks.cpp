#include "memory/banks.hpp"

#include <algorithm>

namespace gpusim::memory {

int shared_passes(const uint64_t* a, uint32_t mask, uint32_t size, const SharedAccessConfig& config, bool atomic) {
  const int scope_threads = config.conflict_scope_threads;
  const uint64_t width = static_cast<uint64_t>(config.bank_width_bytes);
  const uint64_t banks = static_cast<uint64_t>(config.banks);
  // Per bank, the distinct words asked for (fixed storage: no allocation per access).
  constexpr int kMaxBanks = 64, kMaxWords = 32 * 4;
  int total = 0;
  for (int first = 0; first < 32; first += scope_threads) {
    const uint32_t scope_mask = scope_threads >= 32 ? mask : (mask >> first) & ((1u << scope_threads) - 1);
    if (!scope_mask) continue;
    uint64_t words[kMaxWords];
    int n = 0;
    int per_bank[kMaxBanks] = {};
    int passes = 1;
    for (int k = 0; k < scope_threads; ++k) {
      if (!(scope_mask >> k & 1u)) continue;
      const uint64_t addr = a[first + k];
      for (uint64_t w = addr / width; w * width < addr + size; ++w) {
        bool seen = false;
        for (int i = 0; i < n && !seen; ++i) seen = words[i] == w;
        if (seen || n == kMaxWords) continue;
        words[n++] = w;
        passes = std::max(passes, ++per_bank[w % banks]);  // banks <= 64: the loader's limit
      }
    }
    if (atomic && config.atomics_serialise_same_word) {
      for (int k = 0; k < scope_threads; ++k) {
        if (!(scope_mask >> k & 1u)) continue;
        int same = 0;
        for (int j = 0; j < scope_threads; ++j) same += (scope_mask >> j & 1u) && a[first + j] == a[first + k];
        passes = std::max(passes, same);
      }
    }
    total += passes;
  }
  return total;
}

}  // namespace gpusim::memory
