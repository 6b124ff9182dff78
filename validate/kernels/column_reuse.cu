// How conv_columns (validate/corpus/stencil.cu) gets its rows: each 256-thread block reads 17
// rows of one 1 KB column strip, and blocks of neighbouring rows share 16 of them. The same
// kernel reading past the L1 (ld.global.cg) says how much the L1 serves; a copy that records
// each block's SM and start time says which blocks met on one SM.
#define R1 8

extern "C" __global__ void conv_columns_cg(const float* in, const float* w, float* out, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= nx) return;
  float sum = 0.0f;
  for (int k = -R1; k <= R1; ++k) sum += __ldcg(&w[k + R1]) * __ldcg(&in[min(max(y + k, 0), ny - 1) * nx + x]);
  out[y * nx + x] = sum;
}

extern "C" __global__ void conv_columns_placed(const float* in, const float* w, float* out, int nx, int ny,
                                               unsigned* sm_of_block, unsigned long long* start_of_block) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (threadIdx.x == 0) {
    unsigned sm;
    unsigned long long t;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    sm_of_block[blockIdx.y * gridDim.x + blockIdx.x] = sm;
    start_of_block[blockIdx.y * gridDim.x + blockIdx.x] = t;
  }
  if (x >= nx) return;
  float sum = 0.0f;
  for (int k = -R1; k <= R1; ++k) sum += w[k + R1] * in[min(max(y + k, 0), ny - 1) * nx + x];
  out[y * nx + x] = sum;
}
