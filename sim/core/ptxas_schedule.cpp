#include "core/ptxas_schedule.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_map>

#include <boost/dynamic_bitset.hpp>

#include "kernel/cfg.hpp"

namespace gpusim::core {
namespace {

using kernel::Instruction;
using kernel::Opcode;

// Reading a clock is volatile: ptxas keeps it where the program put it, or in-kernel timing
// would measure nothing.
bool reads_clock(const Instruction& in) {
  if (in.op != Opcode::Mov || in.src[0].kind != kernel::Operand::Kind::Special) return false;
  const kernel::SpecialReg s = in.src[0].special;
  return s == kernel::SpecialReg::Clock || s == kernel::SpecialReg::Clock64 || s == kernel::SpecialReg::GlobalTimer;
}
bool is_fence(const Instruction& in) {
  return in.op == Opcode::Bar || in.op == Opcode::Membar || in.op == Opcode::Call || in.op == Opcode::WarpSync ||
         in.op == Opcode::CpAsync || reads_clock(in);
}
bool is_memory(const Instruction& in) {
  return in.op == Opcode::Ld || in.op == Opcode::St || in.op == Opcode::Atom || in.op == Opcode::Red;
}

// A load's result waits on memory: weigh it as a shared-memory load would, so that address
// arithmetic for later loads moves ahead of work that only consumes earlier ones.
constexpr int kLoadWeight = 24;

using Registers = boost::dynamic_bitset<>;

// Registers live on entry to each basic block: the usual backward dataflow over the CFG.
std::vector<Registers> live_on_entry(const kernel::Program& program, const kernel::ControlFlowGraph& cfg,
                                     const std::vector<InstructionTiming>& timing) {
  const size_t regs = program.reg_wide.size(), blocks = cfg.blocks.size();
  std::vector<Registers> use(blocks, Registers(regs)), def(blocks, Registers(regs));
  for (size_t b = 0; b < blocks; ++b)
    for (int pc = cfg.blocks[b].first; pc <= cfg.blocks[b].last; ++pc) {
      const InstructionTiming& t = timing[static_cast<size_t>(pc)];
      for (uint32_t r : t.reads)
        if (r != kernel::kNoReg && r < regs && !def[b][r]) use[b].set(r);
      for (uint32_t r : t.writes)
        if (r != kernel::kNoReg && r < regs) def[b].set(r);
    }
  std::vector<Registers> in(blocks, Registers(regs));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = blocks; b-- > 0;) {
      Registers out(regs);
      for (int s : cfg.blocks[b].successors)
        if (static_cast<size_t>(s) < blocks) out |= in[static_cast<size_t>(s)];
      Registers next = use[b] | (out - def[b]);
      if (next != in[b]) {
        in[b] = std::move(next);
        changed = true;
      }
    }
  }
  return in;
}

// ptxas allocates registers and schedules within what it allocated: a load whose result would
// take the block past the kernel's register count waits until earlier work frees registers
// (nbody_direct: two float4 loads at the top of the body, the other two after the first use).
// Pressure here counts 32-bit slots of the PTX's live values.
class RegisterPressure {
 public:
  RegisterPressure(const kernel::Program& program, const std::vector<InstructionTiming>& timing, size_t begin,
                   size_t end, const Registers& live_in, const Registers& live_out)
      : program_(program), timing_(timing), begin_(begin), live_(live_in), live_out_(live_out) {
    for (size_t r = live_.find_first(); r != Registers::npos; r = live_.find_next(r)) now_ += width(r);
    for (size_t i = begin; i < end; ++i)
      for_each_read(i, [&](uint32_t r) { ++readers_[r]; });
  }
  int now() const { return now_; }
  // Slots the instruction at block index i adds once issued (negative: frees).
  int growth(size_t i) const {
    int g = 0;
    for_each_read(begin_ + i, [&](uint32_t r) {
      const auto it = readers_.find(r);
      if (it != readers_.end() && it->second == 1 && !live_out_[r] && live_[r]) g -= width(r);
    });
    for (uint32_t r : timing_[begin_ + i].writes)
      if (r != kernel::kNoReg && r < live_.size() && !live_[r] && (pending_after_write(begin_ + i, r) || live_out_[r]))
        g += width(r);
    return g;
  }
  void issue(size_t i) {
    for_each_read(begin_ + i, [&](uint32_t r) {
      if (--readers_[r] == 0 && !live_out_[r] && live_[r]) {
        live_.reset(r);
        now_ -= width(r);
      }
    });
    for (uint32_t r : timing_[begin_ + i].writes)
      if (r != kernel::kNoReg && r < live_.size() && !live_[r] && (pending_after_write(begin_ + i, r) || live_out_[r])) {
        live_.set(r);
        now_ += width(r);
      }
  }

 private:
  int width(size_t r) const { return program_.reg_wide[r] ? 2 : 1; }
  template <class F>
  void for_each_read(size_t pc, F f) const {
    const auto& reads = timing_[pc].reads;
    for (size_t k = 0; k < reads.size(); ++k) {
      const uint32_t r = reads[k];
      if (r == kernel::kNoReg || r >= live_.size()) continue;
      if (std::find(reads.begin(), reads.begin() + static_cast<long>(k), r) != reads.begin() + static_cast<long>(k))
        continue;  // each register once per instruction
      f(r);
    }
  }
  // Whether a later instruction of the block still reads r (the one at pc reading it too is not later).
  bool pending_after_write(size_t pc, uint32_t r) const {
    const auto it = readers_.find(r);
    if (it == readers_.end()) return false;
    bool reads_itself = false;
    for_each_read(pc, [&](uint32_t x) { reads_itself |= x == r; });
    return it->second > (reads_itself ? 1 : 0);
  }

  const kernel::Program& program_;
  const std::vector<InstructionTiming>& timing_;
  size_t begin_;
  Registers live_, live_out_;
  std::unordered_map<uint32_t, int> readers_;  // reads of each register not yet issued
  int now_ = 0;
};

struct Edge {
  size_t to;
  int delay;  // cycles the successor must wait after the predecessor issues
};

// Reorders code[begin, end) in place.
void schedule_block(std::vector<Instruction>& code, const std::vector<InstructionTiming>& timing, size_t begin,
                    size_t end, RegisterPressure* pressure, int register_budget) {
  const size_t n = end - begin;
  if (n < 3) return;
  std::vector<std::vector<Edge>> succ(n);
  std::vector<int> preds(n, 0);
  const auto edge = [&](size_t from, size_t to, int delay) {
    succ[from].push_back({to, delay});
    ++preds[to];
  };
  std::unordered_map<uint32_t, size_t> writer;                // register -> last instruction writing it
  std::unordered_map<uint32_t, std::vector<size_t>> readers;  // ... and those reading it since
  long last_memory = -1, last_fence = -1;
  std::vector<size_t> since_fence;
  for (size_t i = 0; i < n; ++i) {
    const Instruction& in = code[begin + i];
    const InstructionTiming& t = timing[begin + i];
    const bool last = i + 1 == n && t.is_control;  // the block's branch (or exit) stays last
    if (is_fence(in) || last) {
      for (size_t j : since_fence) edge(j, i, 1);
      since_fence.clear();
      last_fence = static_cast<long>(i);
    } else if (last_fence >= 0) {
      edge(static_cast<size_t>(last_fence), i, 1);
    }
    for (uint32_t r : t.reads) {
      if (r == kernel::kNoReg) continue;
      if (auto w = writer.find(r); w != writer.end()) {
        const InstructionTiming& wt = timing[begin + w->second];
        edge(w->second, i, wt.is_memory ? kLoadWeight : wt.latency);
      }
    }
    for (uint32_t r : t.writes) {
      if (r == kernel::kNoReg) continue;
      if (auto w = writer.find(r); w != writer.end()) edge(w->second, i, 1);
      for (size_t j : readers[r])
        if (j != i) edge(j, i, 0);
    }
    if (is_memory(in)) {
      if (last_memory >= 0) edge(static_cast<size_t>(last_memory), i, 1);
      last_memory = static_cast<long>(i);
    }
    for (uint32_t r : t.reads)
      if (r != kernel::kNoReg) readers[r].push_back(i);
    for (uint32_t r : t.writes)
      if (r != kernel::kNoReg) {
        writer[r] = i;
        readers[r].clear();
      }
    since_fence.push_back(i);
  }
  // Height: the longest latency-weighted path from an instruction to the block's end.
  std::vector<int> height(n, 0);
  for (size_t i = n; i-- > 0;)
    for (const Edge& e : succ[i]) height[i] = std::max(height[i], e.delay + height[e.to]);

  std::vector<long> ready_at(n, 0);
  std::array<long, kUnitCount> unit_free{};  // ptxas knows each pipe's throughput too
  const auto unit_ready = [&](size_t i) {
    const InstructionTiming& t = timing[begin + i];
    return t.occupancy == 0 ? 0L : unit_free[static_cast<size_t>(t.unit)];
  };
  std::vector<bool> done(n, false);
  std::vector<size_t> order;
  order.reserve(n);
  long cycle = 0;
  // A load that would pass the register budget waits while anything else can still issue.
  const auto held_back = [&](size_t i) {
    return pressure && timing[begin + i].needs_mshr && !timing[begin + i].is_store &&
           pressure->now() + pressure->growth(i) > register_budget;
  };
  while (order.size() < n) {
    size_t best = n;
    long earliest = -1;
    bool others = false;
    if (pressure)
      for (size_t i = 0; i < n && !others; ++i) others = !done[i] && preds[i] == 0 && !held_back(i);
    for (size_t i = 0; i < n; ++i) {
      if (done[i] || preds[i] != 0) continue;
      if (others && held_back(i)) continue;
      const long at = std::max(ready_at[i], unit_ready(i));
      if (earliest < 0 || at < earliest) earliest = at;
      if (at > cycle) continue;
      if (best == n || height[i] > height[best]) best = i;  // ties: the earlier in PTX
    }
    if (best == n) {  // nothing ready this cycle: wait for the first
      cycle = earliest;
      continue;
    }
    done[best] = true;
    order.push_back(best);
    if (pressure) pressure->issue(best);
    const InstructionTiming& bt = timing[begin + best];
    if (bt.occupancy != 0)
      unit_free[static_cast<size_t>(bt.unit)] = cycle + static_cast<long>((bt.occupancy + kUnitTicks - 1) / kUnitTicks);
    for (const Edge& e : succ[best]) {
      --preds[e.to];
      ready_at[e.to] = std::max(ready_at[e.to], cycle + e.delay);
    }
    ++cycle;
  }
  std::vector<Instruction> block(code.begin() + static_cast<long>(begin), code.begin() + static_cast<long>(end));
  for (size_t k = 0; k < n; ++k) code[begin + k] = block[order[k]];
  // `.pragma "nounroll"` marks the loop's first instruction: it stays with the block's start.
  for (size_t k = 0; k < n; ++k) code[begin + k].nounroll = false;
  code[begin].nounroll = block[0].nounroll;
}

}  // namespace

kernel::Program schedule_like_ptxas(const kernel::Program& program, const std::vector<InstructionTiming>& timing,
                                    int register_budget) {
  kernel::Program out = program;
  // The CFG's blocks start at every branch target and reconvergence point and end at
  // every branch: reordering inside them moves no PC anything refers to.
  const kernel::ControlFlowGraph cfg = kernel::build_cfg(program.code);
  std::vector<Registers> live_in;
  if (register_budget > 0) live_in = live_on_entry(program, cfg, timing);
  for (size_t b = 0; b < cfg.blocks.size(); ++b) {
    const size_t first = static_cast<size_t>(cfg.blocks[b].first), end = static_cast<size_t>(cfg.blocks[b].last) + 1;
    std::optional<RegisterPressure> pressure;
    if (register_budget > 0) {
      Registers live_out(program.reg_wide.size());
      for (int s : cfg.blocks[b].successors)
        if (static_cast<size_t>(s) < cfg.blocks.size()) live_out |= live_in[static_cast<size_t>(s)];
      pressure.emplace(program, timing, first, end, live_in[b], live_out);
    }
    schedule_block(out.code, timing, first, end, pressure ? &*pressure : nullptr, register_budget);
  }
  return out;
}

}  // namespace gpusim::core
