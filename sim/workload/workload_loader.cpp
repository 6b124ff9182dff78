#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "util/yaml_reader.hpp"
#include "workload/workload.hpp"

namespace gpusim::workload {
namespace {

using util::InputError;
using util::MapReader;

int line_of(const YAML::Node& n) { return n.Mark().is_null() ? 0 : n.Mark().line + 1; }

// No GPU takes a larger grid or block dimension (CUDA's limits are below 2^31), so nothing
// beyond it reaches the 32-bit launch configuration.
constexpr int64_t kMaxDimension = std::numeric_limits<int32_t>::max();

// Evaluates a scalar node as an integer expression in [min, max], with file:line on failure.
int64_t eval_node(const MapReader& owner, std::string_view key, const YAML::Node& n, const Params& params,
                  int64_t min, int64_t max = std::numeric_limits<int64_t>::max()) {
  if (!n.IsScalar()) owner.fail(key, "expected an integer or an expression");
  int64_t v = 0;
  try {
    v = evaluate(n.Scalar(), params);
  } catch (const std::invalid_argument& e) {
    throw InputError(owner.file() + ":" + std::to_string(line_of(n)) + ": " + owner.key_path(key) + ": " + e.what());
  }
  if (v < min || v > max)
    throw InputError(owner.file() + ":" + std::to_string(line_of(n)) + ": " + owner.key_path(key) + ": " +
                     util::range_text(v, min, max));
  return v;
}

std::array<int64_t, 3> read_dims(MapReader& r, std::string_view key, const Params& params) {
  const YAML::Node n = r.node(key);
  std::array<int64_t, 3> dims{1, 1, 1};
  if (n.IsScalar()) {
    dims[0] = eval_node(r, key, n, params, 1, kMaxDimension);
    return dims;
  }
  if (!n.IsSequence() || n.size() < 1 || n.size() > 3) r.fail(key, "expected 1 to 3 dimensions");
  for (size_t i = 0; i < n.size(); ++i) dims[i] = eval_node(r, key, n[i], params, 1, kMaxDimension);
  return dims;
}

// `sizes: {NAME: {param: value, ...}}`: named parameter sets (e.g. `h100`, large enough to
// fill that GPU). Every size is validated; the one named by --size replaces the defaults.
void apply_size(MapReader& root, const std::string& size, Params& params) {
  std::string names;
  bool found = false;
  if (root.has("sizes")) {
    MapReader sizes = root.map("sizes");
    for (const std::string& name : sizes.keys()) {
      MapReader set = sizes.map(name);
      for (const std::string& param : set.keys()) {
        if (!params.contains(param)) set.fail(param, "not one of the workload's params");
        const int64_t v = set.integer(param, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
        if (name == size) params[param] = v;
      }
      set.finish();
      names += (names.empty() ? "" : ", ") + name;
      found = found || name == size;
    }
    sizes.finish();
  }
  if (!size.empty() && !found)
    throw InputError(root.file() + ": --size '" + size + "': the workload has no such size" +
                     (names.empty() ? std::string(" (it defines none)") : " (it has: " + names + ")"));
}

Params read_params(MapReader& root, const std::string& size, const std::vector<std::string>& overrides) {
  Params params;
  if (root.has("params")) {
    MapReader p = root.map("params");
    for (const std::string& name : p.keys()) {
      if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
        p.fail(name, "parameter names start with a letter or '_'");
      params[name] = p.integer(name, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    }
    p.finish();
  }
  apply_size(root, size, params);
  for (const std::string& o : overrides) {
    const std::string flag = "--set '" + util::clipped(o) + "'";
    const auto eq = o.find('=');
    if (eq == std::string::npos) throw InputError(flag + ": expected NAME=VALUE");
    const std::string name = o.substr(0, eq);
    auto it = params.find(name);
    if (it == params.end()) throw InputError(flag + ": the workload has no parameter '" + util::clipped(name) + "'");
    try {
      it->second = evaluate(o.substr(eq + 1), params);
    } catch (const std::invalid_argument& e) {
      throw InputError(flag + ": " + e.what());
    }
  }
  return params;
}

// A file the workload names must exist and be a file; a name the OS refuses (too long, ...) is an error too.
void require_file(MapReader& m, std::string_view key, const std::string& file) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) m.fail(key, util::clipped(file) + ": " + ec.message());
  if (!std::filesystem::exists(status)) m.fail(key, "file not found: " + util::clipped(file));
  if (std::filesystem::is_directory(status)) m.fail(key, util::clipped(file) + " is a directory, not a file");
}

KernelSpec read_kernel(MapReader k, const std::filesystem::path& dir) {
  KernelSpec spec;
  const bool has_source = k.has("source"), has_ptx = k.has("ptx");
  if (has_source == has_ptx) k.fail_here("give exactly one of 'source' (a .cu file) and 'ptx'");
  const std::string key = has_source ? "source" : "ptx";
  const std::string file = (dir / k.string(key)).lexically_normal().string();
  require_file(k, key, file);
  (has_source ? spec.source : spec.ptx) = file;
  spec.entry = k.string("entry");
  if (k.has("regs_per_thread")) spec.regs_per_thread = static_cast<int>(k.integer("regs_per_thread", 1, 255));
  k.finish();
  return spec;
}

InitSpec read_init(MapReader& b, const std::filesystem::path& dir) {
  InitSpec init;
  const YAML::Node n = b.node("init");
  if (n.IsScalar()) {
    if (n.Scalar() == "zero") return init;
    if (n.Scalar() == "iota") {
      init.kind = InitSpec::Kind::Iota;
      return init;
    }
    b.fail("init", "expected zero, iota, {random: {seed: N}}, {constant: X} or {file: PATH}");
  }
  MapReader m(n, b.file(), b.key_path("init"));
  const auto keys = m.keys();
  if (keys.size() != 1) m.fail_here("expected exactly one of random, constant, file");
  if (keys[0] == "random") {
    init.kind = InitSpec::Kind::Random;
    MapReader r = m.map("random");
    init.seed = static_cast<uint64_t>(r.integer("seed", 0, std::numeric_limits<int64_t>::max()));
    r.finish();
  } else if (keys[0] == "constant") {
    init.kind = InitSpec::Kind::Constant;
    init.constant = m.number("constant", -std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
  } else if (keys[0] == "file") {
    init.kind = InitSpec::Kind::File;
    init.file = (dir / m.string("file")).lexically_normal().string();
    require_file(m, "file", init.file);
  } else {
    m.fail(keys[0], "expected random, constant or file");
  }
  m.finish();
  return init;
}

Buffer read_buffer(MapReader b, const Params& params, const std::filesystem::path& dir) {
  Buffer buf;
  buf.name = b.string("name");
  std::vector<std::pair<std::string, ElementType>> types;
  for (ElementType t : kElementTypes) types.emplace_back(element_type_name(t), t);
  buf.type = b.choice<ElementType, decltype(types)>("type", types);
  // The byte size must fit 63 bits: every size computation after this one is then safe.
  buf.count = eval_node(b, "count", b.node("count"), params, 1,
                        std::numeric_limits<int64_t>::max() / element_size(buf.type));
  buf.init = read_init(b, dir);
  if (b.has("pinned")) buf.pinned = b.boolean("pinned");
  b.finish();
  return buf;
}

LaunchArg read_arg(const MapReader& owner, const YAML::Node& n, const Workload& w) {
  if (n.IsMap()) {
    MapReader m(n, owner.file(), owner.key_path("args"));
    if (m.has("buffer") == m.has("struct")) m.fail_here("an argument mapping is {buffer: NAME, offset: N} or {struct: [...]}");
    if (m.has("buffer")) {
      BufferArg b{m.string("buffer"), 0};
      const Buffer* buf = w.find_buffer(b.name);
      if (!buf) m.fail("buffer", "no buffer named '" + b.name + "'");
      if (m.has("offset")) b.offset = eval_node(m, "offset", m.node("offset"), w.params, 0, buf->count);
      m.finish();
      return {b};
    }
    const YAML::Node fields = m.node("struct");
    if (!fields.IsSequence() || fields.size() == 0) m.fail("struct", "expected a list of fields such as {i32: 3}");
    StructArg s;
    for (const YAML::Node& f : fields) {
      if (!f.IsMap() || f.size() != 1) m.fail("struct", "each field is one TYPE: VALUE, such as {f32: 1.5}");
      const std::string type = f.begin()->first.Scalar();
      StructField field;
      bool known = false;
      for (ElementType t : kElementTypes)
        if (type == element_type_name(t)) field.type = t, known = true;
      if (!known) m.fail("struct", "unknown field type '" + util::clipped(type) + "'");
      const YAML::Node v = f.begin()->second;
      if (is_float_element(field.type)) {
        char* end = nullptr;
        const std::string text = v.IsScalar() ? v.Scalar() : "";
        field.value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(field.value))
          m.fail("struct", "expected a number for the " + type + " field, got " + util::scalar_text(v));
      } else field.value = static_cast<double>(eval_node(m, "struct", v, w.params, std::numeric_limits<int64_t>::min()));
      s.push_back(field);
    }
    m.finish();
    return {s};
  }
  if (!n.IsScalar()) owner.fail("args", "each argument is a buffer name, a number, {buffer: ..., offset: ...} or {struct: [...]}");
  const std::string& text = n.Scalar();
  if (w.find_buffer(text)) return {BufferArg{text, 0}};
  if (text.find_first_of(".eE") != std::string::npos && !w.params.contains(text)) {
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (*end == '\0') return {d};
  }
  return {eval_node(owner, "args", n, w.params, std::numeric_limits<int64_t>::min())};
}

LaunchStep read_launch(MapReader l, const Workload& w, const LaunchStep* defaults);

Step read_step(const YAML::Node& node, const std::string& file, size_t index, const Workload& w) {
  MapReader s(node, file, "steps[" + std::to_string(index) + "]");
  Step step;
  step.line = line_of(node);
  if (s.has("stream")) {
    const int64_t stream = eval_node(s, "stream", s.node("stream"), w.params, 0);
    if (stream > 1024) s.fail("stream", "stream ids go up to 1024");
    step.stream = static_cast<int>(stream);
  }
  if (s.has("copy") + s.has("launch") + s.has("dump") != 1)
    s.fail_here("each step is exactly one of 'copy', 'launch' and 'dump'");
  if (s.has("dump")) {
    MapReader d = s.map("dump");
    DumpStep dump{d.string("buffer"), ""};
    if (!w.find_buffer(dump.buffer)) d.fail("buffer", "no buffer named '" + dump.buffer + "'");
    dump.file = (std::filesystem::path(file).parent_path() / d.string("file")).lexically_normal().string();
    d.finish();
    step.action = dump;
  } else if (s.has("copy")) {
    MapReader c = s.map("copy");
    CopyStep copy;
    if (c.has("to_device") + c.has("to_host") + c.has("to_symbol") != 1)
      c.fail_here("give exactly one of 'to_device', 'to_host' and 'to_symbol' (with 'from')");
    copy.to_device = !c.has("to_host");
    if (c.has("to_symbol")) copy.symbol = c.string("to_symbol");  // checked against the module when it runs
    const std::string key = c.has("to_symbol") ? "from" : copy.to_device ? "to_device" : "to_host";
    copy.buffer = c.string(key);
    if (!w.find_buffer(copy.buffer)) c.fail(key, "no buffer named '" + copy.buffer + "'");
    c.finish();
    step.action = copy;
  } else {
    step.action = read_launch(s.map("launch"), w, nullptr);
  }
  s.finish();
  return step;
}

// A launch: `entry` defaults to the workload's kernel; with `defaults` (a reference kernel's),
// grid, block, shared memory and arguments default to that launch's.
LaunchStep read_launch(MapReader l, const Workload& w, const LaunchStep* defaults) {
  LaunchStep launch = defaults ? *defaults : LaunchStep{};
  launch.entry = l.has("entry") ? l.string("entry") : w.kernel.entry;
  launch.source.clear();
  if (l.has("source")) {  // another .cu of the program; its own module, as without -rdc
    if (w.kernel.source.empty()) l.fail("source", "the workload's kernel is given as PTX; launches cannot name a .cu");
    const std::string file =
        (std::filesystem::path(w.source_file).parent_path() / l.string("source")).lexically_normal().string();
    require_file(l, "source", file);
    if (file != w.kernel.source) launch.source = file;
  }
  if (!defaults || l.has("grid")) launch.grid = read_dims(l, "grid", w.params);
  if (!defaults || l.has("block")) launch.block = read_dims(l, "block", w.params);
  if (l.has("shared_bytes"))  // the launch configuration holds 32 bits
    launch.shared_bytes = eval_node(l, "shared_bytes", l.node("shared_bytes"), w.params, 0,
                                    std::numeric_limits<uint32_t>::max());
  if (l.has("shared_opt_in")) launch.shared_opt_in = l.boolean("shared_opt_in");
  if (l.has("preferred_carveout"))  // percent, as cudaFuncAttributePreferredSharedMemoryCarveout
    launch.preferred_carveout = static_cast<int>(eval_node(l, "preferred_carveout", l.node("preferred_carveout"), w.params, 0, 100));
  if (!defaults || l.has("args")) {
    const YAML::Node args = l.node("args");
    if (!args.IsSequence()) l.fail("args", "expected a list");
    launch.args.clear();
    for (const auto& a : args) launch.args.push_back(read_arg(l, a, w));
  }
  l.finish();
  return launch;
}

}  // namespace

const char* element_type_name(ElementType t) {
  switch (t) {
    case ElementType::U8: return "u8";
    case ElementType::I32: return "i32";
    case ElementType::U32: return "u32";
    case ElementType::I64: return "i64";
    case ElementType::U64: return "u64";
    case ElementType::F32: return "f32";
    case ElementType::F64: return "f64";
    case ElementType::I8: return "i8";
    case ElementType::I16: return "i16";
    case ElementType::U16: return "u16";
    case ElementType::F16: return "f16";
    case ElementType::BF16: return "bf16";
  }
  return "?";
}

int element_size(ElementType t) {
  switch (t) {
    case ElementType::U8:
    case ElementType::I8: return 1;
    case ElementType::I16:
    case ElementType::U16:
    case ElementType::F16:
    case ElementType::BF16: return 2;
    case ElementType::I32:
    case ElementType::U32:
    case ElementType::F32: return 4;
    case ElementType::I64:
    case ElementType::U64:
    case ElementType::F64: return 8;
  }
  return 0;
}

const Buffer* Workload::find_buffer(const std::string& buffer_name) const {
  for (const Buffer& b : buffers)
    if (b.name == buffer_name) return &b;
  return nullptr;
}

Workload load_workload(const std::string& path, const std::vector<std::string>& overrides, const std::string& size) {
  return load_workload_text(nullptr, path, overrides, size);
}

Workload load_workload_text(const std::string* text, const std::string& path, const std::vector<std::string>& overrides,
                            const std::string& size) {
  MapReader root(text ? util::load_yaml_text(*text, path) : util::load_yaml_file(path), path);
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  Workload w;
  w.source_file = path;
  w.name = root.string("name");
  if (root.has("description")) w.description = root.string("description");
  w.size = size;
  w.params = read_params(root, size, overrides);
  w.kernel = read_kernel(root.map("kernel"), dir);

  const YAML::Node buffers = root.node("buffers");
  if (!buffers.IsSequence()) root.fail("buffers", "expected a list");
  for (size_t i = 0; i < buffers.size(); ++i) {
    Buffer b = read_buffer(MapReader(buffers[i], path, "buffers[" + std::to_string(i) + "]"), w.params, dir);
    if (w.find_buffer(b.name))
      throw InputError(path + ":" + std::to_string(line_of(buffers[i])) + ": buffers: duplicate name '" + b.name + "'");
    w.buffers.push_back(std::move(b));
  }

  const YAML::Node steps = root.node("steps");
  if (!steps.IsSequence() || steps.size() == 0) root.fail("steps", "expected a non-empty list");
  for (size_t i = 0; i < steps.size(); ++i) w.steps.push_back(read_step(steps[i], path, i, w));

  if (root.has("check")) {
    MapReader c = root.map("check");
    Check check;
    check.buffer = c.string("buffer");
    if (!w.find_buffer(check.buffer)) c.fail("buffer", "no buffer named '" + check.buffer + "'");
    if (c.has("reference") + c.has("expected_file") + c.has("script") + c.has("reference_kernel") != 1)
      c.fail_here("give exactly one of 'reference', 'expected_file', 'script' and 'reference_kernel'");
    if (c.has("reference")) check.reference = c.string("reference");
    else if (c.has("reference_kernel")) {
      const LaunchStep* last = nullptr;  // its launch defaults to the program's last one
      for (const Step& step : w.steps)
        if (const auto* l = std::get_if<LaunchStep>(&step.action)) last = l;
      if (!last) c.fail("reference_kernel", "the workload has no launch to compare with");
      MapReader r = c.map("reference_kernel");
      if (!r.has("entry")) r.fail_here("name the reference kernel's 'entry'");
      check.reference_kernel = read_launch(r, w, last);
      check.reference_line = line_of(c.node("reference_kernel"));
    } else if (c.has("script")) {
      check.script = (dir / c.string("script")).lexically_normal().string();
      require_file(c, "script", check.script);
    } else {
      check.expected_file = (dir / c.string("expected_file")).lexically_normal().string();
    }
    if (c.has("tolerance")) check.tolerance = c.number("tolerance", 0, 1);
    c.finish();
    w.check = check;
  }
  root.finish();
  return w;
}

}  // namespace gpusim::workload
