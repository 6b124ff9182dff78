// The results database: its schema, replacing a point, and merging task files.
#include "study/results_db.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <filesystem>

#include "study/metric_columns.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::study {
namespace {

namespace fs = std::filesystem;

class ResultsDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpusim-results-db-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

PointRecord point(const std::string& key, bool ok, int64_t cycles = 100) {
  PointRecord p;
  p.key = key;
  p.study = "s";
  p.design = "grid";
  p.arch_file = "a.yaml";
  p.workload_file = "w.yaml";
  p.overrides = {"memory.dram.latency=500"};
  p.factors = {{"memory.dram.latency", "500", 500.0, true}};
  p.ok = ok;
  if (!ok) {
    p.error = "boom";
    p.exit_code = 1;
    return p;
  }
  p.report = {{"kernels",
               {{{"name", "k"}, {"grid", "1x1x1"}, {"cycles", cycles}, {"ipc", 0.5}, {"stalls", {{"long_scoreboard", 7}}},
                 {"memory", {{"l2_hit_rate", 0.25}}}},
                {{"name", "k2"}, {"grid", "2x1x1"}, {"cycles", cycles * 2}}}},
              {"total", {{"cycles", cycles * 3}, {"time_us", 1.5}}},
              {"check", {{"passed", true}}}};
  return p;
}

int64_t count(const ResultsDb& db, const std::string& sql) {
  Statement s(db.handle(), sql);
  s.step();
  return s.integer(0);
}

TEST_F(ResultsDbTest, EveryLaunchMetricIsAColumn) {
  ResultsDb db(path("r.db"));
  Statement s(db.handle(), "PRAGMA table_info(launches)");
  std::vector<std::string> cols;
  while (s.step()) cols.push_back(s.text(1));
  for (const Column& c : launch_columns()) EXPECT_NE(std::find(cols.begin(), cols.end(), c.name), cols.end()) << c.name;
  for (const char* id : {"point_id", "launch", "kernel", "grid", "block", "start_cycle", "end_cycle"})
    EXPECT_NE(std::find(cols.begin(), cols.end(), id), cols.end()) << id;
}

TEST_F(ResultsDbTest, RecordsAPointWithItsLaunchesAndReplacesIt) {
  ResultsDb db(path("r.db"));
  db.record(point("p1", false));
  EXPECT_EQ(db.keys(false), std::set<std::string>{"p1"});
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM launches"), 0);
  db.record(point("p1", true, 100));
  EXPECT_TRUE(db.keys(false).empty());
  EXPECT_EQ(db.keys(true), std::set<std::string>{"p1"});
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM points"), 1);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM factors"), 1);  // the failed row's went with it
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM launches"), 2);
  EXPECT_EQ(count(db, "SELECT total_cycles FROM points"), 300);
  EXPECT_EQ(count(db, "SELECT stall_long_scoreboard FROM launches WHERE launch = 0"), 7);
  EXPECT_EQ(count(db, "SELECT cycles FROM launches WHERE launch = 1"), 200);
  // Per point: cycles add up, rates are weighted by cycles.
  Statement m(db.handle(), "SELECT " + point_metric_sql("cycles") + ", " + point_metric_sql("ipc") +
                               " FROM launches l GROUP BY l.point_id");
  ASSERT_TRUE(m.step());
  EXPECT_EQ(m.integer(0), 300);
  EXPECT_NEAR(m.real(1), 0.5 * 100 / 300, 1e-12);  // the second launch has no ipc: NULL adds nothing
}

TEST_F(ResultsDbTest, MergeTakesMissingAndFailedPointsButNeverReplacesOkOnes) {
  {
    ResultsDb task(path("task.db"));
    task.record(point("new", true, 10));
    task.record(point("was_failed", true, 20));
    task.record(point("was_ok", false));
  }
  ResultsDb db(path("main.db"));
  db.record(point("was_failed", false));
  db.record(point("was_ok", true, 30));
  EXPECT_EQ(db.merge(path("task.db")), 2u);
  EXPECT_EQ(db.keys(true), (std::set<std::string>{"new", "was_failed", "was_ok"}));
  EXPECT_EQ(count(db, "SELECT total_cycles FROM points WHERE key = 'was_ok'"), 90);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM launches"), 6);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM factors"), 3);
  EXPECT_EQ(db.merge(path("task.db")), 0u);  // merging twice changes nothing
}

TEST_F(ResultsDbTest, RefusesFilesThatAreNotResults) {
  { std::ofstream(path("text.db")) << "hello, this is not SQLite at all, just some text\n"; }
  EXPECT_THROW(ResultsDb(path("text.db"), false), util::InputError);
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path("foreign.db").c_str(), &raw), SQLITE_OK);
  sqlite3_exec(raw, "CREATE TABLE x (a)", nullptr, nullptr, nullptr);
  sqlite3_close(raw);
  try {
    ResultsDb db(path("foreign.db"), false);
    ADD_FAILURE() << "opened a database gpusim did not write";
  } catch (const util::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a gpusim results database"), std::string::npos) << e.what();
  }
  { ResultsDb made(path("made.db")); }
  EXPECT_NO_THROW(ResultsDb(path("made.db"), false));
  EXPECT_THROW(ResultsDb(path("missing.db"), false), util::InputError);
}

}  // namespace
}  // namespace gpusim::study
