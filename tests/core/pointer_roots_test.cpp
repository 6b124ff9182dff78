// Which base pointer each address comes from (core/pointer_roots.hpp): ptxas moves a load
// above an earlier store only when both go through the same base.
#include <gtest/gtest.h>

#include "core/pointer_roots.hpp"
#include "frontend/ptx_parser.hpp"

namespace gpusim::core {
namespace {

// k(a, b): a pointer bumped each trip from a, loads and stores through it (the store's
// address is its first source, not a destination), a store to b, and a load through a
// pointer read from memory.
constexpr const char* kPtx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b)
{
.reg .pred %p<2>;
.reg .b32 %r<8>;
.reg .b64 %rd<8>;
ld.param.u64 %rd1, [a];
ld.param.u64 %rd2, [b];
cvta.to.global.u64 %rd3, %rd1;
cvta.to.global.u64 %rd4, %rd2;
mov.u32 %r1, 0;
$L_trip:
ld.global.u32 %r2, [%rd3];
st.global.u32 [%rd3], %r2;
ld.global.u32 %r3, [%rd3+4];
st.global.u32 [%rd4], %r3;
red.global.add.u32 [%rd3+8], %r3;
add.s64 %rd3, %rd3, 16;
add.s32 %r1, %r1, 1;
setp.lt.s32 %p1, %r1, 8;
@%p1 bra $L_trip;
ld.global.u64 %rd5, [%rd4];
ld.global.u32 %r4, [%rd5];
ret;
}
)";

TEST(PointerRoots, StoresAndLoadsThroughOneBumpedPointerShareItsRoot) {
  const kernel::Module m = frontend::parse_ptx(kPtx, "roots.ptx");
  const kernel::Program& p = m.kernels[0];
  const std::vector<uint32_t> roots = pointer_roots(p);
  ASSERT_EQ(roots.size(), p.code.size());
  std::vector<uint32_t> memory;  // the roots of the memory instructions, in program order
  for (size_t pc = 0; pc < p.code.size(); ++pc) {
    const kernel::Opcode op = p.code[pc].op;
    const bool param = op == kernel::Opcode::Ld && p.code[pc].space == kernel::StateSpace::Param;
    if (!param && (op == kernel::Opcode::Ld || op == kernel::Opcode::St || op == kernel::Opcode::Red))
      memory.push_back(roots[pc]);
  }
  ASSERT_EQ(memory.size(), 7u);
  const uint32_t a = memory[0];
  EXPECT_NE(a, kUnknownRoot);
  EXPECT_EQ(memory[1], a);  // st [%rd3]
  EXPECT_EQ(memory[2], a);  // ld [%rd3+4]
  EXPECT_NE(memory[3], kUnknownRoot);  // st [%rd4]: b
  EXPECT_NE(memory[3], a);
  EXPECT_EQ(memory[4], a);  // red [%rd3+8]
  EXPECT_EQ(memory[5], memory[3]);  // ld [%rd4]
  EXPECT_EQ(memory[6], kUnknownRoot);  // through a pointer loaded from memory
}

}  // namespace
}  // namespace gpusim::core
