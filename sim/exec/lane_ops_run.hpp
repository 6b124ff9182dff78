// Running the decoded forms (lane_ops.hpp) at issue: in the executor's own translation unit
// (executor.cpp includes this, and only it), so that execute() takes them without a call.
// Results are those of the general path bit for bit; an issue in which a lane reads a
// register it never wrote goes there.
#pragma once

#include "exec/executor.hpp"
#include "exec/lane_ops.hpp"
#include "util/bits.hpp"

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

// Whether an executed lane (of `mask`) divides by zero: a decoded division leaves such a
// warp to the general path, which faults. False where a lane reads a register it never
// wrote (the decoded form's own look at its sources sends that one there).
template <typename T>
bool divides_by_zero(const LaneOps& decoded, const WarpState& w, const LaneOp::Source& divisor, uint32_t mask) {
  const T* y = lanes_of<T>(decoded, w, divisor, mask);
  if (!y) return false;
  uint32_t zero = 0;
  for (int l = 0; l < kWarpSize; ++l) zero |= y[l] == 0 ? util::kLaneBit[l] : 0u;  // no variable shift: vectorises
  return (zero & mask) != 0;
}

}  // namespace detail

// Its one caller is execute(): compiled into it, no call and no frame of its own.
[[gnu::always_inline]] inline bool Executor::run_decoded(WarpState& w, const BlockState& b, const LaneOp& op,
                                                         uint32_t mask) {
  // setp's forms: the predicates where the comparison holds and where not.
  const auto compare = [&](const auto* x, const auto* y, auto holds_where) {
    if (!x || !y) return false;
    const uint32_t holds = holds_where(mask, x, y);
    write_predicate(w, op.dst, mask, holds);
    if (op.dst2 != kernel::kNoReg) write_predicate(w, op.dst2, mask, ~holds & mask);
    return true;  // write_predicate marks the lanes written
  };
  switch (op.form) {
    case LaneOp::Form::None: return false;
    case LaneOp::Form::NarrowDivide:
      if (detail::divides_by_zero<uint32_t>(lane_ops_, w, op.src[1], mask)) return false;
      [[fallthrough]];
    case LaneOp::Form::Narrow: {
      const uint32_t* x = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[0], mask);
      const uint32_t* y = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[1], mask);
      const uint32_t* z = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[2], mask);
      if (!x || !y || !z) return false;
      detail::into_lanes(&w.narrow[op.dst_base], mask, op.in_place, [&](uint32_t* out) { op.narrow(x, y, z, out); });
      break;
    }
    case LaneOp::Form::WideDivide:
      if (detail::divides_by_zero<uint64_t>(lane_ops_, w, op.src[1], mask)) return false;
      [[fallthrough]];
    case LaneOp::Form::Wide: {
      const uint64_t* x = detail::lanes_of<uint64_t>(lane_ops_, w, op.src[0], mask);
      const uint64_t* y = detail::lanes_of<uint64_t>(lane_ops_, w, op.src[1], mask);
      if (!x || !y) return false;
      detail::into_lanes(&w.wide[op.dst_base], mask, op.in_place, [&](uint64_t* out) { op.wide(x, y, out); });
      break;
    }
    case LaneOp::Form::WideTernary: {
      const uint64_t* x = detail::lanes_of<uint64_t>(lane_ops_, w, op.src[0], mask);
      const uint64_t* y = detail::lanes_of<uint64_t>(lane_ops_, w, op.src[1], mask);
      const uint64_t* z = detail::lanes_of<uint64_t>(lane_ops_, w, op.src[2], mask);
      if (!x || !y || !z) return false;
      detail::into_lanes(&w.wide[op.dst_base], mask, op.in_place, [&](uint64_t* out) { op.ternary(x, y, z, out); });
      break;
    }
    case LaneOp::Form::WideShift: {
      const uint64_t* x = detail::lanes_of<uint64_t>(lane_ops_, w, op.src[0], mask);
      const uint32_t* n = detail::lanes_of<uint32_t>(lane_ops_, w, op.src[1], mask);
      if (!x || !n) return false;
      detail::into_lanes(&w.wide[op.dst_base], mask, op.in_place, [&](uint64_t* out) { op.shift(x, n, out); });
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
    case LaneOp::Form::Compare:
      return compare(detail::lanes_of<uint32_t>(lane_ops_, w, op.src[0], mask),
                     detail::lanes_of<uint32_t>(lane_ops_, w, op.src[1], mask), op.compare);
    case LaneOp::Form::WideCompare:
      return compare(detail::lanes_of<uint64_t>(lane_ops_, w, op.src[0], mask),
                     detail::lanes_of<uint64_t>(lane_ops_, w, op.src[1], mask), op.wide_compare);
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
