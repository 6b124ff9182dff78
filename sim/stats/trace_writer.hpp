// Chrome/Perfetto trace of a timed run (loadable in ui.perfetto.dev or chrome://tracing):
// one process per SM, blocks as slices on its first track, warps on their own tracks
// when recorded. Launches follow each other on one time axis, in microseconds.
#pragma once

#include <string>

#include "arch/arch_config.hpp"
#include "driver/timing_run.hpp"

namespace gpusim::stats {

// Throws util::InputError when the file cannot be written.
void write_trace(const std::string& path, const arch::ArchConfig& arch, const driver::TimingRun& run);

}  // namespace gpusim::stats
