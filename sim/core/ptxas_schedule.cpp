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

bool is_fence(const Instruction& in) {
  return in.op == Opcode::Bar || in.op == Opcode::Membar || in.op == Opcode::Call || in.op == Opcode::WarpSync ||
         in.op == Opcode::CpAsync || kernel::reads_clock(in);
}
bool is_memory(const Instruction& in) {
  return in.op == Opcode::Ld || in.op == Opcode::St || in.op == Opcode::Atom || in.op == Opcode::Red;
}

// A load's result waits on memory: weigh it as a shared-memory load would, so that address
// arithmetic for later loads moves ahead of work that only consumes earlier ones.
constexpr int kLoadWeight = 24;
// ptxas expects a global or local load to take hundreds of cycles: lines_in_flight_16's SASS
// issues all 16 LDGs before its first FADD (validate/sass/kernels_micro.sass), where weighed as
// a shared load the adds came in after the eighth load and the last loads waited for the first.
constexpr int kGlobalLoadWeight = 400;

using Registers = boost::dynamic_bitset<>;

struct Liveness {
  std::vector<Registers> in, out;  // per basic block: live on entry, live on exit
};

// Registers live on entry to and exit from each basic block: the usual backward dataflow.
Liveness liveness(const kernel::Program& program, const kernel::ControlFlowGraph& cfg,
                  const std::vector<InstructionTiming>& timing) {
  const size_t regs = program.reg_wide.size(), blocks = cfg.blocks.size();
  std::vector<Registers> use(blocks, Registers(regs)), def(blocks, Registers(regs));
  for (size_t b = 0; b < blocks; ++b)
    for (int pc = cfg.blocks[b].first; pc <= cfg.blocks[b].last; ++pc) {
      const InstructionTiming& t = timing[static_cast<size_t>(pc)];
      for (uint32_t r : t.reads)
        if (r != kernel::kNoReg && !def[b][r]) use[b].set(r);
      for (uint32_t r : t.writes)
        if (r != kernel::kNoReg) def[b].set(r);
    }
  Liveness live{std::vector<Registers>(blocks, Registers(regs)), std::vector<Registers>(blocks, Registers(regs))};
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = blocks; b-- > 0;) {
      for (int s : cfg.blocks[b].successors)
        if (static_cast<size_t>(s) < blocks) live.out[b] |= live.in[static_cast<size_t>(s)];
      Registers next = use[b] | (live.out[b] - def[b]);
      if (next != live.in[b]) {
        live.in[b] = std::move(next);
        changed = true;
      }
    }
  }
  return live;
}

// ptxas allocates registers and schedules within what it allocated: a load whose result would
// take the block past the kernel's register count waits until earlier work frees registers
// (nbody_direct: two float4 loads at the top of the body, the other two after the first use).
// Pressure here counts 32-bit slots of the PTX's live values.
class RegisterPressure {
 public:
  RegisterPressure(const kernel::Program& program, const std::vector<InstructionTiming>& timing, size_t begin,
                   size_t end, const Registers& live_in, const Registers& live_out)
      : program_(program), timing_(timing), begin_(begin), live_(live_in), live_out_(live_out),
        readers_(live_in.size(), 0) {
    for (size_t r = live_.find_first(); r != Registers::npos; r = live_.find_next(r)) now_ += width(r);
    for (size_t i = begin; i < end; ++i)
      for (uint32_t r : distinct_reads(i))
        if (r != kernel::kNoReg) ++readers_[r];
  }
  int now() const { return now_; }
  // Slots the instruction at block index i takes once issued (negative: frees).
  int growth(size_t i) { return step(i, false); }
  void issue(size_t i) { now_ += step(i, true); }

 private:
  int width(size_t r) const { return program_.reg_wide[r] ? 2 : 1; }
  std::array<uint32_t, 6> distinct_reads(size_t pc) const {
    std::array<uint32_t, 6> reads = timing_[pc].reads;
    for (size_t k = 1; k < reads.size(); ++k)
      if (std::find(reads.begin(), reads.begin() + static_cast<long>(k), reads[k]) != reads.begin() + static_cast<long>(k))
        reads[k] = kernel::kNoReg;  // each register once per instruction
    return reads;
  }
  // A read's value dies with its last reader unless it leaves the block; a written value lives
  // while a later instruction of the block reads it or it leaves the block. `apply` issues it.
  int step(size_t i, bool apply) {
    const std::array<uint32_t, 6> reads = distinct_reads(begin_ + i);
    int delta = 0;
    for (uint32_t r : reads) {
      if (r == kernel::kNoReg) continue;
      const int left = readers_[r] - 1;
      if (apply) readers_[r] = left;
      if (left == 0 && !live_out_[r] && live_[r]) {
        delta -= width(r);
        if (apply) live_.reset(r);
      }
    }
    for (uint32_t r : timing_[begin_ + i].writes) {
      if (r == kernel::kNoReg || live_[r]) continue;
      const bool reads_r = std::find(reads.begin(), reads.end(), r) != reads.end();
      const int later = readers_[r] - (apply || !reads_r ? 0 : 1);
      if (later > 0 || live_out_[r]) {
        delta += width(r);
        if (apply) live_.set(r);
      }
    }
    return delta;
  }

  const kernel::Program& program_;
  const std::vector<InstructionTiming>& timing_;
  size_t begin_;
  Registers live_, live_out_;
  std::vector<int> readers_;  // per register: reads in the block not yet issued
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
        edge(w->second, i, wt.is_memory ? (wt.needs_mshr ? kGlobalLoadWeight : kLoadWeight) : wt.latency);
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
    return t.occupancy == 0 ? 0L : unit_free[static_cast<size_t>(first_free_unit(t, unit_free))];
  };
  std::vector<bool> done(n, false);
  std::vector<size_t> order;
  order.reserve(n);
  long cycle = 0;
  // A load that would pass the register budget waits while anything else can still issue.
  const auto held_back = [&](size_t i) {
    return pressure && timing[begin + i].needs_mshr &&
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
      unit_free[static_cast<size_t>(first_free_unit(bt, unit_free))] = cycle + static_cast<long>((bt.occupancy + kUnitTicks - 1) / kUnitTicks);
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
  const Liveness live = register_budget > 0 ? liveness(program, cfg, timing) : Liveness{};
  for (size_t b = 0; b < cfg.blocks.size(); ++b) {
    const size_t first = static_cast<size_t>(cfg.blocks[b].first), end = static_cast<size_t>(cfg.blocks[b].last) + 1;
    std::optional<RegisterPressure> pressure;
    if (register_budget > 0) pressure.emplace(program, timing, first, end, live.in[b], live.out[b]);
    schedule_block(out.code, timing, first, end, pressure ? &*pressure : nullptr, register_budget);
  }
  return out;
}

}  // namespace gpusim::core
