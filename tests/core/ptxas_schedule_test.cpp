// ptxas's list scheduling of a basic block within the registers it allocated
// (core/ptxas_schedule.hpp): where a second float4 load lands, worked out by hand from the
// block's live 32-bit values.
#include <gtest/gtest.h>

#include "arch/arch_loader.hpp"
#include "core/instruction_class.hpp"
#include "core/ptxas_schedule.hpp"
#include "frontend/ptx_parser.hpp"
#include "test_paths.hpp"

namespace gpusim::core {
namespace {

// One basic block: load A (4 values), three adds that reduce it to one, load B the same, a sum
// and a store. Live before load B is issued: the address (2 slots) and A's values.
const char* kTwoLoads = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
.reg .f32 %f<24>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [p];
cvta.to.global.u64 %rd2, %rd1;
ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];
add.f32 %f5, %f1, %f2;
add.f32 %f6, %f3, %f4;
add.f32 %f7, %f5, %f6;
ld.global.v4.f32 {%f11, %f12, %f13, %f14}, [%rd2+16];
add.f32 %f15, %f11, %f12;
add.f32 %f16, %f13, %f14;
add.f32 %f17, %f15, %f16;
add.f32 %f20, %f7, %f17;
st.global.f32 [%rd2], %f20;
ret;
}
)";

// The scheduled position of load B and of each of A's three adds.
struct Positions {
  size_t load_b = 0;
  std::vector<size_t> adds_of_a;
};

Positions schedule(int budget) {
  const kernel::Module m = frontend::parse_ptx(kTwoLoads, "two_loads.ptx");
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"), {});
  const ClassifierConfig config{arch.units, arch.latencies, arch.warp_size, arch.scheduling.warp_schedulers_per_sm,
                                true, arch.instruction_classes, arch.scheduling.ptxas_unroll};
  const kernel::Program& ptx = m.kernels[0];
  const kernel::Program out = schedule_like_ptxas(ptx, classify_program(ptx, config), budget);
  Positions p;
  for (size_t pc = 0; pc < out.code.size(); ++pc) {
    const kernel::Instruction& in = out.code[pc];
    if (in.op == kernel::Opcode::Ld && in.space == kernel::StateSpace::Global && in.src[0].imm == 16) p.load_b = pc;
    if (in.op == kernel::Opcode::Add && in.dst.kind == kernel::Operand::Kind::Reg) {
      const std::string& name = ptx.reg_names[in.dst.reg];
      if (name == "%f5" || name == "%f6" || name == "%f7") p.adds_of_a.push_back(pc);
    }
  }
  return p;
}

TEST(PtxasSchedule, WithoutABudgetTheSecondLoadMovesAboveTheFirstOnesUse) {
  const Positions p = schedule(0);
  ASSERT_EQ(p.adds_of_a.size(), 3u);
  EXPECT_LT(p.load_b, p.adds_of_a[0]);
}

TEST(PtxasSchedule, ALoadWaitsUntilItsRegistersAreFree) {
  // Live before load B: the address (2) + A's 4 values = 6; B adds 4.
  // A budget of 10 fits it at once.
  EXPECT_LT(schedule(10).load_b, schedule(10).adds_of_a[0]);
  // A budget of 8: each of the first two adds frees two values and makes one (6 -> 5 -> 4), so
  // B (+4) fits after the second add, before the third.
  const Positions p = schedule(8);
  ASSERT_EQ(p.adds_of_a.size(), 3u);
  EXPECT_GT(p.load_b, p.adds_of_a[1]);
  EXPECT_LT(p.load_b, p.adds_of_a[2]);
  // A budget of 4: B never fits, and it is not held forever: it issues once nothing else can.
  const Positions q = schedule(4);
  EXPECT_GT(q.load_b, q.adds_of_a[2]);
}

// lines_in_flight_16's loop as nvcc writes it: 16 addresses, then each load followed by the add
// that sums it. ptxas issues all 16 LDGs before the first FADD (validate/sass/kernels_micro.sass):
// it expects a global load to take hundreds of cycles. Weighed as a shared load (24 cycles),
// the adds came in after the eighth load.
TEST(PtxasSchedule, GlobalLoadsGoAboveEveryUseAsInSass) {
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p, .param .u64 s)\n{\n"
                    ".reg .f32 %f<40>;\n.reg .b64 %rd<40>;\nld.param.u64 %rd1, [p];\nld.param.u64 %rd2, [s];\n"
                    "cvta.to.global.u64 %rd3, %rd1;\nmov.f32 %f0, 0f00000000;\n";
  for (int i = 0; i < 15; ++i) ptx += "add.s64 %rd" + std::to_string(5 + i) + ", %rd" + std::to_string(i == 0 ? 3 : 4 + i) + ", %rd2;\n";
  for (int i = 0; i < 16; ++i) {
    const std::string address = "%rd" + std::to_string(i == 0 ? 3 : 4 + i);
    ptx += "ld.global.f32 %f" + std::to_string(1 + i) + ", [" + address + "];\n";
    ptx += "add.f32 %f" + std::to_string(20 + i) + ", %f" + std::to_string(i == 0 ? 0 : 19 + i) + ", %f" + std::to_string(1 + i) + ";\n";
  }
  ptx += "st.global.f32 [%rd3], %f35;\nret;\n}\n";
  const kernel::Module m = frontend::parse_ptx(ptx, "lines16.ptx");
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"), {});
  const ClassifierConfig config{arch.units, arch.latencies, arch.warp_size, arch.scheduling.warp_schedulers_per_sm,
                                true, arch.instruction_classes, arch.scheduling.ptxas_unroll};
  const kernel::Program out = schedule_like_ptxas(m.kernels[0], classify_program(m.kernels[0], config), 0);
  size_t last_load = 0, first_add = out.code.size(), loads = 0;
  for (size_t pc = 0; pc < out.code.size(); ++pc) {
    const kernel::Instruction& in = out.code[pc];
    if (in.op == kernel::Opcode::Ld && in.space == kernel::StateSpace::Global) {
      last_load = pc;
      ++loads;
    }
    if (in.op == kernel::Opcode::Add && in.type == kernel::DataType::F32) first_add = std::min(first_add, pc);
  }
  EXPECT_EQ(loads, 16u);
  EXPECT_LT(last_load, first_add);
}

}  // namespace
}  // namespace gpusim::core
