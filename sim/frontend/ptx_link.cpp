// Linking a module's kernels: each kernel gets its own copy of the device functions it
// reaches (code appended, registers renumbered, calls resolved to call sites), its shared
// variables laid out (only those it or its functions use), its call stack sized, and its
// reconvergence points computed over the whole.
#include <algorithm>
#include <set>

#include "frontend/ptx_parser_state.hpp"

namespace gpusim::frontend::ptx {
namespace {

// CUDA's default stack per thread (cudaLimitStackSize): the bound for recursive kernels.
constexpr uint32_t kRecursionStackBytes = 1024;

int32_t builtin(const std::string& name) {
  if (name == "vprintf") return static_cast<int32_t>(Builtin::Vprintf);
  if (name == "__assertfail") return static_cast<int32_t>(Builtin::AssertFail);
  return 0;
}

void renumber(Operand& o, uint32_t reg_base) {
  if (o.reg != kNoReg) o.reg += reg_base;
  for (uint32_t& r : o.regs)
    if (r != kNoReg) r += reg_base;
}

Operand& operand_slot(Instruction& in, int slot) { return slot == 0 ? in.dst : in.src[static_cast<size_t>(slot - 1)]; }

}  // namespace

void Parser::link(Module& module) {
  for (const Unit& u : units_)
    if (!u.is_function) {
      module.kernels.push_back(link_kernel(u));
      module.kernels.back().source_files = source_files_;
    }
}

// A unit's error with the CUDA line in front when the PTX has it: "x.cu:12; x.ptx:40: ...".
std::string Parser::error_with_source(const Unit& u) const {
  if (u.error_line > 0 && u.error_file < source_files_.size() && !source_files_[u.error_file].empty())
    return source_files_[u.error_file] + ":" + std::to_string(u.error_line) + "; " + u.error;
  return u.error;
}

Program Parser::link_kernel(const Unit& kernel) const {
  Program out = kernel.prog;
  if (!kernel.error.empty()) {
    out.unsupported = error_with_source(kernel);
    return out;
  }
  const auto find_function = [&](const std::string& name) -> const Unit* {
    for (const Unit& u : units_)
      if (u.is_function && u.prog.name == name) return &u;
    return nullptr;
  };
  // The functions this kernel reaches, in the order first called.
  std::vector<const Unit*> reached;
  std::vector<const Unit*> callers{&kernel};
  for (size_t i = 0; i < callers.size(); ++i)
    for (const PendingCall& c : callers[i]->calls) {
      if (builtin(c.callee)) continue;
      const Unit* f = find_function(c.callee);
      const std::string where = file_ + ":" + std::to_string(c.line) + ": ";
      if (!f || !f->defined) {
        out.unsupported = where + "call to " + c.callee + ", which is " +
                          (f ? "declared but not defined in this PTX (separate compilation with -rdc is not "
                               "supported: define it in the same .cu)"
                             : "not declared");
        if (c.callee == "malloc" || c.callee == "free") out.unsupported = where + "device-side malloc/free is not supported";
        return out;
      }
      if (!f->error.empty()) {
        out.unsupported = error_with_source(*f) + " (in device function " + f->prog.name + ", called at line " + std::to_string(c.line) + ")";
        return out;
      }
      if (std::find(reached.begin(), reached.end(), f) == reached.end()) {
        reached.push_back(f);
        callers.push_back(f);
      }
    }
  const auto index_of = [&](const std::string& name) -> int32_t {
    if (const int32_t b = builtin(name)) return b;
    for (size_t i = 0; i < reached.size(); ++i)
      if (reached[i]->prog.name == name) return static_cast<int32_t>(i);
    return 0;
  };

  // Code: the kernel, then each function; calls resolved to call sites.
  // Frames are 16-byte aligned, as their variables may be.
  const auto frame_of = [](const Program& p) { return static_cast<uint32_t>(align_up(p.local_bytes, 16)); };
  out.kernel_frame_bytes = frame_of(kernel.prog);
  const auto resolve_calls = [&](const Unit& u, size_t code_base) {
    for (const PendingCall& c : u.calls) {
      CallSite site;
      site.callee = index_of(c.callee);
      site.caller_frame_bytes = frame_of(u.prog);
      site.args = c.args;
      site.ret_offset = c.ret_offset;
      site.ret_bytes = c.ret_bytes;
      out.code[code_base + c.instruction].src[0].imm = static_cast<int64_t>(out.call_sites.size());
      out.call_sites.push_back(std::move(site));
    }
  };
  resolve_calls(kernel, 0);
  if (!reached.empty()) {
    Instruction end;  // a kernel that runs off its end exits, never into a function
    end.op = Opcode::Exit;
    end.line = out.code.empty() ? 0 : out.code.back().line;
    out.code.push_back(end);
  }
  for (const Unit* f : reached) {
    const Program& fp = f->prog;
    Function fn;
    fn.name = fp.name;
    fn.entry_pc = static_cast<int32_t>(out.code.size());
    fn.frame_bytes = frame_of(fp);
    fn.params = f->params;
    fn.ret_offset = f->ret_offset;
    fn.ret_bytes = f->ret_bytes;
    const uint32_t reg_base = static_cast<uint32_t>(out.reg_names.size());
    fn.first_reg = reg_base;
    fn.reg_count = static_cast<uint32_t>(fp.reg_names.size());
    for (size_t r = 0; r < fp.reg_names.size(); ++r) {
      out.reg_names.push_back(fp.name + ":" + fp.reg_names[r]);
      out.reg_wide.push_back(fp.reg_wide[r]);
      out.reg_slot.push_back(fp.reg_slot[r] + (fp.reg_wide[r] ? out.wide_regs : out.narrow_regs));
    }
    out.narrow_regs += fp.narrow_regs;
    out.wide_regs += fp.wide_regs;
    const size_t code_base = out.code.size();
    for (Instruction in : fp.code) {
      if (in.guard != kNoReg) in.guard += reg_base;
      renumber(in.dst, reg_base);
      renumber(in.dst2, reg_base);
      for (Operand& o : in.src) renumber(o, reg_base);
      if (in.op == Opcode::Bra) in.src[0].imm += static_cast<int64_t>(code_base);
      out.code.push_back(in);
    }
    Instruction ret;  // running off the end returns
    ret.op = Opcode::Ret;
    ret.returns = true;
    ret.line = fp.code.empty() ? 0 : fp.code.back().line;
    out.code.push_back(ret);
    resolve_calls(*f, code_base);
    out.functions.push_back(std::move(fn));
  }

  // Recursion: a function that can reach itself saves its registers around each call.
  const size_t n = reached.size();
  std::vector<std::set<size_t>> callees(n);
  for (size_t i = 0; i < n; ++i)
    for (const PendingCall& c : reached[i]->calls)
      if (const int32_t k = index_of(c.callee); k >= 0) callees[i].insert(static_cast<size_t>(k));  // builtins are < 0
  bool any_recursive = false;
  for (size_t i = 0; i < n; ++i) {
    std::vector<size_t> todo(callees[i].begin(), callees[i].end());
    std::set<size_t> seen;
    while (!todo.empty() && !out.functions[i].recursive) {
      const size_t f = todo.back();
      todo.pop_back();
      if (f == i) out.functions[i].recursive = any_recursive = true;
      if (seen.insert(f).second) todo.insert(todo.end(), callees[f].begin(), callees[f].end());
    }
  }
  // The stack: the deepest chain of frames (exact without recursion), at least CUDA's default with it.
  std::vector<int64_t> depth(n, -1);
  std::vector<bool> on_path(n, false);
  const auto deepest = [&](auto&& self, size_t f) -> int64_t {
    if (depth[f] >= 0) return depth[f];
    if (on_path[f]) return 0;  // a cycle: bounded at run time
    on_path[f] = true;
    int64_t below = 0;
    for (size_t c : callees[f]) below = std::max(below, self(self, c));
    on_path[f] = false;
    return depth[f] = below + out.functions[f].frame_bytes + kCallOverhead;
  };
  int64_t stack = 0;
  for (const PendingCall& c : kernel.calls)
    if (!builtin(c.callee)) stack = std::max(stack, deepest(deepest, static_cast<size_t>(index_of(c.callee))));
  if (any_recursive) stack = std::max<int64_t>(stack, kRecursionStackBytes);
  out.local_bytes = static_cast<uint32_t>(out.kernel_frame_bytes + stack);

  // Shared memory: the variables this kernel or its functions use, static ones first.
  std::vector<std::pair<size_t, SharedRef>> refs;  // (code base, reference)
  for (const SharedRef& r : kernel.shared_refs) refs.emplace_back(0, r);
  for (size_t i = 0; i < n; ++i)
    for (const SharedRef& r : reached[i]->shared_refs)
      refs.emplace_back(static_cast<size_t>(out.functions[i].entry_pc), r);
  std::set<int32_t> used;
  for (const auto& [base, r] : refs) used.insert(r.var);
  std::vector<uint64_t> address(shared_vars_.size(), 0);
  uint64_t top = 0;
  for (int32_t v : used)
    if (!shared_vars_[static_cast<size_t>(v)].unsized) {
      const VarDecl& d = shared_vars_[static_cast<size_t>(v)];
      top = align_up(top, d.align);
      address[static_cast<size_t>(v)] = top;
      top += d.size;
    }
  out.static_shared_bytes = static_cast<uint32_t>(top);
  out.dynamic_shared_offset = static_cast<uint32_t>(align_up(top, 16));
  for (int32_t v : used)
    if (shared_vars_[static_cast<size_t>(v)].unsized) {
      address[static_cast<size_t>(v)] = out.dynamic_shared_offset;
      out.uses_dynamic_shared = true;
    }
  for (const auto& [base, r] : refs)
    operand_slot(out.code[base + r.instruction], r.slot).imm += static_cast<int64_t>(address[static_cast<size_t>(r.var)]);

  // The driver reserves shared memory per block (1 KB on sm_80 and later); it is placed after
  // the kernel's own, and only for kernels that ask where it is.
  const auto reserved = [](const Operand& o) {
    return o.kind == Operand::Kind::Special && o.special >= SpecialReg::ReservedSmemBegin;
  };
  for (const Instruction& in : out.code)
    if (std::any_of(in.src.begin(), in.src.end(), reserved)) out.reserved_shared_bytes = kReservedSharedBytes;

  assign_reconvergence_points(out);
  return out;
}

}  // namespace gpusim::frontend::ptx
