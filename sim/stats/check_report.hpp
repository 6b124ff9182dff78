// The workload check in JSON: passed/detail and the output digest, the same object
// for functional and timed runs.
#pragma once

#include "reference/references.hpp"
#include "stats/json_writer.hpp"
#include "workload/workload.hpp"

namespace gpusim::stats {

void write_check_json(JsonWriter& j, const workload::Check& spec, const reference::CheckResult& check);

}  // namespace gpusim::stats
