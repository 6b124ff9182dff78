// Lab 6's starter kernel: each thread runs `chains` independent chains (1, 2 or 4) of n
// fused multiply-adds. Within a chain every FMA waits for the one before; the chains of a
// thread are independent, so a scheduler can issue one chain's FMA while another's is in
// flight, from the same warp (instruction-level parallelism) or from another warp.
extern "C" __global__ void fma_chains(float* out, int n, int chains, float a, float b) {
  float x0 = threadIdx.x, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
  if (chains == 1) {
    for (int i = 0; i < n; ++i) x0 = x0 * a + b;
  } else if (chains == 2) {
    for (int i = 0; i < n; ++i) {
      x0 = x0 * a + b;
      x1 = x1 * a + b;
    }
  } else {
    for (int i = 0; i < n; ++i) {
      x0 = x0 * a + b;
      x1 = x1 * a + b;
      x2 = x2 * a + b;
      x3 = x3 * a + b;
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3;
}
