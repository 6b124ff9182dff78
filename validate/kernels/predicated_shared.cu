// What a shared-memory access with every lane predicated off costs (validate/probes/
// predicated_shared.py; issue 13: ptxas predicates the plain scan's up-sweep, so its idle warps
// issue their LDS and STS with no lane on; gpusim charges those nothing and has the scan 18%
// fast per wave). Every warp of a 1024-thread block runs `trips` trips of 8 LDS (or STS) under
// a predicate set from `on` at run time: 1 every lane on, 0 every lane off. `stride` is the
// words between lanes' addresses: 1 conflict-free, 32 all lanes in one bank.

__device__ __forceinline__ unsigned lds_if(bool p, unsigned addr) {
  unsigned v = 0;
  asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %1, 0;\n @q ld.shared.u32 %0, [%2];\n}"
               : "+r"(v) : "r"(static_cast<unsigned>(p)), "r"(addr));
  return v;
}

__device__ __forceinline__ void sts_if(bool p, unsigned addr, unsigned v) {
  asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %0, 0;\n @q st.shared.u32 [%1], %2;\n}"
               :: "r"(static_cast<unsigned>(p)), "r"(addr), "r"(v) : "memory");
}

extern "C" __global__ void loads_if(unsigned* out, int trips, int on, int stride) {
  __shared__ unsigned s[32 * 33 * 8];
  for (int i = threadIdx.x; i < 32 * 33 * 8; i += blockDim.x) s[i] = i;
  __syncthreads();
  const bool p = on != 0;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(s)) +
                        4u * ((threadIdx.x & 31) * stride + (threadIdx.x >> 5) % 8);
  unsigned acc = 0;
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int k = 0; k < 8; ++k) acc += lds_if(p, base + 4u * 33u * 32u * (k % 2));
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" __global__ void stores_if(unsigned* out, int trips, int on, int stride) {
  __shared__ unsigned s[32 * 33 * 8];
  const bool p = on != 0;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(s)) +
                        4u * ((threadIdx.x & 31) * stride + (threadIdx.x >> 5) % 8);
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int k = 0; k < 8; ++k) sts_if(p, base + 4u * 33u * 32u * (k % 2), t + k);
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}
