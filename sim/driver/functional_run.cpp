#include "driver/functional_run.hpp"

#include <chrono>

#include "driver/workload_session.hpp"

namespace gpusim::driver {

FunctionalRun run_functional(const workload::Workload& w, const Modules& modules, exec::RunLimits limits,
                             const arch::ArchConfig* arch, int threads) {
  FunctionalRun run;
  limits.start();
  WorkloadSession session(w, modules, arch, threads);
  session.run([&](const workload::Step&, const workload::LaunchStep& launch, const kernel::Program& program,
                  const exec::LaunchConfig& config) {
    const auto start = std::chrono::steady_clock::now();
    LaunchRecord record{program.name, launch.grid, launch.block, {}, {}, {}};
    exec::LaunchConfig with_printf = config;
    with_printf.printf_sink = &record.printf;
    if (limits.continue_out_of_bounds) with_printf.out_of_bounds = &record.out_of_bounds;
    record.stats = exec::run_functional(program, session.memory(), with_printf, limits, 0, threads);
    run.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.launches.push_back(std::move(record));
  });
  run.check = session.check();
  run.host = session.take_host();
  return run;
}

}  // namespace gpusim::driver
