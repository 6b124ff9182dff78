// Register slots by liveness (kernel/register_slots.hpp) on hand-written PTX, slots worked
// out by hand. The outputs of every bundled workload and test kernel are the oracle for the
// rest: they are unchanged (the executor reads and writes registers through these slots).
#include "kernel/register_slots.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "frontend/ptx_parser.hpp"

namespace gpusim::kernel {
namespace {

struct Allocated {
  Program program;
  RegisterSlots slots;
  uint32_t slot(const std::string& name) const {
    for (size_t r = 0; r < program.reg_names.size(); ++r)
      if (program.reg_names[r] == name) return slots.slot[r];
    ADD_FAILURE() << "no register " << name;
    return ~0u;
  }
};

Allocated allocate(const std::string& body, const std::string& functions = "") {
  const std::string ptx = ".version 7.0\n.target sm_70\n.address_size 64\n" + functions +
                          ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<3>;\n.reg .b32 %r<6>;\n"
                          ".reg .b64 %rd<3>;\nld.param.u64 %rd1, [out];\n" + body + "ret;\n}\n";
  Module m = frontend::parse_ptx(ptx, "slots.ptx");
  Allocated a{m.kernels.at(0), {}};
  a.slots = assign_register_slots(a.program);
  return a;
}

TEST(RegisterSlots, AValueTakesTheSlotOfOneThatDiedBeforeIt) {
  const Allocated a = allocate(
      "mov.u32 %r1, 1;\n"
      "mov.u32 %r2, 2;\n"          // %r1 is live: another slot
      "add.s32 %r3, %r1, %r2;\n"   // both die here: %r3 takes slot 0 (%r1's)
      "add.s32 %r4, %r3, 1;\n"     // %r3 dies here: %r4 takes it too
      "st.global.u32 [%rd1], %r4;\n");
  EXPECT_NE(a.slot("%r1"), a.slot("%r2"));
  EXPECT_EQ(a.slot("%r3"), a.slot("%r1"));
  EXPECT_EQ(a.slot("%r4"), a.slot("%r3"));
  // Two 32-bit slots hold %r1-%r5 and the predicates (%p1's life is its own instruction's);
  // one 64-bit slot holds %rd0-%rd2. The parser had given 3 + 6 and 3.
  EXPECT_EQ(a.slots.narrow, 2u);
  EXPECT_EQ(a.slots.wide, 1u);
  EXPECT_EQ(a.program.narrow_regs, 9u);
}

TEST(RegisterSlots, AGuardedWriteDoesNotEndTheOldValuesLife) {
  // Where %p1 is false %r1 keeps 7 to the store, so %r2 (live while %r1 is) needs a slot of
  // its own; were the guarded write a plain one, %r1 would be dead from its first write on.
  const Allocated a = allocate(
      "mov.u32 %r1, 7;\n"
      "mov.u32 %r2, 1;\n"
      "setp.ne.u32 %p1, %r2, 1;\n"
      "@%p1 mov.u32 %r1, 8;\n"
      "st.global.u32 [%rd1], %r1;\n");
  EXPECT_NE(a.slot("%r1"), a.slot("%r2"));
}

TEST(RegisterSlots, AValueEveryTripReadsIsLiveAcrossTheBackEdge) {
  // %r1 is read at the top of every trip and never again after the loop: only the back edge
  // keeps it live at the bottom, where %r2 is written. Sharing a slot, the second trip would
  // read %r2's value for %r1.
  const Allocated a = allocate(
      "mov.u32 %r1, 5;\n"
      "mov.u32 %r3, 0;\n"
      "$L_top:\n"
      "add.s32 %r3, %r3, %r1;\n"
      "add.s32 %r2, %r3, 1;\n"
      "setp.lt.u32 %p1, %r2, 100;\n"
      "@%p1 bra $L_top;\n"
      "st.global.u32 [%rd1], %r3;\n");
  EXPECT_NE(a.slot("%r2"), a.slot("%r1"));
  EXPECT_NE(a.slot("%r3"), a.slot("%r1"));
}

TEST(RegisterSlots, AFunctionsRegistersNeverShareTheCallersSlots) {
  // %r1 is live across the call, which the function's own registers know nothing of: the
  // function gets slots past the kernel's.
  const std::string twice =
      ".func (.param .b32 ret) twice(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
      "ld.param.u32 %r1, [x];\nadd.s32 %r2, %r1, %r1;\nst.param.b32 [ret], %r2;\nret;\n}\n";
  const Allocated a = allocate(
      "mov.u32 %r1, 3;\n"
      "{\n.param .b32 a;\n.param .b32 b;\nst.param.b32 [a], %r1;\n"
      "call.uni (b), twice, (a);\nld.param.b32 %r2, [b];\n}\n"
      "add.s32 %r3, %r1, %r2;\n"
      "st.global.u32 [%rd1], %r3;\n",
      twice);
  ASSERT_EQ(a.program.functions.size(), 1u);
  uint32_t kernel_slots = 0;
  for (uint32_t r = 0; r < a.program.functions[0].first_reg; ++r)
    if (!a.program.reg_wide[r]) kernel_slots = std::max(kernel_slots, a.slots.slot[r] + 1);
  for (uint32_t r = a.program.functions[0].first_reg; r < a.program.reg_names.size(); ++r) {
    if (!a.program.reg_wide[r]) {
      EXPECT_GE(a.slots.slot[r], kernel_slots) << a.program.reg_names[r];
    }
  }
}

}  // namespace
}  // namespace gpusim::kernel
