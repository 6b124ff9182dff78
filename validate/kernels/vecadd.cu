// c[i] = a[i] + b[i]: the simplest streaming kernel (coalesced loads and stores).
extern "C" __global__ void vecadd(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
