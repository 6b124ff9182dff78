#include "core/block_dispatcher.hpp"

#include <algorithm>
#include <cmath>

namespace gpusim::core {

BlockDispatcher::BlockDispatcher(const BlockDispatchConfig& config, engine::Cycle launch_start, uint64_t total_blocks)
    : config_(config), start_(launch_start), total_blocks_(total_blocks), order_(config.sm_order) {}

void BlockDispatcher::assign(engine::Cycle now, engine::Cycle room_at) {
  std::vector<std::unique_ptr<Sm>>& sms = *sms_;
  if (order_.empty())
    for (size_t i = 0; i < sms.size(); ++i) order_.push_back(static_cast<int>(i));
  const double relative = static_cast<double>(now - start_);
  const size_t count = order_.size();
  const auto step = [this, count] { cursor_ = cursor_ + 1 == count ? 0 : cursor_ + 1; };
  while (next_block_ < total_blocks_ && room_left_ > 0) {
    size_t tried = 0;
    while (tried < count && room_[static_cast<size_t>(order_[cursor_])] == 0) {
      step();
      ++tried;
    }
    if (tried == count) return;
    const auto index = static_cast<size_t>(order_[cursor_]);
    Sm& sm = *sms[index];
    --room_[index];
    --room_left_;
    const double dispatched = std::max(relative, next_dispatch_);
    next_dispatch_ = dispatched + config_.block_dispatch_interval;
    const engine::Cycle eligible = start_ + static_cast<engine::Cycle>(std::ceil(dispatched)) +
                                   static_cast<engine::Cycle>(config_.block_launch_cycles);
    sm.launch_block(next_block_++, now, eligible, room_at);
    step();
  }
}

}  // namespace gpusim::core
