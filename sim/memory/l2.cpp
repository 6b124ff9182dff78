#include "memory/l2.hpp"

#include <algorithm>
#include <bit>

#include "util/rounding.hpp"

namespace gpusim::memory {

namespace {
// One partition's cache: its share of the capacity, the same geometry.
CacheConfig partition_geometry(const L2Config& config) {
  CacheConfig part = config;
  part.size_bytes = config.size_bytes / config.partitions;
  return part;
}
}  // namespace

L2::L2(const L2Config& config, int sm_count, Dram& dram, MemoryStats& stats)
    : config_(config),
      dram_(dram),
      stats_(stats),
      slice_free_(static_cast<size_t>(config.slices), 0),
      mshrs_(static_cast<size_t>(config.slices), MshrFile(config.mshrs_per_slice)),
      queued_(static_cast<size_t>(config.slices) * static_cast<size_t>(config.merged_reads)),
      queued_next_(config.merged_reads > 0 ? static_cast<size_t>(config.slices) : 0, 0),
      atomic_units_(static_cast<size_t>(config.slices)) {
  parts_.reserve(static_cast<size_t>(config.partitions));
  for (int p = 0; p < config.partitions; ++p) parts_.emplace_back(partition_geometry(config));
  sector_shift_ = static_cast<uint32_t>(std::countr_zero(sector_bytes()));
  for (int sm = 0; sm < sm_count; ++sm) near_.push_back(static_cast<uint32_t>(config.partition_of(sm, sm_count)));
}

uint64_t L2::capacity_bytes() const {
  uint64_t bytes = 0;
  for (const SectoredCache& c : parts_) bytes += c.capacity_bytes();
  return bytes;
}

L2Occupancy L2::occupancy() const {
  L2Occupancy o{capacity_bytes(), 0, parts_.front().ways(), {}};
  for (uint32_t p = 0; p < parts_.size(); ++p) {
    const SectoredCache& c = parts_[p];
    o.entered_bytes += c.filled_sectors() * c.sector_bytes();
    const std::vector<uint32_t> lines = c.lines_per_set([&](uint64_t line) { return home(line) == p; });
    o.lines_per_set.insert(o.lines_per_set.end(), lines.begin(), lines.end());
  }
  return o;
}

bool L2::keeps_all(std::span<const AddressRange> ranges) const {
  const SectoredCache& geometry = parts_.front();  // the partitions are alike
  uint64_t bytes = 0;
  for (const AddressRange& r : ranges) bytes += r.bytes;
  if (bytes > capacity_bytes()) return false;  // and no walk over a large buffer's lines
  // Per partition and set, as occupancy() counts them: the buffers' lines homed there, beside
  // the lines it holds at home now. Copies of lines homed elsewhere go first: they do not count.
  const L2Occupancy held = occupancy();
  std::vector<uint32_t> wanted(held.lines_per_set.size(), 0);
  const uint64_t line = geometry.line_bytes();
  for (const AddressRange& r : ranges)
    for (uint64_t a = r.base / line * line; a < r.base + r.bytes; a += line)
      ++wanted[home(a) * geometry.sets() + geometry.set_of_address(a)];
  for (size_t i = 0; i < wanted.size(); ++i)
    if (wanted[i] + held.lines_per_set[i] > held.ways) return false;
  return true;
}

uint32_t L2::home(uint64_t address) const {
  if (parts_.size() == 1) return 0;
  return static_cast<uint32_t>(spread(address / static_cast<uint64_t>(config_.partition_chunk_bytes), parts_.size()));
}

size_t L2::slice_of(uint64_t address) const { return spread(address >> sector_shift_, slice_free_.size()); }

engine::Cycle L2::slot(uint64_t address, engine::Cycle arrival, double cycles) {
  return slot_at(slice_of(address), arrival, cycles);
}

engine::Cycle L2::slot_at(size_t slice, engine::Cycle arrival, double cycles) {
  double& free = slice_free_[slice];
  const double start = std::max(static_cast<double>(arrival), free);
  free = start + cycles;
  return util::ceil_nonnegative(start);
}

engine::Cycle L2::read(uint64_t address, uint32_t sm, engine::Cycle arrival, bool new_line) {
  const uint64_t sector = address >> sector_shift_;
  const size_t slice = slice_of(address);
  QueuedRead* entries = queued_.data() + slice * static_cast<size_t>(config_.merged_reads);  // none: merged_reads 0
  for (int i = 0; i < config_.merged_reads; ++i)
    // Still queued: it shares that read's data, arriving when it does (whichever partition
    // the SM is nearer to).
    if (entries[i].sector == sector && entries[i].start >= arrival) {
      ++stats_.l2_hits;
      return entries[i].ready;
    }
  // A line's request holds the slice of its first sector; one merged into a queued read does not.
  if (new_line && config_.read_request_cycles > 0) slot_at(slice, arrival, config_.read_request_cycles);
  const engine::Cycle now = slot_at(slice, arrival, config_.read_sector_cycles);  // queueing at the slice
  const engine::Cycle ready = read_at_slice(address, slice, sm, now);
  if (config_.merged_reads > 0) {
    uint32_t& next = queued_next_[slice];
    entries[next] = {sector, now, ready};
    next = (next + 1) % static_cast<uint32_t>(config_.merged_reads);
  }
  return ready;
}

engine::Cycle L2::read_at_slice(uint64_t address, size_t slice, uint32_t sm, engine::Cycle now) {
  const uint32_t near = near_[sm], at_home = home(address);
  const auto latency = static_cast<engine::Cycle>(config_.latency);
  const SectoredCache::Probe p = parts_[near].probe(address, now);
  if (p.present) {
    ++stats_.l2_hits;
    return std::max(now + latency, p.ready_at);
  }
  if (at_home != near) {
    const SectoredCache::Probe far = parts_[at_home].probe(address, now);
    if (far.present) {  // a far hit: the data crosses once and stays near as a copy
      ++stats_.l2_hits;
      ++stats_.l2_far_hits;
      const engine::Cycle ready = std::max(now + latency, far.ready_at) + static_cast<engine::Cycle>(config_.far_latency);
      install(near, address, ready, false, now, config_.copies_evicted_first);
      return ready;
    }
  }
  ++stats_.l2_misses;
  MshrFile& mshrs = mshrs_[spread(address >> sector_shift_, mshrs_.size())];
  engine::Cycle sent = now;
  size_t entry = 0;
  if (mshrs.limited()) {
    sent = mshrs.free_at(now);
    entry = mshrs.acquire(now);
  }
  const Fetched fetched = fetch_chunk(address, at_home, near, sent, now);
  if (mshrs.limited()) mshrs.release(entry, fetched.ready);
  // The fills hold the slice that took the miss, from the moment it did, not when the data
  // lands: a slice keeps one free time, so a charge placed in its future would idle it until
  // then; over a kernel the fills take the same share of the slices either way. A write or
  // an atomic that misses pays none: its merge is the fill (micro_scattered_write #3:
  // charging its chunk's fills makes it +21% where it is within 1%).
  if (config_.fill_cycles > 0) slot_at(slice, now, config_.fill_cycles * fetched.filled);
  return fetched.ready;
}

uint32_t L2::chunk_bytes() const {
  return std::max<uint32_t>(static_cast<uint32_t>(config_.fetch_bytes), sector_bytes());
}

void L2::install(uint32_t part, uint64_t address, engine::Cycle ready, bool dirty, engine::Cycle now,
                 bool evict_first) {
  write_back(address, parts_[part].fill(address, ready, dirty, evict_first), now);
}

L2::Fetched L2::fetch_chunk(uint64_t address, uint32_t at_home, uint32_t near, engine::Cycle sent, engine::Cycle now) {
  // DRAM is read in chunks of fetch_bytes: the missing sector's neighbours in its chunk come
  // too (those already held stay as they are).
  const uint64_t chunk = chunk_bytes(), line = line_bytes();
  const uint64_t first = address / chunk * chunk;
  const engine::Cycle ready = dram_.access(first, static_cast<uint32_t>(chunk), false, sent);
  int filled = 0;
  // Line by line (a chunk may be longer than a line): at home, then the copy near.
  const uint64_t end = first + chunk;
  for (uint64_t from = first; from < end;) {
    const uint64_t to = std::min(end, (from / line + 1) * line);
    const auto span = static_cast<uint32_t>(to - from);
    const SectoredCache::SpanFill home_fill = parts_[at_home].fill_span(from, span, address, ready);
    write_back(home_fill.evicted_at, home_fill.evicted_dirty, now);
    filled += home_fill.filled;
    if (near != at_home) {
      const SectoredCache::SpanFill copy = parts_[near].fill_span(from, span, address, ready, config_.copies_evicted_first);
      write_back(copy.evicted_at, copy.evicted_dirty, now);
    }
    from = to;
  }
  return {ready, filled};
}

void L2::write_back(uint64_t address, uint32_t dirty, engine::Cycle now) {
  if (!dirty) return;
  // DRAM is written in chunks too: each chunk holding a dirty sector is written whole.
  const uint32_t per_chunk = chunk_bytes() / sector_bytes();
  const uint32_t group = static_cast<uint32_t>((uint64_t{1} << per_chunk) - 1);  // up to 32 sectors
  uint32_t chunks = 0;
  for (uint32_t s = 0; s < 32; s += per_chunk) chunks += (dirty >> s & group) != 0;
  dram_.access(address, chunks * chunk_bytes(), true, now);  // write-backs share the channel
}

void L2::update_copies(uint64_t address, uint32_t at_home, uint32_t keep, engine::Cycle now) {
  const auto parts = static_cast<uint32_t>(parts_.size());
  for (uint32_t part = 0; part < parts; ++part) {
    if (part == at_home) continue;
    if (part == keep)
      install(part, address, now, false, now);
    else
      parts_[part].invalidate(address);
  }
}

void L2::write_request(uint64_t address, engine::Cycle arrival) {
  if (config_.write_request_cycles > 0) slot(address, arrival, config_.write_request_cycles);
}

engine::Cycle L2::write(uint64_t address, bool whole_sector, uint32_t sm, engine::Cycle arrival) {
  const engine::Cycle at = slot(address, arrival, whole_sector ? 1.0 : config_.partial_write_cycles);
  const uint32_t at_home = home(address);
  SectoredCache& cache = parts_[at_home];
  if (!cache.write_hit(address)) {
    if (!whole_sector && config_.partial_write_reads) {
      // The sector's other bytes must come from DRAM before it can be merged (and its ECC
      // computed): the chunk is read, then the sector is written. The slice holds the bytes
      // meanwhile: the write is acknowledged without waiting (micro_block_placement).
      fetch_chunk(address, at_home, at_home, at, at);
      cache.write_hit(address);
    } else {
      install(at_home, address, at, true, at);
    }
  }
  update_copies(address, at_home, near_[sm], at);
  // Acknowledged from the home partition, as a read hit there would be answered.
  return at + static_cast<engine::Cycle>(config_.latency) +
         (near_[sm] != at_home ? static_cast<engine::Cycle>(config_.far_latency) : 0);
}

engine::Cycle L2::atomic(uint64_t address, uint64_t word, uint32_t serial, bool floating, uint32_t sm,
                         engine::Cycle arrival) {
  const engine::Cycle at = slot(address, arrival);
  const uint32_t at_home = home(address);
  const engine::Cycle trip =
      static_cast<engine::Cycle>(config_.latency) + (near_[sm] != at_home ? static_cast<engine::Cycle>(config_.far_latency) : 0);
  engine::Cycle there = at;  // when the sector's old value is in the slice
  SectoredCache& cache = parts_[at_home];
  if (cache.contains(address)) {
    ++stats_.l2_hits;
  } else {
    ++stats_.l2_misses;
    const engine::Cycle ready = fetch_chunk(address, at_home, at_home, at, at).ready;  // at the SM: an L2 trip after the slice
    there = ready > at + trip ? ready - trip : at;
  }
  cache.write_hit(address);
  update_copies(address, at_home, at_home, at);  // atomics are applied at home only
  // The line's home slice (a line lives in one slice) takes a sector's updates per
  // atomic_cycles; updates to one word wait for the one before (micro_atomics_global: words
  // of a line in parallel, one word's float updates 2.4x slower than its integer ones).
  AtomicUnit& unit = atomic_units_[spread(atomic_unit_key(address / static_cast<uint64_t>(config_.line_bytes)), atomic_units_.size())];
  double start = std::max(unit.free, static_cast<double>(there));
  if (word == unit.word) start = std::max(start, unit.word_done);
  const double each = floating ? config_.atomic_float_cycles : config_.atomic_cycles;
  unit.free = start + config_.atomic_cycles + (serial - 1) * each;
  unit.word = word;
  unit.word_done = start + serial * each;
  return util::ceil_nonnegative(unit.word_done) + trip;
}

uint64_t L2::atomic_unit_key(uint64_t line) const {
  // The line index with the shared bits squeezed out: the low bits the mask spans, compacted,
  // then everything above it (the mask is at most 8 bits).
  const auto shared = static_cast<uint64_t>(config_.atomic_unit_shared_line_bits);
  if (shared == 0) return line;
  const int span = std::bit_width(shared);
  uint64_t key = 0;
  int out = 0;
  for (int bit = 0; bit < span; ++bit)
    if (!(shared >> bit & 1u)) key |= (line >> bit & 1u) << out++;
  return key | (line >> span) << out;
}

engine::Cycle L2::drained_at() const {
  engine::Cycle last = 0;
  for (double f : slice_free_) last = std::max<engine::Cycle>(last, util::ceil_nonnegative(f));
  for (const AtomicUnit& u : atomic_units_) last = std::max<engine::Cycle>(last, util::ceil_nonnegative(u.word_done));
  return last;
}

}  // namespace gpusim::memory
