// `gpusim sweep STUDY.yaml`: runs a study's points in parallel worker processes into a
// results database (SQLite), resuming where an earlier run stopped; `--slurm` runs them
// as a Slurm job array instead. `gpusim run --set KEY=300:800:100` is a one-file study.
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "cli/app.hpp"
#include "stats/json_output.hpp"
#include "study/metric_columns.hpp"
#include "study/points.hpp"
#include "study/results_report.hpp"
#include "study/runner.hpp"
#include "study/slurm.hpp"
#include "study/value_spec.hpp"
#include "util/cpu_count.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::cli {
namespace {

namespace po = boost::program_options;
using study::Plan;
using study::Point;

int default_jobs() { return static_cast<int>(util::usable_cpus()); }

int parse_jobs(const std::string& text) {
  size_t used = 0;
  int n = 0;
  try {
    n = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || n < 1 || n > 4096) throw util::InputError("-j '" + util::clipped(text) + "': expected 1 to 4096 workers");
  return n;
}

size_t parse_size(const std::string& option, const std::string& text, size_t min) {
  size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text[0] == '-' || n < min)
    throw util::InputError(option + " '" + util::clipped(text) + "': expected a whole number of " + std::to_string(min) + " or more");
  return n;
}

std::vector<std::string> run_args(const study::Study& s, const Point& p) {
  const study::WorkloadRef& w = s.workloads[p.workload];
  std::vector<std::string> args = {"--arch", s.resolve(s.archs[p.arch]), "--workload", s.resolve(w.file)};
  if (!w.size.empty()) args.insert(args.end(), {"--size", w.size});
  for (const auto& set : study::arch_sets(s, p)) args.insert(args.end(), {"--set", set});
  for (const auto& set : study::workload_sets(s, p)) args.insert(args.end(), {"--set", set});
  return args;
}

// Every point checked before anything runs (and before the database is made).
std::vector<study::PointRecord> check_all(const study::Study& s, const Plan& plan, const std::vector<const Point*>& points) {
  std::vector<study::PointRecord> out;
  for (const Point* p : points) out.push_back(study::check_point(s, plan, *p));
  return out;
}

// The points to run: those without a result (and, with rerun_failed, the failed ones).
struct Selection {
  std::vector<study::Job> jobs;
  size_t done = 0, failed_before = 0;
};

Selection select(const study::Study& s, const std::vector<const Point*>& points,
                 std::vector<study::PointRecord> records, const study::ResultsDb& db, bool rerun_failed) {
  Selection sel;
  const std::set<std::string> done = db.keys(true), failed = db.keys(false);
  for (size_t i = 0; i < points.size(); ++i) {
    const Point* p = points[i];
    if (done.count(p->key)) {
      ++sel.done;
      continue;
    }
    if (failed.count(p->key)) {
      ++sel.failed_before;
      if (!rerun_failed) continue;
    }
    sel.jobs.push_back({std::move(records[i]), run_args(s, *p)});
  }
  return sel;
}

// The chunk of a Slurm task: lines [chunk * size, (chunk + 1) * size) of the point list.
std::vector<const Point*> chunk_of(const Plan& plan, const std::string& file, size_t chunk, size_t size) {
  std::ifstream in(file);
  if (!in) throw util::InputError("--points-file '" + file + "': cannot read it");
  std::map<std::string, const Point*> by_key;
  for (const Point& p : plan.points) by_key[p.key] = &p;
  std::vector<const Point*> out;
  std::string line;
  for (size_t i = 0; std::getline(in, line); ++i) {
    if (i < chunk * size || i >= (chunk + 1) * size) continue;
    const auto it = by_key.find(line);
    if (it == by_key.end())
      throw util::InputError("--points-file '" + file + "' line " + std::to_string(i + 1) +
                             ": not a point of this study (was the study file changed since it was submitted?)");
    out.push_back(it->second);
  }
  return out;
}

void describe(const study::Study& s, size_t points, const Selection& sel, bool rerun_failed, int jobs, bool dry_run,
              std::ostream& err) {
  err << "sweep " << s.name << ": " << points << " points (" << study::design_name(s.design) << ", "
      << s.factors.size() << " factors, " << s.archs.size() * s.workloads.size() << " architecture x workload contexts)";
  if (sel.done) err << "; " << sel.done << " already in the database";
  if (sel.failed_before)
    err << "; " << sel.failed_before << " failed before" << (rerun_failed ? " (running them again)" : " (--resume runs them again)");
  if (dry_run) err << "; " << sel.jobs.size() << " to run (listed below)\n";
  else err << "; running " << sel.jobs.size() << " with " << jobs << " workers\n";
}

}  // namespace

int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description opts("gpusim sweep options");
  std::string study_file, db_path, jobs_text, timeout_text, points_file, chunk_text, chunk_size_text;
  std::string tasks_text, per_task_text, cpus_text = "1", slurm_time;
  std::vector<std::string> sbatch_args;
  opts.add_options()
      ("help,h", "show this help")
      ("study", po::value(&study_file)->required(), "the study file (YAML; see docs/sweeps.md)")
      ("db", po::value(&db_path), "results database (SQLite; default: the study's name + .db in this folder)")
      ("jobs,j", po::value(&jobs_text), "points run at once, each in its own process (default: the CPUs it may run on)")
      ("resume", "also run again the points that failed before (missing points always run)")
      ("dry-run", "check every point and list them, without running any")
      ("point-timeout", po::value(&timeout_text), "seconds one point may run before it is recorded as failed")
      ("no-progress", "no progress line")
      ("slurm", "run the points as a Slurm job array and collect them into the database")
      ("tasks", po::value(&tasks_text), "--slurm: array tasks (default: one per 25 points)")
      ("points-per-task", po::value(&per_task_text), "--slurm: points per array task (instead of --tasks)")
      ("cpus-per-task", po::value(&cpus_text), "--slurm: CPUs (and workers) per task (default 1)")
      ("time", po::value(&slurm_time), "--slurm: time limit per task, as sbatch --time takes it")
      ("sbatch-arg", po::value(&sbatch_args)->composing(), "--slurm: an argument for sbatch (e.g. --partition=cpu); repeatable")
      ("wait", "--slurm: wait for the array to finish, then collect here (no collect job)")
      ("collect", "merge the results of finished Slurm tasks into the database")
      ("points-file", po::value(&points_file), "run only the points listed (a Slurm task's list)")
      ("chunk", po::value(&chunk_text), "with --points-file: the chunk to run (a task's index)")
      ("chunk-size", po::value(&chunk_size_text), "with --points-file: points per chunk");
  po::positional_options_description pos;
  pos.add("study", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
  if (vm.count("help")) {
    out << "usage: gpusim sweep STUDY.yaml [--db FILE] [-j N] [--resume] [--dry-run] [--slurm [--wait] ...]\n" << opts;
    return 0;
  }
  po::notify(vm);
  const int jobs = vm.count("jobs") ? parse_jobs(jobs_text) : default_jobs();
  const study::Study s = study::load_study(study_file);
  if (db_path.empty()) db_path = s.name + ".db";
  if (vm.count("collect")) {
    study::ResultsDb db(db_path);
    study::collect_slurm(db, err);
    study::write_summary(db, s.name, study::study_metrics(db, s.name), out);
    return 0;
  }

  const Plan plan = study::make_plan(s);
  std::vector<const Point*> points;
  const bool task = vm.count("points-file") > 0;
  if (task) {
    if (!vm.count("chunk") || !vm.count("chunk-size")) throw util::InputError("--points-file needs --chunk and --chunk-size");
    points = chunk_of(plan, points_file, parse_size("--chunk", chunk_text, 0), parse_size("--chunk-size", chunk_size_text, 1));
  } else {
    for (const Point& p : plan.points) points.push_back(&p);
  }
  const bool rerun_failed = vm.count("resume") > 0;
  std::vector<study::PointRecord> records = check_all(s, plan, points);  // a bad study leaves no file behind
  study::ResultsDb db(db_path);
  Selection sel = select(s, points, std::move(records), db, rerun_failed || task);
  db.set_meta("metrics:" + s.name, nlohmann::json(s.metrics).dump());
  if (!task) describe(s, points.size(), sel, rerun_failed, jobs, vm.count("dry-run") > 0, err);

  if (vm.count("dry-run")) {
    for (const auto& j : sel.jobs) out << j.record.key << '\n';
    return 0;
  }
  if (vm.count("slurm")) {
    if (sel.jobs.empty()) {
      err << "sweep: nothing to submit\n";
      return 0;
    }
    study::SlurmOptions o;
    if (vm.count("tasks")) o.tasks = parse_size("--tasks", tasks_text, 1);
    if (vm.count("points-per-task")) o.points_per_task = parse_size("--points-per-task", per_task_text, 1);
    o.cpus_per_task = static_cast<int>(parse_size("--cpus-per-task", cpus_text, 1));
    o.time_limit = slurm_time;
    o.sbatch_args = sbatch_args;
    o.wait = vm.count("wait") > 0;
    std::vector<std::string> keys;
    for (const auto& j : sel.jobs) keys.push_back(j.record.key);
    const study::SlurmSubmission sub = study::submit_slurm(study_file, db_path, keys, o, err);
    if (!o.wait) {
      err << "sweep: array job " << sub.array_job << "; job " << sub.collect_job << " collects the results into "
          << db_path << " when it ends (logs in " << sub.folder << ")\n";
      return 0;
    }
    study::collect_slurm(db, err);
  } else {
    study::RunnerOptions o;
    o.jobs = jobs;
    o.program = study::self_program();
    o.progress = !vm.count("no-progress");
    if (vm.count("point-timeout")) {
      double t = 0;
      if (!study::as_number(timeout_text, t) || t <= 0)
        throw util::InputError("--point-timeout '" + util::clipped(timeout_text) + "': expected seconds, more than 0");
      o.point_timeout = t;
    }
    const study::RunnerSummary r = study::run_jobs(std::move(sel.jobs), db, o, err);
    if (task) return r.failed ? 4 : 0;
  }
  study::write_summary(db, s.name, study::study_metrics(db, s.name), out);
  size_t missing = 0, failed = 0;
  const std::set<std::string> ok = db.keys(true), bad = db.keys(false);
  for (const Point& p : plan.points) {
    missing += !ok.count(p.key);
    failed += bad.count(p.key);
  }
  if (missing) {
    err << "sweep: " << missing << " of " << plan.points.size() << " points have no result"
        << (failed ? " (" + std::to_string(failed) + " failed; --resume runs them again)" : "") << "\n";
    return 4;
  }
  return 0;
}

}  // namespace gpusim::cli

namespace gpusim::cli {

int quick_sweep(const QuickSweep& q, std::ostream& out, std::ostream& err) {
  study::Study s;
  s.file = "--set";
  s.name = "run";
  s.archs = {q.arch_file};
  s.workloads = {{q.workload_file, q.size, {}}};
  for (const std::string& set : q.sets) {
    const auto eq = set.find('=');
    if (eq == std::string::npos || eq == 0) throw util::InputError("--set '" + util::clipped(set) + "': expected NAME=VALUE");
    const std::string path = set.substr(0, eq), value = set.substr(eq + 1);
    const bool arch = path.find('.') != std::string::npos;
    if (!study::is_multi_value(value)) {
      (arch ? s.sets : s.workloads[0].sets).push_back(set);
      continue;
    }
    study::Factor f;
    f.name = path;
    f.params.push_back({path, study::expand_values("--set '" + util::clipped(set) + "'", value)});
    for (const study::Factor& other : s.factors)
      if (other.name == path) throw util::InputError("--set: '" + path + "' is given several values twice");
    s.factors.push_back(std::move(f));
  }
  const Plan plan = study::make_plan(s);
  std::vector<const Point*> points;
  for (const Point& p : plan.points) points.push_back(&p);
  std::vector<study::PointRecord> records = check_all(s, plan, points);
  study::ResultsDb db(":memory:");
  Selection sel = select(s, points, std::move(records), db, true);
  for (study::Job& j : sel.jobs) j.run_args.insert(j.run_args.end(), q.passthrough.begin(), q.passthrough.end());
  study::RunnerOptions o;
  o.jobs = default_jobs();
  o.program = study::self_program();
  err << "gpusim run: " << sel.jobs.size() << " points (" << s.factors.size() << " parameters with several values), "
      << o.jobs << " at a time\n";
  const study::RunnerSummary r = study::run_jobs(std::move(sel.jobs), db, o, err);
  if (q.format == "csv") {
    study::write_rows(db, "", false, out);
  } else if (q.format == "json") {
    stats::write_json(out, study::analysis_json(db, "", {"cycles", "ipc", "l2_hit_rate", "dram_bandwidth_gbs"}));
  } else {
    // One line per point: its values, then the launches' totals.
    study::Statement p(db.handle(),
                       "SELECT p.id, p.status, p.error, " + study::point_metric_sql("cycles") + ", " +
                           study::point_metric_sql("time_us") + ", " + study::point_metric_sql("ipc") + ", " +
                           study::point_metric_sql("l2_hit_rate") + ", " + study::point_metric_sql("dram_bandwidth_gbs") +
                           " FROM points p LEFT JOIN launches l ON l.point_id = p.id WHERE p.key = ? GROUP BY p.id");
    std::map<int64_t, std::vector<std::string>> values;
    {
      study::Statement f(db.handle(), "SELECT point_id, value FROM factors ORDER BY point_id, ordinal");
      while (f.step()) values[f.integer(0)].push_back(f.text(1));
    }
    const auto cell = [&](const std::string& text, size_t width) {
      out << text << std::string(text.size() < width ? width - text.size() : 1, ' ');
    };
    for (const study::Factor& f : s.factors) cell(f.name, std::max<size_t>(f.name.size() + 2, 10));
    out << "cycles        time_us     IPC     L2 hit   DRAM GB/s\n";
    for (const Point& point : plan.points) {  // in the order of the values given
      p.reset();
      p.bind(1, point.key);
      if (!p.step()) continue;
      for (size_t i = 0; i < s.factors.size(); ++i)
        cell(values[p.integer(0)][i], std::max<size_t>(s.factors[i].name.size() + 2, 10));
      if (p.text(1) != "ok") {
        out << "FAILED: " << p.text(2) << '\n';
        continue;
      }
      char line[160];
      std::snprintf(line, sizeof line, "%-13lld %-11.2f %-7.3f %-8s %.1f", static_cast<long long>(p.integer(3)), p.real(4),
                    p.real(5), (std::to_string(static_cast<int>(p.real(6) * 100 + 0.5)) + "%").c_str(), p.real(7));
      out << line << '\n';
    }
  }
  return r.failed ? 4 : 0;
}

}  // namespace gpusim::cli
