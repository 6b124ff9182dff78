#include "memory/hierarchy.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "memory/coalescer.hpp"

namespace gpusim::memory {

using kernel::CacheOp;
using kernel::StateSpace;

namespace {
constexpr uint32_t kSector = 32;
constexpr uint64_t kChannelInterleave = 256;  // bytes mapped to one channel before the next

// GPUs hash addresses onto L2 slices and DRAM channels so that power-of-two strides
// spread out; a multiplicative hash does the same here, deterministically.
size_t spread(uint64_t block, size_t n) { return static_cast<size_t>(((block * 0x9E3779B97F4A7C15ull) >> 32) % n); }
}  // namespace

MemoryHierarchy::MemoryHierarchy(const arch::ArchConfig& arch) : arch_(arch) {
  if (arch.memory.l1)
    for (int i = 0; i < arch.gpu.sm_count; ++i) l1_.emplace_back(*arch.memory.l1);
  if (arch.memory.l2) l2_.emplace(*arch.memory.l2);
  channel_free_.assign(static_cast<size_t>(arch.memory.dram.channels), 0.0);
  if (arch.memory.l2) slice_free_.assign(static_cast<size_t>(arch.memory.l2->slices), 0);
  miss_port_free_.assign(static_cast<size_t>(arch.gpu.sm_count), 0);
  const double bytes_per_cycle = arch.memory.dram.bandwidth_gbs * 1e9 / (arch.gpu.core_clock_mhz * 1e6);
  bytes_per_cycle_per_channel_ = bytes_per_cycle / arch.memory.dram.channels;
}

void MemoryHierarchy::start_kernel() {
  std::fill(channel_free_.begin(), channel_free_.end(), 0.0);
  std::fill(slice_free_.begin(), slice_free_.end(), 0);
  std::fill(miss_port_free_.begin(), miss_port_free_.end(), 0);
}

uint64_t MemoryHierarchy::departure(uint32_t sm, uint64_t address, uint64_t now) {
  const int cycles = arch_.memory.l1 ? arch_.memory.l1->miss_line_cycles : 0;
  if (cycles == 0) return now;
  const uint64_t line = address / 128;
  for (const auto& [l, at] : departed_)
    if (l == line) return at;
  uint64_t& free = miss_port_free_[sm];
  const uint64_t at = std::max(now, free);
  free = at + static_cast<uint64_t>(cycles);
  departed_.emplace_back(line, at);
  return at;
}

uint64_t MemoryHierarchy::drained_at() const {
  double last = 0;
  for (double f : channel_free_) last = std::max(last, f);
  uint64_t end = static_cast<uint64_t>(std::ceil(last));
  for (uint64_t f : slice_free_) end = std::max(end, f);
  return end;
}

uint64_t MemoryHierarchy::l2_slot(uint64_t address, uint64_t now) {
  uint64_t& free = slice_free_[spread(address / kSector, slice_free_.size())];
  const uint64_t start = std::max(now, free);
  free = start + 1;
  return start;
}

uint64_t MemoryHierarchy::dram(uint64_t address, uint32_t bytes, bool write, uint64_t now) {
  double& free = channel_free_[spread(address / kChannelInterleave, channel_free_.size())];
  const double start = std::max(static_cast<double>(now), free);
  free = start + bytes / bytes_per_cycle_per_channel_;
  (write ? stats_.dram_write_bytes : stats_.dram_read_bytes) += bytes;
  return static_cast<uint64_t>(std::ceil(free)) + static_cast<uint64_t>(arch_.memory.dram.latency);
}

uint64_t MemoryHierarchy::l2_read(uint64_t address, uint64_t arrival) {
  if (!l2_) return dram(address, kSector, false, arrival);
  const uint64_t now = l2_slot(address, arrival);  // queueing at the slice
  const SectoredCache::Probe p = l2_->probe(address, now);
  if (p.present) {
    ++stats_.l2_hits;
    return std::max(now + static_cast<uint64_t>(arch_.memory.l2->latency), p.ready_at);
  }
  ++stats_.l2_misses;
  const uint64_t ready = dram(address, kSector, false, now);
  const uint32_t evicted_dirty = l2_->fill(address, ready, false, now);
  if (evicted_dirty) dram(address, evicted_dirty * kSector, true, now);  // write-backs share the channel
  return ready;
}

bool MemoryHierarchy::through_l1(const MemoryRequest& r) const {
  if (l1_.empty() || r.is_store || r.is_atomic) return false;
  if (r.space == StateSpace::Local) return true;
  switch (r.cache_op) {
    case CacheOp::CacheAll: return true;
    case CacheOp::CacheGlobal:
    case CacheOp::Streaming: return false;
    case CacheOp::NonCoherent:  // the read-only data path exists from 3.5; before it, a plain load
      if (arch_.gpu.compute_capability >= arch::ComputeCapability{3, 5}) return true;
      break;
    case CacheOp::Default: break;
  }
  return arch_.memory.l1->caches_global_loads;
}

MemoryResponse MemoryHierarchy::shared(const MemoryRequest& r) {
  const auto& s = arch_.shared_memory;
  const int passes = shared_passes(r.addresses, r.mask, r.bytes_per_lane, s.banks, s.bank_width_bytes,
                                   s.conflict_scope_threads, r.is_atomic);
  ++stats_.shared_requests;
  stats_.shared_passes += static_cast<uint64_t>(passes);
  // Each extra pass replays the access replay_cycles later; the banks still take one pass
  // per cycle from the other warps (micro_shared_conflicts vs micro_shared_bandwidth on H100).
  return {static_cast<uint32_t>(s.latency + (passes - 1) * s.replay_cycles), static_cast<uint32_t>(passes)};
}

MemoryResponse MemoryHierarchy::global(const MemoryRequest& r, uint64_t now) {
  const bool cached = through_l1(r);
  departed_.clear();  // each line of this request leaves the SM once
  coalesce_into(tx_, arch_.memory.coalescing, r.addresses, r.mask, r.bytes_per_lane, cached);
  const std::vector<Transaction>& tx = tx_;
  const uint64_t requested = static_cast<uint64_t>(std::popcount(r.mask)) * r.bytes_per_lane;
  uint64_t ready = now + 1;
  // The L1/coalescer handles one 128-byte line (a wavefront) per cycle.
  std::vector<uint64_t>& lines = lines_;
  lines.clear();
  for (const Transaction& t : tx)
    for (uint64_t a = t.address / 128; a * 128 < t.address + t.bytes; ++a)
      if (std::find(lines.begin(), lines.end(), a) == lines.end()) lines.push_back(a);

  if (r.is_store) {
    ++stats_.global_store_requests;
    stats_.global_store_transactions += tx.size();
    stats_.global_store_bytes += requested;
    for (const Transaction& t : tx) {
      if (!l2_) {  // no caches: the transaction goes to DRAM as it is
        dram(t.address, t.bytes, true, now);
        continue;
      }
      for (uint64_t a = t.address; a < t.address + t.bytes; a += kSector) {
        if (!l1_.empty()) l1_[r.sm].write_hit(a, now);  // L1: write-through, no allocate
        // L2 is write-back: the sector becomes dirty there, and reaches DRAM when evicted.
        const uint64_t at = l2_slot(a, now);
        if (l2_->write_hit(a, at)) continue;
        const uint32_t evicted_dirty = l2_->fill(a, at, true, at);
        if (evicted_dirty) dram(a, evicted_dirty * kSector, true, at);
      }
    }
    return {static_cast<uint32_t>(arch_.memory.l2 ? arch_.memory.l2->latency : arch_.memory.dram.latency),
            static_cast<uint32_t>(std::max<size_t>(1, lines.size()))};
  }

  ++stats_.global_load_requests;
  stats_.global_load_transactions += tx.size();
  stats_.global_load_bytes += requested;
  for (const Transaction& t : tx) {
    if (!l2_) {  // 1.x: every transaction is a DRAM access of its size
      ready = std::max(ready, dram(t.address, t.bytes, false, now));
      continue;
    }
    if (!cached) {
      for (uint64_t a = t.address; a < t.address + t.bytes; a += kSector)
        ready = std::max(ready, l2_read(a, departure(r.sm, a, now)));
      continue;
    }
    SectoredCache& l1 = l1_[r.sm];
    const uint32_t step = l1.sector_bytes();
    for (uint64_t a = t.address / step * step; a < t.address + t.bytes; a += step) {
      const SectoredCache::Probe p = l1.probe(a, now);
      if (p.present) {
        ++stats_.l1_hits;
        ready = std::max(ready, std::max(now + static_cast<uint64_t>(arch_.memory.l1->latency), p.ready_at));
        continue;
      }
      ++stats_.l1_misses;
      const uint64_t sent = departure(r.sm, a, now);
      uint64_t arrive = sent;  // an L1 sector is filled from the L2 sectors it spans
      for (uint64_t s = a; s < a + step; s += kSector) arrive = std::max(arrive, l2_read(s, sent));
      l1.fill(a, arrive, false, now);
      ready = std::max(ready, arrive);
    }
  }
  if (r.is_atomic) {
    // Atomics resolve at L2, one update per cycle for lanes hitting the same address.
    int worst = 1;
    for (int k = 0; k < 32; ++k) {
      if (!(r.mask >> k & 1u)) continue;
      int same = 0;
      for (int j = 0; j < 32; ++j) same += (r.mask >> j & 1u) && r.addresses[j] == r.addresses[k];
      worst = std::max(worst, same);
    }
    ready += static_cast<uint64_t>(worst - 1);
  }
  return {static_cast<uint32_t>(ready - now), static_cast<uint32_t>(std::max<size_t>(1, lines.size()))};
}

MemoryResponse MemoryHierarchy::access(const MemoryRequest& r, uint64_t now) {
  switch (r.space) {
    case StateSpace::Shared: return shared(r);
    case StateSpace::Param:
    case StateSpace::Const: return {static_cast<uint32_t>(arch_.shared_memory.latency), 1};  // constant cache
    default: return global(r, now);
  }
}

}  // namespace gpusim::memory
