#include "memory/write_combiner.hpp"

#include <algorithm>

namespace gpusim::memory {

void WriteCombiner::expire(engine::Cycle now) {
  if (window_ > 0) std::erase_if(held_, [&](const Held& h) { return h.leaves < now; });
}

bool WriteCombiner::holds(uint64_t line) const {
  return std::any_of(held_.begin(), held_.end(), [&](const Held& h) { return h.line == line; });
}

void WriteCombiner::open(uint64_t line, engine::Cycle now) {
  if (held_.size() == capacity_) held_.erase(held_.begin());
  held_.push_back({line, now + window_});
}

bool WriteCombiner::store(uint64_t line, engine::Cycle now) {
  if (!enabled()) return false;
  expire(now);
  const bool held = holds(line);
  if (!held) open(line, now);
  return held;
}

void WriteCombiner::store(const std::vector<uint64_t>& lines, engine::Cycle now, std::vector<bool>& merged) {
  merged.assign(lines.size(), false);
  if (!enabled()) return;
  expire(now);
  for (size_t i = 0; i < lines.size(); ++i) merged[i] = holds(lines[i]);
  for (size_t i = 0; i < lines.size(); ++i)
    if (!merged[i]) open(lines[i], now);
}

}  // namespace gpusim::memory
