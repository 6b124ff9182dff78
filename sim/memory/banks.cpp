#include "memory/banks.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <numeric>

#include "util/bits.hpp"

namespace gpusim::memory {

namespace {

constexpr int kHalf = 16;

// The passes of a full warp whose half-warps each ask for one word (`step` 0) or for
// consecutive words (`step` 1), from the words of its first lanes and the last of the first
// half. 0: another shape.
int half_progression_passes(uint64_t w0, uint64_t w15, uint64_t w16, uint64_t step, uint32_t banks) {
  if (w16 == w0) return 1;                        // both halves ask for the same words: shared
  if (step == 1) return w16 == w15 + 1;            // 32 consecutive words, one per bank
  return ((w0 ^ w16) & (banks - 1)) != 0 ? 1 : 2;  // two words: two passes if in one bank
}

// The passes of a full warp whose words step by `step` (mod 2^64, not 0), at least 32 banks:
// lanes k and k' meet on a bank when (k - k') step is a multiple of the bank count, so each
// bank hit holds g = gcd(step mod banks, banks) of them, every word distinct. A column of a
// 32-wide tile: 32. 0 (counted instead) where d step wraps to 0 for some d < 32, which takes
// 60 trailing zero bits: two lanes would then ask for one word.
int strided_passes(uint64_t step, uint32_t banks) {
  if (std::countr_zero(step) >= 60) return 0;
  const uint64_t g = std::gcd(step & (banks - 1), uint64_t{banks});  // gcd(0, banks) = banks
  return static_cast<int>(std::max<uint64_t>(1, 32 * g / banks));
}

// A full warp's most common shapes, from the words' differences alone (loops that vectorise),
// with at least 32 banks: each half-warp one word (a row of a 16-wide tile read along it),
// consecutive words (a row of a 32-wide tile, or both halves the same 16), or the warp one
// progression of any other stride (a column). 0: none of them, count otherwise.
int progression_passes(const uint64_t* a, uint32_t size, uint32_t width_shift, uint32_t banks) {
  const uint64_t width = uint64_t{1} << width_shift;
  if (size > width) return 0;
  uint64_t w[32];
  uint64_t low = 0;  // every lane at the start of its word (so, size <= width, within it)
  for (int k = 0; k < 32; ++k) {
    w[k] = a[k] >> width_shift;
    low |= a[k];
  }
  const uint64_t step = w[1] - w[0];
  if ((low & (width - 1)) != 0 || !util::halves_step_by(w, step)) return 0;
  if (step > 1) return w[kHalf] - w[kHalf - 1] == step ? strided_passes(step, banks) : 0;
  return half_progression_passes(w[0], w[kHalf - 1], w[kHalf], step, banks);
}

// The same, for addresses known to step by `stride` bytes within each half-warp (with no
// wrap-around): every lane is at the start of its word when the halves' first lanes and the
// stride are, and the words then step by stride / width.
int known_progression_passes(const uint64_t* a, uint64_t stride, uint32_t size, uint32_t width_shift,
                             uint32_t banks) {
  const uint64_t width = uint64_t{1} << width_shift;
  if (size > width || ((a[0] | a[kHalf] | stride) & (width - 1)) != 0) return 0;
  const auto step = static_cast<uint64_t>(static_cast<int64_t>(stride) >> width_shift);  // a stride down, too
  if (step > 1) return a[kHalf] - a[0] == kHalf * stride ? strided_passes(step, banks) : 0;
  return half_progression_passes(a[0] >> width_shift, a[kHalf - 1] >> width_shift, a[kHalf] >> width_shift, step, banks);
}

// The common case, checked first: every lane asks for one word, and no bank for two different
// ones (lanes asking for the same word share it), so the access takes one pass.
// Lane by lane over the mask's lanes only: a divergent warp's few (reductions) cost their own.
bool one_pass(const uint64_t* a, uint32_t scope_mask, uint32_t size, uint32_t width_shift, uint32_t banks) {
  uint64_t used = 0;          // banks asked for so far, a bit each
  uint64_t bank_word[64];     // the word each of them was asked for (read only where `used` says)
  for (uint32_t m = scope_mask; m != 0; m &= m - 1) {
    const uint64_t addr = a[std::countr_zero(m)];
    const uint64_t w = addr >> width_shift;
    if (((w + 1) << width_shift) < addr + size) return false;  // spans two words
    const uint32_t bank = static_cast<uint32_t>(w) & (banks - 1);
    if (used >> bank & 1u) {
      if (bank_word[bank] != w) return false;  // a conflict: counted in full
    } else {
      used |= uint64_t{1} << bank;
      bank_word[bank] = w;
    }
  }
  return true;
}

// Otherwise: per bank, the distinct words asked for, each bank's as a chain through `words`
// (fixed storage, no allocation per access), so that a new word is looked for among its own
// bank's words only; the passes are the most any bank holds.
int bank_passes(const uint64_t* a, uint32_t scope_mask, uint32_t size, uint32_t width_shift, uint32_t banks) {
  constexpr int kMaxBanks = 64, kMaxWords = 32 * 4;
  uint64_t words[kMaxWords];
  int16_t next[kMaxWords];
  int16_t head[kMaxBanks];
  int per_bank[kMaxBanks];
  std::fill_n(head, banks, int16_t{-1});
  std::fill_n(per_bank, banks, 0);
  int n = 0;
  int passes = 1;
  for (uint32_t m = scope_mask; m != 0; m &= m - 1) {
    const uint64_t addr = a[std::countr_zero(m)];
    for (uint64_t w = addr >> width_shift; (w << width_shift) < addr + size; ++w) {
      const uint32_t bank = static_cast<uint32_t>(w) & (banks - 1);  // banks <= 64: the loader's limit
      bool seen = false;
      for (int i = head[bank]; i >= 0 && !seen; i = next[i]) seen = words[i] == w;
      if (seen || n == kMaxWords) continue;  // the same word broadcasts
      words[n] = w;
      next[n] = head[bank];
      head[bank] = static_cast<int16_t>(n++);
      passes = std::max(passes, ++per_bank[bank]);
    }
  }
  return passes;
}

// The most lanes in `mask` that name one address (atomics on one word take a pass each),
// counted from each address's first lane over the lanes after it, without a branch per
// pair. A count per lane of its equals over every lane took 8,000 host instructions a warp
// on G80's histogram; a sort took fewer, but more time (its comparisons go either way).
int most_on_one_address(const uint64_t* a, uint32_t mask) {
  std::array<uint64_t, 32> active;
  int n = 0;
  for (uint32_t m = mask; m != 0; m &= m - 1) active[static_cast<size_t>(n++)] = a[std::countr_zero(m)];
  int most = 1;
  for (int k = 0; k + most < n; ++k) {  // the lanes from k on: no more than n - k on one address
    int same = 1;
    for (int j = k + 1; j < n; ++j) same += active[static_cast<size_t>(j)] == active[static_cast<size_t>(k)];
    most = std::max(most, same);
  }
  return most;
}

}  // namespace

int shared_passes(const uint64_t* a, uint32_t mask, uint32_t size, const SharedAccessConfig& config, bool atomic,
                  std::optional<uint64_t> half_stride) {
  const int scope_threads = config.conflict_scope_threads;
  // Bank count and width are powers of two (checked where they are declared): shifts and masks.
  const auto width_shift = static_cast<uint32_t>(std::countr_zero(static_cast<uint32_t>(config.bank_width_bytes)));
  const auto banks = static_cast<uint32_t>(config.banks);
  if (scope_threads == 32 && mask == 0xFFFFFFFFu && banks >= 32 && !atomic)
    if (const int passes = half_stride ? known_progression_passes(a, *half_stride, size, width_shift, banks)
                                       : progression_passes(a, size, width_shift, banks))
      return passes;
  int total = 0;
  for (int first = 0; first < 32; first += scope_threads) {
    const uint32_t scope_mask = scope_threads >= 32 ? mask : (mask >> first) & ((1u << scope_threads) - 1);
    if (!scope_mask) continue;
    int passes = one_pass(a + first, scope_mask, size, width_shift, banks)
                     ? 1
                     : bank_passes(a + first, scope_mask, size, width_shift, banks);
    if (atomic && config.atomics_serialise_same_word) passes = std::max(passes, most_on_one_address(a + first, scope_mask));
    total += passes;
  }
  return total;
}

}  // namespace gpusim::memory
