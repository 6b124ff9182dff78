// What loads, stores and atomics (memory_ops.cpp, atomics.cpp) share: a lane's word written,
// the value a load leaves in its register, and the warp's span in host memory.
#pragma once

#include <cstdint>
#include <cstring>

#include "exec/executor.hpp"
#include "exec/lane_span.hpp"
#include "exec/value.hpp"

namespace gpusim::exec {

inline void store_bits(uint8_t* p, uint64_t v, uint32_t size) { std::memcpy(p, &v, size); }

// The value a load of type t leaves in its register (sub-word signed loads sign-extend).
inline uint64_t loaded_value(uint64_t raw, kernel::DataType t) {
  return kernel::is_signed(t) ? static_cast<uint64_t>(sign_extend(raw, kernel::type_bits(t))) : raw;
}

[[gnu::always_inline]] inline uint8_t* Executor::warp_span(const LaneSpan& lanes, kernel::StateSpace space, BlockState& b,
                                                            uint32_t bytes, uint32_t mask) {
  const uint64_t lo = lanes.lo, hi = lanes.hi;
  if (!mask || lanes.misaligned != 0 || (bytes & (bytes - 1)) != 0 || hi - lo >= (uint64_t{1} << 40)) return nullptr;
  if (space == kernel::StateSpace::Shared) return hi + bytes <= b.shared.size() ? b.shared.data() + lo : nullptr;
  if (space == kernel::StateSpace::Global) return memory_.translate(lo, hi - lo + bytes, region_hint_);
  if (space == kernel::StateSpace::Param && hi + bytes <= launch_.params.size()) return const_cast<uint8_t*>(launch_.params.data()) + lo;
  return nullptr;
}

}  // namespace gpusim::exec
