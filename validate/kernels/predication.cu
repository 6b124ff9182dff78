// What a warp pays for a short if-then it skips (issue 13: block_sums, a shared tree whose
// levels are `if (tid < half)` blocks, is 29% fast in gpusim). ptxas turns such blocks into
// predicated instructions (validate/probes/if_conversion.py): a warp whose lanes all fail the
// condition still issues the body. Each trip's condition (k & 7) < lim is the same for the
// whole warp: lim 8 runs every trip's body, 0 none, 4 half. Each thread touches only its own
// words, so there are no races.

// The body: two shared loads, an add and a shared store, as one level of block_sums.
extern "C" __global__ void skip_shared(unsigned* out, int lim, int n) {
  __shared__ unsigned s[512];
  volatile unsigned* vs = s;
  const unsigned t = threadIdx.x;
  s[t] = t;
  s[t + 256] = 1;
  for (int k = 0; k < n; ++k)
    if ((k & 7) < lim) vs[t] = vs[t] + vs[t + 256];
  out[blockIdx.x * blockDim.x + t] = vs[t];
}

// The body: four dependent FP32 multiply-adds.
extern "C" __global__ void skip_math(float* out, int lim, int n) {
  float f = threadIdx.x * 0.001f;
  for (int k = 0; k < n; ++k)
    if ((k & 7) < lim) {
      f = fmaf(f, 0.5f, 1.0f);
      f = fmaf(f, 0.5f, 1.0f);
      f = fmaf(f, 0.5f, 1.0f);
      f = fmaf(f, 0.5f, 1.0f);
    }
  out[blockIdx.x * blockDim.x + threadIdx.x] = f;
}

// The body: a global load from a 16 KB table (L1 hits after the first trips) and an add.
extern "C" __global__ void skip_global(unsigned* out, const unsigned* table, int lim, int n) {
  unsigned x = 0;
  for (int k = 0; k < n; ++k)
    if ((k & 7) < lim) x += table[(threadIdx.x + 32 * k) & 4095];
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
