// Device functions, printf, carry chains and 32-bit shared addresses, on hand-written
// PTX whose results are worked out by hand.
#include <gtest/gtest.h>

#include "exec/ptx_run.hpp"

namespace gpusim::exec {
namespace {

// add3(a, b) = a + b + 3, with a local array in its frame to show frames do not overlap.
const char* kAdd3 = R"(
.func (.param .b32 ret) add3(.param .b32 a, .param .b32 b)
{
  .local .align 4 .b8 scratch[8];
  .reg .b32 %q<6>;
  ld.param.u32 %q1, [a];
  ld.param.u32 %q2, [b];
  st.local.u32 [scratch+4], %q2;
  ld.local.u32 %q3, [scratch+4];
  add.s32 %q4, %q1, %q3;
  add.s32 %q5, %q4, 3;
  st.param.b32 [ret+0], %q5;
  ret;
}
)";

std::string call_add3(const char* a, const char* b, const char* into) {
  return std::string("{\n.param .b32 p0;\n.param .b32 p1;\n.param .b32 r0;\n") + "st.param.b32 [p0+0], " + a +
         ";\nst.param.b32 [p1+0], " + b + ";\ncall.uni (r0), add3, (p0, p1);\nld.param.b32 " + into + ", [r0+0];\n}\n";
}

TEST(DeviceFunctions, ArgumentsAndResultPassThroughTheFrame) {
  const Result r = run_ptx(kernel_with_body(call_add3("%r1", "10", "%r5") + "st.global.u32 [%rd3], %r5;\nret;", kAdd3), 64);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(r.out[t], t + 13) << t;
}

TEST(DeviceFunctions, OnlyTheLanesThatCallRunTheFunction) {
  // Odd threads call add3(t, 100); even ones keep t; all reconverge after the call.
  const std::string body = "and.b32 %r6, %r1, 1;\nsetp.eq.u32 %p1, %r6, 0;\nmov.u32 %r5, %r1;\n@%p1 bra SKIP;\n" +
                           call_add3("%r1", "100", "%r5") + "SKIP:\nadd.s32 %r5, %r5, 1000;\nst.global.u32 [%rd3], %r5;\nret;";
  const Result r = run_ptx(kernel_with_body(body, kAdd3), 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], (t % 2 ? t + 103 : t) + 1000) << t;
}

// fact(n) = n <= 1 ? 1 : n * fact(n - 1), recursively: n lives in a register across the call.
const char* kFact = R"(
.func (.param .b32 ret) fact(.param .b32 n)
{
  .reg .pred %f<2>;
  .reg .b32 %n<4>;
  ld.param.u32 %n1, [n];
  setp.gt.u32 %f1, %n1, 1;
  mov.u32 %n3, 1;
  @!%f1 bra DONE;
  add.s32 %n2, %n1, -1;
  {
  .param .b32 p;
  .param .b32 r;
  st.param.b32 [p+0], %n2;
  call.uni (r), fact, (p);
  ld.param.b32 %n3, [r+0];
  }
  mul.lo.s32 %n3, %n3, %n1;
DONE:
  st.param.b32 [ret+0], %n3;
  ret;
}
)";

TEST(DeviceFunctions, RecursionKeepsEachActivationsRegisters) {
  const std::string body = "and.b32 %r6, %r1, 7;\n{\n.param .b32 p;\n.param .b32 r;\nst.param.b32 [p+0], %r6;\n"
                           "call.uni (r), fact, (p);\nld.param.b32 %r5, [r+0];\n}\nst.global.u32 [%rd3], %r5;\nret;";
  const Result r = run_ptx(kernel_with_body(body, kFact), 32);
  const uint32_t fact[] = {1, 1, 2, 6, 24, 120, 720, 5040};
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], fact[t % 8]) << t;
}

TEST(DeviceFunctions, EndlessRecursionOverflowsTheStack) {
  const char* forever = ".func down()\n{\ncall.uni down;\nret;\n}\n";
  try {
    run_ptx(kernel_with_body("call.uni down;\nret;", forever), 32);
    FAIL() << "no fault";
  } catch (const ExecError& e) {
    // 16 bytes per empty frame: the 1024-byte stack holds 64 of them.
    EXPECT_NE(std::string(e.what()).find("call stack overflow calling down (65 calls deep, more than the 1024 bytes"),
              std::string::npos)
        << e.what();
  }
}

TEST(DeviceFunctions, CallToAFunctionThisModuleDoesNotDefine) {
  const kernel::Module m = frontend::parse_ptx(kernel_with_body("call.uni elsewhere;\nret;", ".extern .func elsewhere();\n"), "x.ptx");
  EXPECT_NE(m.kernels[0].unsupported.find("x.ptx:19: call to elsewhere, which is declared but not defined"),
            std::string::npos)
      << m.kernels[0].unsupported;
}

TEST(Printf, FormatsEachCallWithItsBlockAndThread) {
  // printf("t=%d u=%u x=%x f=%.2f ll=%lld c=%c s=%s %%\n", ...) with CUDA's argument buffer:
  // each argument aligned to its size, the float promoted to double.
  const char* decls = R"(
.extern .func (.param .b32 r) vprintf(.param .b64 fmt, .param .b64 args);
.global .align 1 .b8 fmt[40] = {116,61,37,100,32,117,61,37,117,32,120,61,37,120,32,102,61,37,46,50,102,32,108,108,61,37,108,108,100,32,99,61,37,99,32,115,61,37,115,0};
.global .align 1 .b8 word[3] = {104,105,0};
)";
  const std::string body = R"(
  .local .align 8 .b8 buf[48];
  .reg .f64 %d<2>;
  mov.u64 %rd4, buf;
  cvta.local.u64 %rd5, %rd4;
  st.local.u32 [buf+0], %r1;
  mov.u32 %r6, 4000000000;
  st.local.u32 [buf+4], %r6;
  st.local.u32 [buf+8], 255;
  mov.f64 %d1, 0d400A000000000000;
  st.local.f64 [buf+16], %d1;
  mov.u64 %rd6, -5;
  st.local.u64 [buf+24], %rd6;
  st.local.u32 [buf+32], 65;
  mov.u64 %rd6, word;
  cvta.global.u64 %rd6, %rd6;
  st.local.u64 [buf+40], %rd6;
  setp.lt.u32 %p1, %r1, 2;
  @!%p1 bra END;
  mov.u64 %rd7, fmt;
  cvta.global.u64 %rd7, %rd7;
  {
  .param .b64 a0;
  .param .b64 a1;
  .param .b32 rv;
  st.param.b64 [a0+0], %rd7;
  st.param.b64 [a1+0], %rd5;
  call.uni (rv), vprintf, (a0, a1);
  ld.param.b32 %r7, [rv+0];
  }
  st.global.u32 [%rd3], %r7;
END:
  ret;)";
  PrintfSink sink;
  const Result r = run_ptx(kernel_with_body(body, decls), 32, 2, 1'000'000, &sink);
  ASSERT_EQ(sink.records.size(), 4u);  // threads 0 and 1 of blocks 0 and 1
  const std::string want0 = "t=0 u=4000000000 x=ff f=3.25 ll=-5 c=A s=hi";
  EXPECT_EQ(sink.records[0].text, want0);
  EXPECT_EQ(sink.records[1].text, "t=1 u=4000000000 x=ff f=3.25 ll=-5 c=A s=hi");
  EXPECT_EQ(sink.records[1].thread, (std::array<uint32_t, 3>{1, 0, 0}));
  EXPECT_EQ(sink.records[3].block, (std::array<uint32_t, 3>{1, 0, 0}));
  EXPECT_EQ(r.out[0], want0.size());  // printf returns the characters printed
}

TEST(CarryChains, SixtyFourBitArithmeticFromThirtyTwoBitHalves) {
  // (2^32 - 1 + t) + 1 as (lo, hi) pairs, then minus 2, then lo*3 + (2^32 - 2) with madc.
  const std::string body = R"(
  mov.u32 %r5, 4294967295;
  add.cc.u32 %r6, %r5, 1;
  addc.u32 %r7, 0, 0;
  sub.cc.u32 %r8, %r6, 2;
  subc.u32 %r9, %r7, 0;
  mad.lo.cc.u32 %r10, %r1, 3, 4294967294;
  madc.lo.u32 %r11, 0, 0, 0;
  mul.lo.u32 %r12, %r7, 1000;
  mul.lo.u32 %r13, %r9, 100;
  mul.lo.u32 %r14, %r11, 10;
  add.s32 %r12, %r12, %r13;
  add.s32 %r12, %r12, %r14;
  add.s32 %r12, %r12, %r8;
  st.global.u32 [%rd3], %r12;
  ret;)";
  const Result r = run_ptx(kernel_with_body(body), 4);
  // 2^32 -> (0, 1); minus 2 -> (2^32 - 2, 0) so r8 = 4294967294, r9 = 0;
  // 3t + 2^32 - 2 carries for t >= 1.
  for (uint32_t t = 0; t < 4; ++t) EXPECT_EQ(r.out[t], 1000u + 0u + (t >= 1 ? 10u : 0u) + 4294967294u) << t;
}

TEST(SourceLines, FaultsNameTheCudaLineBeforeThePtxLine) {
  try {
    run_ptx(kernel_with_body(".loc 1 12 3\nld.global.u32 %r5, [%rd3+4096];\nret;") + ".file 1 \"student.cu\"\n", 32);
    FAIL() << "no fault";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel k, pc 8 (student.cu:12; test.ptx:19, ld), block (0,0,0), thread (0,0,0): "
                                         "out-of-bounds global load"),
              std::string::npos)
        << e.what();
  }
}

TEST(SharedMemory, AddressesFormedInThirtyTwoBitsWrap) {
  // -100 in 32 bits plus an offset of 200 is shared address 100, as on the GPU.
  const std::string body = R"(
  mov.u32 %r5, sm;
  add.s32 %r5, %r5, -100;
  st.shared.u32 [%r5+200], %r1;
  ld.shared.u32 %r6, [sm+100];
  st.global.u32 [%rd3], %r6;
  ret;)";
  const Result r = run_ptx(kernel_with_body(body), 1);
  EXPECT_EQ(r.out[0], 0u);
  const Result r2 = run_ptx(kernel_with_body("mov.u32 %r1, 77;\n" + body), 1);
  EXPECT_EQ(r2.out[0], 77u);
}

}  // namespace
}  // namespace gpusim::exec
