#include "memory/l2.hpp"

#include <algorithm>
#include <cmath>

namespace gpusim::memory {

L2::L2(const L2Config& config, Dram& dram, MemoryStats& stats)
    : config_(config),
      cache_(config),
      dram_(dram),
      stats_(stats),
      slice_free_(static_cast<size_t>(config.slices), 0),
      mshrs_(static_cast<size_t>(config.slices), MshrFile(config.mshrs_per_slice)),
      atomic_units_(static_cast<size_t>(config.slices)) {}

engine::Cycle L2::slot(uint64_t address, engine::Cycle arrival, double cycles) {
  double& free = slice_free_[spread(address / cache_.sector_bytes(), slice_free_.size())];
  const double start = std::max(static_cast<double>(arrival), free);
  free = start + cycles;
  return static_cast<engine::Cycle>(std::ceil(start));
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
  const engine::Cycle ready = fetch_chunk(address, sent, now);
  if (mshrs.limited()) mshrs.release(entry, ready);
  return ready;
}

uint32_t L2::chunk_bytes() const {
  return std::max<uint32_t>(static_cast<uint32_t>(config_.fetch_bytes), cache_.sector_bytes());
}

engine::Cycle L2::fetch_chunk(uint64_t address, engine::Cycle sent, engine::Cycle now) {
  // DRAM is read in chunks of fetch_bytes: the missing sector's neighbours in its chunk come
  // too (those already held stay as they are).
  const uint64_t first = address / chunk_bytes() * chunk_bytes();
  const engine::Cycle ready = dram_.access(first, chunk_bytes(), false, sent);
  for (uint64_t a = first; a < first + chunk_bytes(); a += cache_.sector_bytes())
    if (a == address || !cache_.contains(a)) write_back(a, cache_.fill(a, ready, false), now);
  return ready;
}

void L2::write_back(uint64_t address, uint32_t dirty, engine::Cycle now) {
  if (!dirty) return;
  // DRAM is written in chunks too: each chunk holding a dirty sector is written whole.
  const uint32_t per_chunk = chunk_bytes() / cache_.sector_bytes();
  const uint32_t group = static_cast<uint32_t>((uint64_t{1} << per_chunk) - 1);  // up to 32 sectors
  uint32_t chunks = 0;
  for (uint32_t s = 0; s < 32; s += per_chunk) chunks += (dirty >> s & group) != 0;
  dram_.access(address, chunks * chunk_bytes(), true, now);  // write-backs share the channel
}

void L2::write(uint64_t address, bool whole_sector, engine::Cycle arrival) {
  const engine::Cycle at = slot(address, arrival, whole_sector ? 1.0 : config_.partial_write_cycles);
  if (cache_.write_hit(address)) return;
  if (!whole_sector && config_.partial_write_reads) {
    // The sector's other bytes must come from DRAM before it can be merged (and its ECC
    // computed): the chunk is read, then the sector is written.
    fetch_chunk(address, at, at);
    cache_.write_hit(address);
    return;
  }
  write_back(address, cache_.fill(address, at, true), at);
}

engine::Cycle L2::atomic(uint64_t address, uint64_t word, uint32_t serial, bool floating, engine::Cycle arrival) {
  const engine::Cycle at = slot(address, arrival);
  engine::Cycle there = at;  // when the sector's old value is in the slice
  if (cache_.contains(address)) {
    ++stats_.l2_hits;
  } else {
    ++stats_.l2_misses;
    const engine::Cycle ready = fetch_chunk(address, at, at);  // at the SM: an L2 trip after the slice
    const auto trip = static_cast<engine::Cycle>(config_.latency);
    there = ready > at + trip ? ready - trip : at;
  }
  cache_.write_hit(address);
  // The line's home slice (a line lives in one slice) takes a sector's updates per
  // atomic_cycles; updates to one word wait for the one before (micro_atomics_global: words
  // of a line in parallel, one word's float updates 2.4x slower than its integer ones).
  AtomicUnit& unit = atomic_units_[spread(address / static_cast<uint64_t>(config_.line_bytes), atomic_units_.size())];
  double start = std::max(unit.free, static_cast<double>(there));
  if (word == unit.word) start = std::max(start, unit.word_done);
  const double each = floating ? config_.atomic_float_cycles : config_.atomic_cycles;
  unit.free = start + config_.atomic_cycles + (serial - 1) * each;
  unit.word = word;
  unit.word_done = start + serial * each;
  return static_cast<engine::Cycle>(std::ceil(unit.word_done)) + static_cast<engine::Cycle>(config_.latency);
}

engine::Cycle L2::drained_at() const {
  engine::Cycle last = 0;
  for (double f : slice_free_) last = std::max(last, static_cast<engine::Cycle>(std::ceil(f)));
  for (const AtomicUnit& u : atomic_units_) last = std::max(last, static_cast<engine::Cycle>(std::ceil(u.word_done)));
  return last;
}

}  // namespace gpusim::memory
