// Finds the PTX for a workload's kernel and its register count. A .cu is compiled with
// the CUDA toolkit's nvcc into a cache keyed by content, toolkit and target: the
// architecture's own compute_NN, or compute_75 (the oldest CUDA 13 supports) for older
// ones; without nvcc the checked-in .ptx (compute_75) beside the source is used. Registers per thread come from ptxas for the supported target
// nearest the architecture, or from the checked-in .regs table without ptxas.
#pragma once

#include <optional>
#include <string>

#include "arch/arch_config.hpp"
#include "kernel/ir.hpp"

namespace gpusim::frontend {

constexpr int kPtxTarget = 75;  // sm_75: the oldest target CUDA 13 supports

struct LoadedKernel {
  kernel::Module module;
  const kernel::Program* program = nullptr;
  std::string ptx_path;
  std::string ptx_origin;  // "nvcc (cached)", "nvcc", "checked-in", "given"
  std::optional<int> registers;
  std::string registers_origin;  // "ptxas sm_90", "checked-in sm_90", ...
  std::string source;            // the .cu, when compiled from one
  int sm = 0;                    // the SASS target registers are counted for
};

// Registers per thread of another kernel of the same module (a workload that launches
// several), from ptxas or the checked-in table; `origin` says which.
std::optional<int> registers_for(const LoadedKernel& k, const std::string& entry, std::string* origin = nullptr);

// The SASS target ptxas uses for an architecture: its own when supported, else the
// nearest supported one (sm_75 for anything older).
int ptxas_target(const arch::ComputeCapability& cc);

// `source` (.cu) or `ptx` as in the workload; throws util::InputError when neither the
// toolkit nor a checked-in file can provide the PTX, the entry is missing, or the toolkit
// cannot compile for the architecture (`cc_where` names where the capability was set).
// `variable_base` places the module's __device__/__constant__ variables (parse_ptx).
LoadedKernel load_kernel(const std::string& source, const std::string& ptx, const std::string& entry,
                         const arch::ComputeCapability& cc, const std::string& cc_where = "",
                         uint64_t variable_base = kernel::kModuleGlobalBase);

}  // namespace gpusim::frontend
