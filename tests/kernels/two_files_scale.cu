// Second file: its own __device__ total (a separate variable: each .cu is its own module
// without -rdc) and a __constant__ weight table the host fills.
__device__ unsigned int total;
__constant__ unsigned int weights[16];

extern "C" __global__ void weigh(const unsigned* counts, unsigned* out) {
  const unsigned t = threadIdx.x;
  if (t < 16) {
    out[t] = counts[t] * weights[t];
    atomicAdd(&total, 1u);
  }
  __syncthreads();
  if (t == 0) out[16] = total;  // 16 on the first launch: the other file's total is not this one
}
