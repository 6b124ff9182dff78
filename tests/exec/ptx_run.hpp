// Runs hand-written PTX functionally for the exec tests: kernel k(u32* out) with one
// word of output per thread.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "exec/block_runner.hpp"
#include "frontend/ptx_parser.hpp"

namespace gpusim::exec {

inline const char* kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

struct Result {
  std::vector<uint32_t> out;
  FunctionalStats stats;
};

// The kernel k(out) with %r4 = global thread index and %rd3 = &out[%r4] set up, then `body`.
inline std::string kernel_with_body(const std::string& body, const std::string& before = "") {
  return std::string(kHeader) + before +
         ".visible .entry k(.param .u64 out)\n{\n"
         ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
         ".shared .align 4 .b8 sm[1024];\n"
         "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\n"
         "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
         "mad.lo.s32 %r4, %r2, %r3, %r1;\nmul.wide.u32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;\n" +
         body + "\n}\n";
}

inline Result run_ptx(const std::string& ptx, uint32_t threads, uint32_t blocks = 1, uint64_t budget = 1'000'000,
                      PrintfSink* printf_sink = nullptr, OutOfBoundsLog* out_of_bounds = nullptr, int host_threads = 1) {
  const kernel::Module m = frontend::parse_ptx(ptx, "test.ptx");
  if (!m.kernels.at(0).unsupported.empty()) throw ExecError(m.kernels[0].unsupported);
  DeviceMemory memory;
  memory.map_variables(m);
  const uint64_t base = memory.allocate("out", uint64_t{threads} * blocks * 4, kernel::kGlobalHeapBase);
  LaunchConfig launch;
  launch.grid = {blocks, 1, 1};
  launch.block = {threads, 1, 1};
  launch.params.resize(8);
  launch.printf_sink = printf_sink;
  launch.out_of_bounds = out_of_bounds;
  std::memcpy(launch.params.data(), &base, 8);
  Result r;
  RunLimits limits;
  limits.max_warp_instructions = budget;
  r.stats = run_functional(m.kernels[0], memory, launch, limits, 0, host_threads);
  const auto& bytes = memory.find("out")->bytes;
  r.out.resize(bytes.size() / 4);
  std::memcpy(r.out.data(), bytes.data(), bytes.size());
  return r;
}

// PTX that packs `predicates` into %r6 as bits, the first in bit 0 (selp into %r6.., then
// adds; uses %r6 to %r(5 + count)).
inline std::string packed_predicates(std::initializer_list<const char*> predicates) {
  std::string ptx;
  int bit = 0;
  for (const char* p : predicates) {
    ptx += "  selp.u32 %r" + std::to_string(6 + bit) + ", " + std::to_string(1u << bit) + ", 0, " + p + ";\n";
    ++bit;
  }
  for (int i = 1; i < bit; ++i) ptx += "  add.u32 %r6, %r6, %r" + std::to_string(6 + i) + ";\n";
  return ptx;
}

// Runs `body` on a full warp (the shortcuts) and on 31 threads (the per-lane path) and checks
// every thread's word against want(thread, threads).
template <typename Want>
void expect_on_full_and_partial_warps(const std::string& body, Want want) {
  for (uint32_t threads : {32u, 31u}) {
    const Result r = run_ptx(kernel_with_body(body), threads);
    for (uint32_t t = 0; t < threads; ++t) EXPECT_EQ(r.out[t], want(t, threads)) << threads << " threads, lane " << t;
  }
}

}  // namespace gpusim::exec
