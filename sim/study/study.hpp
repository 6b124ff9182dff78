// A study file (YAML): which architectures and workloads, which parameters to vary and
// how (the design), read and checked against the parameter declarations before anything
// runs. See docs/sweeps.md for the format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpusim::study {

enum class Design { Grid, OneAtATime, LatinHypercube };

// One parameter a factor sets: an architecture parameter ("memory.dram.latency", dotted)
// or a workload parameter ("blocks").
struct FactorParam {
  std::string path;
  std::vector<std::string> values;  // one per level of the factor
  bool is_arch() const { return path.find('.') != std::string::npos; }
};

// A factor: one parameter, or several linked ones that move together (level i sets each
// parameter to its i-th value).
struct Factor {
  std::string name;  // the parameter's path, or the linked parameters joined with '+'
  std::vector<FactorParam> params;
  std::optional<std::string> baseline;  // a value of the first parameter, as written
  int line = 0;                         // in the study file, for messages
  size_t levels() const { return params.front().values.size(); }
  const std::string& level_text(size_t level) const { return params.front().values[level]; }
};

struct WorkloadRef {
  std::string file;  // as written in the study file (relative to it)
  std::string size;
  std::vector<std::string> sets;  // NAME=VALUE workload parameters fixed for every point
};

struct Study {
  std::string file;  // the study file itself
  std::string dir;   // its folder: relative paths in it are taken from there
  std::string name;
  std::string description;
  std::vector<std::string> archs;  // as written
  std::vector<WorkloadRef> workloads;
  std::vector<std::string> sets;   // SECTION.KEY=VALUE architecture values fixed for every point
  std::vector<Factor> factors;
  Design design = Design::Grid;
  int64_t samples = 0;  // Latin hypercube points per architecture and workload
  uint64_t seed = 1;
  std::vector<std::string> metrics;  // what `results` analyses first

  // A path from the study file, made usable from the current directory.
  std::string resolve(const std::string& path) const;
};

// Reads and checks a study file (every error names the file, line and key). Nothing in
// it is run; the points are checked by make_points.
Study load_study(const std::string& path);
// The same from text, `path` naming it in messages and anchoring relative paths.
Study load_study_text(const std::string& text, const std::string& path);

const char* design_name(Design d);

}  // namespace gpusim::study
