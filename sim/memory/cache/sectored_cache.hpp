// A sectored, set-associative cache. Sectors remember when their data arrives, so a
// second miss to a sector already on its way merges with the first (what MSHRs do)
// instead of going to the next level again. Which way a full set gives up is the
// replacement policy's choice (a plug-in, replacement/).
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "memory/cache/cache_config.hpp"
#include "memory/cache/replacement.hpp"
#include "util/bytes.hpp"

namespace gpusim::memory {

class SectoredCache {
 public:
  explicit SectoredCache(const CacheConfig& config);

  struct Probe {
    bool present = false;   // the sector is in the cache (possibly still arriving)
    uint64_t ready_at = 0;  // when its data is there
  };
  // Looks a sector up (address anywhere in it) at `now`, telling the policy on a hit: a sector
  // still arriving then continues the access that asked for it.
  Probe probe(uint64_t address, uint64_t now = ~uint64_t{0});
  // Whether a sector is present (or on its way), without touching the replacement state.
  bool contains(uint64_t address) const;
  // Installs a sector arriving at `ready_at`; returns the evicted line's dirty sectors (a bit each).
  // A new line installed `evict_first` is the set's next victim unless it is hit before.
  uint32_t fill(uint64_t address, uint64_t ready_at, bool dirty, bool evict_first = false);
  // fill(), clean, of each sector of [first, first + bytes) (within one line) that is absent,
  // and of `always`'s present or not: one lookup and one replacement event for them all (a
  // DRAM chunk's sectors arrive together). The line evicted, if any, was evicted at `evicted_at`.
  struct SpanFill {
    uint32_t evicted_dirty = 0;  // as fill() returns
    uint64_t evicted_at = 0;     // the sector address whose fill evicted it
    int filled = 0;              // sectors filled
  };
  SpanFill fill_span(uint64_t first, uint32_t bytes, uint64_t always, uint64_t ready_at, bool evict_first = false);
  // A sector installed before its data's time is known (the reads that bring it are done
  // later, in order) holds placeholder(i) until resolve() sets the time; a probe returns
  // the placeholder meanwhile, and nothing here compares it.
  static constexpr uint64_t kPlaceholderBase = uint64_t{1} << 62;
  static uint64_t placeholder(uint32_t i) { return kPlaceholderBase + i; }
  static bool is_placeholder(uint64_t ready_at) { return ready_at >= kPlaceholderBase; }
  // Where fill_placeholders() put a line: resolve() looks there, without a search.
  struct Placed {
    uint64_t set;
    uint32_t way;
  };
  // fill(), clean, of sectors of `address`'s line whose time is not known yet: `sectors` a
  // bit each (sector_bit()), all absent, the k-th from the lowest holding placeholder(first +
  // k). One lookup and one replacement event for them all: a request's misses in one line,
  // probed together, are one access.
  Placed fill_placeholders(uint64_t address, uint32_t sectors, uint32_t first);
  // `address`'s sector's bit in such a mask.
  uint32_t sector_bit(uint64_t address) const { return 1u << sector_of(address); }
  // Sets the time of `address`'s sector, placed at `where`, if it still holds `placeholder`.
  // The line may have been evicted since (another in its way): no other way then holds the
  // placeholder, as a line filled again gets a placeholder of its own.
  void resolve(Placed where, uint64_t address, uint64_t placeholder, uint64_t ready_at);
  // Marks a present sector dirty (a write hit); false when absent.
  bool write_hit(uint64_t address);
  // Drops one sector (a copy made stale by a write elsewhere); its dirty bit goes with it.
  void invalidate(uint64_t address);
  // Drops every line (an L1 at a kernel boundary: it is not coherent).
  void invalidate_all();

  uint32_t sector_bytes() const { return sector_; }
  uint32_t line_bytes() const { return line_; }
  // Dirty sectors still held (written back at the end).
  uint64_t dirty_sectors() const;
  uint64_t capacity_bytes() const;
  // Sectors installed that were not held, since construction: how much data has entered.
  uint64_t filled_sectors() const { return filled_sectors_; }
  uint32_t ways() const { return ways_; }
  uint64_t sets() const { return sets_; }
  // The set the line holding `address` maps to.
  uint64_t set_of_address(uint64_t address) const { return set_of(line_of(address)); }
  // Per set, how many of its ways hold a line (one whose address `counts`, when given).
  template <class Counts>
  std::vector<uint32_t> lines_per_set(Counts counts) const {
    std::vector<uint32_t> lines(sets_, 0);
    for (size_t i = 0; i < sets_ * ways_; ++i) {
      const uint64_t line = line_in(&records_[i * stride_]);
      lines[i / ways_] += line != kNoLine && counts(line << line_shift_);
    }
    return lines;
  }
  std::vector<uint32_t> lines_per_set() const {
    return lines_per_set([](uint64_t) { return true; });
  }

 private:
  // No line: what a way without a valid sector holds (a free way is one that holds this).
  // A way keeps its line inverted and its print relative to this one's, so that an empty
  // way is all zeros: a cache is made, or its arrays mapped, without writing them (an H100's
  // L2 and L1s are about 40 MB, whose zero fill took 15% of a short run's time).
  static constexpr uint64_t kNoLine = ~0ull;
  int find(uint64_t line, uint64_t set) const;  // way index, or -1
  int free_way(uint64_t set) const;             // the first way holding no line, or -1
  // Gives `line` a way of `set` (an empty one, else the policy's victim); returns the way and
  // sets `evicted_dirty` to the dirty sectors of the line it held.
  int allocate(uint64_t line, uint64_t set, bool evict_first, uint32_t& evicted_dirty);
  uint32_t fill_line(uint64_t address, uint32_t sectors, uint64_t ready_at, bool dirty, bool evict_first,
                     uint64_t ready_step, Placed& placed);
  // Marks `sectors` (a bit each) of the record `r` valid (dirty too if `dirty`), the k-th
  // one's data (from the lowest) there at `ready_at` + k x `ready_step` (placeholders: one
  // each); returns how many. A few bits at most: no popcount (a libgcc call here).
  int install_sectors(uint64_t* r, uint32_t sectors, uint64_t ready_at, bool dirty, uint64_t ready_step = 0) {
    const uint32_t held = valid_bits(r);
    int n = 0;
    for (uint32_t left = sectors; left; left &= left - 1, ++n) {
      const auto sector = static_cast<uint32_t>(std::countr_zero(left));
      r[kReady + sector] = ready_at + static_cast<uint64_t>(n) * ready_step;
      filled_sectors_ += !(held >> sector & 1u);
    }
    set_bits(r, held | sectors, dirty_bits(r) | (dirty ? sectors : 0u));
    return n;
  }
  // One byte per way, a hash of the line it holds (of kNoLine when none): a set's search
  // compares the bytes, sixteen at a time, and reads the tags only where one matches. A
  // set's bytes are half a host cache line where its tags are four (32 ways).
  static constexpr uint8_t hash_of(uint64_t line) { return static_cast<uint8_t>((line * 0x9E3779B97F4A7C15ull) >> 56); }
  static constexpr uint8_t print_of(uint64_t line) { return hash_of(line) ^ hash_of(kNoLine); }  // kNoLine: 0
  // A record's line word and the line it holds (kNoLine: 0), each the other's inverse.
  static constexpr uint64_t tag_of(uint64_t line) { return ~line; }
  static uint64_t line_in(const uint64_t* r) { return ~r[kLine]; }
  void set_tag(uint64_t set, uint32_t way, uint64_t line) {
    uint64_t& tag = record(set, way)[kLine];
    if (tag != tag_of(kNoLine)) count_held(~tag, -1);
    if (line != kNoLine) count_held(line, +1);
    tag = tag_of(line);
    prints_[set * print_stride_ + way] = print_of(line);
  }
  // How many held lines hash to each slot of held_ (a counting filter): a line whose slot
  // counts none is not held, found without its set's search (most lookups of a scattered
  // access miss). A count that reaches its top stays there: never a line missed. Kept for a
  // small cache (an L1) only: a large one's filter would be one more host cache miss a lookup.
  static constexpr uint64_t kFilteredLines = 16384;
  static constexpr uint8_t kHeldTop = 0xFF;
  size_t held_slot(uint64_t line) const { return static_cast<size_t>((line * 0xD6E8FEB86659FD93ull) >> held_shift_); }
  bool maybe_held(uint64_t line) const { return held_.empty() || held_[held_slot(line)] != 0; }
  // A line comes (+1) or goes (-1).
  void count_held(uint64_t line, int by) {
    if (held_.empty()) return;
    uint8_t& n = held_[held_slot(line)];
    if (n != kHeldTop) n = static_cast<uint8_t>(n + by);
  }
  // A way's record in records_ (stride_ words): the line it holds, its sectors' valid and
  // dirty bits, and when each sector's data arrives. One place: a hit, found by the prints,
  // reads one or two host cache lines of it where separate arrays were three.
  static constexpr size_t kLine = 0, kBits = 1, kReady = 2;
  uint64_t* record(uint64_t set, uint32_t way) { return &records_[(set * ways_ + way) * stride_]; }
  const uint64_t* record(uint64_t set, uint32_t way) const { return &records_[(set * ways_ + way) * stride_]; }
  static uint32_t valid_bits(const uint64_t* r) { return static_cast<uint32_t>(r[kBits]); }
  static uint32_t dirty_bits(const uint64_t* r) { return static_cast<uint32_t>(r[kBits] >> 32); }
  static void set_bits(uint64_t* r, uint32_t valid, uint32_t dirty) { r[kBits] = valid | uint64_t{dirty} << 32; }
  // The first way of `set` whose print is `print` and that `holds`, or -1.
  template <class Holds>
  int first_way(uint64_t set, uint8_t print, Holds holds) const;
  uint64_t set_of(uint64_t line) const;
  // Line and sector sizes are powers of two (cache_config.hpp checks): shifts, not divisions.
  uint64_t line_of(uint64_t address) const { return address >> line_shift_; }
  uint32_t sector_of(uint64_t address) const {
    return static_cast<uint32_t>((address & (uint64_t{line_} - 1)) >> sector_shift_);
  }
  // The line's set and the way holding it (-1: none). The sectors of one request come one
  // after another, and a miss's fill follows its probe, so the last line looked up is checked
  // first, before any set is computed.
  struct Place {
    uint64_t set;
    int way;
  };
  // A line that maybe_held() rules out comes back as {kNoSet, -1}, its set not worked out:
  // set_of(p, line) works it out where a miss needs it (a fill).
  static constexpr uint64_t kNoSet = ~0ull;
  Place locate(uint64_t line) const;
  uint64_t set_of(Place p, uint64_t line) const { return p.set != kNoSet ? p.set : set_of(line); }
  void remember(uint64_t line, uint64_t set, int way) const {
    memo_line_ = line;
    memo_set_ = set;
    memo_way_ = way;
  }

  bool hashed_;
  uint32_t line_, sector_, sectors_per_line_, ways_;
  uint32_t line_shift_, sector_shift_;
  uint64_t sets_;
  uint64_t set_mask_;  // sets_ - 1 where sets_ is a power of two, else 0 (then a division)
  size_t stride_;                   // words of a way's record: kReady + sectors per line
  util::PresentZeros<uint64_t> records_;  // sets x ways records (see record()); zeros: every way empty
  uint32_t print_stride_;  // ways rounded up to 16: the bytes of a set's prints
  util::Bytes prints_;     // sets x print_stride_ (see print_of)
  uint32_t set_bits_;               // bits of a set number (the hashed index folds by this)
  uint32_t held_shift_;             // 64 - log2 of held_'s slots
  util::PresentZeros<uint8_t> held_;  // see maybe_held(); empty: no filter
  std::unique_ptr<ReplacementPolicy> policy_;
  mutable uint64_t memo_line_ = ~0ull, memo_set_ = 0;  // the last line looked up, and where
  mutable int memo_way_ = 0;
  uint64_t filled_sectors_ = 0;
};

}  // namespace gpusim::memory
