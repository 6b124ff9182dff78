#include "frontend/ptx_parser.hpp"

#include <gtest/gtest.h>

#include <bit>

#include "util/yaml_reader.hpp"

namespace gpusim::frontend {
namespace {

using namespace gpusim::kernel;

const char* kPtx = R"(
.version 9.0
.target sm_75
.address_size 64

.global .align 4 .u32 counter = 7;

.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .f32 	%f<3>;
	.reg .b64 	%rd<3>;
	.shared .align 4 .b8 tile[100];
	.extern .shared .align 16 .b8 dyn[];

	ld.param.u64 	%rd1, [k_param_0];
	ld.param.u32 	%r1, [k_param_1];
	mov.u32 	%r2, %tid.x;   // a comment
	setp.ge.s32 	%p1, %r2, %r1;
	@%p1 bra 	$L__BB0_2;
	mov.f32 	%f1, 0f3F800000;
	mov.u32 	%r3, dyn;
	mov.u32 	%r3, tile;
	ld.global.nc.v2.f32 	{%f1, %f2}, [%rd1+-8];
$L__BB0_2:
	ret;
}
)";

TEST(PtxParser, DecodesAnEntry) {
  const Module m = parse_ptx(kPtx, "t.ptx");
  ASSERT_EQ(m.kernels.size(), 1u);
  const Program& p = m.kernels[0];
  EXPECT_EQ(p.name, "k");
  ASSERT_EQ(p.params.size(), 2u);
  EXPECT_EQ(p.params[1].offset, 8u);
  EXPECT_EQ(p.param_bytes, 12u);
  EXPECT_EQ(p.reg_names.size(), 2u + 4u + 3u + 3u);
  EXPECT_EQ(p.static_shared_bytes, 100u);
  EXPECT_EQ(p.dynamic_shared_offset, 112u);  // after the static array, 16-byte aligned
  EXPECT_TRUE(p.uses_dynamic_shared);
  ASSERT_EQ(p.code.size(), 10u);

  const Instruction& setp = p.code[3];
  EXPECT_EQ(setp.op, Opcode::Setp);
  EXPECT_EQ(static_cast<CmpOp>(setp.mode), CmpOp::Ge);
  EXPECT_EQ(setp.type, DataType::S32);
  const Instruction& bra = p.code[4];
  EXPECT_EQ(bra.op, Opcode::Bra);
  EXPECT_NE(bra.guard, kNoReg);
  EXPECT_EQ(bra.src[0].imm, 9);          // the label resolves to the ret
  EXPECT_EQ(bra.reconverge_pc, 9);       // and the branch reconverges there
  EXPECT_EQ(std::bit_cast<float>(static_cast<uint32_t>(p.code[5].src[0].imm)), 1.0f);
  EXPECT_EQ(p.code[6].src[0].imm, 112);  // a dynamic shared array's address
  EXPECT_EQ(p.code[7].src[0].imm, 0);    // the static one's
  const Instruction& ld = p.code[8];
  EXPECT_EQ(ld.space, StateSpace::Global);
  EXPECT_EQ(ld.vec, 2);
  EXPECT_EQ(ld.dst.kind, Operand::Kind::Vec);
  EXPECT_EQ(ld.dst.count, 2);
  EXPECT_EQ(ld.src[0].imm, -8);
  EXPECT_EQ(p.code[2].src[0].kind, Operand::Kind::Special);
  EXPECT_EQ(p.code[2].line, 22);

  ASSERT_EQ(m.variables.size(), 1u);
  EXPECT_EQ(m.variables[0].init, (std::vector<uint8_t>{7, 0, 0, 0}));
}

std::string parse_error(const std::string& body) {
  const std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<3>;\n" + body + "\n}\n";
  try {
    const Module m = parse_ptx(text, "bad.ptx");
    if (!m.kernels.empty() && !m.kernels[0].unsupported.empty()) return m.kernels[0].unsupported;
  } catch (const util::InputError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(PtxParser, MalformedInputNamesFileLineAndInstruction) {
  EXPECT_EQ(parse_error("frob.b32 %r1, %r2;"), "bad.ptx:7: frob.b32: unknown instruction 'frob': not supported");
  EXPECT_EQ(parse_error("add.s32 %r1, %r2, %r9;"), "bad.ptx:7: undeclared register '%r9'");
  EXPECT_EQ(parse_error("bra $L__nowhere;"), "bad.ptx:7: unknown label '$L__nowhere'");
  EXPECT_EQ(parse_error("add.s32 %r1, %r2;"), "bad.ptx:7: add.s32: expected 3 operands, found 2");
  EXPECT_EQ(parse_error("ld.global.zz.u32 %r1, [%r2];"), "bad.ptx:7: ld.global.zz.u32: modifier '.zz' of 'ld': not supported");
  EXPECT_EQ(parse_error("tex.2d.v4.f32.s32 {%r1, %r1, %r1, %r1}, [%r2];"),
            "bad.ptx:7: tex.2d.v4.f32.s32: unknown instruction 'tex': not supported");
  EXPECT_NE(parse_error("mov.u32 %r1, 5").find("expected ';'"), std::string::npos);
  EXPECT_EQ(parse_error("call.uni nowhere;"), "bad.ptx:7: call to nowhere, which is not declared");
  EXPECT_THROW(parse_ptx(".version 9.0\n.entry k() { ret; ", "f.ptx"), util::InputError);
}

TEST(PtxParser, EveryBundledKernelParses) {
  for (const char* name : {"vecadd", "stencil", "reduce", "histogram", "transpose", "scan", "matmul", "warp_reduce",
                           "divergence", "math"}) {
    const Module m = parse_ptx_file(std::string(GPUSIM_SOURCE_DIR) + "/validate/kernels/" + name + ".ptx");
    EXPECT_FALSE(m.kernels.empty()) << name;
    for (const Program& p : m.kernels)
      for (const Instruction& in : p.code)
        if (in.op == Opcode::Bra) {
          EXPECT_GE(in.reconverge_pc, 0) << name;
        }
  }
}

}  // namespace
}  // namespace gpusim::frontend

namespace gpusim::frontend {
namespace {

// nvcc -lineinfo: .loc before instructions, .file at the end, inlined code pointing through
// inlined_at chains to the user's line, and debug sections to skip.
const char* kLineInfo = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
.reg .b32 %r<3>;
.loc 1 5 3
mov.u32 %r1, 1;
.loc 2 10 1, function_name $L__info_string0, inlined_at 1 7 2
mov.u32 %r2, 2;
.loc 2 20 1, function_name $L__info_string1, inlined_at 2 10 1
frob.b32 %r1, %r2;
ret;
}
.file 1 "user.cu"
.file 2 "/usr/local/cuda/include/header.h"
.section .debug_str
{
$L__info_string0:
.b8 102,0
$L__info_string1:
.b8 103,0
}
)";

TEST(PtxLineInfo, InstructionsCarryTheUsersLineThroughInlining) {
  const kernel::Module m = parse_ptx(kLineInfo, "x.ptx");
  ASSERT_EQ(m.kernels.size(), 1u);
  EXPECT_EQ(m.kernels[0].unsupported, "user.cu:7; x.ptx:12: frob.b32: unknown instruction 'frob': not supported");
  const kernel::Module ok = parse_ptx(std::string(kLineInfo).replace(std::string(kLineInfo).find("frob.b32 %r1, %r2;"), 18,
                                                                       "add.s32 %r1, %r1, %r2;"),
                                      "x.ptx");
  const kernel::Program& p = ok.kernels[0];
  ASSERT_EQ(p.code.size(), 4u);
  EXPECT_EQ(p.source_files.at(p.code[0].source_file), "user.cu");
  EXPECT_EQ(p.code[0].source_line, 5);
  EXPECT_EQ(p.code[1].source_line, 7);  // inlined at user.cu:7
  EXPECT_EQ(p.code[2].source_line, 7);  // header.h:20, inlined at header.h:10, inlined at user.cu:7
  EXPECT_EQ(p.source_files.at(p.code[2].source_file), "user.cu");
}

}  // namespace
}  // namespace gpusim::frontend
