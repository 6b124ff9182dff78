// gpusim sweep against the real executable: every point lands once, an interrupted
// study resumes without losing or repeating a point, failures are rows with their error,
// and results exports what the database holds.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "test_paths.hpp"

extern char** environ;

namespace gpusim::test {
namespace {

namespace fs = std::filesystem;

const std::string kStudy = repo_path("tests/study/data/tiny_study.yaml");
constexpr int kPoints = 8;  // 4 latencies x 2 policies

class SweepCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpusim-sweep-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "tiny.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  pid_t start(const std::vector<std::string>& args) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string out = (dir_ / "out").string(), err = (dir_ / "err").string();
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> all = {GPUSIM_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    EXPECT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    return pid;
  }
  int run(const std::vector<std::string>& args) {
    int status = 0;
    waitpid(start(args), &status, 0);
    out_ = slurp("out");
    err_ = slurp("err");
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string slurp(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // key -> (row id, finished_at, status)
  std::map<std::string, std::tuple<int64_t, std::string, std::string>> rows() const {
    std::map<std::string, std::tuple<int64_t, std::string, std::string>> out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(db_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
      sqlite3_close(db);
      return out;
    }
    sqlite3_busy_timeout(db, 5000);
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT key, id, finished_at, status FROM points", -1, &s, nullptr) == SQLITE_OK)
      while (sqlite3_step(s) == SQLITE_ROW)
        out[reinterpret_cast<const char*>(sqlite3_column_text(s, 0))] = {
            sqlite3_column_int64(s, 1), reinterpret_cast<const char*>(sqlite3_column_text(s, 2)),
            reinterpret_cast<const char*>(sqlite3_column_text(s, 3))};
    sqlite3_finalize(s);
    sqlite3_close(db);
    return out;
  }

  fs::path dir_;
  std::string db_, out_, err_;
};

TEST_F(SweepCli, RunsEveryPointOnceInParallel) {
  ASSERT_EQ(run({"sweep", kStudy, "--db", db_, "-j", "2"}), 0) << err_;
  const auto r = rows();
  EXPECT_EQ(r.size(), static_cast<size_t>(kPoints));
  for (const auto& [key, row] : r) EXPECT_EQ(std::get<2>(row), "ok") << key;
  EXPECT_NE(out_.find("what matters for cycles"), std::string::npos) << out_;
  EXPECT_NE(err_.find("8/8 points"), std::string::npos) << err_;
  // A second run finds everything done and runs nothing.
  ASSERT_EQ(run({"sweep", kStudy, "--db", db_}), 0) << err_;
  EXPECT_NE(err_.find("8 already in the database; running 0"), std::string::npos) << err_;
  EXPECT_EQ(rows(), r);
  // Exports: a row per point and launch (vecadd has one launch), with the factors.
  ASSERT_EQ(run({"results", db_, "--format", "csv"}), 0) << err_;
  std::istringstream csv(out_);
  std::string header, line;
  std::getline(csv, header);
  int lines = 0;
  while (std::getline(csv, line)) ++lines;
  EXPECT_EQ(lines, kPoints);
  EXPECT_NE(header.find("factor.memory.dram.latency,factor.scheduling.policy"), std::string::npos) << header;
  EXPECT_NE(header.find(",cycles,"), std::string::npos);
  EXPECT_NE(header.find("stall_long_scoreboard"), std::string::npos);
  ASSERT_EQ(run({"results", db_, "--format", "jsonl"}), 0) << err_;
  EXPECT_EQ(std::count(out_.begin(), out_.end(), '\n'), kPoints);
}

TEST_F(SweepCli, AKilledStudyResumesWithoutLosingOrRepeatingAPoint) {
  const pid_t pid = start({"sweep", kStudy, "--db", db_, "-j", "1"});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (rows().size() < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  const auto before = rows();
  ASSERT_GE(before.size(), 3u);
  ASSERT_LT(before.size(), static_cast<size_t>(kPoints)) << "the study finished before it could be killed";

  ASSERT_EQ(run({"sweep", kStudy, "--db", db_, "-j", "2"}), 0) << err_;
  const std::string expect = std::to_string(before.size()) + " already in the database; running " +
                             std::to_string(kPoints - before.size());
  EXPECT_NE(err_.find(expect), std::string::npos) << err_;
  const auto after = rows();
  EXPECT_EQ(after.size(), static_cast<size_t>(kPoints));
  for (const auto& [key, row] : before) EXPECT_EQ(after.at(key), row) << "ran again: " << key;
}

TEST_F(SweepCli, FailedPointsAreRowsAndResumeRunsThemAgain) {
  // A workload whose launch reads and writes past its buffers (it passes the checks; the run
  // finds the out-of-bounds access): every point is a failure row with the reason.
  const auto write_workload = [&](int64_t count) {
    std::ofstream(dir_ / "vecadd.yaml") << "name: vecadd\nparams: {n: 65536, block: 256, count: " << count << "}\n"
                                        << "kernel: {source: " << repo_path("validate/kernels/vecadd.cu")
                                        << ", entry: vecadd}\n"
                                           "buffers:\n  - {name: a, type: f32, count: n, init: {random: {seed: 1}}}\n"
                                           "  - {name: b, type: f32, count: n, init: {random: {seed: 2}}}\n"
                                           "  - {name: c, type: f32, count: n, init: zero}\n"
                                           "steps:\n  - launch: {grid: (count + block - 1) / block, block: block, "
                                           "args: [a, b, c, count]}\n";
  };
  write_workload(131072);
  std::ofstream(dir_ / "study.yaml") << "name: broken\narch: " << repo_path("configs/volta.yaml")
                                     << "\nworkloads: [vecadd.yaml]\n"
                                        "factors:\n  - {param: memory.dram.latency, values: 300:400:100}\n";
  const std::string study = (dir_ / "study.yaml").string();
  EXPECT_EQ(run({"sweep", study, "--db", db_}), 4) << err_;
  auto r = rows();
  ASSERT_EQ(r.size(), 2u);
  for (const auto& [key, row] : r) EXPECT_EQ(std::get<2>(row), "failed");
  ASSERT_EQ(run({"results", db_}), 0);
  EXPECT_NE(out_.find("failed points:"), std::string::npos) << out_;
  // The first access past the buffers in simulated time: a load of a block reading past `a`
  // or a store of one writing past `c`, whichever the schedule reaches first.
  EXPECT_NE(out_.find("out-of-bounds global "), std::string::npos) << out_;
  // Without --resume failed points stay as they are; once the workload is fixed, --resume runs them.
  EXPECT_EQ(run({"sweep", study, "--db", db_}), 4);
  EXPECT_NE(err_.find("2 failed before (--resume runs them again); running 0"), std::string::npos) << err_;
  write_workload(65536);
  ASSERT_EQ(run({"sweep", study, "--db", db_, "--resume"}), 0) << err_;
  for (const auto& [key, row] : rows()) EXPECT_EQ(std::get<2>(row), "ok") << key;
}

TEST_F(SweepCli, APointPastItsTimeIsAFailureRow) {
  // An endless kernel: --point-timeout ends each point after 1 s.
  std::ofstream(dir_ / "spin.ptx") << ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry spin()\n{\n"
                                      ".reg .b32 %r<4>;\nmov.u32 %r1, 0;\n$L_top:\nadd.s32 %r1, %r1, 1;\nbra.uni $L_top;\n}\n";
  std::ofstream(dir_ / "spin.yaml") << "name: spin\nkernel: {ptx: spin.ptx, entry: spin, regs_per_thread: 8}\nbuffers: []\n"
                                       "steps:\n  - launch: {grid: 264, block: 256, args: []}\n";
  std::ofstream(dir_ / "study.yaml") << "name: spin\narch: " << repo_path("configs/hopper.yaml")
                                     << "\nworkloads: [spin.yaml]\n"
                                        "factors:\n  - {param: memory.dram.latency, values: [600, 700]}\n";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(run({"sweep", (dir_ / "study.yaml").string(), "--db", db_, "-j", "2", "--point-timeout", "1"}), 4) << err_;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  ASSERT_EQ(rows().size(), 2u);
  ASSERT_EQ(run({"results", db_}), 0);
  // gpusim's own --timeout ends the simulation; where it is too slow to (the sanitizers
  // run it several times slower), the runner kills it at 1.5 x 1 + 2 s. Either is a row.
  const auto count = [&](const std::string& what) {
    size_t at = 0, n = 0;
    while ((at = out_.find(what, at)) != std::string::npos) ++n, ++at;
    return n;
  };
  EXPECT_EQ(count("still running after --timeout 1 s") + count("killed: no result"), 2u) << out_;
}

TEST_F(SweepCli, RunSetWithRangesIsAOneFactorStudy) {
  ASSERT_EQ(run({"run", "--arch", repo_path("configs/volta.yaml"), "--workload", repo_path("workloads/vecadd.yaml"),
                 "--set", "n=65536", "--set", "memory.dram.latency=300:500:100"}),
            0)
      << err_;
  // A header and one line per value, in the order given.
  const auto p300 = out_.find("\n300 "), p400 = out_.find("\n400 "), p500 = out_.find("\n500 ");
  EXPECT_NE(p300, std::string::npos) << out_;
  EXPECT_LT(p300, p400);
  EXPECT_LT(p400, p500);
  EXPECT_EQ(run({"run", "--arch", repo_path("configs/volta.yaml"), "--workload", repo_path("workloads/vecadd.yaml"),
                 "--set", "memory.dram.latency=300:abc"}),
            1);
  EXPECT_NE(err_.find("--set 'memory.dram.latency=300:abc': memory.dram.latency: expected an integer"), std::string::npos)
      << err_;
  EXPECT_EQ(run({"run", "--arch", repo_path("configs/volta.yaml"), "--workload", repo_path("workloads/vecadd.yaml"),
                 "--set", "memory.dram.latency=300:500:100", "--trace", (dir_ / "t.json").string()}),
            1);
  EXPECT_NE(err_.find("--trace runs one point"), std::string::npos) << err_;
}

TEST_F(SweepCli, BadStudiesAndDatabasesAreClearErrors) {
  EXPECT_EQ(run({"sweep", (dir_ / "none.yaml").string()}), 1);
  EXPECT_NE(err_.find("none.yaml: cannot read the study file"), std::string::npos) << err_;
  EXPECT_EQ(run({"results", (dir_ / "none.db").string()}), 1);
  EXPECT_NE(err_.find("no such results database"), std::string::npos) << err_;
  { std::ofstream(dir_ / "junk.db") << "junk junk junk junk junk junk junk junk junk junk junk junk junk\n"; }
  EXPECT_EQ(run({"results", (dir_ / "junk.db").string()}), 1);
  EXPECT_NE(err_.find("junk.db"), std::string::npos) << err_;
  EXPECT_EQ(run({"sweep", kStudy, "--db", db_, "-j", "0"}), 1);
  EXPECT_NE(err_.find("-j '0'"), std::string::npos) << err_;
}

}  // namespace
}  // namespace gpusim::test
