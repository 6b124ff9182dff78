// `gpusim metrics`: the reference of every metric a timed run reports (Markdown): launch
// metrics with their Nsight Compute names, warp states with the model cause behind each,
// and the source view's per-line fields. docs/metrics.md is this output.
#pragma once

#include <ostream>

namespace gpusim::report {

void write_metrics_reference(std::ostream& out);

}  // namespace gpusim::report
