// Which pipe an instruction takes. Integer work on two pipes
// (execution_units.int_multiply_on_fp32): Volta onward the ALU and
// the FMA pipe each take a warp instruction every 2 cycles (16 lanes of a scheduler on
// hopper.yaml); IMAD runs on the FMA pipe beside FP32, and ptxas writes plain adds, moves and
// left shifts for whichever pipe is free. One warp of hand-written chains, so the cycles can
// be worked out by hand (validate/kernels/int_pipes.cu measures the same on the H100).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "arch/arch_loader.hpp"
#include "core/instruction_class.hpp"
#include "core/timed_kernel.hpp"
#include "frontend/ptx_parser.hpp"
#include "test_paths.hpp"

namespace gpusim::core {
namespace {

const std::vector<std::string> kOnePipe = {"execution_units.int_multiply_on_fp32=false"};

// `steps` repetitions of `step`, whose %rN / %fN chains are independent of each other.
uint64_t cycles(const std::string& step, int steps, const std::vector<std::string>& overrides = {}) {
  std::string body;
  for (int i = 0; i < steps; ++i) body += step;
  return simulate(kernel(body), "hopper", overrides, 32, 1).stats.cycles;
}

// Four XOR chains (the ALU) and four multiply-add chains (IMAD) side by side: 8 instructions
// a step. On two pipes, one instruction a cycle: 100 more steps take 800 cycles more. On the
// int32 pipe alone, 2 cycles each: 1600 more (micro_int_pipes #3 on the H100: 0.9 a cycle).
TEST(IntegerPipes, AluAndMultiplyAddsIssueSideBySide) {
  std::string step;
  for (int i = 0; i < 4; ++i) step += "xor.b32 %r1" + std::to_string(i) + ", %r1" + std::to_string(i) + ", %r3;\n";
  for (int i = 4; i < 8; ++i)
    step += "mad.lo.s32 %r1" + std::to_string(i) + ", %r1" + std::to_string(i) + ", %r3, %r4;\n";
  const int64_t two = static_cast<int64_t>(cycles(step, 200) - cycles(step, 100));
  const int64_t one = static_cast<int64_t>(cycles(step, 200, kOnePipe) - cycles(step, 100, kOnePipe));
  EXPECT_NEAR(two, 800, 8);
  EXPECT_NEAR(one, 1600, 8);
}

// Eight chains of plain adds: each takes whichever pipe is free, one a cycle (micro_int_pipes
// #4: ptxas writes half of them as IMAD.IADD); on one pipe, one every 2 cycles.
TEST(IntegerPipes, PlainAddsTakeWhicheverPipeIsFree) {
  std::string step;
  for (int i = 0; i < 8; ++i) step += "add.s32 %r1" + std::to_string(i) + ", %r1" + std::to_string(i) + ", %r3;\n";
  EXPECT_NEAR(static_cast<int64_t>(cycles(step, 200) - cycles(step, 100)), 800, 8);
  EXPECT_NEAR(static_cast<int64_t>(cycles(step, 200, kOnePipe) - cycles(step, 100, kOnePipe)), 1600, 8);
}

// FP32 multiply-adds and IMAD share the FMA pipe: an FFMA holds it 1 cycle, an IMAD 2, so a
// step of four of each takes 12 cycles (the H100 takes about 16: micro_int_pipes #6).
// Without the flag the IMADs run on the int32 pipe beside them: 8 cycles a step.
TEST(IntegerPipes, FloatAndIntegerMultiplyAddsShareTheFmaPipe) {
  std::string step;
  for (int i = 1; i <= 4; ++i)
    step += "fma.rn.f32 %f" + std::to_string(i) + ", %f" + std::to_string(i) + ", %f41, %f42;\n";
  for (int i = 4; i < 8; ++i)
    step += "mad.lo.s32 %r1" + std::to_string(i) + ", %r1" + std::to_string(i) + ", %r3, %r4;\n";
  EXPECT_NEAR(static_cast<int64_t>(cycles(step, 200) - cycles(step, 100)), 1200, 8);
  EXPECT_NEAR(static_cast<int64_t>(cycles(step, 200, kOnePipe) - cycles(step, 100, kOnePipe)), 800, 8);
}

// What ptxas makes of a fused pair decides the pipe: mul + add is an IMAD (the FMA pipe
// only), shl + add a LEA (the ALU only); a lone add may go to either, a shift right or a
// compare only to the ALU. ptxas balances a block as a whole: with more FP32 than ALU work
// (the kernel's 45 float moves, then 40 more FFMAs) no add becomes an IMAD.
TEST(IntegerPipes, FusedPairsTakeThePipeOfWhatPtxasMakes) {
  const auto classify = [](const std::string& body) {
    const kernel::Module m = frontend::parse_ptx(kernel(body), "pipes.ptx");
    const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"), {});
    EXPECT_TRUE(arch.units.int_multiply_on_fp32);
    const ClassifierConfig config{arch.units, arch.latencies, arch.warp_size, arch.scheduling.warp_schedulers_per_sm,
                                  true, arch.instruction_classes, arch.scheduling.ptxas_unroll};
    return std::pair{m.kernels[0], classify_program(m.kernels[0], config)};
  };
  std::string alu_heavy, fma_heavy;
  for (int i = 0; i < 40; ++i) {
    alu_heavy += "xor.b32 %r30, %r30, %r3;\n";
    fma_heavy += "fma.rn.f32 %f1, %f1, %f41, %f42;\n";
  }
  const std::string body =
      "mul.lo.s32 %r26, %r10, %r3;\nadd.s32 %r27, %r26, %r4;\n"
      "shl.b32 %r28, %r11, 2;\nadd.s32 %r29, %r28, %r4;\n"
      "add.s32 %r12, %r12, %r3;\nshr.u32 %r13, %r13, 3;\nsetp.lt.s32 %p1, %r13, %r12;\n";
  const auto [program, t] = classify(body + alu_heavy);
  const auto at = [&, &program = program, &t = t](const std::string& text) {
    for (size_t i = program.code.size(); i-- > 0;) {  // the last writer: the prologue sets %r10-%r25
      const kernel::Instruction& in = program.code[i];
      if (in.dst.kind == kernel::Operand::Kind::Reg && in.dst.reg < program.reg_names.size() &&
          program.reg_names[in.dst.reg] == text)
        return t[i];
    }
    ADD_FAILURE() << text << " not found";
    return InstructionTiming{};
  };
  EXPECT_EQ(at("%r26").issue_slots, 0);  // folded into the IMAD
  EXPECT_EQ(at("%r27").unit, Unit::Fp32);
  EXPECT_EQ(at("%r27").other_unit, Unit::Count);
  EXPECT_EQ(at("%r29").unit, Unit::Int32);  // LEA
  EXPECT_EQ(at("%r29").other_unit, Unit::Count);
  EXPECT_EQ(at("%r12").unit, Unit::Int32);
  EXPECT_EQ(at("%r12").other_unit, Unit::Fp32);
  EXPECT_EQ(at("%r13").other_unit, Unit::Count);
  EXPECT_EQ(at("%p1").other_unit, Unit::Count);
  const auto [fp_program, fp] = classify(body + fma_heavy);
  for (size_t i = 0; i < fp.size(); ++i) EXPECT_EQ(fp[i].other_unit, Unit::Count) << fp_program.code[i].line;
}

// A parameter or constant at a fixed address is an operand in SASS (or a ULDC beside the
// load/store unit): one warp's 40 rotating ld.param take an issue cycle each, 100 more take
// 100 cycles more; read as loads, the load/store unit (8 lanes a scheduler on hopper.yaml)
// takes one every 4 cycles: 400 (micro_const_operands on the H100: 128 constant taps as fast
// as the FFMAs and ULDCs alone).
TEST(Operands, FixedConstantsTakeNoLoadStoreTime) {
  const auto param_loads = [](int n, const std::vector<std::string>& overrides) {
    std::string body;
    for (int i = 0; i < n; ++i) body += "ld.param.b32 %f" + std::to_string(i % 40 + 1) + ", [out];\n";
    return static_cast<int64_t>(simulate(kernel(body), "hopper", overrides, 32, 1).stats.cycles);
  };
  EXPECT_NEAR(param_loads(200, {}) - param_loads(100, {}), 100, 4);
  const std::vector<std::string> literal = {"scheduling.sass_like=false"};
  EXPECT_NEAR(param_loads(200, literal) - param_loads(100, literal), 400, 4);
}

}  // namespace
}  // namespace gpusim::core
