#include "reference/references.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "exec/small_float.hpp"
#include "util/parallel_for.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::reference {
namespace {

using workload::Workload;

const util::Bytes& buffer(const Buffers& b, const std::string& name) {
  const auto it = b.find(name);
  if (it == b.end()) throw util::InputError("reference: the workload has no buffer '" + name + "'");
  return it->second;
}

template <typename T>
std::vector<T> as(const Buffers& b, const std::string& name) {
  const util::Bytes& bytes = buffer(b, name);
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

template <typename T>
T element(std::span<const uint8_t> bytes, int64_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

template <typename T>
util::Bytes bytes(const std::vector<T>& v) {
  util::Bytes out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

int64_t param(const Workload& w, const std::string& name) {
  const auto it = w.params.find(name);
  if (it == w.params.end()) throw util::InputError(w.source_file + ": the reference needs parameter '" + name + "'");
  return it->second;
}

// A buffer's elements read in place (no copy: the references of big elementwise kernels run
// on every thread, and a copy of each input would be most of their time).
template <typename T>
class Elements {
 public:
  Elements(const Buffers& b, const std::string& name) : bytes_(buffer(b, name)) {}
  int64_t size() const { return static_cast<int64_t>(bytes_.size() / sizeof(T)); }
  T operator[](int64_t i) const { return element<T>(bytes_, i); }

 private:
  const util::Bytes& bytes_;
};

// `count` elements of type T, element i being at(i), on `threads` threads: each element is
// computed alone, so the bytes are the same on any number.
template <typename T, typename At>
util::Bytes elementwise(const Workload& w, int64_t count, int threads, At at) {
  if (count < 0) throw util::InputError(w.source_file + ": the reference's output has " + std::to_string(count) + " elements");
  util::Bytes out(static_cast<size_t>(count) * sizeof(T));
  util::parallel_for(count, threads, util::kMinElementsPerThread, [&](int64_t, int64_t first, int64_t last) {
    util::prefault(out.data() + first * static_cast<int64_t>(sizeof(T)), static_cast<size_t>(last - first) * sizeof(T));
    for (int64_t i = first; i < last; ++i) {
      const T v = at(i);
      std::memcpy(out.data() + i * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
    }
  });
  return out;
}

// Reads of `count` elements from each buffer (Elements, or a copy) must stay inside it.
template <typename Buffer>
void needs(const Workload& w, const Buffer& e, const std::string& name, int64_t count) {
  const auto size = static_cast<int64_t>(e.size());
  if (count < 0 || size < count)
    throw util::InputError(w.source_file + ": the reference reads " + std::to_string(count) + " elements of buffer '" +
                           name + "', which has " + std::to_string(size));
}
// A parameter the reference divides by (or takes a remainder of).
int64_t positive_param(const Workload& w, const std::string& name) {
  const int64_t v = param(w, name);
  if (v <= 0) throw util::InputError(w.source_file + ": the reference needs parameter '" + name + "' above 0, not " + std::to_string(v));
  return v;
}

// c = a + b over buffers `a`, `b` (the second half of the streams workload: a2, b2).
util::Bytes vector_sum(const Workload& w, const Buffers& in, int threads, const std::string& a_name,
                                const std::string& b_name) {
  const Elements<float> a(in, a_name), b(in, b_name);
  const int64_t n = param(w, "n");
  needs(w, a, a_name, n);
  needs(w, b, b_name, n);
  return elementwise<float>(w, n, threads, [&](int64_t i) { return a[i] + b[i]; });
}

util::Bytes vecadd(const Workload& w, const Buffers& in, int threads) { return vector_sum(w, in, threads, "a", "b"); }

util::Bytes stencil5(const Workload& w, const Buffers& in, int threads) {
  const Elements<float> x(in, "in");
  const int64_t nx = param(w, "nx"), ny = param(w, "ny");
  needs(w, x, "in", nx * ny);
  return elementwise<float>(w, x.size(), threads, [&](int64_t k) {
    if (k >= nx * ny) return 0.0f;  // past the grid: left as it was made, zero
    const int64_t j = k / nx, i = k % nx;
    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) return x[k];
    return 0.2f * ((((x[k] + x[k - 1]) + x[k + 1]) + x[k - nx]) + x[k + nx]);
  });
}

// One partial sum per block of `block` elements (summed in double; checked with a tolerance).
util::Bytes block_sums(const Workload& w, const Buffers& in) {
  const auto x = as<float>(in, "in");
  const int64_t n = param(w, "n"), block = positive_param(w, "block");
  needs(w, x, "in", n);
  std::vector<float> out(static_cast<size_t>((n + block - 1) / block));
  for (size_t b = 0; b < out.size(); ++b) {
    double s = 0;
    for (int64_t i = static_cast<int64_t>(b) * block; i < std::min<int64_t>(n, static_cast<int64_t>(b + 1) * block); ++i) s += x[i];
    out[b] = static_cast<float>(s);
  }
  return bytes(out);
}

util::Bytes histogram256(const Workload& w, const Buffers& in) {
  const Elements<uint8_t> data(in, "data");
  const int64_t n = param(w, "n");  // once: a look-up per element was half of a functional run
  needs(w, data, "data", n);
  std::vector<uint32_t> bins(256, 0);
  for (int64_t i = 0; i < n; ++i) ++bins[data[i]];
  return bytes(bins);
}

util::Bytes transpose(const Workload& w, const Buffers& in, int threads) {
  const Elements<float> a(in, "in");
  const int64_t n = param(w, "n");
  needs(w, a, "in", n * n);
  // Element (c, r) of the output is element (r, c) of the input; the rest stays 0.
  return elementwise<float>(w, a.size(), threads, [&](int64_t k) { return k < n * n ? a[k % n * n + k / n] : 0.0f; });
}

// Exclusive prefix sum within each segment of 2 x block elements.
util::Bytes block_scan(const Workload& w, const Buffers& in) {
  const auto x = as<uint32_t>(in, "in");
  const int64_t seg = 2 * positive_param(w, "block");
  std::vector<uint32_t> out(x.size());
  for (size_t s = 0; s < x.size(); s += static_cast<size_t>(seg)) {
    uint32_t acc = 0;
    for (size_t i = s; i < s + static_cast<size_t>(seg) && i < x.size(); ++i) {
      out[i] = acc;
      acc += x[i];
    }
  }
  return bytes(out);
}

util::Bytes matmul(const Workload& w, const Buffers& in, int threads) {
  const auto a = as<float>(in, "a"), b = as<float>(in, "b");
  const int64_t n = positive_param(w, "n");
  needs(w, a, "a", n * n);
  needs(w, b, "b", n * n);
  std::vector<float> c(static_cast<size_t>(n * n));
  // A row of sums at a time, each over k in order: the same sums as one element at a time,
  // but reading b along its rows (down a column of 2048 floats misses the cache at each k).
  // Rows are independent: the threads take runs of them.
  const int64_t min_rows = std::max<int64_t>(1, (1 << 20) / std::max<int64_t>(1, n * n));  // about a million multiplies
  util::parallel_for(n, threads, min_rows, [&](int64_t, int64_t first, int64_t last) {
    std::vector<double> row(static_cast<size_t>(n));
    for (int64_t i = first; i < last; ++i) {
      std::fill(row.begin(), row.end(), 0.0);
      for (int64_t k = 0; k < n; ++k) {
        const double aik = a[i * n + k];
        const float* bk = &b[k * n];
        for (int64_t j = 0; j < n; ++j) row[j] += aik * bk[j];
      }
      for (int64_t j = 0; j < n; ++j) c[i * n + j] = static_cast<float>(row[j]);
    }
  });
  return bytes(c);
}

util::Bytes warp_reduce(const Workload& w, const Buffers& in) {
  const auto x = as<int32_t>(in, "in");
  const int64_t n = param(w, "n");
  needs(w, x, "in", n / 32 * 32);
  std::vector<int32_t> out(static_cast<size_t>(2 * n / 32));
  for (int64_t wi = 0; wi < n / 32; ++wi) {
    int32_t sum = 0, positive = 0;
    for (int64_t l = 0; l < 32; ++l) {
      sum += x[wi * 32 + l];
      positive += x[wi * 32 + l] > 0;
    }
    out[2 * wi] = sum;
    out[2 * wi + 1] = positive;
  }
  return bytes(out);
}

float work_a(float x) {
  for (int k = 0; k < 16; ++k) x = std::fma(x, 1.0001f, 0.5f);
  return x;
}
float work_b(float x) {
  for (int k = 0; k < 16; ++k) x = std::fma(x, 0.9999f, -0.25f) * (x * 0.5f);
  return x;
}

util::Bytes branch(const Workload& w, const Buffers& in, int64_t group) {
  const auto x = as<float>(in, "in");
  const int64_t n = param(w, "n");
  needs(w, x, "in", n);
  std::vector<float> out(static_cast<size_t>(n));
  for (size_t i = 0; i < out.size(); ++i) out[i] = (static_cast<int64_t>(i) / group) % 2 == 0 ? work_a(x[i]) : work_b(x[i]);
  return bytes(out);
}

util::Bytes math_funcs(const Workload& w, const Buffers& in) {
  const auto x = as<float>(in, "x");
  const int64_t n = param(w, "n");
  needs(w, x, "x", n);
  std::vector<float> out(static_cast<size_t>(6 * n));
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    out[6 * i + 0] = std::exp(v);
    out[6 * i + 1] = std::sqrt(std::fabs(v));
    out[6 * i + 2] = 1.0f / std::sqrt(std::fabs(v) + 1.0f);
    out[6 * i + 3] = std::sin(v);
    out[6 * i + 4] = std::fmax(v, 0.5f) / (std::fabs(v) + 1.0f);
    out[6 * i + 5] = static_cast<float>(static_cast<int>(v * 100.0f) % 7);
  }
  return bytes(out);
}

util::Bytes copy(const Workload&, const Buffers& in) { return in.at("in"); }

// The second half of the streams workload: c2 = a2 + b2.
util::Bytes vecadd_second(const Workload& w, const Buffers& in, int threads) {
  return vector_sum(w, in, threads, "a2", "b2");
}

util::Bytes strided_read(const Workload& w, const Buffers& in) {
  const auto x = as<float>(in, "in");
  const int64_t n = positive_param(w, "n"), stride = param(w, "stride");
  needs(w, x, "in", n);
  std::vector<float> out(static_cast<size_t>(positive_param(w, "threads")));
  for (size_t t = 0; t < out.size(); ++t) out[t] = x[static_cast<size_t>(static_cast<int64_t>(t) * stride % n)] * 2.0f;
  return bytes(out);
}

util::Bytes pointer_chase(const Workload& w, const Buffers&) {
  const int64_t n = positive_param(w, "n"), step = param(w, "step"), hops = param(w, "hops");
  return bytes(std::vector<uint32_t>{static_cast<uint32_t>(hops * step % n)});
}

// A reference that runs on one thread whatever --threads is.
template <typename F>
ReferenceFn serial(F f) {
  return [f](const Workload& w, const Buffers& in, int) { return f(w, in); };
}

const std::map<std::string, ReferenceFn>& registry() {
  static const std::map<std::string, ReferenceFn> r = {
      {"vecadd", vecadd},
      {"stencil5", stencil5},
      {"block_sums", serial(block_sums)},
      {"histogram256", serial(histogram256)},
      {"transpose", transpose},
      {"block_scan", serial(block_scan)},
      {"matmul", matmul},
      {"warp_reduce", serial(warp_reduce)},
      {"branch_by_thread", serial([](const Workload& w, const Buffers& in) { return branch(w, in, 1); })},
      {"branch_by_warp", serial([](const Workload& w, const Buffers& in) { return branch(w, in, 32); })},
      {"math_funcs", serial(math_funcs)},
      {"copy", serial(copy)},
      {"vecadd_second", vecadd_second},
      {"strided_read", serial(strided_read)},
      {"pointer_chase", serial(pointer_chase)},
  };
  return r;
}

constexpr int64_t kShownMismatches = 4;


// One part's comparison: its mismatches and the first few of them, its worst relative error.
struct PartCompared {
  int64_t mismatches = 0;
  std::vector<std::string> shown;
  double worst = 0;
};

template <typename T>
CheckResult compare_typed(std::span<const uint8_t> got, std::span<const uint8_t> want, double tol, int threads) {
  const auto n = static_cast<int64_t>(want.size() / sizeof(T));
  std::vector<PartCompared> parts(static_cast<size_t>(util::parallel_parts(n, threads, util::kMinElementsPerThread)));
  util::parallel_for(n, threads, util::kMinElementsPerThread, [&](int64_t p, int64_t begin, int64_t end) {
    PartCompared& part = parts[static_cast<size_t>(p)];
    // Element i's outcome; with a tolerance, its relative error goes into part.worst.
    const auto equal = [&](int64_t i, bool note_error) {
      const T g = element<T>(got, i), w = element<T>(want, i);
      if constexpr (std::is_floating_point_v<T>) {
        if (tol == 0) return std::memcmp(&g, &w, sizeof(T)) == 0;  // bit for bit: no error is shown
        const double diff = std::fabs(static_cast<double>(g) - static_cast<double>(w));
        const double scale = std::max(1.0, std::fabs(static_cast<double>(w)));
        if (note_error && !std::isnan(diff)) part.worst = std::max(part.worst, diff / scale);
        return diff <= tol * scale;
      } else {
        return g == w;
      }
    };
    // Counted first, without a branch on each element's outcome; the first few mismatches
    // (enough to see a pattern) are written out in a second pass, only in a part that has
    // some. A matching buffer's compare was 3% of a Volta vecadd's run.
    int64_t mismatches = 0;  // a local, not part's: kept in a register
    for (int64_t i = begin; i < end; ++i) mismatches += !equal(i, true);
    part.mismatches = mismatches;
    const auto shown = static_cast<size_t>(std::min(mismatches, kShownMismatches));
    for (int64_t i = begin; i < end && part.shown.size() < shown; ++i)
      if (!equal(i, false))
        part.shown.push_back("element " + std::to_string(i) + ": got " + std::to_string(element<T>(got, i)) +
                             ", expected " + std::to_string(element<T>(want, i)));
  });
  CheckResult r;
  double worst = 0;
  int64_t shown = 0;
  for (const PartCompared& part : parts) {
    r.mismatches += part.mismatches;
    worst = std::max(worst, part.worst);
    for (const std::string& s : part.shown)
      if (shown++ < kShownMismatches) r.detail += (r.detail.empty() ? "" : "; ") + s;
  }
  r.passed = r.mismatches == 0;
  if (r.passed) {
    r.detail = std::to_string(n) + " elements match";
    if constexpr (std::is_floating_point_v<T>)
      if (tol > 0) {
        char buf[96];
        std::snprintf(buf, sizeof buf, " (max relative error %.3g, tolerance %.3g)", worst, tol);
        r.detail += buf;
      }
  } else {
    r.detail = std::to_string(r.mismatches) + " of " + std::to_string(n) + " elements differ; first: " + r.detail;
  }
  return r;
}

}  // namespace

const ReferenceFn* find_reference(const std::string& name) {
  const auto it = registry().find(name);
  return it == registry().end() ? nullptr : &it->second;
}

std::vector<std::string> reference_names() {
  std::vector<std::string> names;
  for (const auto& [name, fn] : registry()) names.push_back(name);
  return names;
}

CheckResult compare_buffers(std::span<const uint8_t> got, std::span<const uint8_t> want, workload::ElementType type,
                            double tolerance, int threads) {
  if (got.size() != want.size()) {
    CheckResult r;
    r.detail = "size differs: " + std::to_string(got.size()) + " bytes, expected " + std::to_string(want.size());
    return r;
  }
  using workload::ElementType;
  switch (type) {
    case ElementType::U8: return compare_typed<uint8_t>(got, want, tolerance, threads);
    case ElementType::I32: return compare_typed<int32_t>(got, want, tolerance, threads);
    case ElementType::U32: return compare_typed<uint32_t>(got, want, tolerance, threads);
    case ElementType::I64: return compare_typed<int64_t>(got, want, tolerance, threads);
    case ElementType::U64: return compare_typed<uint64_t>(got, want, tolerance, threads);
    case ElementType::F32: return compare_typed<float>(got, want, tolerance, threads);
    case ElementType::F64: return compare_typed<double>(got, want, tolerance, threads);
    case ElementType::I8: return compare_typed<int8_t>(got, want, tolerance, threads);
    case ElementType::I16: return compare_typed<int16_t>(got, want, tolerance, threads);
    case ElementType::U16: return compare_typed<uint16_t>(got, want, tolerance, threads);
    case ElementType::F16:
    case ElementType::BF16: {  // compared as the values they hold
      const exec::SmallFloatFormat f = type == ElementType::F16 ? exec::kHalf : exec::kBfloat16;
      const auto widen = [&](std::span<const uint8_t> bytes) {
        util::Bytes out(bytes.size() * 4);
        for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
          const double v = exec::decode_small_float(static_cast<uint32_t>(bytes[i] | bytes[i + 1] << 8), f);
          std::memcpy(out.data() + i * 4, &v, 8);
        }
        return out;
      };
      return compare_typed<double>(widen(got), widen(want), tolerance, threads);
    }
  }
  return {};
}

}  // namespace gpusim::reference
