#include "driver/workload_kernels.hpp"

#include <algorithm>
#include <variant>

namespace gpusim::driver {

Modules WorkloadKernels::modules() const {
  Modules m(main.module);
  for (const auto& [source, k] : others) m.by_source[source] = &k.module;
  return m;
}

std::optional<int> WorkloadKernels::registers_for(const std::string& entry) const {
  if (main.module.find(entry)) return frontend::registers_for(main, entry);
  for (const auto& [source, k] : others)
    if (k.module.find(entry)) return frontend::registers_for(k, entry);
  return std::nullopt;
}

WorkloadKernels load_workload_kernels(const workload::Workload& w, const arch::ComputeCapability& cc,
                                      const std::string& cc_where) {
  WorkloadKernels k{frontend::load_kernel(w.kernel.source, w.kernel.ptx, w.kernel.entry, cc, cc_where), {}};
  // Each further module's variables start past the previous module's, on a 256-byte boundary.
  const auto end_of = [](const kernel::Module& m) {
    uint64_t end = kernel::kModuleGlobalBase;
    for (const kernel::ModuleVariable& v : m.variables) end = std::max(end, v.address + v.size);
    return (end + 255) / 256 * 256;
  };
  uint64_t next = end_of(k.main.module);
  for (const workload::Step& step : w.steps) {
    const auto* launch = std::get_if<workload::LaunchStep>(&step.action);
    if (!launch || launch->source.empty() || k.others.contains(launch->source)) continue;
    frontend::LoadedKernel other = frontend::load_kernel(launch->source, "", launch->entry, cc, cc_where, next);
    next = end_of(other.module);
    k.others.emplace(launch->source, std::move(other));
  }
  return k;
}

}  // namespace gpusim::driver
