// Loads and stores (atomics: atomics.cpp).
#include <algorithm>
#include <cstring>

#include "exec/executor.hpp"
#include "exec/lane_span.hpp"
#include "exec/value.hpp"
#include "exec/warp_memory.hpp"
#include "util/bits.hpp"

namespace gpusim::exec {

using kernel::DataType;
using kernel::Opcode;
using kernel::Operand;
using kernel::StateSpace;

namespace {

const char* space_name(StateSpace s) {
  switch (s) {
    case StateSpace::Global: return "global";
    case StateSpace::Shared: return "shared";
    case StateSpace::Local: return "local";
    case StateSpace::Const: return "const";
    case StateSpace::Param: return "param";
    case StateSpace::Generic: return "generic";
  }
  return "";
}

// Calls f with a zero of the unsigned type `size` bytes wide (1, 2, 4, else 8): one dispatch
// for the load paths that widen each lane's element.
template <class F>
[[gnu::always_inline]] inline void with_width(uint32_t size, const F& f) {
  switch (size) {
    case 1: f(uint8_t{}); break;
    case 2: f(uint16_t{}); break;
    case 4: f(uint32_t{}); break;
    default: f(uint64_t{}); break;
  }
}

}  // namespace

uint8_t* Executor::out_of_bounds(WarpState& w, BlockState& b, uint32_t lane, const std::string& what, bool store) {
  OutOfBoundsLog* log = launch_.out_of_bounds;
  if (!log) fault(w, b, lane, what);
  ++(store ? log->stores : log->loads);
  const int32_t pc = w.stack.back().pc;
  auto site = std::find_if(log->sites.begin(), log->sites.end(), [&](const auto& s) { return s.pc == pc; });
  if (site != log->sites.end()) ++site->count;
  else if (log->sites.size() < OutOfBoundsLog::kMaxSites) log->sites.push_back({pc, 1, describe(w, b, lane, what)});
  else ++log->unlisted;
  std::memset(oob_scratch_, 0, sizeof oob_scratch_);
  return oob_scratch_;
}

uint8_t* Executor::address(WarpState& w, BlockState& b, StateSpace space, uint64_t addr, uint32_t size, uint32_t lane,
                           const char* what) {
  if (size > 1 && addr % size != 0)
    fault(w, b, lane, std::string("misaligned ") + space_name(space) + " " + what + " of " + std::to_string(size) +
                          " bytes at " + hex(addr));
  if (space == StateSpace::Generic) {
    if (addr >= kernel::kSharedWindow && addr < kernel::kSharedWindow + kernel::kWindowSize) {
      space = StateSpace::Shared;
      addr -= kernel::kSharedWindow;
    } else if (addr >= kernel::kLocalWindow && addr < kernel::kLocalWindow + kernel::kWindowSize) {
      space = StateSpace::Local;
      addr -= kernel::kLocalWindow;
    } else {
      space = StateSpace::Global;
    }
  }
  last_space_ = space;
  // Only on the way out of bounds: the in-bounds path is hot.
  const auto store = [&] { return std::strcmp(what, "load") != 0 && std::strcmp(what, "cp.async source") != 0; };
  const auto outside = [&](uint64_t limit) -> uint8_t* {
    return out_of_bounds(w, b, lane,
                         std::string("out-of-bounds ") + space_name(space) + " " + what + " of " + std::to_string(size) +
                             " bytes at " + hex(addr) + " (the " + space_name(space) + " space has " +
                             std::to_string(limit) + " bytes)",
                         store());
  };
  switch (space) {
    case StateSpace::Param:
      if (addr + size > launch_.params.size()) return outside(launch_.params.size());
      return const_cast<uint8_t*>(launch_.params.data()) + addr;
    case StateSpace::Shared:
      if (addr + size > b.shared.size()) return outside(b.shared.size());
      return b.shared.data() + addr;
    case StateSpace::Local:
      if (addr + size > program_.local_bytes) return outside(program_.local_bytes);
      return w.local.data() + size_t{lane} * program_.local_bytes + addr;
    default: {
      uint8_t* p = memory_.translate(addr, size, region_hint_);
      if (!p)
        return out_of_bounds(w, b, lane,
                             std::string("out-of-bounds ") + space_name(space) + " " + what + " of " +
                                 std::to_string(size) + " bytes at " + hex(addr) + " (" + memory_.describe(addr) + ")",
                             store());
      return p;
    }
  }
}

void Executor::load_store(WarpState& w, BlockState& b, const Instruction& in, uint32_t mask) {
  const uint32_t size = static_cast<uint32_t>(kernel::type_bits(in.type) / 8);
  const Operand& addr_op = in.src[0];
  const bool is_load = in.op == Opcode::Ld;
  const Operand& data = is_load ? in.dst : in.src[1];
  const uint32_t count = data.kind == Operand::Kind::Vec ? data.count : 1;
  const bool shared = in.space == StateSpace::Shared, global = in.space == StateSpace::Global,
             param = in.space == StateSpace::Param;
  const uint32_t bytes = size * count;
  const uint64_t wrap = shared ? 0xFFFFFFFFull : ~0ull;  // shared addresses are 32 bits: an offset formed in 32 bits wraps
  const auto offset = static_cast<uint64_t>(addr_op.imm);
  // The base register read in place where every lane of `mask` wrote it (most accesses); else
  // gathered, with a call frame's slot added.
  LaneSpan lanes;
  Operand reg;
  reg.kind = Operand::Kind::Reg;
  reg.reg = addr_op.reg;
  const uint64_t* wide_base = nullptr;
  const uint32_t* narrow_base = nullptr;
  if (addr_op.reg != kernel::kNoReg && !addr_op.frame) {
    wide_base = wide_view(w, reg, mask, nullptr);
    if (!wide_base) narrow_base = narrow_view(w, reg, mask, nullptr);
  }
  if (wide_base) {
    lanes = lane_span(addresses_, wide_base, mask, offset, wrap, bytes);
  } else if (narrow_base) {
    lanes = lane_span(addresses_, narrow_base, mask, offset, wrap, bytes);
  } else {
    uint64_t bases[kWarpSize];
    if (addr_op.reg != kernel::kNoReg) gather(w, b, reg, mask, bases);
    else std::fill_n(bases, kWarpSize, 0);
    if (addr_op.frame) for_each_lane(mask, [&](uint32_t lane) { bases[lane] += w.fp(lane); });  // a call frame's slot
    lanes = lane_span(addresses_, bases, mask, offset, wrap, bytes);
  }
  uint8_t* host[kWarpSize];
  // The fast path: one bounds check for the warp.
  const uint64_t lo = lanes.lo, hi = lanes.hi;
  uint8_t* span = warp_span(lanes, in.space, b, bytes, mask);  // host address of `lo`
  // Only with a span are the addresses left as computed (the lane by lane path may rebase them).
  half_stride_ = span && lanes.halves ? std::optional(lanes.stride) : std::nullopt;
  // As util::consecutive_lanes would find for StepResult's access_bytes (a positive stride: lane 0 at lo).
  const uint64_t access = uint64_t{size} * vector_width(in);
  one_run_ = span ? std::optional(lanes.strided && lanes.stride == access && lo <= ~uint64_t{0} - 32 * access)
                  : std::nullopt;
  // Device memory, with this cycle's logged stores on top (SMs side by side; see set_store_log).
  const auto is_device = [&](const uint8_t* p) {
    if (global) return true;
    if (shared || param || in.space == StateSpace::Local) return false;
    const auto inside = [p](const uint8_t* begin, size_t size) {
      const auto a = reinterpret_cast<uintptr_t>(p), from = reinterpret_cast<uintptr_t>(begin);
      return a >= from && a < from + size;
    };
    return !inside(b.shared.data(), b.shared.size()) && !inside(w.local.data(), w.local.size()) &&
           !inside(launch_.params.data(), launch_.params.size());
  };
  const bool logging = stores_ != nullptr;                        // stores go to the log
  const bool forwarding = logging && !stores_->empty() && !shared;  // loads may read from it
  // Reads through the log only where it holds stores: else a plain copy. Compiled into each
  // use, where `n` is mostly a constant: a copy of known size, not a call and a memcpy call.
  const auto read = [&](void* out, const uint8_t* from, uint32_t n) __attribute__((always_inline)) {
    if (forwarding && is_device(from) && stores_->overlaps(from, n)) stores_->read(from, out, n);
    else std::memcpy(out, from, n);
  };
  // The span a warp loads, or each lane's part where the lanes lie far apart (a column).
  if (reads_ && is_load && span && !shared && !param && is_device(span)) {
    if (hi - lo <= 4 * kWarpSize * bytes) reads_->add(span, hi - lo + bytes);
    else for_each_lane(mask, [&](uint32_t lane) { reads_->add(span + (addresses_[lane] - lo), bytes); });
  }
  // A full warp of consecutive 32-bit words to or from 32-bit registers: one copy.
  if (span && lanes.strided && lanes.stride == 4 && size == 4 && data.kind == Operand::Kind::Reg &&
      data.reg != kernel::kNoReg && !program_.reg_wide[data.reg]) {
    uint32_t* reg = &w.narrow[size_t{slots_.slot[data.reg]} * kWarpSize];
    if (is_load) {
      read(reg, span, 4 * kWarpSize);
      w.defined[data.reg] = 0xFFFFFFFFu;
      return;
    }
    if (!data.negate && w.defined[data.reg] == 0xFFFFFFFFu) {
      if (logging && is_device(span)) stores_->add(span, reg, 4 * kWarpSize);
      else std::memcpy(span, reg, 4 * kWarpSize);
      return;
    }
  }
  // A full warp loading one address (a parameter, a broadcast): one read, copied to every lane.
  if (span && lanes.strided && lanes.stride == 0 && is_load && count == 1 && data.kind == Operand::Kind::Reg &&
      data.reg != kernel::kNoReg) {
    uint64_t raw = 0;
    read(&raw, span, size);
    const uint64_t v = loaded_value(raw, in.type);
    const size_t base = size_t{slots_.slot[data.reg]} * kWarpSize;
    if (program_.reg_wide[data.reg]) std::fill_n(&w.wide[base], kWarpSize, v);
    else std::fill_n(&w.narrow[base], kWarpSize, static_cast<uint32_t>(v));
    w.defined[data.reg] = 0xFFFFFFFFu;
    return;
  }
  // A full warp loading consecutive elements of another width (bytes, halves, 64-bit words, or
  // 32-bit words into 64-bit registers): one read of the span, each lane's element widened as
  // the lane by lane path below does.
  if (span && lanes.strided && lanes.stride == size && is_load && count == 1 && data.kind == Operand::Kind::Reg &&
      data.reg != kernel::kNoReg && size <= 8) {
    uint64_t values[kWarpSize];
    const auto widen = [&](auto word) {
      using T = decltype(word);
      T elements[kWarpSize];
      read(elements, span, sizeof elements);
      for (uint32_t lane = 0; lane < kWarpSize; ++lane) values[lane] = loaded_value(elements[lane], in.type);
    };
    with_width(size, widen);
    scatter(w, data.reg, mask, values);
    return;
  }
  // Each half-warp one row of consecutive words, or one word (a 16-wide tile's two rows in
  // shared memory): a copy or a broadcast per half.
  if (span && lanes.halves && (lanes.stride == 4 || lanes.stride == 0) && is_load && size == 4 && count == 1 &&
      data.kind == Operand::Kind::Reg && data.reg != kernel::kNoReg && !program_.reg_wide[data.reg]) {
    uint32_t* reg = &w.narrow[size_t{slots_.slot[data.reg]} * kWarpSize];
    for (uint32_t half = 0; half < kWarpSize; half += kHalfWarp) {
      const uint8_t* from = span + (addresses_[half] - lo);
      if (lanes.stride == 4) {
        read(reg + half, from, 4 * kHalfWarp);
      } else {
        uint32_t v = 0;
        read(&v, from, 4);
        std::fill_n(reg + half, kHalfWarp, v);
      }
    }
    w.defined[data.reg] = 0xFFFFFFFFu;
    return;
  }
  // Each lane's host address: from the span where there is one, else looked up (and checked) here.
  const auto at = [&](uint32_t lane) { return span ? span + (addresses_[lane] - lo) : host[lane]; };
  if (!span) {
    for_each_lane(mask, [&](uint32_t lane) {
      const uint64_t a = addresses_[lane];
      uint8_t* p = nullptr;
      if (a % bytes == 0) {
        if (shared && a + bytes <= b.shared.size()) p = b.shared.data() + a;
        else if (global) p = memory_.translate(a, bytes, region_hint_);
        else if (param && a + bytes <= launch_.params.size()) p = const_cast<uint8_t*>(launch_.params.data()) + a;
      }
      host[lane] = p ? p : address(w, b, in.space, a, bytes, lane, is_load ? "load" : "store");
      if (last_space_ == StateSpace::Shared && a >= kernel::kSharedWindow) addresses_[lane] = a - kernel::kSharedWindow;
    });
    if (reads_ && is_load)
      for_each_lane(mask, [&](uint32_t lane) {
        if (is_device(host[lane])) reads_->add(host[lane], bytes);
      });
  }
  const bool sign = kernel::is_signed(in.type);
  const int bits = kernel::type_bits(in.type);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t reg = data.kind == Operand::Kind::Vec ? data.regs[i] : data.reg;
    const uint32_t offset = i * size;
    if (is_load) {
      if (reg == kernel::kNoReg) continue;
      if (size == 4 && !program_.reg_wide[reg]) {  // the common case: a 32-bit word into a 32-bit register
        uint32_t words[kWarpSize];
        // Both lane loops compiled in (always_inline): GCC left them as a call per lane once
        // atomics left this file, which cost Hopper's stencil 0.6%.
        if (forwarding)
          for_each_lane(mask, [&](uint32_t lane) __attribute__((always_inline)) { read(&words[lane], at(lane) + offset, 4); });
        else for_each_lane(mask, [&](uint32_t lane) { std::memcpy(&words[lane], at(lane) + offset, 4); });
        scatter32(w, reg, mask, words);
        continue;
      }
      uint64_t values[kWarpSize];
      const auto load = [&](auto word) {
        using T = decltype(word);
        for_each_lane(mask, [&](uint32_t lane) __attribute__((always_inline)) {
          T v;
          read(&v, at(lane) + offset, sizeof(T));
          values[lane] = sign ? static_cast<uint64_t>(sign_extend(v, bits)) : static_cast<uint64_t>(v);
        });
      };
      with_width(size, load);
      scatter(w, reg, mask, values);
    } else {
      uint64_t values[kWarpSize];
      if (data.kind == Operand::Kind::Vec) {
        Operand r;
        r.kind = Operand::Kind::Reg;
        r.reg = reg;
        gather(w, b, r, mask, values);
      } else {
        gather(w, b, data, mask, values);
      }
      if (logging) {
        // The device's lanes logged together, in lane order (little-endian: a word's low bytes).
        uint8_t* to[kWarpSize];
        uint64_t words[kWarpSize];
        uint32_t n = 0;
        for_each_lane(mask, [&](uint32_t lane) {
          uint8_t* p = at(lane) + offset;
          if (!is_device(p)) {
            store_bits(p, values[lane], size);
            return;
          }
          to[n] = p;
          words[n++] = values[lane];
        });
        stores_->add_words(to, words, n, size);
      } else {
        for_each_lane(mask, [&](uint32_t lane) { store_bits(at(lane) + offset, values[lane], size); });
      }
    }
  }
}

}  // namespace gpusim::exec
