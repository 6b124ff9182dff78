#include "stats/check_report.hpp"

#include <cstdio>

namespace gpusim::stats {

void write_check_json(JsonWriter& j, const workload::Check& spec, const reference::CheckResult& check) {
  char crc[11];
  std::snprintf(crc, sizeof crc, "%08x", check.output.crc32);
  j.key("check").begin_object().field("buffer", spec.buffer).field("tolerance", spec.tolerance);
  j.field("passed", check.passed).field("detail", check.detail);
  j.key("output").begin_object().field("crc32", crc);
  j.key("sample_indices").begin_array();
  for (int64_t i : check.output.sample_indices) j.value(i);
  j.end_array().key("samples").begin_array();
  for (double v : check.output.samples) j.exact(v);
  j.end_array().end_object().end_object();
}

}  // namespace gpusim::stats
