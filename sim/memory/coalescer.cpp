#include "memory/coalescer.hpp"

#include <algorithm>
#include <bit>

namespace gpusim::memory {
namespace {

uint64_t align_down(uint64_t a, uint64_t n) { return a / n * n; }

void add_unique(std::vector<Transaction>& out, uint64_t address, uint32_t bytes) {
  for (const Transaction& t : out)
    if (t.address == address && t.bytes == bytes) return;
  out.push_back({address, bytes});
}

// CC 1.0/1.1 for one half-warp.
void half_warp_cc10(std::vector<Transaction>& out, const uint64_t* a, uint32_t mask, int first, uint32_t size) {
  const uint32_t half = (mask >> first) & 0xFFFFu;
  if (!half) return;
  // Coalesced: every active thread k reads word k of one segment aligned to 16 x size.
  const uint64_t segment = 16ull * size;
  const int lead = std::countr_zero(half);
  const uint64_t base = a[first + lead] - static_cast<uint64_t>(lead) * size;
  bool coalesced = base % segment == 0 && (size == 4 || size == 8 || size == 16);
  for (int k = 0; k < 16 && coalesced; ++k)
    if ((half >> k & 1u) && a[first + k] != base + static_cast<uint64_t>(k) * size) coalesced = false;
  if (coalesced) {
    if (size == 16) {
      out.push_back({base, 128});
      out.push_back({base + 128, 128});
    } else {
      out.push_back({base, static_cast<uint32_t>(segment)});
    }
    return;
  }
  const uint32_t bytes = std::max<uint32_t>(32, size);  // one transaction per thread
  for (int k = 0; k < 16; ++k)
    if (half >> k & 1u) out.push_back({align_down(a[first + k], bytes), bytes});
}

// CC 1.2/1.3 for one half-warp.
void half_warp_cc12(std::vector<Transaction>& out, const uint64_t* a, uint32_t mask, int first, uint32_t size) {
  uint32_t pending = (mask >> first) & 0xFFFFu;
  const uint64_t seg = size == 1 ? 32 : size == 2 ? 64 : 128;
  while (pending) {
    const int lead = std::countr_zero(pending);
    const uint64_t base = align_down(a[first + lead], seg);
    uint64_t lo = ~0ull, hi = 0;
    for (int k = 0; k < 16; ++k) {
      if (!(pending >> k & 1u)) continue;
      const uint64_t addr = a[first + k];
      if (addr < base || addr >= base + seg) continue;
      lo = std::min(lo, addr);
      hi = std::max(hi, addr + size);
      pending &= ~(1u << k);
    }
    // Shrink 128 -> 64 -> 32 while the used bytes fit one half.
    uint64_t start = base, bytes = seg;
    while (bytes > 32) {
      const uint64_t half_bytes = bytes / 2;
      if (hi <= start + half_bytes) bytes = half_bytes;
      else if (lo >= start + half_bytes) start += half_bytes, bytes = half_bytes;
      else break;
    }
    out.push_back({start, static_cast<uint32_t>(bytes)});
  }
}

}  // namespace

std::vector<Transaction> coalesce(arch::CoalescingRule rule, const uint64_t* a, uint32_t mask, uint32_t size,
                                  bool through_l1) {
  std::vector<Transaction> out;
  coalesce_into(out, rule, a, mask, size, through_l1);
  return out;
}

void coalesce_into(std::vector<Transaction>& out, arch::CoalescingRule rule, const uint64_t* a, uint32_t mask,
                   uint32_t size, bool through_l1) {
  out.clear();
  switch (rule) {
    case arch::CoalescingRule::Cc10:
      half_warp_cc10(out, a, mask, 0, size);
      half_warp_cc10(out, a, mask, 16, size);
      break;
    case arch::CoalescingRule::Cc12:
      half_warp_cc12(out, a, mask, 0, size);
      half_warp_cc12(out, a, mask, 16, size);
      break;
    case arch::CoalescingRule::Cc20: {
      // 8-byte accesses go per half-warp, 16-byte per quarter-warp: separate requests.
      const uint32_t bytes = through_l1 ? 128 : 32;
      const int group = size == 16 ? 8 : size == 8 ? 16 : 32;
      for (int g = 0; g < 32; g += group) {
        const size_t part = out.size();  // each group is its own request: dedupe within it
        for (int k = g; k < g + group; ++k) {
          if (!(mask >> k & 1u)) continue;
          for (uint64_t b = align_down(a[k], bytes); b < a[k] + size; b += bytes) {
            bool seen = false;
            for (size_t i = part; i < out.size() && !seen; ++i) seen = out[i].address == b;
            if (!seen) out.push_back({b, bytes});
          }
        }
      }
      break;
    }
    case arch::CoalescingRule::Sectored32:
      for (int k = 0; k < 32; ++k) {
        if (!(mask >> k & 1u)) continue;
        for (uint64_t b = align_down(a[k], 32); b < a[k] + size; b += 32) add_unique(out, b, 32);
      }
      break;
  }
}

int shared_passes(const uint64_t* a, uint32_t mask, uint32_t size, int banks, int bank_width, int scope_threads,
                  bool atomic) {
  // Per bank, the distinct words asked for (fixed storage: no allocation per access).
  constexpr int kMaxBanks = 64, kMaxWords = 32 * 4;
  int total = 0;
  for (int first = 0; first < 32; first += scope_threads) {
    const uint32_t scope_mask = scope_threads >= 32 ? mask : (mask >> first) & ((1u << scope_threads) - 1);
    if (!scope_mask) continue;
    uint64_t words[kMaxWords];
    int word_bank[kMaxWords];
    int n = 0;
    int per_bank[kMaxBanks] = {};
    int passes = 1;
    for (int k = 0; k < scope_threads; ++k) {
      if (!(scope_mask >> k & 1u)) continue;
      const uint64_t addr = a[first + k];
      for (uint64_t w = addr / static_cast<uint64_t>(bank_width); w * bank_width < addr + size; ++w) {
        bool seen = false;
        for (int i = 0; i < n && !seen; ++i) seen = words[i] == w;
        if (seen || n == kMaxWords) continue;
        const int bank = static_cast<int>(w % static_cast<uint64_t>(banks)) % kMaxBanks;
        words[n] = w;
        word_bank[n++] = bank;
        passes = std::max(passes, ++per_bank[bank]);
      }
    }
    (void)word_bank;
    if (atomic) {  // updates to one address serialise
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
