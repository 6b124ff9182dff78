#include "memory/cache/sectored_cache.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gpusim::memory {

SectoredCache::SectoredCache(const CacheConfig& c)
    : hashed_(c.set_index == SetIndex::Hashed),
      line_(static_cast<uint32_t>(c.line_bytes)),
      sector_(static_cast<uint32_t>(c.sector_bytes)),
      sectors_per_line_(static_cast<uint32_t>(c.line_bytes / c.sector_bytes)),
      ways_(static_cast<uint32_t>(c.associativity)),
      line_shift_(static_cast<uint32_t>(std::countr_zero(line_))),
      sector_shift_(static_cast<uint32_t>(std::countr_zero(sector_))),
      sets_(static_cast<uint64_t>(c.size_bytes) / (static_cast<uint64_t>(c.line_bytes) * c.associativity)),
      set_mask_(std::has_single_bit(sets_) ? sets_ - 1 : 0),
      stride_(kReady + sectors_per_line_),
      records_(sets_ * ways_ * stride_),  // zeros: every way empty (kNoLine)
      print_stride_((ways_ + 15) / 16 * 16),
      prints_(sets_ * print_stride_),
      set_bits_(static_cast<uint32_t>(std::bit_width(sets_))),
      // Two slots a line the cache can hold: of the lookups of absent lines, about two in five
      // pass the filter when the cache is full.
      held_shift_(64 - static_cast<uint32_t>(std::bit_width(std::bit_ceil(sets_ * ways_ * 2) - 1))),
      held_(sets_ * ways_ <= kFilteredLines ? size_t{1} << (64 - held_shift_) : 0),
      policy_(ReplacementRegistry::instance().make(c.replacement, sets_, ways_)) {}

uint64_t SectoredCache::set_of(uint64_t line) const {
  if (!hashed_) return set_mask_ ? line & set_mask_ : line % sets_;
  // XOR-fold the higher bits of the line number into the set bits: consecutive lines and
  // power-of-two strides alike spread over the sets.
  uint64_t x = line;
  for (uint64_t rest = line >> set_bits_; rest != 0; rest >>= set_bits_) x ^= rest;
  return set_mask_ ? x & set_mask_ : x % sets_;
}

template <class Holds>
int SectoredCache::first_way(uint64_t set, uint8_t print, Holds holds) const {
  const uint8_t* prints = &prints_[set * print_stride_];
#if defined(__SSE2__)
  // Sixteen prints to a comparison (x86-64 always has SSE2).
  const __m128i pattern = _mm_set1_epi8(static_cast<char>(print));
  for (uint32_t base = 0; base < ways_; base += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(prints + base));
    auto hits = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, pattern)));
    if (ways_ - base < 16) hits &= (1u << (ways_ - base)) - 1;  // the padding past the last way
    for (; hits; hits &= hits - 1) {
      const uint32_t way = base + static_cast<uint32_t>(std::countr_zero(hits));
      if (holds(way)) return static_cast<int>(way);
    }
  }
#else
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  const uint64_t pattern = kOnes * print;
  for (uint32_t base = 0; base < ways_; base += 8) {
    uint64_t word;
    std::memcpy(&word, prints + base, sizeof word);
    const uint64_t x = word ^ pattern;
    // A byte's high bit for each zero byte of x (and perhaps for a byte above one: checked).
    for (uint64_t hits = (x - kOnes) & ~x & kHighs; hits; hits &= hits - 1) {
      const uint32_t way = base + static_cast<uint32_t>(std::countr_zero(hits)) / 8;
      if (way < ways_ && holds(way)) return static_cast<int>(way);
    }
  }
#endif
  return -1;
}

int SectoredCache::find(uint64_t line, uint64_t set) const {
  return first_way(set, print_of(line), [this, set, line](uint32_t way) { return line_in(record(set, way)) == line; });
}

int SectoredCache::free_way(uint64_t set) const {
  return first_way(set, print_of(kNoLine), [this, set](uint32_t way) { return line_in(record(set, way)) == kNoLine; });
}

SectoredCache::Place SectoredCache::locate(uint64_t line) const {
  if (line == memo_line_) {
    // Absent stays absent until fill() brings the line, and fill() remembers it then.
    if (memo_way_ < 0) return {memo_set_, -1};
    if (line_in(record(memo_set_, static_cast<uint32_t>(memo_way_))) == line)
      return {memo_set_, memo_way_};  // no other way can hold it
  }
  if (!maybe_held(line)) {  // absent, its set not worked out (a fill that follows does that)
    remember(line, kNoSet, -1);
    return {kNoSet, -1};
  }
  const uint64_t set = set_of(line);
  const int way = find(line, set);
  remember(line, set, way);
  return {set, way};
}

SectoredCache::Probe SectoredCache::probe(uint64_t address, uint64_t now) {
  const uint64_t line = line_of(address);
  const auto [set, way] = locate(line);
  const uint32_t sector = sector_of(address);
  if (way < 0) return {};
  const uint64_t* r = record(set, static_cast<uint32_t>(way));
  if (!(valid_bits(r) >> sector & 1u)) return {};
  const uint64_t ready = r[kReady + sector];
  if (ready > now)
    policy_->continued(set, static_cast<uint32_t>(way));
  else
    policy_->touched(set, static_cast<uint32_t>(way));
  return {true, ready};
}

bool SectoredCache::contains(uint64_t address) const {
  const auto [set, way] = locate(line_of(address));
  return way >= 0 && (valid_bits(record(set, static_cast<uint32_t>(way))) >> sector_of(address) & 1u);
}

bool SectoredCache::write_hit(uint64_t address) {
  const auto [set, way] = locate(line_of(address));
  const uint32_t sector = sector_of(address);
  if (way < 0) return false;
  uint64_t* r = record(set, static_cast<uint32_t>(way));
  if (!(valid_bits(r) >> sector & 1u)) return false;
  set_bits(r, valid_bits(r), dirty_bits(r) | 1u << sector);
  policy_->touched(set, static_cast<uint32_t>(way));
  return true;
}

// Compiled into fill_line() and fill_span(): a call of its own cost the L1s' fills 8%.
[[gnu::always_inline]] inline int SectoredCache::allocate(uint64_t line, uint64_t set, bool evict_first, uint32_t& evicted_dirty) {
  int way = free_way(set);  // a way holds no line exactly when none of its sectors is valid
  if (way < 0) way = static_cast<int>(policy_->victim(set));
  uint64_t* r = record(set, static_cast<uint32_t>(way));
  evicted_dirty = dirty_bits(r) & valid_bits(r);
  set_tag(set, static_cast<uint32_t>(way), line);
  set_bits(r, 0, 0);
  remember(line, set, way);
  if (evict_first)
    policy_->filled_evict_first(set, static_cast<uint32_t>(way));
  else
    policy_->filled(set, static_cast<uint32_t>(way));
  return way;
}

// fill() of `sectors` (a bit each) of `address`'s line, the k-th holding `ready_at` + k x
// `ready_step`: one lookup and one replacement event. Returns the evicted line's dirty
// sectors; `placed`: where the line is. Compiled into fill() and fill_placeholders().
[[gnu::always_inline]] inline uint32_t SectoredCache::fill_line(uint64_t address, uint32_t sectors, uint64_t ready_at,
                                                                bool dirty, bool evict_first, uint64_t ready_step,
                                                                Placed& placed) {
  const uint64_t line = line_of(address);
  const Place p = locate(line);
  const uint64_t set = set_of(p, line);
  int found = p.way;
  uint32_t evicted_dirty = 0;
  if (found < 0)
    found = allocate(line, set, evict_first, evicted_dirty);
  else if (!evict_first)  // another sector of an evict-first line leaves it where it was
    policy_->continued(set, static_cast<uint32_t>(found));
  placed = {set, static_cast<uint32_t>(found)};
  install_sectors(record(set, placed.way), sectors, ready_at, dirty, ready_step);
  return evicted_dirty;
}

uint32_t SectoredCache::fill(uint64_t address, uint64_t ready_at, bool dirty, bool evict_first) {
  Placed placed;
  return fill_line(address, sector_bit(address), ready_at, dirty, evict_first, 0, placed);
}

SectoredCache::SpanFill SectoredCache::fill_span(uint64_t first, uint32_t bytes, uint64_t always, uint64_t ready_at,
                                                 bool evict_first) {
  SpanFill out;
  if (bytes == 0) return out;
  const uint64_t line = line_of(first);
  const Place p = locate(line);
  const uint64_t set = set_of(p, line);
  // The span's sectors as bits (within one line: at most 32 sectors).
  const uint32_t from = sector_of(first), count = static_cast<uint32_t>((bytes + sector_ - 1) >> sector_shift_);
  const uint32_t span = static_cast<uint32_t>(((uint64_t{1} << count) - 1) << from);
  uint32_t installing;  // the sectors to install
  int way = p.way;
  if (way < 0) {
    way = allocate(line, set, evict_first, out.evicted_dirty);
    out.evicted_at = first;
    installing = span;
  } else {
    const uint32_t always_bit = always - first < bytes ? 1u << sector_of(always) : 0u;
    installing = span & (~valid_bits(record(set, static_cast<uint32_t>(way))) | always_bit);  // held ones stay as they are
    if (installing == 0) return out;
    // The chunk's sectors arrive together: one continuation of the access, not one a sector.
    if (!evict_first) policy_->continued(set, static_cast<uint32_t>(way));
  }
  out.filled = install_sectors(record(set, static_cast<uint32_t>(way)), installing, ready_at, false);
  return out;
}

SectoredCache::Placed SectoredCache::fill_placeholders(uint64_t address, uint32_t sectors, uint32_t first) {
  Placed placed;
  fill_line(address, sectors, placeholder(first), false, false, 1, placed);  // the L1 writes through: nothing to write back
  return placed;
}

void SectoredCache::resolve(Placed where, uint64_t address, uint64_t placeholder, uint64_t ready_at) {
  uint64_t* r = record(where.set, where.way);
  if (line_in(r) != line_of(address)) return;
  uint64_t& ready = r[kReady + sector_of(address)];
  if (ready == placeholder) ready = ready_at;
}

void SectoredCache::invalidate(uint64_t address) {
  const auto [set, way] = locate(line_of(address));
  if (way < 0) return;
  uint64_t* r = record(set, static_cast<uint32_t>(way));
  const uint32_t bit = 1u << (sector_of(address));
  set_bits(r, valid_bits(r) & ~bit, dirty_bits(r) & ~bit);
  if (valid_bits(r) == 0) set_tag(set, static_cast<uint32_t>(way), kNoLine);  // the line is gone
}

void SectoredCache::invalidate_all() {
  for (size_t i = 0; i < records_.size(); i += stride_) {
    records_[i + kLine] = tag_of(kNoLine);
    set_bits(&records_[i], 0, 0);
  }
  std::fill(prints_.begin(), prints_.end(), print_of(kNoLine));
  std::fill(held_.begin(), held_.end(), uint8_t{0});
}

uint64_t SectoredCache::capacity_bytes() const { return sets_ * ways_ * line_; }

uint64_t SectoredCache::dirty_sectors() const {
  uint64_t n = 0;
  for (size_t i = 0; i < records_.size(); i += stride_)
    n += static_cast<uint64_t>(std::popcount(dirty_bits(&records_[i]) & valid_bits(&records_[i])));
  return n;
}

}  // namespace gpusim::memory
