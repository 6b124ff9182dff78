#include "workload/buffer_data.hpp"

#include <cstring>
#include <fstream>
#include <iterator>

#include "exec/small_float.hpp"
#include "workload/npy.hpp"
#include "util/bytes.hpp"
#include "util/parallel_for.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::workload {
namespace {

// The i-th draw of splitmix64 seeded with `seed` (its state steps by the golden gamma before
// each draw), so that any run of elements can be filled on its own.
uint64_t splitmix64_draw(uint64_t seed, int64_t i) {
  uint64_t z = seed + (static_cast<uint64_t>(i) + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <typename T>
void put(uint8_t* out, int64_t i, T v) {
  std::memcpy(out + i * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
}

// Calls `f` with the conversion from a double to element type t's stored value, so that a
// loop over a buffer takes the type's switch once, not per element.
template <typename F>
void with_conversion(ElementType t, F&& f) {
  switch (t) {
    case ElementType::U8: return f([](double v) { return static_cast<uint8_t>(v); });
    case ElementType::I32: return f([](double v) { return static_cast<int32_t>(v); });
    case ElementType::U32: return f([](double v) { return static_cast<uint32_t>(v); });
    case ElementType::I64: return f([](double v) { return static_cast<int64_t>(v); });
    case ElementType::U64: return f([](double v) { return static_cast<uint64_t>(v); });
    case ElementType::F32: return f([](double v) { return static_cast<float>(v); });
    case ElementType::F64: return f([](double v) { return v; });
    case ElementType::I8: return f([](double v) { return static_cast<int8_t>(v); });
    case ElementType::I16: return f([](double v) { return static_cast<int16_t>(v); });
    case ElementType::U16: return f([](double v) { return static_cast<uint16_t>(v); });
    case ElementType::F16:
      return f([](double v) { return static_cast<uint16_t>(exec::encode_small_float(v, exec::kHalf)); });
    case ElementType::BF16:
      return f([](double v) { return static_cast<uint16_t>(exec::encode_small_float(v, exec::kBfloat16)); });
  }
}

// Elements [0, count) of the buffer from value(i), a double (iota, constant, random).
template <typename G>
void fill(uint8_t* out, ElementType t, int64_t count, G&& value, int threads = 1) {
  with_conversion(t, [&](auto convert) {
    util::parallel_for(count, threads, util::kMinElementsPerThread, [&](int64_t, int64_t begin, int64_t end) {
      constexpr auto size = static_cast<int64_t>(sizeof(decltype(convert(0.0))));  // what put() writes
      util::prefault(out + begin * size, static_cast<size_t>((end - begin) * size));
      for (int64_t i = begin; i < end; ++i) put(out, i, convert(value(i)));
    });
  });
}

// Random elements: integers in a small range around zero (or from zero, unsigned), floats in
// [-1, 1), each from one splitmix64 draw in element order.
void fill_random(uint8_t* out, ElementType t, int64_t count, uint64_t seed, int threads) {
  const auto draw = [&](auto map) {
    fill(out, t, count, [&](int64_t i) { return map(splitmix64_draw(seed, i)); }, threads);
  };
  switch (t) {
    case ElementType::U8: return draw([](uint64_t bits) { return static_cast<double>(bits & 0xFF); });
    case ElementType::I8:
      return draw([](uint64_t bits) { return static_cast<double>(static_cast<int64_t>(bits % 200) - 100); });
    case ElementType::I16:
    case ElementType::I32:
    case ElementType::I64:
      return draw([](uint64_t bits) { return static_cast<double>(static_cast<int64_t>(bits % 2000) - 1000); });
    case ElementType::U16:
    case ElementType::U32:
    case ElementType::U64: return draw([](uint64_t bits) { return static_cast<double>(bits % 1000); });
    case ElementType::F16:
    case ElementType::BF16:
    case ElementType::F32:
    case ElementType::F64:
      return draw([](uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53 * 2.0 - 1.0; });
  }
}

}  // namespace

std::vector<uint8_t> struct_bytes(const StructArg& fields) {
  std::vector<uint8_t> out;
  for (const StructField& f : fields) {
    const size_t size = static_cast<size_t>(element_size(f.type));
    out.resize((out.size() + size - 1) / size * size + size);  // aligned to its size, as C lays structs out
    std::vector<uint8_t> one(size);
    fill(one.data(), f.type, 1, [&](int64_t) { return f.value; });
    std::copy(one.begin(), one.end(), out.end() - static_cast<long>(size));
  }
  return out;
}

util::Bytes initial_bytes(const Buffer& b, int threads) {
  const int64_t size = b.count * element_size(b.type);
  util::Bytes out(static_cast<size_t>(size));  // zeros (util/bytes.hpp)
  switch (b.init.kind) {
    case InitSpec::Kind::Zero: break;
    case InitSpec::Kind::Iota:
      fill(out.data(), b.type, b.count, [](int64_t i) { return static_cast<double>(i); }, threads);
      break;
    case InitSpec::Kind::Constant:
      fill(out.data(), b.type, b.count, [&](int64_t) { return b.init.constant; }, threads);
      break;
    case InitSpec::Kind::Random: fill_random(out.data(), b.type, b.count, b.init.seed, threads); break;
    case InitSpec::Kind::File: {
      if (is_npy_path(b.init.file)) {  // as --dump writes them
        out = read_npy(b.init.file, b.type, b.count, "buffer '" + b.name + "'");
        break;
      }
      std::ifstream in(b.init.file, std::ios::binary);
      if (!in) throw util::InputError(b.init.file + ": cannot read (the data of buffer '" + b.name + "')");
      const util::Bytes data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (static_cast<int64_t>(data.size()) != size)
        throw util::InputError(b.init.file + ": buffer '" + b.name + "' needs " + std::to_string(size) +
                               " bytes, the file has " + std::to_string(data.size()));
      out = data;
      break;
    }
  }
  return out;
}

}  // namespace gpusim::workload
