// What .ftz does to a comparison and to a float-to-integer conversion on the GPU
// (validate/probes/ftz_semantics.py): the oracle for the executor's setp.ftz and cvt.ftz
// (tests/exec/ftz_semantics_test.cpp). Each thread takes one pair of f32 bit patterns (a, b)
// and writes one word per instruction: a predicate as 0 or 1, an integer as its bits.
// Inline PTX, so that the instruction under test is the one the PTX names.

#define SETP(cmp, out, x, y) \
  asm volatile("{\n .reg .pred p;\n setp." cmp ".f32 p, %1, %2;\n selp.u32 %0, 1, 0, p;\n}" : "=r"(out) : "f"(x), "f"(y))
#define CVT(mods, out, x) asm volatile("cvt." mods ".f32 %0, %1;" : "=r"(out) : "f"(x))

constexpr int kOutputs = 12;

extern "C" __global__ void ftz_semantics(const unsigned* a, const unsigned* b, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]);
  unsigned r[kOutputs];
  SETP("lt.ftz", r[0], x, y);
  SETP("lt", r[1], x, y);
  SETP("eq.ftz", r[2], x, y);
  SETP("eq", r[3], x, y);
  SETP("gtu.ftz", r[4], x, y);
  SETP("gtu", r[5], x, y);
  CVT("rmi.ftz.s32", r[6], x);
  CVT("rmi.s32", r[7], x);
  CVT("rpi.ftz.s32", r[8], x);
  CVT("rpi.s32", r[9], x);
  CVT("rpi.ftz.u32", r[10], x);
  CVT("rpi.u32", r[11], x);
  for (int k = 0; k < kOutputs; ++k) out[i * kOutputs + k] = r[k];
}

// NaN to integers of each width, from f32 and f64 (PTX ISA, cvt: 0 from f32 to 32 bits or
// fewer, else 1 << (BitWidth(dst) - 1)): one word each, 64-bit results as low then high.
extern "C" __global__ void nan_conversions(unsigned* out) {
  const float f = __uint_as_float(0x7FC00000u);
  const double d = __longlong_as_double(0x7FF8000000000000ll);
  unsigned long long s64, u64;
  asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(out[0]) : "f"(f));
  asm volatile("cvt.rzi.u32.f32 %0, %1;" : "=r"(out[1]) : "f"(f));
  asm volatile("cvt.rzi.s32.f64 %0, %1;" : "=r"(out[2]) : "d"(d));
  asm volatile("cvt.rzi.u32.f64 %0, %1;" : "=r"(out[3]) : "d"(d));
  asm volatile("cvt.rzi.s64.f32 %0, %1;" : "=l"(s64) : "f"(f));
  asm volatile("cvt.rzi.u64.f64 %0, %1;" : "=l"(u64) : "d"(d));
  out[4] = static_cast<unsigned>(s64);
  out[5] = static_cast<unsigned>(s64 >> 32);
  out[6] = static_cast<unsigned>(u64);
  out[7] = static_cast<unsigned>(u64 >> 32);
}
