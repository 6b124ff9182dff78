// Sampled simulation of a large grid (--sample): the launch is timed in full detail wave by
// wave (a wave: as many blocks as the SMs hold at once) until two successive waves run at
// the same rate, in cycles per warp instruction, within a tolerance; then no more blocks are
// dispatched, the resident ones drain, and the blocks never timed run functionally (so
// results and checks stay complete). The skipped blocks would have run at the steady rate
// of the last wave: cycles and every declared counter are extrapolated from that wave's
// increments, scaled by the skipped blocks' work (their warp instructions, counted exactly
// by the functional run) over the wave's.
//
// A wave's time is only steady once the L2 is: a grid that streams more data through the
// L2 than it has room for runs faster while the L2 fills, and slower once every new line
// evicts an old one (a dirty one costs a write-back). So the sample also waits until the L2
// is steady, from what it holds set by set: either as many bytes as it holds have entered
// it since the launch (it has turned over), or no set will ever evict, because every line
// the kernel can touch fits beside what its set held at the launch, or because each set,
// gaining lines for the rest of the grid as fast as it has since the launch, still has room
// for them. Both count only lines at home: a copy of a line homed in another partition is
// clean, and evicted first. The waves compared both start after that.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/launch_stats.hpp"
#include "core/release_reader.hpp"
#include "exec/block_runner.hpp"
#include "engine/event_queue.hpp"
#include "memory/memory_system.hpp"

namespace gpusim::core {

class Sm;

enum class SampleMode { Exact, On, Auto };

struct SampleRule {
  SampleMode mode = SampleMode::Exact;
  // A grid is sampled from this many waves on (--sample: 5, enough to skip one after three
  // measured and one draining; --sample auto: only grids where sampling saves most).
  static constexpr uint64_t kMinWavesOn = 5;
  static constexpr uint64_t kMinWavesAuto = 16;
  static constexpr uint64_t kMinMeasuredWaves = 3;  // the first includes the launch's ramp
  static constexpr double kTolerance = 0.02;        // successive waves within 2% of each other
  // Past this share of the grid, sampling would save little: the launch runs exact.
  static constexpr double kMaxSampledShare = 0.5;

  bool applies(uint64_t blocks, uint64_t wave_blocks) const {
    if (mode == SampleMode::Exact || wave_blocks == 0) return false;
    return blocks >= wave_blocks * min_waves();
  }
  uint64_t min_waves() const { return mode == SampleMode::Auto ? kMinWavesAuto : kMinWavesOn; }
  // Why a grid of `blocks` that applies() refuses is timed in full (asked for, not applied).
  std::string too_small(uint64_t blocks, uint64_t wave_blocks) const;
};

class WaveSampler final : public ReleaseReader {
 public:
  // `device`: every buffer and variable, all the kernel can touch.
  WaveSampler(uint64_t wave_blocks, uint64_t total_blocks, engine::Cycle start,
              const std::vector<std::unique_ptr<Sm>>& sms, memory::MemorySystem& memory,
              std::span<const memory::AddressRange> device);

  // `count` blocks retired at `now`. True once the sample is complete: dispatch no more.
  bool retired(uint64_t count, engine::Cycle now);
  // Whether the L2 is in its steady state (see above), holding `now` with `retired` blocks done.
  bool l2_settled(const memory::L2Occupancy& now, uint64_t retired) const;
  bool complete() const { return complete_; }
  // The blocks until the next wave's end, where retired() reads every SM and the memory.
  uint64_t releases_before_read() const override;
  // Why the sample was not taken, once the grid has been timed in full (empty if it was).
  const std::string& declined() const { return declined_; }

  // After the timed part (which dispatched `simulated` blocks) ends: adds to `stats` what the
  // `simulated`..total blocks would have added at the last wave's rate, with the exact
  // instruction counts of the functional run of those blocks; fills stats.sample.
  void extrapolate(LaunchStats& stats, uint64_t simulated, const exec::FunctionalStats& functional) const;

 private:
  struct Snapshot {
    engine::Cycle at = 0;
    engine::Cycle drained = 0;  // when the memory system will have finished what was sent so far
    std::vector<SmStats> sms;
    memory::MemoryStats memory;
  };
  Snapshot snapshot(engine::Cycle now) const;
  // The time wave `i` (waves_[i-1] to waves_[i]) took: the SMs', or the memory system's when
  // more than a wave's work is queued there (atomics to one address, which blocks do not
  // wait for, say): then the queue grows a wave at a time and ends the kernel.
  engine::Cycle wave_cycles(size_t i) const;
  // The warp instructions the SMs issued in wave `i`, and its cycles per warp instruction: the
  // rate that stays steady when blocks differ in work, or a wave's ends cut through more or
  // less of the work in flight.
  uint64_t wave_instructions(size_t i) const;
  double wave_rate(size_t i) const;

  uint64_t wave_blocks_, total_blocks_;
  const std::vector<std::unique_ptr<Sm>>& sms_;
  memory::MemorySystem& memory_;
  uint64_t retired_ = 0;
  memory::L2Occupancy l2_at_start_;
  bool l2_keeps_all_;  // every line the kernel can touch fits in the L2 as it was at the start
  size_t l2_settled_at_ = 0;  // the first snapshot at which the L2 was steady (0: not yet)
  std::vector<Snapshot> waves_;  // at each wave's last retirement (waves_[0]: the launch's start)
  bool complete_ = false;
  std::string declined_;
};

}  // namespace gpusim::core
