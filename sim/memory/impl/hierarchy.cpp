#include "memory/impl/hierarchy.hpp"
#include "util/bits.hpp"
#include "util/parallel_for.hpp"
#include "util/rounding.hpp"
#include "util/seen_set.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace gpusim::memory {

using kernel::CacheOp;
using kernel::StateSpace;

MemoryHierarchy::MemoryHierarchy(const MemoryConfig& config, const MemorySystemContext& context)
    : MemorySystem(context),
      config_(config),
      coalescing_(coalescing_rule(config.coalescing)),
      dram_(config.dram, context.core_clock_mhz, stats_),
      line_bytes_(config.l1 ? static_cast<uint32_t>(config.l1->line_bytes) : 128),
      line_shift_(static_cast<uint32_t>(std::countr_zero(line_bytes_))) {
  if (config.l2) l2_.emplace(*config.l2, context.sm_count, dram_, stats_);
  set_may_refuse(config.l1 && config.l1->mshrs > 0);
  for (int i = 0; i < context.sm_count; ++i) {
    sms_.push_back(Sm{std::nullopt, MshrFile(config.l1 ? config.l1->mshrs : 0), 0,
                      config.l1 ? WriteCombiner(config.l1->write_combine_lines, config.l1->write_combine_cycles)
                                : WriteCombiner(0, 0),
                      {}, {}, {}, false, 0, {}, false, {}, 0, 0, {}, {}, {}, false, {}, {}, {}, {}, {}, {}});
    if (config.l1) sms_.back().l1.emplace(*config.l1);
  }
  if (config.l1) l1_bytes_ = config.l1->size_bytes;
  settled_.assign(sms_.size(), 0);
  fill_at_.resize(sms_.size());
}

void MemoryHierarchy::start_kernel(int64_t shared_carveout, int threads) {
  // The L1s are not coherent: the driver invalidates them before each kernel. The L2 is
  // the point of coherence and keeps its contents. A unified array gives the L1 what the
  // kernel's shared carve-out leaves.
  for (Sm& sm : sms_) {  // a pulled SM's last settled cycle's
    sm.below.clear();
    sm.starts.clear();
    sm.cleared = 0;
  }
  settled_.assign(sms_.size(), 0);
  if (!config_.l1) return;
  for (uint32_t i = 0; i < sms_.size(); ++i) {
    sms_[i].combining.clear();
    if (!sms_[i].fills.empty()) resolve_fills(i);  // a pulled SM's last settle's, before the L1 is dropped
  }
  const int64_t bytes = config_.l1->unified_bytes > 0 ? config_.l1->unified_bytes - shared_carveout : config_.l1->size_bytes;
  if (bytes == l1_bytes_) {
    for (Sm& sm : sms_) sm.l1->invalidate_all();
    return;
  }
  L1Config sized = *config_.l1;
  sized.size_bytes = bytes;
  // Side by side: each L1's ways are about 100 KB of fresh zeros, first touched here.
  util::parallel_for(static_cast<int64_t>(sms_.size()), threads, 1, [&](int64_t, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) sms_[static_cast<size_t>(i)].l1.emplace(sized);
  });
  l1_bytes_ = bytes;
}

engine::Cycle MemoryHierarchy::accepts_at(uint32_t sm, engine::Cycle now) const { return sms_[sm].mshrs.free_at(now); }

engine::Cycle MemoryHierarchy::drained_at() const {
  engine::Cycle end = std::max(MemorySystem::drained_at(), dram_.drained_at());
  if (l2_) end = std::max(end, l2_->drained_at());
  return std::max(end, writes_acked_);
}

engine::Cycle MemoryHierarchy::depart(Sm& sm, uint64_t address, engine::Cycle now) {
  const int cycles = config_.l1 ? config_.l1->miss_line_cycles : 0;
  if (cycles == 0 && !sm.mshrs.limited()) return now;
  const uint64_t line = line_of(address);
  // A line's sectors mostly come one after another; a line met before is searched for, a new
  // one is not (a warp of scattered lanes has 32).
  if (!sm.departed.empty() && sm.departed.back().line == line) return sm.departed.back().at;
  const auto listed = [&sm](auto add) {
    for (const Departed& d : sm.departed) add(d.line);
  };
  if (!sm.departed_lines.insert(line, listed))
    for (const Departed& d : sm.departed)
      if (d.line == line) return d.at;
  engine::Cycle at = now;
  size_t entry = 0;
  if (sm.mshrs.limited()) {
    at = sm.mshrs.free_at(now);
    entry = sm.mshrs.acquire(now);
  }
  if (cycles > 0) {
    at = std::max(at, sm.miss_port_free);
    sm.miss_port_free = at + static_cast<engine::Cycle>(cycles);
  }
  sm.departed.push_back({line, at, entry, at});
  return at;
}

void MemoryHierarchy::read_below(Sm& sm, uint64_t address, engine::Cycle sent, uint64_t& requested, uint32_t fill,
                                 bool last) {
  const uint64_t line = line_of(address);
  const bool new_line = line != requested;  // the line's other sectors ride on its request
  requested = line;
  sm.below.push_back({last ? Below::Op::ReadFill : Below::Op::Read, new_line, fill, address, 0, sent});
}

MemoryStats MemoryHierarchy::stats() const {
  MemoryStats all = stats_;
  if (fronts_kept_)
    for (const Sm& s : sms_)
      for (const auto& c : MemoryStats::counters()) all.*c.member += s.front.*c.member;
  return all;
}

bool MemoryHierarchy::through_l1(const MemoryRequest& r) const {
  if (!config_.l1 || r.is_store || r.is_atomic) return false;
  if (r.space == StateSpace::Local) return true;
  switch (r.cache_op) {
    case CacheOp::CacheAll: return true;
    case CacheOp::CacheGlobal:
    case CacheOp::Streaming: return false;
    case CacheOp::NonCoherent:  // the read-only data path; before it existed, a plain load
      if (config_.l1->caches_read_only_loads) return true;
      break;
    case CacheOp::Default: break;
  }
  return config_.l1->caches_global_loads;
}

void MemoryHierarchy::count_lines(Sm& sm) {
  sm.lines.clear();  // the L1/coalescer handles one line (a wavefront) per cycle
  if (sm.one_run && !sm.tx.empty()) {
    // Aligned blocks around one run of bytes, ascending: they cover every line from the first's
    // to the last's, once each, in order.
    const uint64_t last = line_of(sm.tx.back().address + sm.tx.back().bytes - 1);
    for (uint64_t a = line_of(sm.tx.front().address); a <= last; ++a) sm.lines.push_back(a);
    return;
  }
  util::FirstSeen seen;
  const auto listed = [&sm](auto add) {
    for (uint64_t line : sm.lines) add(line);
  };
  for (const Transaction& t : sm.tx)
    for (uint64_t a = line_of(t.address); (a << line_shift_) < t.address + t.bytes; ++a)
      if ((sm.lines.empty() || sm.lines.back() != a) && seen.insert(a, listed)) sm.lines.push_back(a);
}

uint32_t MemoryHierarchy::run_bytes_in(const MemoryRequest& r, uint64_t sector, uint32_t sector_bytes) {
  const uint64_t begin = std::max(r.addresses[0], sector);
  const uint64_t end = std::min(r.addresses[0] + 32 * uint64_t{r.bytes_per_lane}, sector + sector_bytes);
  return end > begin ? static_cast<uint32_t>(end - begin) : 0;
}

void MemoryHierarchy::count_request(Sm& sm, const MemoryRequest& r) {
  const uint64_t bytes = static_cast<uint64_t>(util::lane_count(r.mask)) * r.bytes_per_lane;
  sm.counted = true;
  if (r.is_store) {  // red counts as a store, atom as a load
    ++sm.front.global_store_requests;
    sm.front.global_store_transactions += sm.tx.size();
    sm.front.global_store_bytes += bytes;
  } else {
    ++sm.front.global_load_requests;
    sm.front.global_load_transactions += sm.tx.size();
    sm.front.global_load_bytes += bytes;
  }
}

Accepted MemoryHierarchy::atomic(const MemoryRequest& r, engine::Cycle now) {
  Sm& sm = sms_[r.sm];
  count_request(sm, r);
  const uint32_t step = l2_->sector_bytes();
  list_hot_words(r.addresses, r.mask, step, sm.hot);
  size_t next = 0;  // where find_sector() looks first
  for (const Transaction& t : sm.tx)
    for (uint64_t a = util::align_down(t.address, step); a < t.address + t.bytes; a += step) {
      if (sm.l1) sm.l1->write_hit(a);
      const SectorHot* listed = find_sector(sm.hot, next, a);
      const HotWord hot = listed ? listed->hot : HotWord{};
      sm.below.push_back({Below::Op::Atomic, r.float_atomic, std::max(hot.updates, 1u), a, hot.address, now});
    }
  // A reduction: nothing waits for its value, the kernel's end for its acknowledgement.
  sm.below.push_back({r.is_store ? Below::Op::Acked : Below::Op::Respond, false, 0, 0, r.tag, now + 1});
  return per_line(sm);
}

Accepted MemoryHierarchy::store(const MemoryRequest& r, engine::Cycle now) {
  Sm& sm = sms_[r.sm];
  count_request(sm, r);
  uint32_t sectors = 0;
  size_t requested = 0;  // sm.lines lists the request's lines in the order this loop first meets them
  sm.combining.store(sm.lines, now, sm.merged);
  bool merging = false;  // the line of the sector at hand merges
  // Whole sectors and partial ones differ only where the L2 reads a partial one's chunk first.
  const bool partial_reads = l2_ && config_.l2->partial_write_reads;
  // A full warp storing consecutive elements (most stores): the sectors' bytes without a pass over the lanes each.
  const bool one_run = partial_reads && sm.one_run;
  bool listed = false;  // sm.written holds this request's sectors
  size_t next = 0;      // where find_sector() looks first in it
  for (const Transaction& t : sm.tx) {
    if (!l2_) {  // no caches: the transaction goes to DRAM as it is
      sm.below.push_back({Below::Op::Dram, true, t.bytes, t.address, 0, now});
      continue;
    }
    const uint32_t step = l2_->sector_bytes();
    for (uint64_t a = util::align_down(t.address, step); a < t.address + t.bytes; a += step) {
      const uint64_t line = line_of(a);
      if (requested < sm.lines.size() && line == sm.lines[requested]) {
        merging = sm.merged[requested++];  // a line met for the first time: its write request goes first
        if (!merging) sm.below.push_back({Below::Op::WriteRequest, false, 0, a, 0, now});
      } else if (line != sm.lines[requested - 1]) {  // back to an earlier line of the request
        merging = sm.merged[static_cast<size_t>(std::find(sm.lines.begin(), sm.lines.end(), line) - sm.lines.begin())];
      }
      if (sm.l1) sm.l1->write_hit(a);  // L1: write-through, no allocate
      if (merging) continue;
      ++sectors;
      bool whole = true;
      if (one_run) {  // one_run implies partial_reads
        whole = run_bytes_in(r, a, step) >= step;
      } else if (partial_reads) {
        if (!listed) list_written(r.addresses, r.mask, r.bytes_per_lane, step, sm.written);
        listed = true;
        const SectorBytes* e = find_sector(sm.written, next, a);
        whole = (e ? e->bytes : 0) >= step;
      }
      sm.below.push_back({Below::Op::Write, whole, 0, a, 0, now});
    }
  }
  // The data leaves the SM a sector at a time after the lines' addresses (store_path.py).
  Accepted taken = per_line(sm);
  if (config_.l1)
    taken.busy_cycles += static_cast<uint32_t>(util::round_nonnegative(config_.l1->store_sector_cycles * sectors));
  return taken;
}

Accepted MemoryHierarchy::load(const MemoryRequest& r, engine::Cycle now) {
  const bool cached = through_l1(r);
  Sm& sm = sms_[r.sm];
  count_request(sm, r);
  engine::Cycle ready = now + 1;  // as far as the L1 knows; the reads below come in at settle()
  const size_t start = sm.below.size();
  uint64_t requested = ~uint64_t{0};  // the line whose read request went to the L2 last
  // A line's missed sectors go into the L1 together, once they are probed (a probe of a
  // line's absent sector finds it absent either way, and tells the policy nothing).
  uint64_t missed_at = 0;   // the first missed sector of the line at hand
  uint32_t missed = 0;      // its missed sectors, a bit each
  uint32_t first_fill = 0;  // their fills: from this one to the last
  const auto install = [&] {
    const SectoredCache::Placed placed = sm.l1->fill_placeholders(missed_at, missed, first_fill);
    for (uint32_t f = first_fill; f < sm.fills.size(); ++f) sm.fills[f].placed = placed;
    missed = 0;
  };
  for (const Transaction& t : sm.tx) {
    if (!l2_) {  // 1.x: every transaction is a DRAM access of its size
      sm.below.push_back({Below::Op::Dram, false, t.bytes, t.address, 0, now});
      continue;
    }
    const uint32_t below = l2_->sector_bytes();
    if (!cached) {
      for (uint64_t a = util::align_down(t.address, below); a < t.address + t.bytes; a += below)
        read_below(sm, a, depart(sm, a, now), requested, kNoFill);
      continue;
    }
    SectoredCache& l1 = *sm.l1;
    const uint32_t step = l1.sector_bytes(), line = l1.line_bytes();
    for (uint64_t a = util::align_down(t.address, step); a < t.address + t.bytes; a += step) {
      // Another line (line sizes are powers of two), or a sector not above every missed one
      // (met again, or a later transaction's lower sector): the missed ones in first, so that
      // their fills, in the order missed, are their sectors from the lowest (fill_placeholders).
      if (missed && ((a ^ missed_at) >= line || missed >= l1.sector_bit(a))) install();
      const SectoredCache::Probe p = l1.probe(a);
      if (p.present) {
        ++sm.front.l1_hits;
        ready = std::max(ready, now + static_cast<engine::Cycle>(config_.l1->latency));
        if (!SectoredCache::is_placeholder(p.ready_at)) ready = std::max(ready, p.ready_at);
        else  // still on its way from a read this cycle
          sm.below.push_back({Below::Op::WaitFill, false,
                              static_cast<uint32_t>(p.ready_at - SectoredCache::kPlaceholderBase), 0, 0, 0});
        continue;
      }
      ++sm.front.l1_misses;
      const engine::Cycle sent = depart(sm, a, now);
      // An L1 sector is filled from the L2 sectors it spans; the answer waits for the last.
      const auto fill = static_cast<uint32_t>(sm.fills.size());
      sm.fills.push_back({a, sent});
      for (uint64_t s = a; s < a + step; s += below) read_below(sm, s, sent, requested, fill, s + below >= a + step);
      if (!missed) {
        missed_at = a;
        first_fill = fill;
      }
      missed |= l1.sector_bit(a);
    }
  }
  if (missed) install();
  uint32_t extra = 0;
  if (r.is_atomic) {
    // Without an L2 (1.x), atomics resolve at DRAM, one update per cycle for lanes hitting the same address.
    const HotWord hot = hot_word(r.addresses, r.mask, 0, ~uint64_t{0});
    if (hot.updates > 1) extra = hot.updates - 1;
  }
  if (sm.below.size() == start) {
    // Nothing below (every sector an L1 hit whose time is known): answered now, on the SM's
    // side, so that an SM running ahead of the settle (TickBatch's quantum) gets it in time.
    respond(r.sm, r.tag, ready + extra, sm.sent);
  } else {
    sm.below.push_back({Below::Op::Respond, false, extra, sm.sent, r.tag, ready});
  }
  if (sm.mshrs.limited()) {  // the registers' release times: the reads' answers, now
    settle_below(r.sm);
    for (const Departed& d : sm.departed) sm.mshrs.release(d.mshr, d.arrives);
  }
  return cached && config_.l1->lookup_banks > 0 ? banked_lookup(sm, r) : per_line(sm);
}

namespace {
// The index of `line` in `lines` (each line once; lines.size() if absent), searched for from
// `start` to the end and then from the beginning: lanes mostly meet the lines in the order
// listed, so a lane's line is found at once where a search from the beginning takes a warp of
// scattered lanes 32 x 32 / 2 steps.
size_t find_from(const std::vector<uint64_t>& lines, size_t start, uint64_t line) {
  const size_t n = lines.size();
  for (size_t i = start; i < n; ++i)
    if (lines[i] == line) return i;
  for (size_t i = 0; i < std::min(start, n); ++i)
    if (lines[i] == line) return i;
  return n;
}
}  // namespace

Accepted MemoryHierarchy::banked_lookup(Sm& sm, const MemoryRequest& r) {
  // micro_l1_banks: 32 consecutive lines in 32 data banks take 9.2 cycles a request, 16 take
  // 5.0, 8 take 3.1 (4 lines a cycle and about one more); 32 lines at one word offset (one data
  // bank) take 32. The cycle more is not charged: an aligned warp's one line goes at one a
  // cycle (the convolutions, L1-bound, are within 10% so).
  const size_t lines = sm.lines.size();
  if (lines <= 1) return {1, 1};  // one line: no bank holds two of its words' lines
  const auto banks = static_cast<uint64_t>(config_.l1->lookup_banks);
  sm.bank_load.assign(banks, 0);
  uint32_t cycles = 1;
  for (uint64_t line : sm.lines) cycles = std::max(cycles, ++sm.bank_load[line % banks]);
  const auto data = static_cast<uint64_t>(config_.l1->data_banks);
  if (data == 0 || cycles == lines) return {cycles, cycles};  // a data bank cannot hold more lines
  // A full warp's consecutive words: each in its own data bank, none holding two lines.
  if (data >= 32 && r.bytes_per_lane == 4 && sm.one_run)
    return {cycles, cycles};
  sm.bank_lines.assign(data, 0);  // per data bank, a bit for each of the request's lines it serves
  uint64_t last = ~uint64_t{0};
  size_t index = 0;  // of `last` in sm.lines
  for (uint32_t m = r.mask; m != 0; m &= m - 1) {
    const uint64_t a = r.addresses[std::countr_zero(m)];
    if (line_of(a) != last) {
      index = find_from(sm.lines, last == ~uint64_t{0} ? 0 : index + 1, line_of(a));
      last = line_of(a);
    }
    if (index >= 32) continue;
    for (uint64_t w = a / 4; w * 4 < a + r.bytes_per_lane; ++w) sm.bank_lines[w % data] |= 1u << index;
  }
  for (uint32_t held : sm.bank_lines) cycles = std::max<uint32_t>(cycles, static_cast<uint32_t>(util::lane_count(held)));
  return {cycles, cycles};
}

Accepted MemoryHierarchy::per_line(const Sm& sm) {
  const auto lines = static_cast<uint32_t>(std::max<size_t>(1, sm.lines.size()));
  return {lines, lines};
}

Accepted MemoryHierarchy::send(const MemoryRequest& r) {
  const engine::Cycle cycle = r.cycle, now = std::max(cycle, r.not_before);
  Sm& sm = sms_[r.sm];
  ++sm.sent;
  if (pulled(r.sm) && sm.below_cycle != cycle) {  // the first send of a cycle
    if (!sm.ahead && all_settled(r.sm)) clear_settled(r.sm);  // before the L1 is looked at
    sm.starts.push_back({cycle, sm.below.size()});
    sm.below_cycle = cycle;
  }
  sm.departed.clear();  // each line of this request leaves the SM once
  sm.departed_lines.clear();
  sm.one_run = one_run(r);  // once per request: the coalescer, the lines, a store's sectors, the banks
  coalescing_.coalesce(sm.tx, r.addresses, r.mask, r.bytes_per_lane, through_l1(r), sm.one_run);
  count_lines(sm);
  const Accepted taken = r.is_atomic && l2_ ? atomic(r, now) : r.is_store ? store(r, now) : load(r, now);
  // Limited miss-status registers make the next request wait for this one's answers: no waiting.
  if (sm.mshrs.limited()) settle(r.sm);
  return taken;
}

GPUSIM_REGISTER(MemorySystemRegistry, "hierarchy",
                "coalescing, sectored L1 per SM with miss port and MSHRs, L2 slices with queues, DRAM channels",
                [](const MemoryConfig& config, const MemorySystemContext& context) {
                  return std::make_unique<MemoryHierarchy>(config, context);
                })

}  // namespace gpusim::memory
