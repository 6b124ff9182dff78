// The shared L2: slices (addresses hashed over them) that each take one sector per
// cycle, so requests queue in front of a busy slice; a sectored write-back cache; per
// slice, miss-status registers that bound the DRAM reads in flight, and an atomic unit
// that applies atomics to the lines the slice holds. The cache may be split into
// partitions (the H100's two): each line has a home partition, and an SM reads through its
// near one, which keeps clean copies of lines homed far away (a far hit costs the hop
// once); a write or an atomic updates the home and drops the copies elsewhere.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/event_queue.hpp"
#include "memory/cache/cache_config.hpp"
#include "memory/cache/sectored_cache.hpp"
#include "memory/dram/dram.hpp"
#include "memory/l2_occupancy.hpp"
#include "memory/memory_stats.hpp"
#include "memory/mshr.hpp"

namespace gpusim::memory {

class L2 {
 public:
  // `sm_count` SMs send requests (each names its SM).
  L2(const L2Config& config, int sm_count, Dram& dram, MemoryStats& stats);
  // A sector read from SM `sm` arriving at `arrival`; returns when its data reaches the SM.
  // `new_line`: the first sector of its line's read request, which holds the sector's slice
  // read_request_cycles before the sector's own read_sector_cycles (unless it merges into a
  // read still queued there).
  engine::Cycle read(uint64_t address, uint32_t sm, engine::Cycle arrival, bool new_line = false);
  // A sector write arriving at `arrival` (all of its bytes, or some): the sector becomes dirty,
  // and reaches DRAM when evicted. Returns when the write's acknowledgement reaches the SM
  // (a kernel is complete only when every write is).
  engine::Cycle write(uint64_t address, bool whole_sector, uint32_t sm, engine::Cycle arrival);
  // The request of a write to the line holding `address` (its first sector written) arriving at
  // `arrival`: it holds that sector's slice write_request_cycles before the sectors' writes.
  void write_request(uint64_t address, engine::Cycle arrival);
  // Atomic updates to the sector at `address` arriving at `arrival`, `serial` of them to the
  // word at `word` (the rest to other words, alongside): the line's slice applies them in its
  // atomic unit once the sector is there. Returns when the old values reach the SM.
  engine::Cycle atomic(uint64_t address, uint64_t word, uint32_t serial, bool floating, uint32_t sm,
                       engine::Cycle arrival);
  uint32_t sector_bytes() const { return parts_.front().sector_bytes(); }
  uint32_t line_bytes() const { return parts_.front().line_bytes(); }
  uint64_t capacity_bytes() const;
  L2Occupancy occupancy() const;
  // Whether every line of `ranges` fits in its home partition's set beside the lines that
  // set holds at home now, so that no line at home would be evicted (copies of lines homed
  // elsewhere are clean and go first).
  bool keeps_all(std::span<const AddressRange> ranges) const;
  // The partition `address`'s line lives in (its home).
  uint32_t home(uint64_t address) const;
  // When the last request queued so far leaves its slice.
  engine::Cycle drained_at() const;

 private:
  // A read the slice takes at `now`: hit, far hit or miss (`slice`: the sector's, slice_of()).
  engine::Cycle read_at_slice(uint64_t address, size_t slice, uint32_t sm, engine::Cycle now);
  // The slice that takes the sector at `address`.
  size_t slice_of(uint64_t address) const;
  // When the sector's slice, free from `arrival`, takes it (and is busy `cycles` with it).
  engine::Cycle slot(uint64_t address, engine::Cycle arrival, double cycles = 1);
  // slot(), for a sector whose slice the caller has found.
  engine::Cycle slot_at(size_t slice, engine::Cycle arrival, double cycles);
  uint32_t chunk_bytes() const;  // what one DRAM access moves
  uint64_t atomic_unit_key(uint64_t line) const;  // lines with one key share an atomic unit
  struct Fetched {
    engine::Cycle ready;  // when the data reaches the SM
    int filled;           // sectors installed at home (the chunk's others may be there already)
  };
  // Reads the DRAM chunk holding the missing sector at `address`, sent at `sent`, and installs
  // it in its home partition `at_home` (and a copy in `near`).
  Fetched fetch_chunk(uint64_t address, uint32_t at_home, uint32_t near, engine::Cycle sent, engine::Cycle now);
  // Writes an evicted line's dirty sectors (`dirty`, a bit each) to DRAM.
  void write_back(uint64_t address, uint32_t dirty, engine::Cycle now);
  // Installs a sector in partition `part`, writing back the dirty line it evicts.
  void install(uint32_t part, uint64_t address, engine::Cycle ready, bool dirty, engine::Cycle now,
               bool evict_first = false);
  // After the home's copy of a sector changed (`at_home`, as the caller found it): `keep`
  // (the writer's near partition) takes a clean copy when it is not the home, and every
  // other partition drops its copy.
  void update_copies(uint64_t address, uint32_t at_home, uint32_t keep, engine::Cycle now);

  L2Config config_;
  std::vector<SectoredCache> parts_;  // the partitions' caches (one when unpartitioned)
  uint32_t sector_shift_ = 0;         // log2 of the sector size (a power of two)
  std::vector<uint32_t> near_;        // per SM: its near partition
  Dram& dram_;
  MemoryStats& stats_;
  std::vector<double> slice_free_;  // per slice, in fractional cycles: one sector per cycle
  std::vector<MshrFile> mshrs_;            // per slice
  struct QueuedRead {
    uint64_t sector = ~uint64_t{0};
    engine::Cycle start = 0;  // when the slice takes it
    engine::Cycle ready = 0;  // when its data reaches the SM
  };
  std::vector<QueuedRead> queued_;  // per slice, merged_reads entries: the last sectors read
  std::vector<uint32_t> queued_next_;  // per slice: the entry the next read replaces
  struct AtomicUnit {  // per slice; times in fractional cycles
    double free = 0;        // when it takes the next sector's updates
    uint64_t word = ~uint64_t{0};  // the word it updated last
    double word_done = 0;   // when that word's last update is done
  };
  std::vector<AtomicUnit> atomic_units_;
};

}  // namespace gpusim::memory
