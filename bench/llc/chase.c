/*
 * chase.c - what the last-level cache holds, three ways (bench/llc/chase.sh):
 * a random chase over the lines of a working set (each load waits for the
 * one before), a chase over one line per 4 KiB page (the TLB's reach, with
 * few lines), and independent random loads over the working set (as a
 * gather's, overlapped). Prints ns per load, the best of three timings.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random cycle through n slots of stride bytes (slot k at k * stride + (k % spread) * 64). */
static char *make_cycle(size_t n, size_t stride, size_t *bytes)
{
    size_t spread = stride > 64 ? stride / 64 : 1, *perm = malloc(n * sizeof(*perm));
    char *a;

    *bytes = n * stride;
    a = aligned_alloc(4096, (*bytes + 4095) / 4096 * 4096);
    if (!a || !perm)
        exit(1);
    memset(a, 0, *bytes);
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = next() % (i + 1), t = perm[i];

        perm[i] = perm[j];
        perm[j] = t;
    }
#define SLOT(k) (a + (k)*stride + ((k) % spread) * 64)
    for (size_t i = 0; i < n; i++)
        *(char **)SLOT(perm[i]) = SLOT(perm[(i + 1) % n]);
    free(perm);
    return a;
}

static double chase(size_t n, size_t stride)
{
    size_t bytes, steps = 4000000;
    char *a = make_cycle(n, stride, &bytes), *p = a;
    double best = 1e30;

    for (size_t i = 0; i < 2 * n; i++)
        p = *(char **)p;
    for (int r = 0; r < 3; r++) {
        double t0 = now();

        for (size_t i = 0; i < steps; i++)
            p = *(char **)p;
        if ((now() - t0) / (double)steps < best)
            best = (now() - t0) / (double)steps;
    }
    if (!p)
        puts("");
    free(a);
    return best * 1e9;
}

static double independent(size_t bytes)
{
    size_t n = bytes / 64, m = 4000000;
    char *a = aligned_alloc(4096, n * 64);
    uint32_t *idx = malloc(m * sizeof(*idx));
    volatile double sink;
    double sum = 0, best = 1e30;

    if (!a || !idx)
        exit(1);
    memset(a, 0, n * 64);
    for (size_t i = 0; i < m; i++)
        idx[i] = (uint32_t)(next() % n);
    for (int r = 0; r < 4; r++) {
        double t0 = now();

        for (size_t i = 0; i < m; i++)
            sum += *(double *)(a + (size_t)idx[i] * 64 + 8);
        if (r && (now() - t0) / (double)m < best) /* the first pass warms */
            best = (now() - t0) / (double)m;
    }
    sink = sum;
    (void)sink;
    free(a);
    free(idx);
    return best * 1e9;
}

int main(void)
{
    static const double mib[] = { 1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32, 64 };
    static const size_t pages[] = { 512, 2048, 4096, 8192, 16384, 65536 };

    printf("%8s %14s %20s\n", "MiB", "chase ns", "independent ns/load");
    for (size_t i = 0; i < sizeof(mib) / sizeof(mib[0]); i++) {
        size_t bytes = (size_t)(mib[i] * 1048576);

        printf("%8.0f %14.1f %20.2f\n", mib[i], chase(bytes / 64, 64), independent(bytes));
    }
    printf("\n%8s %14s %14s\n", "pages", "KiB of lines", "chase ns");
    for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
        printf("%8zu %14zu %14.1f\n", pages[i], pages[i] * 64 / 1024, chase(pages[i], 4096));
    return 0;
}
