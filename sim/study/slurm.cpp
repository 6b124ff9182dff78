#include "study/slurm.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "study/runner.hpp"
#include "util/process.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::study {
namespace fs = std::filesystem;
namespace {

constexpr size_t kDefaultPointsPerTask = 25;

std::string sbatch(const std::vector<std::string>& args) {
  std::string out;
  std::vector<std::string> argv = {"sbatch", "--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  const int rc = util::run_process(argv, out);
  if (rc == 127)
    throw util::InputError("--slurm: sbatch not found (a Slurm client and a cluster are needed; "
                           "scripts/slurm-local.sh starts a one-node cluster on this machine)");
  if (rc != 0) throw util::InputError("--slurm: sbatch refused the job: " + util::one_line(out, 400));
  // --parsable prints "JOBID" or "JOBID;CLUSTER" on the last line, after any warnings.
  std::string id;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) id = line;
  id = id.substr(0, id.find(';'));
  if (id.empty() || !std::all_of(id.begin(), id.end(), ::isdigit))
    throw util::InputError("--slurm: sbatch printed no job id: " + util::one_line(out, 200));
  return id;
}

}  // namespace

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string slurm_folder(const std::string& db_path) { return db_path + ".slurm"; }

SlurmSubmission submit_slurm(const std::string& study_file, const std::string& db_path,
                             const std::vector<std::string>& keys, const SlurmOptions& o, std::ostream& log) {
  SlurmSubmission sub;
  sub.folder = fs::absolute(slurm_folder(db_path)).lexically_normal().string();
  fs::create_directories(sub.folder);
  if (o.points_per_task) sub.points_per_task = o.points_per_task;
  else if (o.tasks) sub.points_per_task = (keys.size() + o.tasks - 1) / o.tasks;
  else sub.points_per_task = kDefaultPointsPerTask;
  sub.tasks = (keys.size() + sub.points_per_task - 1) / sub.points_per_task;

  // A new list per submission, so a resubmission never changes what running tasks read.
  size_t n = 0;
  while (fs::exists(sub.folder + "/points-" + std::to_string(n) + ".txt")) ++n;
  const std::string list = sub.folder + "/points-" + std::to_string(n) + ".txt";
  {
    std::ofstream out(list);
    for (const std::string& k : keys) out << k << '\n';
    if (!out) throw util::InputError(list + ": cannot write the point list");
  }
  const std::string program = self_program();
  const std::string study = fs::absolute(study_file).lexically_normal().string();
  const std::string script = sub.folder + "/job-" + std::to_string(n) + ".sh";
  {
    std::ofstream out(script);
    out << "#!/bin/sh\n"
        << "#SBATCH --job-name=gpusim-sweep\n"
        << "#SBATCH --array=0-" << sub.tasks - 1 << "\n"
        << "#SBATCH --cpus-per-task=" << o.cpus_per_task << "\n"
        << "#SBATCH --output=" << sub.folder << "/task-%A-%a.log\n";
    if (!o.time_limit.empty()) out << "#SBATCH --time=" << o.time_limit << "\n";
    out << "# Each task runs its chunk of the point list into its own results file; the\n"
        << "# collect step merges them into " << db_path << ".\n"
        << "exec " << shell_quote(program) << " sweep " << shell_quote(study) << " --db " << shell_quote(sub.folder)
        << "/task-\"$SLURM_ARRAY_JOB_ID-$SLURM_ARRAY_TASK_ID\".db --points-file " << shell_quote(list)
        << " --chunk \"$SLURM_ARRAY_TASK_ID\" --chunk-size " << sub.points_per_task
        << " -j \"${SLURM_CPUS_PER_TASK:-1}\" --no-progress\n";
    if (!out) throw util::InputError(script + ": cannot write the job script");
  }
  std::vector<std::string> args = o.sbatch_args;
  if (o.wait) args.push_back("--wait");
  args.push_back(script);
  log << "sweep: submitting " << keys.size() << " points as a Slurm array of " << sub.tasks << " tasks ("
      << sub.points_per_task << " points and " << o.cpus_per_task << " CPUs per task): " << script << "\n";
  sub.array_job = sbatch(args);
  if (!o.wait) {
    const std::string collect = shell_quote(program) + " sweep " + shell_quote(study) + " --db " +
                                shell_quote(fs::absolute(db_path).string()) + " --collect";
    std::vector<std::string> cargs = o.sbatch_args;
    cargs.insert(cargs.end(), {"--job-name=gpusim-collect", "--dependency=afterany:" + sub.array_job,
                               "--output=" + sub.folder + "/collect-%j.log", "--wrap=" + collect});
    sub.collect_job = sbatch(cargs);
  }
  return sub;
}

size_t collect_slurm(ResultsDb& db, std::ostream& log) {
  const std::string folder = slurm_folder(db.path());
  if (!fs::is_directory(folder)) {
    log << "sweep: nothing to collect (no " << folder << ")\n";
    return 0;
  }
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(folder)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("task-", 0) == 0 && e.path().extension() == ".db") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  size_t merged = 0;
  for (const std::string& f : files) {
    merged += db.merge(f);
    fs::remove(f);
  }
  log << "sweep: collected " << merged << " points from " << files.size() << " task files into " << db.path() << "\n";
  return merged;
}

}  // namespace gpusim::study
