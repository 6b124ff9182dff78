#include "workload/npy.hpp"

#include <fstream>
#include <iterator>

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

void write_bytes(const std::string& path, const std::string& header, std::span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw util::InputError(path + ": cannot write");
  out << header;
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.flush();
  if (!out) throw util::InputError(path + ": writing failed");
}

}  // namespace

void write_npy(const std::string& path, ElementType type, std::span<const uint8_t> bytes) {
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

util::Bytes read_npy(const std::string& path, ElementType type, int64_t count, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw util::InputError(what + ": no " + path + " was written");
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < 10 || file.compare(0, 6, "\x93NUMPY") != 0) throw util::InputError(what + ": " + path + " is not a .npy file");
  const bool v1 = file[6] == 1;
  const size_t length_bytes = v1 ? 2 : 4;
  size_t header_len = 0;
  for (size_t i = 0; i < length_bytes; ++i) header_len |= static_cast<size_t>(static_cast<uint8_t>(file[8 + i])) << (8 * i);
  const size_t data_at = 8 + length_bytes + header_len;
  if (data_at > file.size()) throw util::InputError(what + ": " + path + " is truncated");
  const std::string header = file.substr(8 + length_bytes, header_len);
  const auto field = [&](const std::string& key) {
    const size_t at = header.find("'" + key + "'");
    if (at == std::string::npos) return std::string();
    size_t from = header.find(':', at) + 1;
    while (from < header.size() && header[from] == ' ') ++from;
    const char open = header[from];
    const size_t to = open == '\'' ? header.find('\'', from + 1) + 1 : open == '(' ? header.find(')', from) + 1
                                                                                  : header.find_first_of(",}", from);
    return header.substr(from, to - from);
  };
  const std::string descr = field("descr"), shape = field("shape");
  const std::string want = std::string("'") + numpy_descr(type) + "'";
  if (descr != want && !(descr == "'<u1'" && want == "'|u1'") && !(descr == "'<i1'" && want == "'|i1'"))
    throw util::InputError(what + ": " + path + " holds dtype " + descr + ", the buffer is " + element_type_name(type) +
                           " (" + want + "): cast the result with .astype(...)");
  if (field("fortran_order") == "True") throw util::InputError(what + ": " + path + " is in Fortran order");
  std::string want_shape = "(";
  want_shape.append(std::to_string(count)).append(",)");
  if (shape != want_shape)
    throw util::InputError(what + ": " + path + " has shape " + shape + ", the buffer is (" + std::to_string(count) + ",)");
  const size_t bytes = static_cast<size_t>(count) * static_cast<size_t>(element_size(type));
  if (file.size() - data_at != bytes) throw util::InputError(what + ": " + path + " has the wrong amount of data");
  return util::Bytes(file.begin() + static_cast<long>(data_at), file.end());
}

bool is_npy_path(const std::string& path) { return path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0; }

void write_buffer_file(const std::string& path, ElementType type, std::span<const uint8_t> bytes) {
  if (is_npy_path(path)) write_npy(path, type, bytes);
  else write_bytes(path, "", bytes);
}

}  // namespace gpusim::workload
