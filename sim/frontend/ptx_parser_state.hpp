// The PTX parser's state, shared by its two halves: ptx_parser.cpp (module, declarations,
// entries, blocks) and ptx_instruction.cpp (instructions and operands). Internal to frontend/.
#pragma once

#include "frontend/ptx_parser.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "frontend/ptx_lexer.hpp"
#include "frontend/ptx_opcode.hpp"
#include "kernel/cfg.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::frontend::ptx {

using namespace gpusim::kernel;
using util::InputError;

inline uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

// Virtual registers one kernel or function may declare: nvcc's largest kernels use a few
// thousand; each costs 128 bytes per simulated warp.
constexpr int64_t kMaxRegisters = 65536;

inline const std::map<std::string, SpecialReg, std::less<>>& special_regs() {
  static const std::map<std::string, SpecialReg, std::less<>> m = {
      {"%tid.x", SpecialReg::TidX},         {"%tid.y", SpecialReg::TidY},         {"%tid.z", SpecialReg::TidZ},
      {"%ntid.x", SpecialReg::NtidX},       {"%ntid.y", SpecialReg::NtidY},       {"%ntid.z", SpecialReg::NtidZ},
      {"%ctaid.x", SpecialReg::CtaidX},     {"%ctaid.y", SpecialReg::CtaidY},     {"%ctaid.z", SpecialReg::CtaidZ},
      {"%nctaid.x", SpecialReg::NctaidX},   {"%nctaid.y", SpecialReg::NctaidY},   {"%nctaid.z", SpecialReg::NctaidZ},
      {"%laneid", SpecialReg::LaneId},      {"%warpid", SpecialReg::WarpId},      {"%nwarpid", SpecialReg::NWarpId},
      {"%smid", SpecialReg::SmId},          {"%nsmid", SpecialReg::NSmId},        {"%clock", SpecialReg::Clock},
      {"%clock64", SpecialReg::Clock64},    {"%globaltimer", SpecialReg::GlobalTimer},
      {"%lanemask_eq", SpecialReg::LanemaskEq}, {"%lanemask_lt", SpecialReg::LanemaskLt},
      {"%lanemask_le", SpecialReg::LanemaskLe}, {"%lanemask_gt", SpecialReg::LanemaskGt},
      {"%lanemask_ge", SpecialReg::LanemaskGe},
      {"%reserved_smem_offset_begin", SpecialReg::ReservedSmemBegin},
      {"%reserved_smem_offset_end", SpecialReg::ReservedSmemEnd},
      {"%reserved_smem_offset_cap", SpecialReg::ReservedSmemCap},
      {"%reserved_smem_offset_0", SpecialReg::ReservedSmem0}, {"%reserved_smem_offset_1", SpecialReg::ReservedSmem1}};
  return m;
}

struct Symbol {
  StateSpace space;
  uint64_t address;  // local/param: offset in the frame or parameter buffer; global: absolute
  bool frame = false;          // in a device function's frame: relative to the lane's frame pointer
  int32_t shared = -1;         // a shared variable: index in Parser::shared_vars_, placed when linking
  uint32_t size = 0;
};

struct LabelRef {
  size_t instruction;
  std::string label;
  int line;
};

// A call as parsed: resolved to a function or builtin when linking.
struct PendingCall {
  size_t instruction;
  std::string callee;
  std::vector<std::pair<uint32_t, uint32_t>> args;  // (frame offset, bytes) of each argument
  uint32_t ret_offset = 0, ret_bytes = 0;
  int line = 0;
};

// An operand holding a shared variable's address, patched once the kernel's layout is known.
struct SharedRef {
  size_t instruction;
  int slot;  // 0: dst, 1..4: src[slot-1]
  int32_t var;
};

// A kernel or device function as parsed, before linking.
struct Unit {
  Program prog;  // code, registers, frame size (local_bytes), static shared placed at parse
  bool is_function = false;
  bool defined = false;  // false: a prototype (.extern .func or a forward declaration)
  std::vector<std::pair<uint32_t, uint32_t>> params;
  uint32_t ret_offset = 0, ret_bytes = 0;
  std::vector<PendingCall> calls;
  std::vector<SharedRef> shared_refs;
  std::string error;  // why it cannot be used; reported when a kernel needs it
  uint16_t error_file = 0;  // the CUDA source line the error is at (.loc), once .file names it
  int32_t error_line = 0;
};

class Parser {
 public:
  Parser(const std::string& text, const std::string& file, uint64_t variable_base)
      : toks_(tokenize_ptx(text, file)), file_(file), variable_base_(variable_base) {}

  Module parse();

 private:
  // ---- tokens ----
  const Token& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  // Consuming past the end is an error: no loop can spin on a truncated file.
  const Token& next() {
    if (pos_ >= toks_.size() - 1) fail(toks_.back(), "unexpected end of file (a missing ';' or '}'?)");
    return toks_[pos_++];
  }
  bool accept(const std::string& text) {
    if (peek().text != text || peek().kind == Token::Kind::String) return false;
    ++pos_;
    return true;
  }
  const Token& expect(const std::string& text) {
    if (peek().text != text) fail(peek(), "expected '" + text + "', found '" + peek().text + "'");
    return next();
  }
  [[noreturn]] void fail(const Token& at, const std::string& why) const {
    throw InputError(file_ + ":" + std::to_string(at.line) + ": " + why);
  }
  void skip_directive_line(int line) {
    next();
    while (peek().kind != Token::Kind::End && peek().line == line && peek().text != ";") next();
    accept(";");
  }
  std::string word() {
    if (peek().kind != Token::Kind::Word) fail(peek(), "expected a name, found '" + peek().text + "'");
    return next().text;
  }
  int64_t integer();

  // ---- declarations ----
  struct VarDecl {
    std::string name;
    DataType type = DataType::B8;
    uint64_t align = 1;
    uint64_t size = 0;
    bool unsized = false;
    std::vector<uint8_t> init;
  };

  VarDecl parse_declarator();
  VarDecl parse_var_decl();

  void parse_module_variable();

  void parse_reg_decl(Program& p);

  void declare_register(Program& p, const std::string& name, DataType type) {
    if (regs_.contains(name)) return;  // nested scopes may redeclare temporaries
    regs_[name] = static_cast<uint32_t>(p.reg_names.size());
    if (type == DataType::Pred) pred_regs_.insert(name);
    p.reg_names.push_back(name);
    const bool wide = type_bits(type) > 32;
    p.reg_wide.push_back(wide);
    p.reg_slot.push_back(wide ? p.wide_regs++ : p.narrow_regs++);
  }

  // ---- kernels and functions (ptx_parser.cpp), linking (ptx_link.cpp) ----
  void parse_unit(bool is_function);
  void parse_file_directive();
  void parse_signature(Unit& u);
  void parse_body(Unit& u);
  size_t matching_brace(size_t open) const;
  // A variable in the unit's frame (local memory; a device function's frame moves with the call stack).
  Symbol frame_variable(Program& p, const VarDecl& v, StateSpace space);
  void declare_shared(const VarDecl& v);

  void parse_block(Program& p);
  void parse_call(Program& p, Instruction& in, const Token& op);

  void link(Module& module);
  Program link_kernel(const Unit& kernel) const;
  std::string error_with_source(const Unit& u) const;

  // ---- instructions ----
  uint32_t reg_index(const Token& t) const {
    const auto it = regs_.find(t.text);
    if (it == regs_.end()) fail(t, "undeclared register '" + t.text + "'");
    return it->second;
  }

  // A number operand as raw bits of the instruction's type.
  int64_t immediate_bits(const Token& t, bool negative, DataType type) const;

  Operand parse_operand(const Instruction& in);
  void use_symbol(Operand& o, const Symbol& sym);

  void parse_instruction(Program& p);

  void validate(const Instruction& in, const Token& at) const;

  std::vector<Token> toks_;
  size_t pos_ = 0;
  std::string file_;
  Module* module_ = nullptr;
  Unit* unit_ = nullptr;  // the kernel or function being parsed
  std::map<std::string, uint32_t, std::less<>> regs_;
  std::set<std::string, std::less<>> pred_regs_;  // of regs_, the predicates
  std::map<std::string, int64_t, std::less<>> labels_;
  std::vector<LabelRef> label_refs_;
  std::map<std::string, Symbol, std::less<>> symbols_;
  std::map<std::string, Symbol, std::less<>> module_symbols_;
  std::vector<VarDecl> shared_vars_;  // every .shared variable of the module, laid out per kernel
  std::vector<std::pair<size_t, int32_t>> operand_shared_;  // this instruction: (operand, shared var)
  size_t operand_index_ = 0;                 // the operand being parsed
  std::optional<Symbol> address_symbol_;     // this instruction's [symbol+offset], if any
  std::vector<Unit> units_;
  std::vector<std::string> source_files_;  // .file numbers
  std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> inlined_at_;  // (file, line) -> call site
  uint16_t loc_file_ = 0;                  // the last .loc
  int32_t loc_line_ = 0;
  bool nounroll_ = false;                  // a `.pragma "nounroll"` waits for the next instruction
  uint64_t module_next_address_ = 0;
  uint64_t variable_base_ = kModuleGlobalBase;  // where this module's variables start
};

}  // namespace gpusim::frontend::ptx
