#include "memory/l2.hpp"

#include <algorithm>

namespace gpusim::memory {

L2::L2(const L2Config& config, Dram& dram, MemoryStats& stats)
    : config_(config),
      cache_(config),
      dram_(dram),
      stats_(stats),
      slice_free_(static_cast<size_t>(config.slices), 0),
      mshrs_(static_cast<size_t>(config.slices), MshrFile(config.mshrs_per_slice)) {}

engine::Cycle L2::slot(uint64_t address, engine::Cycle arrival) {
  engine::Cycle& free = slice_free_[spread(address / cache_.sector_bytes(), slice_free_.size())];
  const engine::Cycle start = std::max(arrival, free);
  free = start + 1;
  return start;
}

engine::Cycle L2::read(uint64_t address, engine::Cycle arrival) {
  const engine::Cycle now = slot(address, arrival);  // queueing at the slice
  const SectoredCache::Probe p = cache_.probe(address);
  if (p.present) {
    ++stats_.l2_hits;
    return std::max(now + static_cast<engine::Cycle>(config_.latency), p.ready_at);
  }
  ++stats_.l2_misses;
  MshrFile& mshrs = mshrs_[spread(address / cache_.sector_bytes(), mshrs_.size())];
  engine::Cycle sent = now;
  size_t entry = 0;
  if (mshrs.limited()) {
    sent = mshrs.free_at(now);
    entry = mshrs.acquire(now);
  }
  const engine::Cycle ready = dram_.access(address, cache_.sector_bytes(), false, sent);
  if (mshrs.limited()) mshrs.release(entry, ready);
  const uint32_t evicted_dirty = cache_.fill(address, ready, false);
  if (evicted_dirty) dram_.access(address, evicted_dirty * cache_.sector_bytes(), true, now);  // write-backs share the channel
  return ready;
}

void L2::write(uint64_t address, engine::Cycle arrival) {
  const engine::Cycle at = slot(address, arrival);
  if (cache_.write_hit(address)) return;
  const uint32_t evicted_dirty = cache_.fill(address, at, true);
  if (evicted_dirty) dram_.access(address, evicted_dirty * cache_.sector_bytes(), true, at);
}

engine::Cycle L2::drained_at() const {
  engine::Cycle last = 0;
  for (engine::Cycle f : slice_free_) last = std::max(last, f);
  return last;
}

}  // namespace gpusim::memory
