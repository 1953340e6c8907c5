/* The cost of one path component on the machine this runs on, measured the only way a real kernel
 * lets us: lstat() of a cached file at depth 1, 2, ... N, each in a tight loop, and the slope of the
 * time per call against the number of components. Everything a call does once (entry and exit,
 * getname, the leaf's getattr and copy to user) is in the intercept; the slope is the per-component
 * step of the walk (permission check, name hash, dcache lookup, step to the child), all hot in L1.
 *
 *   stat_depth DIR MAX_DEPTH ITERATIONS NAME...
 *
 * For each NAME (a directory name; its length is what the hash and the compare read) it builds
 * DIR/NAME/NAME/.../NAME with a file "file.c" at every level, times ITERATIONS lstat()s of each
 * depth (best of 25 samples), and fits cycles = a + b * components by least squares. Each sample
 * is converted to cycles by the clock measured right after it with a chain of dependent adds (one
 * per cycle on every x86 core since the P6): on a shared host the clock moves. Used by
 * scripts/measure-component-cost.sh; docs/reference/component-cost.md has the numbers it gave and
 * how the model uses them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { kMaxPath = 8192, kRepeats = 25 };

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Cycles per nanosecond now: n dependent adds take n cycles. Measured beside every sample, since a
 * shared host's clock moves between samples. */
static double clock_ghz(long n) {
  long a = 0;
  double t0 = now_ns();
  for (long i = 0; i < n; i++) __asm__ volatile("add $1, %0" : "+r"(a));
  return (double)n / (now_ns() - t0);
}

static int touch(const char* path) {
  int fd = open(path, O_CREAT | O_WRONLY, 0644);
  if (fd < 0) return -1;
  return close(fd);
}

static int build(const char* name, int depth) {
  char dir[kMaxPath] = "";
  if (touch("file.c") != 0) return -1;
  for (int d = 1; d <= depth; d++) {
    char file[kMaxPath];
    if (strlen(dir) + strlen(name) + 16 >= sizeof dir) return -1;
    if (d > 1) strcat(dir, "/");
    strcat(dir, name);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return -1;
    snprintf(file, sizeof file, "%s/file.c", dir);
    if (touch(file) != 0) return -1;
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s DIR MAX_DEPTH ITERATIONS NAME...\n", argv[0]);
    return 2;
  }
  const int max_depth = atoi(argv[2]);
  const long iterations = atol(argv[3]);
  if (max_depth < 1 || max_depth > 64 || iterations < 1) {
    fprintf(stderr, "MAX_DEPTH must be 1..64 and ITERATIONS at least 1\n");
    return 2;
  }
  if (chdir(argv[1]) != 0) {
    perror(argv[1]);
    return 1;
  }
  printf("# clock: %.2f GHz (dependent adds)\n", clock_ghz(400000000));
  for (int k = 4; k < argc; k++) {
    const char* name = argv[k];
    if (strchr(name, '/') || build(name, max_depth) != 0) {
      fprintf(stderr, "cannot build the tree of '%s' in %s\n", name, argv[1]);
      return 1;
    }
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    printf("# name '%s' (%zu characters): components, cycles per lstat (best of %d x %ld)\n", name, strlen(name),
           kRepeats, iterations);
    for (int d = 0; d <= max_depth; d++) {
      char path[kMaxPath] = "";
      struct stat st;
      for (int i = 0; i < d; i++) {
        strcat(path, name);
        strcat(path, "/");
      }
      strcat(path, "file.c");
      /* Cycles per call: each sample's time times the clock measured right after it; the
       * best of kRepeats samples, since interference only ever adds time. */
      double best = 1e300;
      for (int r = 0; r < kRepeats; r++) {
        double t0 = now_ns();
        for (long i = 0; i < iterations; i++) lstat(path, &st);
        double per_ns = (now_ns() - t0) / (double)iterations;
        double per_cycles = per_ns * clock_ghz(20000000);
        if (per_cycles < best) best = per_cycles;
      }
      const double x = d + 1;
      printf("%d %.0f\n", d + 1, best);
      sx += x;
      sy += best;
      sxx += x * x;
      sxy += x * best;
    }
    const double n = max_depth + 1;
    const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    printf("slope '%s': %.1f cycles per component, intercept %.0f cycles\n", name, slope, (sy - slope * sx) / n);
  }
  return 0;
}
