// The uninstrumented twin of weft_bench.cpp's read loop.
int g_plain_twin[64] = {1, 2, 3};
__attribute__((noinline)) long plain_read_loop(long n) {
  long sum = 0;
  for (long i = 0; i < n; ++i) sum += g_plain_twin[i & 63];
  return sum;
}
