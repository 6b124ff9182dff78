// A study's results in SQLite: one row per point (its identity, factor values, status,
// error, resolved parameters, config hash and gpusim version) and one row per point and
// launch with every launch metric. Points are keyed by their text, so a study can be
// extended, resumed and merged (Slurm tasks write their own files; collect merges them).
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace gpusim::study {

struct FactorValue {
  std::string name;
  std::string value;
  std::optional<double> number;  // when the value is a number
  bool baseline = false;
};

// What a finished point leaves in the database.
struct PointRecord {
  std::string key;
  std::string study;
  std::string design;
  std::string arch_file;  // as the study names it
  std::string arch;       // the GPU's name
  std::string workload_file;
  std::string workload;
  std::string size;
  std::vector<std::string> overrides;  // every --set the point ran with
  std::vector<FactorValue> factors;
  bool ok = false;
  std::string error;
  int exit_code = 0;
  double seconds = 0;
  std::string config_hash;
  nlohmann::ordered_json params;  // every resolved parameter: architecture and workload
  nlohmann::json report;          // the run's JSON report (null for a point that failed early)
};

// A thin RAII statement.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& bind(int index, const std::string& v);
  Statement& bind(int index, int64_t v);
  Statement& bind(int index, double v);
  Statement& bind_null(int index);
  bool step();  // true while there is a row
  void reset();
  int columns() const;
  std::string column_name(int i) const;
  bool is_null(int i) const;
  int64_t integer(int i) const;
  double real(int i) const;
  std::string text(int i) const;
  // A column as JSON: null, integer, real or string as stored.
  nlohmann::ordered_json json(int i) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class ResultsDb {
 public:
  // Opens or (with `create`) creates `path` (":memory:" for none); throws
  // util::InputError naming it when it cannot, or when the file is not a gpusim results
  // database. Without `create` the file is only read.
  explicit ResultsDb(const std::string& path, bool create = true);
  ~ResultsDb();
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  // Replaces any earlier row of the same point, in one transaction.
  void record(const PointRecord& p);
  // Keys of the points with status ok / failed.
  std::set<std::string> keys(bool ok) const;
  // Merges another results file: its points replace missing or failed ones here, never
  // ok ones. Returns how many points came in.
  size_t merge(const std::string& other_path);

  // Study-level facts (the metrics a study asks for): key -> text.
  void set_meta(const std::string& key, const std::string& value);
  std::optional<std::string> meta(const std::string& key) const;

  void exec(const std::string& sql);
  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

 private:
  void create_schema();
  std::vector<std::string> table_columns(const std::string& schema, const std::string& table) const;
  sqlite3* db_ = nullptr;
  std::string path_;
};

}  // namespace gpusim::study
