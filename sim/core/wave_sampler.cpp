#include "core/wave_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "core/sm.hpp"

namespace gpusim::core {

WaveSampler::WaveSampler(uint64_t wave_blocks, uint64_t total_blocks, engine::Cycle start,
                         const std::vector<std::unique_ptr<Sm>>& sms, memory::MemorySystem& memory,
                         std::span<const memory::AddressRange> device)
    : wave_blocks_(wave_blocks),
      total_blocks_(total_blocks),
      sms_(sms),
      memory_(memory),
      l2_at_start_(memory.l2_occupancy()),
      l2_keeps_all_(l2_at_start_.capacity_bytes == 0 || memory.l2_keeps_all(device)) {
  waves_.push_back(snapshot(start));
}

WaveSampler::Snapshot WaveSampler::snapshot(engine::Cycle now) const {
  Snapshot s{now, std::max(now, memory_.drained_at()), {}, memory_.stats()};
  for (const auto& sm : sms_) {
    sm->charge_until(now);
    s.sms.push_back(sm->stats());
  }
  return s;
}

engine::Cycle WaveSampler::wave_cycles(size_t i) const {
  const engine::Cycle sms = waves_[i].at - waves_[i - 1].at;
  // Requests in flight keep the memory system busy a latency past the SMs; more than a wave
  // of work queued there is a queue the SMs do not wait for, which sets the pace.
  if (waves_[i].drained - waves_[i].at <= sms) return sms;
  return std::max(sms, waves_[i].drained - waves_[i - 1].drained);
}

uint64_t WaveSampler::wave_instructions(size_t i) const {
  uint64_t n = 0;
  for (size_t s = 0; s < waves_[i].sms.size(); ++s)
    n += waves_[i].sms[s].warp_instructions - waves_[i - 1].sms[s].warp_instructions;
  return n;
}

double WaveSampler::wave_rate(size_t i) const {
  return static_cast<double>(wave_cycles(i)) / static_cast<double>(std::max<uint64_t>(wave_instructions(i), 1));
}

bool WaveSampler::retired(uint64_t count, engine::Cycle now) {
  retired_ += count;
  while (!complete_ && retired_ >= waves_.size() * wave_blocks_) {
    if (static_cast<double>(retired_) > SampleRule::kMaxSampledShare * static_cast<double>(total_blocks_)) {
      // No steady rate in the first half of the grid: time it all, and say why.
      static_assert(SampleRule::kMaxSampledShare == 0.5 && SampleRule::kTolerance == 0.02, "the sentences below");
      if (declined_.empty())
        declined_ = !l2_settled_at_
                        ? "the L2 was still filling at half the grid, and some of its sets would overflow: later "
                          "waves would evict lines and could run slower than the first"
                        : "the L2 was steady from wave " + std::to_string(l2_settled_at_) +
                              ", and no two successive waves after it ran at the same rate within 2% in the first "
                              "half of the grid";
      return false;
    }
    waves_.push_back(snapshot(now));
    const size_t n = waves_.size();
    if (!l2_settled_at_ && l2_settled(memory_.l2_occupancy(), retired_)) l2_settled_at_ = n - 1;
    // The two waves compared (from snapshot n-3 on) are timed after the ramp and the L2's filling.
    if (n - 1 < SampleRule::kMinMeasuredWaves || !l2_settled_at_ || n - 3 < l2_settled_at_) continue;
    const double last = wave_rate(n - 1), before = wave_rate(n - 2);
    complete_ = std::abs(last - before) <= SampleRule::kTolerance * last;
  }
  return complete_;
}

uint64_t WaveSampler::releases_before_read() const {
  const uint64_t wave_end = waves_.size() * wave_blocks_;
  // Past half the grid retired() declines the sample instead of reading (and once it has
  // declined, its blocks are past the last wave's end it read at).
  if (complete_ || retired_ >= wave_end ||
      static_cast<double>(wave_end) > SampleRule::kMaxSampledShare * static_cast<double>(total_blocks_))
    return UINT64_MAX;
  return wave_end - retired_;
}

bool WaveSampler::l2_settled(const memory::L2Occupancy& now, uint64_t retired) const {
  if (l2_keeps_all_) return true;
  if (now.entered_bytes - l2_at_start_.entered_bytes >= l2_at_start_.capacity_bytes) return true;  // turned over
  // Each set's lines, growing for the rest of the grid as they have since the launch.
  const double whole_grid = static_cast<double>(total_blocks_) / static_cast<double>(retired);
  for (size_t s = 0; s < now.lines_per_set.size(); ++s) {
    const uint32_t held = now.lines_per_set[s], then = l2_at_start_.lines_per_set[s];
    const double added = held > then ? static_cast<double>(held - then) : 0.0;
    if (static_cast<double>(then) + added * whole_grid > static_cast<double>(now.ways)) return false;
  }
  return true;  // no set will evict
}

std::string SampleRule::too_small(uint64_t blocks, uint64_t wave_blocks) const {
  char waves[32];
  std::snprintf(waves, sizeof waves, "%.1f", wave_blocks ? static_cast<double>(blocks) / static_cast<double>(wave_blocks) : 0.0);
  return "the grid is " + std::string(waves) + " waves of " + std::to_string(wave_blocks) + " blocks; --sample " +
         (mode == SampleMode::Auto ? "auto" : "on") + " samples grids of " + std::to_string(min_waves()) +
         " waves or more";
}

namespace {

// `into` += round(`delta` x `factor`), for every declared counter and the per-kind arrays.
void add_scaled(SmStats& into, const SmStats& last, const SmStats& prev, double factor) {
  const auto scaled = [factor](uint64_t a, uint64_t b) {
    return static_cast<uint64_t>(std::llround(static_cast<double>(a - b) * factor));
  };
  for (const auto& c : SmStats::counters()) into.*c.member += scaled(last.*c.member, prev.*c.member);
  for (size_t i = 0; i < into.stalls.size(); ++i) into.stalls[i] += scaled(last.stalls[i], prev.stalls[i]);
  for (size_t i = 0; i < into.pipe_busy.size(); ++i) into.pipe_busy[i] += scaled(last.pipe_busy[i], prev.pipe_busy[i]);
}

// Sets `member` of each SM to its value `before` plus a share of the exact `total`, in
// proportion to what the SM did in the last wave (`last` - `prev`).
void distribute(std::vector<SmStats>& sms, uint64_t SmStats::*member, uint64_t total, const std::vector<SmStats>& before,
                const std::vector<SmStats>& last, const std::vector<SmStats>& prev) {
  const auto weight = [&](size_t i) { return last[i].*member - prev[i].*member; };
  uint64_t sum = 0, given = 0;
  for (size_t i = 0; i < sms.size(); ++i) sum += weight(i);
  size_t heaviest = 0;
  for (size_t i = 0; i < sms.size(); ++i) {
    const uint64_t share =
        sum ? static_cast<uint64_t>(static_cast<double>(total) * static_cast<double>(weight(i)) / static_cast<double>(sum))
            : 0;
    sms[i].*member = before[i].*member + share;
    given += share;
    if (weight(i) > weight(heaviest)) heaviest = i;
  }
  if (!sms.empty()) sms[heaviest].*member += total - given;
}

}  // namespace

void WaveSampler::extrapolate(LaunchStats& stats, uint64_t simulated, const exec::FunctionalStats& functional) const {
  const Snapshot& last = waves_.back();
  const Snapshot& prev = waves_[waves_.size() - 2];
  const uint64_t remaining = total_blocks_ - simulated;
  // The blocks not timed, in units of the last wave's work: their warp instructions (known
  // exactly from the functional run) over the wave's.
  const uint64_t wave_work = wave_instructions(waves_.size() - 1);
  const double factor = wave_work ? static_cast<double>(functional.warp_instructions) / static_cast<double>(wave_work)
                                  : static_cast<double>(remaining) / static_cast<double>(wave_blocks_);
  const engine::Cycle wave = wave_cycles(waves_.size() - 1);
  const uint64_t extra = static_cast<uint64_t>(std::llround(static_cast<double>(wave) * factor));

  const std::vector<SmStats> before = stats.per_sm;
  for (size_t i = 0; i < stats.per_sm.size(); ++i) {
    add_scaled(stats.per_sm[i], last.sms[i], prev.sms[i], factor);
    if (stats.per_sm[i].busy_until) stats.per_sm[i].busy_until += extra;
  }
  // Instructions and blocks are known exactly; they go to the SMs in the last wave's proportions.
  distribute(stats.per_sm, &SmStats::warp_instructions, functional.warp_instructions, before, last.sms, prev.sms);
  distribute(stats.per_sm, &SmStats::thread_instructions, functional.thread_instructions, before, last.sms, prev.sms);
  distribute(stats.per_sm, &SmStats::predicated_on_threads, functional.predicated_on_threads, before, last.sms,
             prev.sms);
  distribute(stats.per_sm, &SmStats::blocks, remaining, before, last.sms, prev.sms);
  const memory::MemoryStats delta = last.memory - prev.memory;
  for (const auto& c : memory::MemoryStats::counters())
    stats.memory.*c.member += static_cast<uint64_t>(std::llround(static_cast<double>(delta.*c.member) * factor));
  stats.cycles += extra;

  const double rate = wave_rate(waves_.size() - 1), previous_rate = wave_rate(waves_.size() - 2);
  stats.sample.sampled = true;
  stats.sample.simulated_blocks = simulated;
  stats.sample.measured_waves = waves_.size() - 1;
  stats.sample.wave_cycles = wave;
  // Two parts: the rate's variation on the extrapolated cycles, and the grid's last,
  // partial wave, which may end up to half a wave sooner or later than the rate says.
  const double drift = std::abs(rate - previous_rate) / rate * static_cast<double>(extra);
  stats.sample.error_estimate = (drift + 0.5 * static_cast<double>(wave)) / static_cast<double>(stats.cycles);
}

}  // namespace gpusim::core
