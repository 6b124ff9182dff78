// Runs points in worker processes: each point is `gpusim run ... --format json` in its
// own process (a crash or a hang in one point is that point's failure, not the study's),
// up to `jobs` at a time. Every finished point is committed to the results database at
// once, so an interrupted study loses only the points that were running.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "study/results_db.hpp"

namespace gpusim::study {

struct Job {
  PointRecord record;                // identity and factors; results are filled in
  std::vector<std::string> run_args;  // gpusim run's arguments (without the program)
};

struct RunnerOptions {
  int jobs = 1;
  double point_timeout = 0;  // seconds per point (gpusim run --timeout); 0: none
  std::string program;       // the gpusim executable the workers run
  bool progress = true;      // a progress line on `log`
};

struct RunnerSummary {
  size_t ok = 0;
  size_t failed = 0;
  double seconds = 0;
};

RunnerSummary run_jobs(std::vector<Job> jobs, ResultsDb& db, const RunnerOptions& options, std::ostream& log);

// The running gpusim executable (/proc/self/exe), for workers.
std::string self_program();

// "1m18s", "42s", "2h03m"
std::string duration_text(double seconds);

}  // namespace gpusim::study
