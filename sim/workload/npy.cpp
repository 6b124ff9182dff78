#include "workload/npy.hpp"

#include <fstream>

#include "util/yaml_reader.hpp"

namespace gpusim::workload {
namespace {

const char* numpy_descr(ElementType t) {
  switch (t) {
    case ElementType::U8: return "|u1";
    case ElementType::I8: return "|i1";
    case ElementType::I16: return "<i2";
    case ElementType::U16:
    case ElementType::BF16: return "<u2";
    case ElementType::F16: return "<f2";
    case ElementType::I32: return "<i4";
    case ElementType::U32: return "<u4";
    case ElementType::F32: return "<f4";
    case ElementType::I64: return "<i8";
    case ElementType::U64: return "<u8";
    case ElementType::F64: return "<f8";
  }
  return "|u1";
}

void write_bytes(const std::string& path, const std::string& header, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw util::InputError(path + ": cannot write");
  out << header;
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.flush();
  if (!out) throw util::InputError(path + ": writing failed");
}

}  // namespace

void write_npy(const std::string& path, ElementType type, const std::vector<uint8_t>& bytes) {
  const size_t count = bytes.size() / static_cast<size_t>(element_size(type));
  std::string dict = std::string("{'descr': '") + numpy_descr(type) + "', 'fortran_order': False, 'shape': (" +
                     std::to_string(count) + ",), }";
  // The header (magic, version, length, dict, padding, newline) is a multiple of 64 bytes.
  const size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');
  std::string header("\x93NUMPY\x01\x00", 8);
  header.push_back(static_cast<char>(dict.size() & 0xFF));
  header.push_back(static_cast<char>(dict.size() >> 8));
  write_bytes(path, header + dict, bytes);
}

void write_buffer_file(const std::string& path, ElementType type, const std::vector<uint8_t>& bytes) {
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0) write_npy(path, type, bytes);
  else write_bytes(path, "", bytes);
}

}  // namespace gpusim::workload
