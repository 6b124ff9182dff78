// The GPU-wide block scheduler: hands a launch's blocks to SMs in the configured SM order,
// round-robin, as far as their resources allow, one block per dispatch interval; each
// block's warps may issue block_launch_cycles after its assignment. SMs tell it when a
// retired block's room comes back (block_release_cycles after it retires). It keeps its
// times relative to the launch's start, so a launch's schedule does not depend on where on
// the workload's timeline it begins.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/block_dispatch_config.hpp"
#include "core/sm.hpp"
#include "core/wave_sampler.hpp"
#include "engine/event_queue.hpp"

namespace gpusim::core {

class BlockDispatcher final : public BlockSink {
 public:
  BlockDispatcher(const BlockDispatchConfig& config, engine::Cycle launch_start, uint64_t total_blocks);
  // `blocks_per_sm`: how many of the launch's blocks fit on an SM at once (occupancy).
  void attach(std::vector<std::unique_ptr<Sm>>* sms, int blocks_per_sm) {
    sms_ = sms;
    room_.assign(sms->size(), blocks_per_sm);
    room_left_ = static_cast<int64_t>(sms->size()) * blocks_per_sm;
  }

  // The launch begins: the first blocks go out after the kernel launch cost.
  void start() {
    const engine::Cycle first = start_ + static_cast<engine::Cycle>(config_.kernel_launch_cycles);
    assign(first, first);
    if (all_assigned()) ran_out_at_ = 0;
  }
  // With a sampler (--sample), dispatch stops once it has its sample.
  void set_sampler(WaveSampler* sampler) { sampler_ = sampler; }
  void blocks_retired(uint32_t sm, uint64_t count, engine::Cycle now) override {
    room_[sm] += static_cast<int>(count);
    room_left_ += static_cast<int64_t>(count);
    if (!sampler_ || !sampler_->retired(count, now)) assign(now + 1, now);
    if (all_assigned() && ran_out_at_ == engine::kNever) ran_out_at_ = now;
  }
  bool all_assigned() const { return next_block_ >= total_blocks_ || (sampler_ && sampler_->complete()); }
  // (A batch's quantum assigns its cycles' blocks before its SMs run them.)
  bool blocks_left_at(engine::Cycle now) const override { return now < ran_out_at_; }
  uint64_t dispatched() const { return next_block_; }

 private:
  // Gives out blocks at `now` while there is room; `room_at`: when the room came back (Sm::launch_block).
  void assign(engine::Cycle now, engine::Cycle room_at);

  BlockDispatchConfig config_;
  engine::Cycle start_;
  uint64_t total_blocks_;
  std::vector<std::unique_ptr<Sm>>* sms_ = nullptr;
  WaveSampler* sampler_ = nullptr;
  std::vector<int> order_;
  // By SM index: how many more blocks it takes now. Kept here, not read from the SMs: a
  // dispatch looks at every SM in turn, and their state lies in other cores' caches.
  std::vector<int> room_;
  // Their sum: with none left, a dispatch need not look (a retirement's dispatch found every
  // SM full after its one block, a look at all 132 SMs each, on the batch's thread).
  int64_t room_left_ = 0;
  uint64_t next_block_ = 0;
  engine::Cycle ran_out_at_ = engine::kNever;  // the cycle all_assigned() came true in
  size_t cursor_ = 0;
  double next_dispatch_ = 0;  // relative to the launch's start
};

}  // namespace gpusim::core
