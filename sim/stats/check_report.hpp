// The workload check in JSON: passed/detail and the output digest, the same object
// for functional and timed runs.
#pragma once

#include <nlohmann/json.hpp>

#include "reference/references.hpp"
#include "workload/workload.hpp"

namespace gpusim::stats {

nlohmann::ordered_json check_json(const workload::Check& spec, const reference::CheckResult& check);

}  // namespace gpusim::stats
