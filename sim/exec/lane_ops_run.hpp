// Running the decoded forms (lane_ops.hpp) at issue: in the executor's own translation unit
// (executor.cpp includes this, and only it), so that execute() takes them without a call.
// Results are those of the general path bit for bit; an issue in which a lane reads a
// register it never wrote goes there.
#pragma once

#include "exec/executor.hpp"
#include "exec/lane_ops.hpp"

namespace gpusim::exec {

namespace detail {

// A decoded source's lanes: null when a lane of `mask` reads a register it never wrote
// (gather() gives it 0: the general path runs the instruction).
template <typename T>
const T* lanes_of(const LaneOps& decoded, const WarpState& w, const LaneOp::Source& s, uint32_t mask) {
  constexpr bool wide = sizeof(T) == sizeof(uint64_t);
  if (s.reg == kernel::kNoReg) {
    if constexpr (wide) return &decoded.wide_immediates[s.base];
    else return &decoded.immediates[s.base];
  }
  if (mask & ~w.defined[s.reg]) return nullptr;
  if constexpr (wide) return &w.wide[s.base];
  else return &w.narrow[s.base];
}

// Runs `kernel` into the destination's lanes: in place for a full warp where the op allows
// (LaneOp::in_place), else into a copy whose executed lanes are then written.
template <typename T, typename Kernel>
void into_lanes(T* dst, uint32_t mask, bool in_place, Kernel kernel) {
  if (mask == 0xFFFFFFFFu && in_place) {
    kernel(dst);
    return;
  }
  T out[kWarpSize];
  kernel(out);
  write_lanes(dst, out, mask);
}

}  // namespace detail

// Its one caller is execute(): compiled into it, no call and no frame of its own.
[[gnu::always_inline]] inline bool Executor::run_decoded(WarpState& w, const BlockState& b, const LaneOp& op,
                                                         uint32_t mask) {
  switch (op.form) {
    case LaneOp::Form::None: return false;
    case LaneOp::Form::Narrow: {
      const uint32_t* x = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[0], mask);
      const uint32_t* y = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[1], mask);
      const uint32_t* z = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[2], mask);
      if (!x || !y || !z) return false;
      detail::into_lanes(&w.narrow[op.dst_base], mask, op.in_place, [&](uint32_t* out) { op.narrow(x, y, z, out); });
      break;
    }
    case LaneOp::Form::Wide: {
      const uint64_t* x = detail::lanes_of<uint64_t>(lane_ops_, w, op.src[0], mask);
      const uint64_t* y = detail::lanes_of<uint64_t>(lane_ops_, w, op.src[1], mask);
      if (!x || !y) return false;
      detail::into_lanes(&w.wide[op.dst_base], mask, op.in_place, [&](uint64_t* out) { op.wide(x, y, out); });
      break;
    }
    case LaneOp::Form::Widening: {
      const uint32_t* x = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[0], mask);
      const uint32_t* y = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[1], mask);
      const uint64_t* z = detail::lanes_of<uint64_t>(lane_ops_, w, op.src[2], mask);
      if (!x || !y || !z) return false;
      detail::into_lanes(&w.wide[op.dst_base], mask, op.in_place, [&](uint64_t* out) { op.widening(x, y, z, out); });
      break;
    }
    case LaneOp::Form::Narrowing: {
      const uint64_t* x = detail::lanes_of<uint64_t>(lane_ops_, w, op.src[0], mask);
      if (!x) return false;
      detail::into_lanes(&w.narrow[op.dst_base], mask, op.in_place, [&](uint32_t* out) { op.narrowing(x, out); });
      break;
    }
    case LaneOp::Form::Compare: {
      const uint32_t* x = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[0], mask);
      const uint32_t* y = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[1], mask);
      if (!x || !y) return false;
      const uint32_t holds = op.compare(mask, x, y);
      write_predicate(w, op.dst, mask, holds);
      if (op.dst2 != kernel::kNoReg) write_predicate(w, op.dst2, mask, ~holds & mask);
      return true;  // write_predicate marks the lanes written
    }
    case LaneOp::Form::Special: {
      detail::into_lanes(&w.narrow[op.dst_base], mask, op.in_place,
                         [&](uint32_t* out) { special_lanes(w, b, op.special, out); });
      break;
    }
  }
  w.defined[op.dst] |= mask;
  return true;
}

}  // namespace gpusim::exec
