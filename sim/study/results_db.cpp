#include "study/results_db.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <ctime>

#include "gpusim_version.hpp"
#include "study/metric_columns.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::study {
namespace {

constexpr int kSchemaVersion = 1;

std::string quoted(const std::string& name) { return "\"" + name + "\""; }

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

// Identity columns of a launch, in the JSON report's names.
const std::vector<std::pair<std::string, bool>>& launch_identity() {  // name, integer
  static const std::vector<std::pair<std::string, bool>> cols = {
      {"kernel", false},       {"grid", false},   {"block", false},       {"shared_bytes", true},
      {"registers_per_thread", true}, {"stream", true}, {"start_cycle", true}, {"end_cycle", true}};
  return cols;
}

}  // namespace

// --- Statement ---------------------------------------------------------------

Statement::Statement(sqlite3* db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
    throw util::InputError(std::string("results database: ") + sqlite3_errmsg(db) + " (in: " + util::clipped(sql, 120) + ")");
}
Statement::~Statement() { sqlite3_finalize(stmt_); }
Statement& Statement::bind(int index, const std::string& v) {
  sqlite3_bind_text(stmt_, index, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::bind(int index, int64_t v) {
  sqlite3_bind_int64(stmt_, index, v);
  return *this;
}
Statement& Statement::bind(int index, double v) {
  sqlite3_bind_double(stmt_, index, v);
  return *this;
}
Statement& Statement::bind_null(int index) {
  sqlite3_bind_null(stmt_, index);
  return *this;
}
bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw util::InputError(std::string("results database: ") + sqlite3_errmsg(db_));
}
void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}
int Statement::columns() const { return sqlite3_column_count(stmt_); }
std::string Statement::column_name(int i) const { return sqlite3_column_name(stmt_, i); }
bool Statement::is_null(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }
int64_t Statement::integer(int i) const { return sqlite3_column_int64(stmt_, i); }
double Statement::real(int i) const { return sqlite3_column_double(stmt_, i); }
std::string Statement::text(int i) const {
  const auto* t = sqlite3_column_text(stmt_, i);
  return t ? reinterpret_cast<const char*>(t) : "";
}
nlohmann::ordered_json Statement::json(int i) const {
  switch (sqlite3_column_type(stmt_, i)) {
    case SQLITE_INTEGER: return integer(i);
    case SQLITE_FLOAT: return real(i);
    case SQLITE_NULL: return nullptr;
    default: return text(i);
  }
}

// --- ResultsDb ---------------------------------------------------------------

ResultsDb::ResultsDb(const std::string& path, bool create) : path_(path) {
  const int mode = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
  if (sqlite3_open_v2(path.c_str(), &db_, mode, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw util::InputError(path + ": cannot open the results database: " + why);
  }
  sqlite3_busy_timeout(db_, 10000);
  try {
    exec("PRAGMA foreign_keys = ON");
    if (create) {
      create_schema();
    } else {
      const auto tables = table_columns("main", "meta");
      if (tables.empty() || !meta("schema_version")) throw util::InputError("not a gpusim results database (gpusim sweep makes one)");
      if (*meta("schema_version") != std::to_string(kSchemaVersion))
        throw util::InputError("written with results schema " + *meta("schema_version") + "; this gpusim reads schema " +
                               std::to_string(kSchemaVersion));
    }
  } catch (const util::InputError& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw util::InputError(path + ": " + e.what());
  }
}

ResultsDb::~ResultsDb() { sqlite3_close(db_); }

void ResultsDb::exec(const std::string& sql) {
  char* msg = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
    const std::string why = msg ? msg : "error";
    sqlite3_free(msg);
    if (why.find("file is not a database") != std::string::npos)
      throw util::InputError("not an SQLite database (a gpusim results file is made by gpusim sweep)");
    throw util::InputError("results database: " + why);
  }
}

std::vector<std::string> ResultsDb::table_columns(const std::string& schema, const std::string& table) const {
  Statement s(db_, "PRAGMA " + schema + ".table_info(" + quoted(table) + ")");
  std::vector<std::string> out;
  while (s.step()) out.push_back(s.text(1));
  return out;
}

void ResultsDb::create_schema() {
  exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)");
  {
    Statement s(db_, "SELECT value FROM meta WHERE key = 'schema_version'");
    if (s.step() && s.text(0) != std::to_string(kSchemaVersion))
      throw util::InputError("written with results schema " + s.text(0) + "; this gpusim reads schema " +
                             std::to_string(kSchemaVersion));
  }
  exec("INSERT OR IGNORE INTO meta VALUES ('schema_version', '" + std::to_string(kSchemaVersion) + "')");
  exec(R"(CREATE TABLE IF NOT EXISTS points (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    study TEXT NOT NULL, design TEXT NOT NULL,
    arch_file TEXT NOT NULL, arch TEXT, workload_file TEXT NOT NULL, workload TEXT, size TEXT NOT NULL,
    overrides TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error TEXT, exit_code INTEGER, seconds REAL,
    total_cycles INTEGER, total_time_us REAL, check_passed INTEGER,
    gpusim_version TEXT NOT NULL, config_hash TEXT, params TEXT,
    finished_at TEXT NOT NULL, host TEXT))");
  exec(R"(CREATE TABLE IF NOT EXISTS factors (
    point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, number REAL, baseline INTEGER NOT NULL,
    PRIMARY KEY (point_id, name)))");
  std::string launches = "CREATE TABLE IF NOT EXISTS launches (\n"
                         "  point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,\n"
                         "  launch INTEGER NOT NULL";
  for (const auto& [name, integer] : launch_identity()) launches += ",\n  " + quoted(name) + (integer ? " INTEGER" : " TEXT");
  for (const Column& c : launch_columns()) launches += ",\n  " + quoted(c.name) + (c.integer ? " INTEGER" : " REAL");
  exec(launches + ",\n  PRIMARY KEY (point_id, launch))");
  // A file from an older gpusim lacks the metrics declared since: add them (NULL there).
  const std::vector<std::string> have = table_columns("main", "launches");
  for (const Column& c : launch_columns())
    if (std::find(have.begin(), have.end(), c.name) == have.end())
      exec("ALTER TABLE launches ADD COLUMN " + quoted(c.name) + (c.integer ? " INTEGER" : " REAL"));
  exec("CREATE INDEX IF NOT EXISTS points_by_context ON points (study, arch_file, workload_file, size)");
}

void ResultsDb::record(const PointRecord& p) {
  exec("BEGIN IMMEDIATE");
  try {
    Statement(db_, "DELETE FROM points WHERE key = ?").bind(1, p.key).step();
    Statement ins(db_,
                  "INSERT INTO points (key, study, design, arch_file, arch, workload_file, workload, size, overrides, "
                  "status, error, exit_code, seconds, total_cycles, total_time_us, check_passed, gpusim_version, "
                  "config_hash, params, finished_at, host) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    ins.bind(1, p.key).bind(2, p.study).bind(3, p.design).bind(4, p.arch_file).bind(5, p.arch);
    ins.bind(6, p.workload_file).bind(7, p.workload).bind(8, p.size).bind(9, nlohmann::json(p.overrides).dump());
    ins.bind(10, std::string(p.ok ? "ok" : "failed"));
    if (p.error.empty()) ins.bind_null(11);
    else ins.bind(11, p.error);
    ins.bind(12, int64_t{p.exit_code}).bind(13, p.seconds);
    const nlohmann::json& r = p.report;
    const bool has_total = r.is_object() && r.contains("total");
    if (has_total) ins.bind(14, r["total"].value("cycles", int64_t{0})).bind(15, r["total"].value("time_us", 0.0));
    else ins.bind_null(14).bind_null(15);
    if (r.is_object() && r.contains("check")) ins.bind(16, int64_t{r["check"].value("passed", false) ? 1 : 0});
    else ins.bind_null(16);
    ins.bind(17, std::string(GPUSIM_VERSION)).bind(18, p.config_hash).bind(19, p.params.dump());
    ins.bind(20, now_utc()).bind(21, host_name());
    ins.step();
    const int64_t id = sqlite3_last_insert_rowid(db_);

    Statement fac(db_, "INSERT INTO factors (point_id, ordinal, name, value, number, baseline) VALUES (?,?,?,?,?,?)");
    for (size_t i = 0; i < p.factors.size(); ++i) {
      const FactorValue& f = p.factors[i];
      fac.bind(1, id).bind(2, static_cast<int64_t>(i)).bind(3, f.name).bind(4, f.value);
      if (f.number) fac.bind(5, *f.number);
      else fac.bind_null(5);
      fac.bind(6, int64_t{f.baseline ? 1 : 0});
      fac.step();
      fac.reset();
    }

    if (r.is_object() && r.contains("kernels")) {
      std::string sql = "INSERT INTO launches (point_id, launch";
      std::string marks = "?,?";
      for (const auto& [name, integer] : launch_identity()) (sql += ", ") += quoted(name), marks += ",?";
      for (const Column& c : launch_columns()) (sql += ", ") += quoted(c.name), marks += ",?";
      Statement l(db_, sql + ") VALUES (" + marks + ")");
      int64_t index = 0;
      for (const auto& k : r["kernels"]) {
        l.bind(1, id).bind(2, index++);
        int col = 3;
        const auto bind_json = [&](const nlohmann::json& v) {
          if (v.is_number_integer()) l.bind(col++, v.get<int64_t>());
          else if (v.is_number()) l.bind(col++, v.get<double>());
          else if (v.is_string()) l.bind(col++, v.get<std::string>());
          else l.bind_null(col++);
        };
        for (const auto& [name, integer] : launch_identity()) {
          const char* key = name == "kernel" ? "name" : name.c_str();  // the report calls the kernel "name"
          bind_json(k.contains(key) ? k[key] : nlohmann::json());
        }
        for (const Column& c : launch_columns()) {
          const nlohmann::json& scope = c.json_group.empty() ? k : (k.contains(c.json_group) ? k[c.json_group] : k);
          bind_json(scope.contains(c.json_key) ? scope[c.json_key] : nlohmann::json());
        }
        l.step();
        l.reset();
      }
    }
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void ResultsDb::set_meta(const std::string& key, const std::string& value) {
  Statement(db_, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").bind(1, key).bind(2, value).step();
}

std::optional<std::string> ResultsDb::meta(const std::string& key) const {
  Statement s(db_, "SELECT value FROM meta WHERE key = ?");
  s.bind(1, key);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

std::set<std::string> ResultsDb::keys(bool ok) const {
  Statement s(db_, "SELECT key FROM points WHERE status = ?");
  s.bind(1, std::string(ok ? "ok" : "failed"));
  std::set<std::string> out;
  while (s.step()) out.insert(s.text(0));
  return out;
}

size_t ResultsDb::merge(const std::string& other_path) {
  {  // opening it checks that it is a results file of this schema
    ResultsDb check(other_path, false);
  }
  Statement(db_, "ATTACH DATABASE ? AS other").bind(1, other_path).step();
  size_t merged = 0;
  try {
    exec("BEGIN IMMEDIATE");
    std::vector<std::pair<int64_t, std::string>> incoming;
    {
      Statement s(db_,
                  "SELECT o.id, o.key FROM other.points o LEFT JOIN main.points m ON m.key = o.key "
                  "WHERE m.id IS NULL OR (m.status = 'failed' AND o.status = 'ok')");
      while (s.step()) incoming.emplace_back(s.integer(0), s.text(1));
    }
    const auto common = [&](const std::string& table) {
      const auto mine = table_columns("main", table);
      std::string cols;
      for (const std::string& c : table_columns("other", table))
        if (c != "id" && c != "point_id" && std::find(mine.begin(), mine.end(), c) != mine.end())
          (cols += cols.empty() ? "" : ", ") += quoted(c);
      return cols;
    };
    const std::string point_cols = common("points"), factor_cols = common("factors"), launch_cols = common("launches");
    for (const auto& [other_id, key] : incoming) {
      Statement(db_, "DELETE FROM main.points WHERE key = ?").bind(1, key).step();
      Statement(db_, "INSERT INTO main.points (" + point_cols + ") SELECT " + point_cols + " FROM other.points WHERE id = ?")
          .bind(1, other_id)
          .step();
      const int64_t id = sqlite3_last_insert_rowid(db_);
      for (const auto& [table, cols] : {std::pair{std::string("factors"), factor_cols}, {"launches", launch_cols}})
        Statement(db_, "INSERT INTO main." + table + " (point_id, " + cols + ") SELECT ?, " + cols + " FROM other." +
                           table + " WHERE point_id = ?")
            .bind(1, id)
            .bind(2, other_id)
            .step();
      ++merged;
    }
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    exec("DETACH DATABASE other");
    throw;
  }
  exec("DETACH DATABASE other");
  return merged;
}

}  // namespace gpusim::study
