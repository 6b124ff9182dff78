#include "workload/buffer_data.hpp"

#include <cstring>
#include <fstream>
#include <iterator>

#include "exec/small_float.hpp"
#include "workload/npy.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::workload {
namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <typename T>
void put(std::vector<uint8_t>& out, int64_t i, T v) {
  std::memcpy(out.data() + i * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
}

// Element i of the buffer from a double (iota, constant) or from random bits.
void set_element(std::vector<uint8_t>& out, ElementType t, int64_t i, double value) {
  switch (t) {
    case ElementType::U8: put<uint8_t>(out, i, static_cast<uint8_t>(value)); break;
    case ElementType::I32: put<int32_t>(out, i, static_cast<int32_t>(value)); break;
    case ElementType::U32: put<uint32_t>(out, i, static_cast<uint32_t>(value)); break;
    case ElementType::I64: put<int64_t>(out, i, static_cast<int64_t>(value)); break;
    case ElementType::U64: put<uint64_t>(out, i, static_cast<uint64_t>(value)); break;
    case ElementType::F32: put<float>(out, i, static_cast<float>(value)); break;
    case ElementType::F64: put<double>(out, i, value); break;
    case ElementType::I8: put<int8_t>(out, i, static_cast<int8_t>(value)); break;
    case ElementType::I16: put<int16_t>(out, i, static_cast<int16_t>(value)); break;
    case ElementType::U16: put<uint16_t>(out, i, static_cast<uint16_t>(value)); break;
    case ElementType::F16: put<uint16_t>(out, i, static_cast<uint16_t>(exec::encode_small_float(value, exec::kHalf))); break;
    case ElementType::BF16: put<uint16_t>(out, i, static_cast<uint16_t>(exec::encode_small_float(value, exec::kBfloat16))); break;
  }
}

double random_element(ElementType t, uint64_t bits) {
  switch (t) {
    case ElementType::U8: return static_cast<double>(bits & 0xFF);
    case ElementType::I8: return static_cast<double>(static_cast<int64_t>(bits % 200) - 100);
    case ElementType::I16:
    case ElementType::I32:
    case ElementType::I64: return static_cast<double>(static_cast<int64_t>(bits % 2000) - 1000);
    case ElementType::U16:
    case ElementType::U32:
    case ElementType::U64: return static_cast<double>(bits % 1000);
    case ElementType::F16:
    case ElementType::BF16:
    case ElementType::F32:
    case ElementType::F64: return static_cast<double>(bits >> 11) * 0x1.0p-53 * 2.0 - 1.0;
  }
  return 0;
}

}  // namespace

std::vector<uint8_t> struct_bytes(const StructArg& fields) {
  std::vector<uint8_t> out;
  for (const StructField& f : fields) {
    const size_t size = static_cast<size_t>(element_size(f.type));
    out.resize((out.size() + size - 1) / size * size + size);  // aligned to its size, as C lays structs out
    std::vector<uint8_t> one(size);
    set_element(one, f.type, 0, f.value);
    std::copy(one.begin(), one.end(), out.end() - static_cast<long>(size));
  }
  return out;
}

std::vector<uint8_t> initial_bytes(const Buffer& b) {
  const int64_t size = b.count * element_size(b.type);
  std::vector<uint8_t> out(static_cast<size_t>(size), 0);
  switch (b.init.kind) {
    case InitSpec::Kind::Zero: break;
    case InitSpec::Kind::Iota:
      for (int64_t i = 0; i < b.count; ++i) set_element(out, b.type, i, static_cast<double>(i));
      break;
    case InitSpec::Kind::Constant:
      for (int64_t i = 0; i < b.count; ++i) set_element(out, b.type, i, b.init.constant);
      break;
    case InitSpec::Kind::Random: {
      uint64_t state = b.init.seed;
      for (int64_t i = 0; i < b.count; ++i) set_element(out, b.type, i, random_element(b.type, splitmix64(state)));
      break;
    }
    case InitSpec::Kind::File: {
      if (is_npy_path(b.init.file)) {  // as --dump writes them
        out = read_npy(b.init.file, b.type, b.count, "buffer '" + b.name + "'");
        break;
      }
      std::ifstream in(b.init.file, std::ios::binary);
      if (!in) throw util::InputError(b.init.file + ": cannot read (the data of buffer '" + b.name + "')");
      const std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
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
