// Times dput_replica (dput.S) in a loop and the core clock beside it: a chain of dependent adds,
// one a cycle, so that ns convert to the core's own cycles on a host without cycle counters.
// Build: gcc -O2 -o replica main.c dput.S ; run it a few times and take the fastest.
#include <stdio.h>
#include <time.h>

int dput_replica(int *dentry_count);

static double elapsed_ns(struct timespec a, struct timespec b) {
  return (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
}

static double core_ghz(void) {
  const long n = 400000000;
  long x = 0;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  __asm__ volatile("mov %1, %%rcx\n1:\n add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n sub $4, %%rcx\n jnz 1b"
                   : "+r"(x) : "r"(n) : "rcx");
  clock_gettime(CLOCK_MONOTONIC, &b);
  return (double)n / elapsed_ns(a, b);
}

int main(void) {
  static int count = 2000000000;  // stays above 1: dput's fast path every time
  const int calls = 100000000;
  for (int rep = 0; rep < 5; rep++) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < calls; i++) {
      dput_replica(&count);
      __asm__ volatile("" ::: "memory");
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    const double ns = elapsed_ns(a, b) / calls, ghz = core_ghz();
    printf("%.2f ns a call at %.2f GHz: %.1f cycles\n", ns, ghz, ns * ghz);
  }
  return 0;
}
