// Lane tests on the hot paths. std::popcount becomes a call into libgcc on baseline x86-64
// (no POPCNT instruction assumed); lane_count is the same count inline.
#pragma once

#include <emmintrin.h>  // SSE2, which every x86-64 host has

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpusim::util {

constexpr int lane_count(uint32_t mask) {
  if (mask == 0xFFFFFFFFu) return 32;  // a full warp, by far the most common: one comparison
  mask = mask - ((mask >> 1) & 0x55555555u);
  mask = (mask & 0x33333333u) + ((mask >> 2) & 0x33333333u);
  mask = (mask + (mask >> 4)) & 0x0F0F0F0Fu;
  return static_cast<int>((mask * 0x01010101u) >> 24);
}

static_assert(lane_count(0) == 0 && lane_count(0xFFFFFFFFu) == 32 && lane_count(0x80000001u) == 2 &&
              lane_count(0x0F0F0F0Fu) == 16);

// `a` rounded down to a multiple of `unit`, a power of two (a mask where a division would be).
constexpr uint64_t align_down(uint64_t a, uint64_t unit) { return a & ~(unit - 1); }

// Whether 32 lanes' addresses run on `size` bytes apart from the first (without wrapping past
// the top): a full warp reading consecutive elements, the case the memory path shortcuts.
// (Neighbours' differences, not a[0] + k * size: SSE2 has no 64-bit multiply; and any
// difference's bits set apart from `size`'s by XOR and OR, not compared: nor a 64-bit compare.
// So this vectorises.)
constexpr bool consecutive_lanes(const uint64_t* a, uint64_t size) {
  uint64_t off = 0;
  for (uint64_t k = 1; k < 32; ++k) off |= (a[k] - a[k - 1]) ^ size;
  return off == 0 && a[0] <= ~uint64_t{0} - 32 * size;
}

// Whether, within each half-warp (lanes 0-15, 16-31), each lane's value is its neighbour's
// plus `step` (modulo 2^64): one progression per half, the halves' starts unrelated. By
// differences in counted loops, which vectorise (SSE2 has no 64-bit multiply for a[0] + k * step).
constexpr bool halves_step_by(const uint64_t* a, uint64_t step) {
  uint64_t off = 0;
  for (int k = 1; k < 16; ++k) off |= (a[k] - a[k - 1]) ^ step;
  for (int k = 17; k < 32; ++k) off |= (a[k] - a[k - 1]) ^ step;
  return off == 0;
}

// 32 lanes' flags (each byte 0 or 1) as a mask, lane l in bit l. Eight at a time: the multiply
// moves byte i's bit to bit 56 + i, and no two of its partial products meet, so nothing carries.
constexpr uint32_t pack_lanes(const uint8_t* flags) {
  static_assert(std::endian::native == std::endian::little, "the byte order the multiply assumes");
  uint32_t mask = 0;
  for (int group = 0; group < 4; ++group) {
    uint64_t eight = 0;  // little-endian, as x86 and the constant-evaluated loop agree
    if (std::is_constant_evaluated()) {
      for (int i = 0; i < 8; ++i) eight |= uint64_t{flags[group * 8 + i]} << (8 * i);
    } else {
      std::memcpy(&eight, flags + group * 8, 8);
    }
    mask |= static_cast<uint32_t>((eight * 0x0102040810204080ull) >> 56) << (8 * group);
  }
  return mask;
}

// The inverse: flags[l] = bit l of `mask`. Eight at a time: the byte copied to all eight
// places, byte i keeping bit i, then each byte's "any bit set" moved to its low bit.
constexpr void unpack_lanes(uint32_t mask, uint8_t* flags) {
  constexpr uint64_t kLows = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  for (int group = 0; group < 4; ++group) {
    const uint64_t picked = ((mask >> (8 * group)) & 0xFFu) * kLows & 0x8040201008040201ull;
    const uint64_t any = ((((picked & ~kHighs) + ~kHighs) | picked) & kHighs) >> 7;
    for (int i = 0; i < 8; ++i) flags[group * 8 + i] = static_cast<uint8_t>(any >> (8 * i));
  }
}

// The lanes whose word has bit 0 set, as a mask (a predicate register's lanes, lane l in
// bit l): four at a time, bit 0 shifted to the sign bit, which movemask gathers.
inline uint32_t lanes_with_low_bit(const uint32_t* words) {
  uint32_t mask = 0;
  for (int quad = 0; quad < 8; ++quad) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(words + 4 * quad));
    mask |= static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_slli_epi32(v, 31)))) << (4 * quad);
  }
  return mask;
}

// Each lane's bit of a lane mask, for loops over the lanes that test it without a shift by a
// variable (which SSE2 does not have): they vectorise.
inline constexpr uint32_t kLaneBit[32] = {
    1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
    1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};

namespace bits_check {
constexpr uint8_t kOnes[32] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                               1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
constexpr uint8_t kSome[32] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0,
                               0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1};
static_assert(pack_lanes(kOnes) == 0xFFFFFFFFu && pack_lanes(kSome) == 0xC0000281u);
constexpr bool round_trips(uint32_t mask) {
  uint8_t flags[32] = {};
  unpack_lanes(mask, flags);
  for (uint8_t f : flags)
    if (f > 1) return false;
  return pack_lanes(flags) == mask;
}
constexpr bool halves_check() {
  uint64_t a[32] = {};
  for (int k = 0; k < 32; ++k) a[k] = k < 16 ? 64 + 4 * k : 1000 + 4 * (k - 16);  // two rows, 4 bytes apart
  const bool rows = halves_step_by(a, 4) && !halves_step_by(a, 0);
  a[20] += 1;
  return rows && !halves_step_by(a, 4);
}
static_assert(halves_check());
constexpr bool consecutive_check() {
  uint64_t a[32] = {};
  for (int k = 0; k < 32; ++k) a[k] = 4096 + 8 * static_cast<uint64_t>(k);
  const bool run = consecutive_lanes(a, 8) && !consecutive_lanes(a, 4);
  a[31] += 1;  // one lane off the run
  const bool broken = !consecutive_lanes(a, 8);
  for (int k = 0; k < 32; ++k) a[k] = ~uint64_t{0} - 64 + 4 * static_cast<uint64_t>(k);  // past 2^64 at the end
  return run && broken && !consecutive_lanes(a, 4);
}
static_assert(consecutive_check());
static_assert(round_trips(0) && round_trips(0xFFFFFFFFu) && round_trips(0xC0000281u) && round_trips(0x5A5AA5A5u) &&
              round_trips(0x80808080u) && round_trips(0x01010101u));
}  // namespace bits_check

}  // namespace gpusim::util
