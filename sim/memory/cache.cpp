#include "memory/cache.hpp"

#include <bit>

namespace gpusim::memory {

SectoredCache::SectoredCache(const arch::Cache& g)
    : line_(static_cast<uint32_t>(g.line_bytes)),
      sector_(static_cast<uint32_t>(g.sector_bytes)),
      sectors_per_line_(static_cast<uint32_t>(g.line_bytes / g.sector_bytes)),
      ways_(static_cast<uint32_t>(g.associativity)),
      sets_(static_cast<uint64_t>(g.size_bytes) / (static_cast<uint64_t>(g.line_bytes) * g.associativity)) {
  ways_storage_.resize(sets_ * ways_);
  for (Way& w : ways_storage_) w.ready.assign(sectors_per_line_, 0);
}

SectoredCache::Way* SectoredCache::find(uint64_t line, uint64_t set) {
  Way* base = &ways_storage_[set * ways_];
  for (uint32_t i = 0; i < ways_; ++i)
    if (base[i].tag == line && base[i].valid) return &base[i];
  return nullptr;
}

SectoredCache::Probe SectoredCache::probe(uint64_t address, uint64_t) {
  const uint64_t line = address / line_;
  const uint32_t sector = static_cast<uint32_t>(address % line_ / sector_);
  Way* w = find(line, line % sets_);
  if (!w || !(w->valid >> sector & 1u)) return {};
  w->last_use = ++tick_;
  return {true, w->ready[sector]};
}

bool SectoredCache::write_hit(uint64_t address, uint64_t) {
  const uint64_t line = address / line_;
  const uint32_t sector = static_cast<uint32_t>(address % line_ / sector_);
  Way* w = find(line, line % sets_);
  if (!w || !(w->valid >> sector & 1u)) return false;
  w->dirty |= 1u << sector;
  w->last_use = ++tick_;
  return true;
}

uint32_t SectoredCache::fill(uint64_t address, uint64_t ready_at, bool dirty, uint64_t) {
  const uint64_t line = address / line_;
  const uint64_t set = line % sets_;
  const uint32_t sector = static_cast<uint32_t>(address % line_ / sector_);
  uint32_t evicted_dirty = 0;
  Way* w = find(line, set);
  if (!w) {  // allocate: an invalid way, else the least recently used
    Way* base = &ways_storage_[set * ways_];
    w = &base[0];
    for (uint32_t i = 0; i < ways_; ++i) {
      if (!base[i].valid) {
        w = &base[i];
        break;
      }
      if (base[i].last_use < w->last_use) w = &base[i];
    }
    evicted_dirty = static_cast<uint32_t>(std::popcount(w->dirty & w->valid));
    w->tag = line;
    w->valid = 0;
    w->dirty = 0;
  }
  w->valid |= 1u << sector;
  if (dirty) w->dirty |= 1u << sector;
  w->ready[sector] = ready_at;
  w->last_use = ++tick_;
  return evicted_dirty;
}

uint64_t SectoredCache::dirty_sectors() const {
  uint64_t n = 0;
  for (const Way& w : ways_storage_) n += static_cast<uint64_t>(std::popcount(w.dirty & w.valid));
  return n;
}

}  // namespace gpusim::memory
