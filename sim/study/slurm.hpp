// Scale-out on Slurm: the points still to run are written to a list, and one job array
// runs them in chunks, each task `gpusim sweep` on its chunk into its own results file
// (SQLite files are not shared between writers on network file systems); a collect step
// merges the task files into the study's database when the array ends: a dependent job,
// or this process with --wait.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "study/results_db.hpp"

namespace gpusim::study {

struct SlurmOptions {
  size_t points_per_task = 0;  // 0: from `tasks`
  size_t tasks = 0;            // 0: one task per 25 points
  int cpus_per_task = 1;
  std::string time_limit;               // --time per task, e.g. 00:30:00; empty: the partition's
  std::vector<std::string> sbatch_args;  // passed to sbatch as they are (--partition=..., --mem=...)
  bool wait = false;                     // wait for the array, then collect here
};

struct SlurmSubmission {
  std::string array_job;
  std::string collect_job;  // empty with wait
  size_t tasks = 0;
  size_t points_per_task = 0;
  std::string folder;
};

// Submits the points named by `keys` (in plan order). Throws util::InputError when sbatch
// is missing or refuses the job.
SlurmSubmission submit_slurm(const std::string& study_file, const std::string& db_path,
                             const std::vector<std::string>& keys, const SlurmOptions& options, std::ostream& log);

// The folder beside the database where job scripts, point lists, logs and task results go.
std::string slurm_folder(const std::string& db_path);

// Merges every task result file in the Slurm folder into `db`, removing each once merged;
// returns the number of points merged.
size_t collect_slurm(ResultsDb& db, std::ostream& log);

// A word for a POSIX shell, quoted.
std::string shell_quote(const std::string& word);

}  // namespace gpusim::study
