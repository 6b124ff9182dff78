// Integer remainder by a divisor that changes every step (issue 13: the divergent reduction's
// `tid % (2 * stride)` is 22% fast in gpusim). SASS has no divider: it computes the divisor's
// reciprocal (I2F.U32.RP, MUFU.RCP, F2I, two IMADs) and then the quotient and remainder.
// micro_int_rem's divisor is loop-invariant, so ptxas computes the reciprocal once, outside
// the loop; here it cannot.
extern "C" __global__ void int_rem_varying(unsigned* out, int n, int d) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = threadIdx.x;
  for (int i = 0; i < n; ++i) x = (x * 7u + 13u) % static_cast<unsigned>(d + i);
  out[t] = x;
}
