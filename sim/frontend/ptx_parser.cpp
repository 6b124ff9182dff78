#include "frontend/ptx_parser.hpp"

#include "frontend/ptx_parser_state.hpp"

namespace gpusim::frontend {
namespace ptx {

Module Parser::parse() {
  Module module;
  module.file = file_;
  module_ = &module;
  while (peek().kind != Token::Kind::End) {
    const Token& t = peek();
    if (t.text == ".version" || t.text == ".target" || t.text == ".address_size") {
      skip_directive_line(t.line);
    } else if (t.text == ".visible" || t.text == ".extern" || t.text == ".weak") {
      next();
      if (peek().text == ".shared" || peek().text == ".global" || peek().text == ".const") parse_module_variable();
    } else if (t.text == ".entry") {
      module.kernels.push_back(parse_entry());
    } else if (t.text == ".func") {
      fail(t, ".func (a non-inlined device function) is not supported");
    } else if (t.text == ".global" || t.text == ".const" || t.text == ".shared") {
      parse_module_variable();
    } else if (t.text == ".file" || t.text == ".loc" || t.text == ".section" || t.text == ".pragma") {
      skip_directive_line(t.line);
    } else {
      fail(t, "unexpected '" + t.text + "' at module level");
    }
  }
  return module;
}

int64_t Parser::integer() {
  const Token& t = next();
  bool negative = false;
  const Token* tok = &t;
  if (t.text == "-") {
    negative = true;
    tok = &next();
  }
  if (tok->kind != Token::Kind::Number) fail(*tok, "expected a number, found '" + tok->text + "'");
  std::string text = tok->text;
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.pop_back();
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 0);
  if (*end != '\0' || errno == ERANGE) fail(*tok, "bad integer '" + tok->text + "'");
  return negative ? -v : v;
}

Parser::VarDecl Parser::parse_var_decl() {
  VarDecl v;
  while (peek().kind == Token::Kind::Word && peek().text[0] == '.') {
    const std::string d = next().text;
    if (d == ".align") v.align = static_cast<uint64_t>(integer());
    else if (const DataType t = parse_type(d.substr(1)); t != DataType::None) v.type = t;
    else if (d == ".v2" || d == ".v4") fail(peek(), "vector variables are not supported");
  }
  v.name = word();
  const uint64_t elem = static_cast<uint64_t>(std::max(1, type_bits(v.type) / 8));
  uint64_t count = 1;
  while (accept("[")) {
    if (accept("]")) {
      v.unsized = true;
      continue;
    }
    count *= static_cast<uint64_t>(integer());
    expect("]");
  }
  v.size = elem * count;
  v.align = std::max(v.align, elem);
  if (accept("=")) {
    const bool list = accept("{");
    do {
      const int64_t value = integer();
      for (uint64_t b = 0; b < elem; ++b) v.init.push_back(static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * b)));
    } while (list && accept(","));
    if (list) expect("}");
  }
  expect(";");
  return v;
}

void Parser::parse_module_variable() {
  const Token& at = next();
  const StateSpace space = at.text == ".shared" ? StateSpace::Shared
                           : at.text == ".const" ? StateSpace::Const
                                                 : StateSpace::Global;
  VarDecl v = parse_var_decl();
  if (space == StateSpace::Shared) {
    module_shared_.push_back(v);
    return;
  }
  ModuleVariable mv;
  mv.name = v.name;
  mv.space = space;
  module_next_address_ = align_up(module_next_address_, std::max<uint64_t>(v.align, 16));
  mv.address = kModuleGlobalBase + module_next_address_;
  mv.size = std::max<uint64_t>(v.size, 1);
  mv.init = std::move(v.init);
  module_next_address_ += mv.size;
  module_symbols_[mv.name] = {space, mv.address};
  module_->variables.push_back(std::move(mv));
}

void Parser::parse_reg_decl(Program& p) {
  next();  // .reg
  const DataType type = parse_type(word().substr(1));
  if (type == DataType::None) fail(peek(), "unknown register type");
  do {
    const std::string base = word();
    if (accept("<")) {
      const int64_t n = integer();
      expect(">");
      for (int64_t i = 0; i < n; ++i) declare_register(p, base + std::to_string(i), type);
    } else {
      declare_register(p, base, type);
    }
  } while (accept(","));
  expect(";");
}

Program Parser::parse_entry() {
  next();  // .entry
  Program p;
  p.file = file_;
  p.name = word();
  regs_.clear();
  labels_.clear();
  label_refs_.clear();
  symbols_ = module_symbols_;
  shared_top_ = 0;
  for (const VarDecl& v : module_shared_) place_shared(p, v);
  expect("(");
  if (!accept(")")) {
    do {
      expect(".param");
      uint64_t align = 0;
      DataType type = DataType::B8;
      while (peek().text[0] == '.') {
        const std::string d = next().text;
        if (d == ".align") align = static_cast<uint64_t>(integer());
        else if (d == ".ptr" || d == ".global" || d == ".const" || d == ".shared" || d == ".local") continue;
        else type = parse_type(d.substr(1));
      }
      Param param;
      param.name = word();
      param.type = type;
      uint64_t count = 1;
      while (accept("[")) {
        count *= static_cast<uint64_t>(integer());
        expect("]");
      }
      const uint64_t elem = static_cast<uint64_t>(std::max(1, type_bits(type) / 8));
      param.size = static_cast<uint32_t>(elem * count);
      p.param_bytes = static_cast<uint32_t>(align_up(p.param_bytes, std::max(align, elem)));
      param.offset = p.param_bytes;
      p.param_bytes += param.size;
      symbols_[param.name] = {StateSpace::Param, param.offset};
      p.params.push_back(param);
    } while (accept(","));
    expect(")");
  }
  while (peek().text != "{") {  // performance directives: .maxntid 256, 1, 1 and the like
    if (peek().kind == Token::Kind::End) fail(peek(), "missing kernel body");
    next();
  }
  parse_block(p);
  for (const LabelRef& ref : label_refs_) {
    const auto it = labels_.find(ref.label);
    if (it == labels_.end()) throw InputError(file_ + ":" + std::to_string(ref.line) + ": unknown label '" + ref.label + "'");
    p.code[ref.instruction].src[0].imm = it->second;
  }
  p.static_shared_bytes = static_cast<uint32_t>(shared_top_);
  p.dynamic_shared_offset = static_cast<uint32_t>(align_up(shared_top_, 16));
  assign_reconvergence_points(p);
  return p;
}

void Parser::place_shared(Program& p, const VarDecl& v) {
  if (v.unsized) {
    p.uses_dynamic_shared = true;
    symbols_[v.name] = {StateSpace::Shared, 0, true};
    return;
  }
  shared_top_ = align_up(shared_top_, v.align);
  symbols_[v.name] = {StateSpace::Shared, shared_top_};
  shared_top_ += v.size;
}

void Parser::parse_block(Program& p) {
  expect("{");
  while (!accept("}")) {
    const Token& t = peek();
    if (t.kind == Token::Kind::End) fail(t, "missing '}'");
    if (t.text == "{") {
      parse_block(p);
    } else if (t.text == ".reg") {
      parse_reg_decl(p);
    } else if (t.text == ".shared" || (t.text == ".extern" && peek(1).text == ".shared")) {
      if (t.text == ".extern") next();
      next();
      place_shared(p, parse_var_decl());
    } else if (t.text == ".local") {
      next();
      const VarDecl v = parse_var_decl();
      p.local_bytes = static_cast<uint32_t>(align_up(p.local_bytes, v.align));
      symbols_[v.name] = {StateSpace::Local, p.local_bytes};
      p.local_bytes += static_cast<uint32_t>(v.size);
    } else if (t.text == ".pragma") {
      next();
      while (!accept(";")) next();
    } else if (t.text == ".loc" || t.text == ".file") {
      skip_directive_line(t.line);
    } else if (t.kind == Token::Kind::Word && peek(1).text == ":") {
      labels_[t.text] = static_cast<int64_t>(p.code.size());
      next();
      next();
    } else {
      parse_instruction(p);
    }
  }
}

}  // namespace ptx

kernel::Module parse_ptx(const std::string& text, const std::string& file) { return ptx::Parser(text, file).parse(); }

kernel::Module parse_ptx_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw util::InputError(path + ": cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_ptx(ss.str(), path);
}

}  // namespace gpusim::frontend
