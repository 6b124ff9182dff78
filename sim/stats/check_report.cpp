#include "stats/check_report.hpp"

#include <cstdio>

namespace gpusim::stats {

nlohmann::ordered_json check_json(const workload::Check& spec, const reference::CheckResult& check) {
  char crc[11];
  std::snprintf(crc, sizeof crc, "%08x", check.output.crc32);
  nlohmann::ordered_json j = {{"buffer", spec.buffer}, {"tolerance", spec.tolerance}, {"passed", check.passed},
                              {"detail", check.detail}};
  j["output"] = {{"crc32", crc}, {"sample_indices", check.output.sample_indices}, {"samples", check.output.samples}};
  return j;
}

}  // namespace gpusim::stats
