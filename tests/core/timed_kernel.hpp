// Hand-written kernels for timing tests: a kernel k(out) whose body is given, and one
// launch of it on a fresh GPU whose global memory answers after a fixed latency, so that
// cycle counts can be worked out by hand.
#pragma once

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "arch/arch_loader.hpp"
#include "core/gpu.hpp"
#include "frontend/ptx_parser.hpp"
#include "test_paths.hpp"

namespace gpusim::core {

// Kernel k(out): %f1..%f45 and %r10..%r25 start defined; `body` follows.
inline std::string kernel(const std::string& body) {
  std::ostringstream p;
  p << ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n"
    << ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .f32 %f<48>;\n.reg .b64 %rd<8>;\n"
    << "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\n"
    << "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmad.lo.s32 %r4, %r2, %r3, %r1;\n"
    << "mul.wide.u32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;\n";
  for (int i = 1; i <= 45; ++i) p << "mov.f32 %f" << i << ", 0f3F800000;\n";
  for (int i = 10; i <= 25; ++i) p << "mov.u32 %r" << i << ", 0;\n";
  // Stores a register no chain writes, so the end of a run does not wait on a chain.
  p << body << "\nst.global.f32 [%rd3], %f44;\nret;\n}\n";
  return p.str();
}

// N instructions over `chains` independent accumulators: chain i is %f(i+1).
inline std::string chains(int n, int chains, const char* op = "fma.rn.f32 %fX, %fX, %f41, %f42;") {
  std::string s;
  for (int i = 0; i < n; ++i) {
    std::string line = op;
    const std::string reg = "%f" + std::to_string(i % chains + 1);
    for (size_t pos; (pos = line.find("%fX")) != std::string::npos;) line.replace(pos, 3, reg);
    s += line + "\n";
  }
  return s;
}

struct SimRun {
  LaunchStats stats;
  SmStats total;
  std::vector<uint32_t> out;  // the kernel's output words
};

inline SimRun simulate(const std::string& ptx, const std::string& arch_name, const std::vector<std::string>& overrides,
             uint32_t threads, uint32_t blocks, uint32_t dynamic_shared = 0, bool jumps = true, bool profile = false,
             SampleMode sample = SampleMode::Exact, int host_threads = 1) {
  // Global memory answers after a fixed latency, so that cycle counts can be worked out by hand.
  std::vector<std::string> sets = overrides;
  sets.insert(sets.begin(), "memory.model=fixed_latency");
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path(arch_name), sets);
  const kernel::Module m = frontend::parse_ptx(ptx, "timing.ptx");
  exec::DeviceMemory memory;
  const uint64_t base = memory.allocate("out", uint64_t{threads} * blocks * 4, kernel::kGlobalHeapBase);
  exec::LaunchConfig launch;
  launch.grid = {blocks, 1, 1};
  launch.block = {threads, 1, 1};
  launch.dynamic_shared_bytes = dynamic_shared;
  launch.params.resize(8);
  std::memcpy(launch.params.data(), &base, 8);
  TimingOptions options;
  options.allow_jumps = jumps;
  options.profile = profile;
  options.sample.mode = sample;
  options.threads = host_threads;
  SimRun r;
  r.stats = simulate_launch(arch, m.kernels[0], memory, launch, 32, options);
  r.total = r.stats.total();
  const auto& bytes = memory.find("out")->bytes;
  r.out.resize(bytes.size() / 4);
  std::memcpy(r.out.data(), bytes.data(), bytes.size());
  return r;
}

}  // namespace gpusim::core
