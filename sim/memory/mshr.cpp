#include "memory/mshr.hpp"

#include <algorithm>

namespace gpusim::memory {

engine::Cycle MshrFile::free_at(engine::Cycle now) const {
  if (release_.empty()) return now;
  return std::max(now, *std::min_element(release_.begin(), release_.end()));
}

size_t MshrFile::acquire(engine::Cycle) {
  const size_t first = static_cast<size_t>(std::min_element(release_.begin(), release_.end()) - release_.begin());
  release_[first] = engine::kNever;  // held until release() says when it frees
  return first;
}

int MshrFile::held(engine::Cycle now) const {
  return static_cast<int>(std::count_if(release_.begin(), release_.end(), [&](engine::Cycle r) { return r > now; }));
}

}  // namespace gpusim::memory
