// Atomics: each lane's read, update and write of one word, lane after lane.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>

#include "exec/executor.hpp"
#include "exec/lane_span.hpp"
#include "exec/small_float.hpp"
#include "exec/value.hpp"
#include "exec/warp_memory.hpp"
#include "util/bits.hpp"

namespace gpusim::exec {

using kernel::AtomOp;
using kernel::DataType;
using kernel::Opcode;
using kernel::Operand;
using kernel::StateSpace;

namespace {

uint64_t load_bits(const uint8_t* p, uint32_t size) {
  uint64_t v = 0;
  std::memcpy(&v, p, size);  // little-endian host, as the device
  return v;
}

// A half-precision atomic, 16 bits at a time: the exact result of `fn` rounded to nearest
// (.noftz: subnormals kept).
template <typename F>
uint64_t half_atomic(uint64_t old, uint64_t v, DataType t, F fn) {
  const SmallFloatFormat f = format_of(t);
  uint64_t next = 0;
  for (int h = 0; h < kernel::type_bits(t); h += 16)
    next |= uint64_t{encode_small_float(fn(decode_small_float(static_cast<uint32_t>(old >> h & 0xFFFF), f),
                                           decode_small_float(static_cast<uint32_t>(v >> h & 0xFFFF), f)),
                                        f)}
            << h;
  return next;
}

// Calls `use(combine)` with the update `combine(old, operand)` of an operation that reads one
// operand (every one but cas: no call), chosen once for the warp's lanes or for one word.
// `old` holds only the word's bits.
template <class Use>
[[gnu::always_inline]] inline void with_update(AtomOp op, DataType t, Use use) {
  const int bits = kernel::type_bits(t);
  const auto sext = [bits](uint64_t v) { return sign_extend(v, bits); };
  const auto low = [bits](uint64_t v) { return low_bits(v, bits); };
  const auto on_halves = [&](auto fn) { use([t, fn](uint64_t old, uint64_t v) { return half_atomic(old, v, t, fn); }); };
  const bool half = kernel::is_half(t);
  const bool signed_type = kernel::is_signed(t);
  switch (op) {
    case AtomOp::Add:
      if (half) on_halves([](double x, double y) { return x + y; });
      else if (t == DataType::F32) use([](uint64_t o, uint64_t v) { return from_f32(as_f32(o) + as_f32(v)); });
      else if (t == DataType::F64) use([](uint64_t o, uint64_t v) { return from_f64(as_f64(o) + as_f64(v)); });
      else use([](uint64_t o, uint64_t v) { return o + v; });
      break;
    case AtomOp::Min:
      if (half) on_halves([](double x, double y) { return std::fmin(x, y); });
      else if (signed_type) use([&](uint64_t o, uint64_t v) { return static_cast<uint64_t>(std::min(sext(o), sext(v))); });
      else use([&](uint64_t o, uint64_t v) { return std::min(o, low(v)); });
      break;
    case AtomOp::Max:
      if (half) on_halves([](double x, double y) { return std::fmax(x, y); });
      else if (signed_type) use([&](uint64_t o, uint64_t v) { return static_cast<uint64_t>(std::max(sext(o), sext(v))); });
      else use([&](uint64_t o, uint64_t v) { return std::max(o, low(v)); });
      break;
    case AtomOp::Inc: use([&](uint64_t o, uint64_t v) { return o >= low(v) ? 0 : o + 1; }); break;
    case AtomOp::Dec: use([&](uint64_t o, uint64_t v) { return (o == 0 || o > low(v)) ? v : o - 1; }); break;
    case AtomOp::And: use([](uint64_t o, uint64_t v) { return o & v; }); break;
    case AtomOp::Or: use([](uint64_t o, uint64_t v) { return o | v; }); break;
    case AtomOp::Xor: use([](uint64_t o, uint64_t v) { return o ^ v; }); break;
    case AtomOp::Exch: use([](uint64_t, uint64_t v) { return v; }); break;
    case AtomOp::Cas: break;
  }
}

}  // namespace

uint16_t reduction_how(AtomOp op, DataType t) {  // its operation and type, plus one
  return static_cast<uint16_t>((static_cast<uint32_t>(op) << 8 | static_cast<uint32_t>(t)) + 1);
}

uint64_t reduce_word(uint64_t old, uint64_t operand, uint16_t how) {
  const uint32_t code = how - 1u;
  uint64_t next = old;
  with_update(static_cast<AtomOp>(code >> 8), static_cast<DataType>(code & 0xFF),
              [&](auto combine) { next = combine(old, operand); });
  return next;
}

void StoreLog::reduce_run(size_t first, size_t end) const {
  const uint32_t code = entries_[first].how - 1u;
  const uint32_t bytes = entries_[first].bytes;
  with_update(static_cast<AtomOp>(code >> 8), static_cast<DataType>(code & 0xFF), [&](auto combine) {
    const auto each = [&](auto width) {
      for (size_t i = first; i < end; ++i) {
        const Entry& e = entries_[i];
        store_bits(e.to, combine(load_bits(e.to, width), words_[e.offset]), width);
      }
    };
    if (bytes == 4) each(std::integral_constant<uint32_t, 4>{});
    else if (bytes == 8) each(std::integral_constant<uint32_t, 8>{});
    else each(bytes);
  });
}

void Executor::atomic(WarpState& w, BlockState& b, const Instruction& in, uint32_t mask) {
  const DataType t = in.type;
  const uint32_t size = static_cast<uint32_t>(kernel::type_bits(t) / 8);
  const AtomOp op = static_cast<AtomOp>(in.mode);
  const bool returns = in.op == Opcode::Atom;
  // With global stores held back (SMs ticking in batches, blocks run side by side), an atomic
  // on global memory goes to the log: kernel::atomics_need_sm_order keeps SMs and blocks in
  // order where the kernel reads what one returns, so this one's destination is never read, and
  // is not written. (On a generic address, which may be shared memory, it keeps them in order
  // too.)
  const bool logged = stores_ && in.space == StateSpace::Global;
  const Operand& addr_op = in.src[0];
  const bool half = kernel::is_half(t);
  const bool float_op = op == AtomOp::Add || op == AtomOp::Exch || op == AtomOp::Cas || (half && (op == AtomOp::Min || op == AtomOp::Max));
  if (kernel::is_float(t) && !float_op)
    fault(w, b, static_cast<uint32_t>(std::countr_zero(mask | 1u)),
          std::string(kernel::opcode_name(in.op)) + " on " + kernel::type_name(t) + ": only add, min and max (half types), exch and cas");
  // The warp's addresses and one bounds check where its span lies in shared memory or one
  // buffer (most atomics: a histogram's bins); else each lane's address on its own, which
  // faults or logs as a lane's access does.
  uint8_t* span = nullptr;
  uint64_t lo = 0;
  // The address register read in place where every lane wrote it, as load_store reads it (not
  // shared with it: with a second caller of that code GCC's code for load_store grew).
  Operand reg;
  reg.kind = Operand::Kind::Reg;
  reg.reg = addr_op.reg;
  const bool in_place = addr_op.reg != kernel::kNoReg && !addr_op.frame &&
                        (in.space == StateSpace::Shared || in.space == StateSpace::Global);
  const uint32_t* narrow = in_place ? narrow_view(w, reg, mask, nullptr) : nullptr;
  const uint64_t* wide = in_place && !narrow ? wide_view(w, reg, mask, nullptr) : nullptr;
  if (narrow || wide) {
    const uint64_t wrap = in.space == StateSpace::Shared ? 0xFFFFFFFFull : ~0ull;
    const auto offset = static_cast<uint64_t>(addr_op.imm);
    const LaneSpan lanes = narrow ? lane_span(addresses_, narrow, mask, offset, wrap, size)
                                  : lane_span(addresses_, wide, mask, offset, wrap, size);
    span = warp_span(lanes, in.space, b, size, mask);
    lo = lanes.lo;
    if (span) last_space_ = in.space;  // as address() sets it
  }
  // The operands are read for the warp first (no lane's update writes another lane's
  // registers); the operation and the type are chosen once for the warp, not per lane (that
  // decoding cost 110 host instructions a lane on Hopper's histogram).
  std::array<uint64_t, kWarpSize> values, swaps, returned;
  gather(w, b, in.src[1], mask, values.data());
  if (op == AtomOp::Cas) gather(w, b, in.src[2], mask, swaps.data());
  // A lane's word where the warp's lanes do not lie in one span: found (and checked) on its own.
  const auto own_word = [&](uint32_t lane) -> uint8_t* {
    uint64_t a = (addr_op.reg == kernel::kNoReg ? 0 : read_reg(w, b, addr_op.reg, lane)) +
                 static_cast<uint64_t>(addr_op.imm) + (addr_op.frame ? w.fp(lane) : 0);
    if (in.space == StateSpace::Shared) a &= 0xFFFFFFFFu;  // 32-bit shared addresses wrap
    uint8_t* p = address(w, b, in.space, a, size, lane, "atomic");
    addresses_[lane] = last_space_ == StateSpace::Shared && a >= kernel::kSharedWindow ? a - kernel::kSharedWindow : a;
    return p;
  };
  // Calls on(lane, its word) for each lane, in lane order; a loop for each way of finding the
  // word, each compiled in (as a call per lane, the update cost the histograms 6%).
  const auto each_word = [&](auto on) __attribute__((always_inline)) {
    if (span) for_each_lane(mask, [&](uint32_t lane) __attribute__((always_inline)) { on(lane, span + (addresses_[lane] - lo)); });
    else for_each_lane(mask, [&](uint32_t lane) __attribute__((always_inline)) { on(lane, own_word(lane)); });
  };
  if (logged) {  // applied in the log's order, where a store would be; logged for the warp
    std::array<uint8_t*, kWarpSize> words;
    std::array<uint64_t, kWarpSize> operands;
    uint32_t n = 0;
    each_word([&](uint32_t lane, uint8_t* p) {
      words[n] = p;
      operands[n++] = values[lane];
    });
    stores_->add_words(words.data(), operands.data(), n, size, reduction_how(op, t));
    return;
  }
  // Lanes apply `next(old, lane)` one after another, in lane order; the words they return are
  // written for the warp at the end (a lane reads no lane's destination but its own, and that
  // before its update). `width`: the size, a constant where it is 4 or 8 bytes, so that each
  // lane's load and store are moves, not memcpy calls. `old` holds only the word's bits, and
  // the store keeps only the word's bits.
  const auto each_lane = [&](auto next) {
    const auto update = [&](auto width) {
      each_word([&](uint32_t lane, uint8_t* p) __attribute__((always_inline)) {
        const uint64_t old = load_bits(p, width);
        store_bits(p, next(old, lane), width);
        returned[lane] = loaded_value(old, t);
      });
    };
    if (size == 4) update(std::integral_constant<uint32_t, 4>{});
    else if (size == 8) update(std::integral_constant<uint32_t, 8>{});
    else update(size);
    if (returns) scatter(w, in.dst.reg, mask, returned.data());
  };
  if (op == AtomOp::Cas) {
    const int bits = kernel::type_bits(t);
    each_lane([&](uint64_t o, uint32_t lane) { return o == low_bits(values[lane], bits) ? swaps[lane] : o; });
  } else {
    with_update(op, t, [&](auto combine) {
      each_lane([&](uint64_t old, uint32_t lane) -> uint64_t { return combine(old, values[lane]); });
    });
  }
}

}  // namespace gpusim::exec
