// One run of a workload's steps over a device memory image: buffers allocated and
// initialised, copies applied, each launch handed to the caller (functional or timed
// execution), and the check evaluated at the end.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <utility>

#include "arch/arch_config.hpp"
#include "exec/device_memory.hpp"
#include "exec/executor.hpp"
#include "kernel/ir.hpp"
#include "reference/references.hpp"
#include "util/bytes.hpp"
#include "workload/workload.hpp"

namespace gpusim::driver {

// The modules a workload's launches use: its kernel's, and one per other .cu a launch names
// (each its own module, as CUDA builds each file without -rdc; their variables do not overlap).
struct Modules {
  Modules(const kernel::Module& m) : main(&m) {}  // NOLINT: one module is the common case
  const kernel::Module* main;
  std::map<std::string, const kernel::Module*> by_source;
  const kernel::Module& of(const std::string& source) const {
    return source.empty() ? *main : *by_source.at(source);
  }
  std::vector<const kernel::Module*> all() const {
    std::vector<const kernel::Module*> out{main};
    for (const auto& [source, m] : by_source) out.push_back(m);
    return out;
  }
};

class WorkloadSession {
 public:
  using LaunchFn = std::function<void(const workload::Step&, const workload::LaunchStep&, const kernel::Program&,
                                      const exec::LaunchConfig&)>;
  using CopyFn = std::function<void(const workload::Step&, const workload::CopyStep&, uint64_t bytes)>;

  // With `arch`, every launch is checked against its limits (grid and block dimensions,
  // threads per block, shared memory), naming the workload's line. Each launch runs the
  // module's kernel it names. `threads` (--threads) fill the buffers, run the reference and
  // compare; the results are the same on any number.
  WorkloadSession(const workload::Workload& w, const Modules& modules, const arch::ArchConfig* arch = nullptr,
                  int threads = 1);

  void run(const LaunchFn& on_launch, const CopyFn& on_copy = {});
  std::optional<reference::CheckResult> check() const;

  exec::DeviceMemory& memory() { return memory_; }
  // The host copies of every buffer, moved out once the session is done with them (a copy
  // of the h100 vecadd's 48 MB was a tenth of its --functional run).
  reference::Buffers take_host() { return std::move(host_); }

 private:
  void check_limits(const workload::Step& step, const workload::LaunchStep& launch, const kernel::Program& program) const;
  void write_dump(const workload::DumpStep& dump);
  void copy_to_symbol(const workload::Step& step, const workload::CopyStep& copy, const util::Bytes& bytes);
  const kernel::Program& program_of(const workload::Step& step, const workload::LaunchStep& launch) const;
  void check_memory() const;
  util::Bytes reference_kernel_output() const;
  reference::Buffers initial() const;  // every buffer's initial contents, made again
  static uint64_t buffer_bytes(const workload::Buffer& b);

  const workload::Workload& w_;
  Modules modules_;
  const arch::ArchConfig* arch_;
  int threads_;
  exec::DeviceMemory memory_;
  reference::Buffers host_;
};

// The module's kernel `entry`, or util::InputError prefixed with `where` listing the kernels
// it has. (Whether gpusim can run it is the caller's question: Program::unsupported.)
const kernel::Program& find_kernel(const kernel::Module& module, const std::string& entry, const std::string& where);

// Builds the parameter buffer of one launch from the workload's arguments; throws
// util::InputError naming the workload line on a mismatch.
std::vector<uint8_t> pack_params(const kernel::Program& program, const workload::Workload& w,
                                 const workload::LaunchStep& launch, const exec::DeviceMemory& memory, int line);

}  // namespace gpusim::driver
