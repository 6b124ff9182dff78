// Which pipes integer work takes (issue 13: issue-bound integer code). Volta onward have two
// 16-lane pipes per scheduler that take integer work: the ALU (shifts, logic, compares, IADD3,
// LEA) and the FMA pipe (FP32 and IMAD). ptxas also writes adds, moves and left shifts as
// IMAD.IADD / IMAD.MOV / IMAD.SHL to spread work over both. Each thread runs eight
// independent chains, STEPS steps per trip, `trips` trips; one block of 256 per SM.
#define STEPS 64

__device__ unsigned fold(const unsigned (&x)[8]) { return x[0] ^ x[1] ^ x[2] ^ x[3] ^ x[4] ^ x[5] ^ x[6] ^ x[7]; }

__device__ void seed(unsigned (&x)[8], unsigned c) {
#pragma unroll
  for (int i = 0; i < 8; ++i) x[i] = threadIdx.x * (2 * i + 1) + c;
}

// A right shift and an XOR per step and chain (SHF.R, LOP3): the ALU alone.
extern "C" __global__ void int_alu(unsigned* out, int trips, unsigned m, unsigned c) {
  unsigned x[8];
  seed(x, c);
#pragma unroll 1
  for (int t = 0; t < trips; ++t)
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
#pragma unroll
      for (int i = 0; i < 8; ++i) x[i] ^= x[i] >> 3;
  out[blockIdx.x * blockDim.x + threadIdx.x] = fold(x) * m;
}

// Two multiply-adds per step and chain (IMAD): the FMA pipe alone.
extern "C" __global__ void int_imad(unsigned* out, int trips, unsigned m, unsigned c) {
  unsigned x[8];
  seed(x, c);
#pragma unroll 1
  for (int t = 0; t < trips; ++t)
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
#pragma unroll
      for (int i = 0; i < 8; ++i) x[i] = x[i] * m + c;
  out[blockIdx.x * blockDim.x + threadIdx.x] = fold(x);
}

// Four chains of the first kind, four of the second, two multiply-adds per step: as much
// ALU as FMA work.
extern "C" __global__ void int_alu_imad(unsigned* out, int trips, unsigned m, unsigned c) {
  unsigned x[8];
  seed(x, c);
#pragma unroll 1
  for (int t = 0; t < trips; ++t)
#pragma unroll
    for (int s = 0; s < STEPS; ++s) {
#pragma unroll
      for (int i = 0; i < 4; ++i) x[i] ^= x[i] >> 3;
#pragma unroll
      for (int i = 4; i < 8; ++i) x[i] = (x[i] * m + c) * m + c;
    }
  out[blockIdx.x * blockDim.x + threadIdx.x] = fold(x);
}

// Each chain adds its neighbour: plain 32-bit adds, as ptxas spreads them.
extern "C" __global__ void int_add(unsigned* out, int trips, unsigned m, unsigned c) {
  unsigned x[8];
  seed(x, c);
#pragma unroll 1
  for (int t = 0; t < trips; ++t)
#pragma unroll
    for (int s = 0; s < STEPS; ++s) {
      unsigned y[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) y[i] = x[i] + x[(i + 1) & 7];
#pragma unroll
      for (int i = 0; i < 8; ++i) x[i] = y[i];
    }
  out[blockIdx.x * blockDim.x + threadIdx.x] = fold(x) * m;
}

// FP32 multiply-adds alone (FFMA: both halves of the FMA pipe).
extern "C" __global__ void fp32_ffma(unsigned* out, int trips, unsigned m, unsigned c) {
  float f[8];
  const float a = 1.0f + 1.0f / m, b = 1.0f / c;
#pragma unroll
  for (int i = 0; i < 8; ++i) f[i] = threadIdx.x * (i + 1);
#pragma unroll 1
  for (int t = 0; t < trips; ++t)
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
#pragma unroll
      for (int i = 0; i < 8; ++i) f[i] = f[i] * a + b;
  unsigned x[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) x[i] = __float_as_uint(f[i]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = fold(x);
}

// Four FP32 chains and four integer multiply-add chains, two per step each: FFMA and IMAD
// sharing the FMA pipe.
extern "C" __global__ void ffma_imad(unsigned* out, int trips, unsigned m, unsigned c) {
  float f[4];
  unsigned x[8];
  seed(x, c);
  const float a = 1.0f + 1.0f / m, b = 1.0f / c;
#pragma unroll
  for (int i = 0; i < 4; ++i) f[i] = threadIdx.x * (i + 1);
#pragma unroll 1
  for (int t = 0; t < trips; ++t)
#pragma unroll
    for (int s = 0; s < STEPS; ++s) {
#pragma unroll
      for (int i = 0; i < 4; ++i) f[i] = (f[i] * a + b) * a + b;
#pragma unroll
      for (int i = 4; i < 8; ++i) x[i] = (x[i] * m + c) * m + c;
    }
#pragma unroll
  for (int i = 0; i < 4; ++i) x[i] = __float_as_uint(f[i]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = fold(x);
}
