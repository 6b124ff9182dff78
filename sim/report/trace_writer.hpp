// Chrome/Perfetto trace of a timed run (Trace Event Format; loadable in ui.perfetto.dev or
// chrome://tracing), on one time axis in microseconds:
// - "GPU counters": counter tracks over time (IPC, active warps, DRAM bandwidth, L2 hit rate);
// - "Streams": one track per stream with its kernels and copies;
// - "Copy engines": one track per copy engine (or the GPU, where copies share it);
// - one process per SM: a track per resident-block slot, and with --trace-warps a named
//   track per warp slot.
// Slices on one track never overlap, so viewers draw them without false nesting.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "arch/arch_config.hpp"
#include "driver/timing_run.hpp"

namespace gpusim::report {

nlohmann::ordered_json trace_json(const arch::ArchConfig& arch, const driver::TimingRun& run);
// Throws util::InputError when the file cannot be written.
void write_trace(const std::string& path, const arch::ArchConfig& arch, const driver::TimingRun& run);

}  // namespace gpusim::report
