#include "study/runner.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "util/params.hpp"
#include "util/process.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::study {
namespace {

using Clock = std::chrono::steady_clock;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Running {
  size_t job = 0;
  std::string out_file, err_file;
  Clock::time_point start;
  bool killed = false;  // past its time: the runner ended it
};

// The last line a failed run printed that says what went wrong.
std::string failure_text(const std::string& err, int status) {
  std::string text = util::one_line(err, 400);
  if (WIFSIGNALED(status)) {
    const std::string sig = "killed by signal " + std::to_string(WTERMSIG(status));
    return text.empty() ? sig : text + " (" + sig + ")";
  }
  return text.empty() ? "gpusim run exited with status " + std::to_string(WEXITSTATUS(status)) : text;
}

class Progress {
 public:
  Progress(size_t total, bool enabled, std::ostream& log)
      : total_(total), enabled_(enabled), log_(log), tty_(isatty(STDERR_FILENO) != 0), start_(Clock::now()) {}

  void update(size_t done, size_t failed, bool last) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    // Not a terminal (a log file, CI): a line every 10% or 30 s, not one per point.
    if (!tty_ && !last && done * 10 / total_ == printed_tenth_ && elapsed - printed_at_ < 30) return;
    printed_tenth_ = done * 10 / total_;
    printed_at_ = elapsed;
    const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * done / total_);
    std::ostringstream line;
    line << "sweep [" << std::string(static_cast<size_t>(filled), '#') << std::string(static_cast<size_t>(kWidth - filled), '.')
         << "] " << done << "/" << total_ << " points";
    if (failed) line << ", " << failed << " failed";
    char r[32];
    std::snprintf(r, sizeof r, "%.2f", rate);
    line << ", " << r << " points/s";
    if (!last && rate > 0) line << ", ETA " << duration_text(static_cast<double>(total_ - done) / rate);
    if (last) line << ", " << duration_text(elapsed);
    log_ << (tty_ ? "\r" : "") << line.str() << (tty_ && !last ? "\x1b[K" : "\n") << std::flush;
  }

 private:
  size_t total_;
  bool enabled_;
  std::ostream& log_;
  bool tty_;
  Clock::time_point start_;
  size_t printed_tenth_ = 0;
  double printed_at_ = 0;
};

}  // namespace

std::string duration_text(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%llds", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%lldm%02llds", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%lldh%02lldm", s / 3600, s % 3600 / 60);
  return buf;
}

std::string self_program() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw util::InputError("cannot find the gpusim executable (/proc/self/exe): " + ec.message());
  return p.string();
}

RunnerSummary run_jobs(std::vector<Job> jobs, ResultsDb& db, const RunnerOptions& options, std::ostream& log) {
  RunnerSummary summary;
  if (jobs.empty()) return summary;
  // Each worker's report and complaints go to files here until the point is recorded.
  std::string scratch = (std::filesystem::temp_directory_path() / "gpusim-sweep-XXXXXX").string();
  if (!mkdtemp(scratch.data()))
    throw util::InputError("cannot make a scratch folder (" + scratch + "): " + std::strerror(errno));
  const auto started = Clock::now();
  Progress progress(jobs.size(), options.progress, log);
  std::map<pid_t, Running> running;
  size_t next = 0, done = 0;

  const auto start_one = [&] {
    const size_t j = next++;
    Running r{j, scratch + "/" + std::to_string(j) + ".json", scratch + "/" + std::to_string(j) + ".err", Clock::now()};
    std::vector<std::string> args = {options.program, "run"};
    args.insert(args.end(), jobs[j].run_args.begin(), jobs[j].run_args.end());
    args.insert(args.end(), {"--format", "json"});
    if (options.point_timeout > 0) args.insert(args.end(), {"--timeout", params::format_number(options.point_timeout)});
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw util::InputError(std::string("cannot start a worker: ") + std::strerror(errno));
    if (pid == 0) {
      const int out = open(r.out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      const int err = open(r.err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (out < 0 || err < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0) _exit(126);
      execv(argv[0], argv.data());
      _exit(127);
    }
    running.emplace(pid, std::move(r));
  };

  try {
    while (done < jobs.size()) {
      while (next < jobs.size() && static_cast<int>(running.size()) < options.jobs) start_one();
      int status = 0;
      pid_t pid = 0;
      if (options.point_timeout > 0) {
        // gpusim run's --timeout ends a long simulation with its own message; a point stuck
        // anywhere else is killed once half as long again (and 2 s) has passed.
        const auto limit = std::chrono::duration<double>(options.point_timeout * 1.5 + 2);
        while ((pid = waitpid(-1, &status, WNOHANG)) == 0) {
          for (auto& [p, r] : running)
            if (!r.killed && Clock::now() - r.start > limit) {
              kill(p, SIGKILL);
              r.killed = true;
            }
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
      } else {
        pid = waitpid(-1, &status, 0);
      }
      if (pid < 0) {
        if (errno == EINTR) continue;
        throw util::InputError(std::string("waiting for workers: ") + std::strerror(errno));
      }
      const auto it = running.find(pid);
      if (it == running.end()) continue;
      const Running r = it->second;
      running.erase(it);
      Job& job = jobs[r.job];
      PointRecord& rec = job.record;
      rec.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
      rec.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      const std::string out = read_file(r.out_file), err = read_file(r.err_file);
      std::filesystem::remove(r.out_file);
      std::filesystem::remove(r.err_file);
      if (!out.empty()) rec.report = nlohmann::json::parse(out, nullptr, false);
      if (rec.report.is_discarded()) rec.report = nullptr;
      rec.ok = rec.exit_code == 0 && rec.report.is_object();
      if (r.killed) {
        rec.ok = false;
        rec.error = "killed: no result " + duration_text(rec.seconds) + " after it started (--point-timeout " +
                    params::format_number(options.point_timeout) + ")";
      } else if (!rec.ok) {
        rec.error = rec.exit_code == 3 && rec.report.is_object() && rec.report.contains("check")
                        ? "check FAILED: " + rec.report["check"].value("detail", std::string())
                        : failure_text(err, status);
      }
      db.record(rec);
      ++done;
      (rec.ok ? summary.ok : summary.failed)++;
      rec.report = nullptr;  // the database has it
      progress.update(done, summary.failed, done == jobs.size());
    }
  } catch (...) {
    for (const auto& [pid, r] : running) kill(pid, SIGTERM);
    for (const auto& [pid, r] : running) waitpid(pid, nullptr, 0);
    std::filesystem::remove_all(scratch);
    throw;
  }
  std::filesystem::remove_all(scratch);
  summary.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return summary;
}

}  // namespace gpusim::study
