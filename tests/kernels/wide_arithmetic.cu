// 128-bit integer arithmetic (carry chains: add.cc, addc, mad.lo.cc, madc), 64-bit and
// floating-point atomics, and a shared-memory offset formed in 32 bits with a negative
// term (it wraps on the GPU), as a sequence-alignment kernel writes it.
extern "C" __global__ void wide_arithmetic(const unsigned long long* in, unsigned long long* out,
                                           unsigned long long* total, double* dsum, int n) {
  __shared__ int row[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = threadIdx.x;
  row[t] = i;
  __syncthreads();
  if (i >= n) return;
  const unsigned __int128 a = static_cast<unsigned __int128>(in[i]) * in[(i + 1) % n];
  const unsigned __int128 b = a + (static_cast<unsigned __int128>(in[(i + 2) % n]) << 64) + in[(i + 3) % n];
  const int* shifted = row - 17;  // a negative offset, indexed back into range
  out[i] = static_cast<unsigned long long>(b >> 64) ^ static_cast<unsigned long long>(b) ^ shifted[17 + (t ^ 1)];
  atomicAdd(total, in[i] & 0xffff);
  atomicMax(total + 1, in[i]);
  atomicAdd(dsum, static_cast<double>(in[i] % 1000) * 0.5);
}
