// Every kernel module a workload needs, compiled (or read) for one architecture: the
// workload's kernel's, and one per other .cu its launches name, their __device__ and
// __constant__ variables placed one module after another.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "driver/workload_session.hpp"
#include "frontend/kernel_loader.hpp"
#include "workload/workload.hpp"

namespace gpusim::driver {

struct WorkloadKernels {
  frontend::LoadedKernel main;
  std::map<std::string, frontend::LoadedKernel> others;  // by source path

  Modules modules() const;
  // Registers per thread of a kernel, from ptxas or the checked-in table: the workload's
  // kernel's module first, then the others.
  std::optional<int> registers_for(const std::string& entry) const;
};

WorkloadKernels load_workload_kernels(const workload::Workload& w, const arch::ComputeCapability& cc,
                                      const std::string& cc_where = "");

}  // namespace gpusim::driver
