/* GPU calibration microbenchmarks for augur's machine file (Pai et al. AGP'17 §6.5): launch and round-trip
 * costs, service time versus requests in flight for L2 hits, DRAM row-buffer hits and misses, L2
 * and DRAM read bandwidth, SM clock. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_check.h"

/* Sizes: the chase buffer holds 2^27 sectors (4 GiB), the L2 chase buffer 2^18 (8 MiB). */
#define SECTOR_WORDS 8u /* 32-byte sector in 4-byte words */
#define BIG_BITS     27u
#define L2_BITS      18u
#define L1_BITS      10u /* 1024 sectors: a 32 KiB cycle every SM's L1 holds */
#define FLUSH_BYTES  (256ull << 20)
#define L2BW_BYTES   (16ull << 20)
#define MAX_WARPS    4096 /* one warp per block: 32 blocks/SM x 132 SMs = 4224 resident */
#define MAX_M        (MAX_WARPS * 32)
#define REPS         3

enum layout { RANDOM, SEQUENTIAL };

/* A bijection on nbits-bit integers (odd multiplies and xor-shifts are each invertible), so
 * distinct node numbers land on distinct sectors in a scattered order. */
__device__ static unsigned scatter(unsigned x, unsigned nbits, unsigned key)
{
    unsigned mask = (1u << nbits) - 1u;
    x = (x ^ key) & mask;
    x = (x * 0x9E3779B1u) & mask;
    x ^= x >> (nbits / 2u);
    x = (x * 0x85EBCA77u) & mask;
    x ^= x >> (nbits / 3u);
    return x & mask;
}

/* Sector of node s of chain c: RANDOM scatters node numbers over the buffer (each load a random
 * DRAM row); SEQUENTIAL gives chain c consecutive sectors from c * spacing (one DRAM row after
 * another, regions far apart). */
__device__ static unsigned node_sector(int lay, unsigned c, unsigned s, unsigned len,
                                       unsigned spacing, unsigned base, unsigned nbits,
                                       unsigned key)
{
    if (lay == RANDOM)
        return scatter(base + c * len + s, nbits, key);
    return c * spacing + s;
}

/* Links m chains of len nodes into cycles: node s points to node s+1, the last to the first. */
__global__ void build(unsigned *buf, unsigned *starts, int lay, unsigned m, unsigned len,
                      unsigned spacing, unsigned base, unsigned nbits, unsigned key)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= (size_t)m * len)
        return;
    unsigned c = (unsigned)(k / len), s = (unsigned)(k % len);
    unsigned here = node_sector(lay, c, s, len, spacing, base, nbits, key);
    unsigned next = node_sector(lay, c, (s + 1u) % len, len, spacing, base, nbits, key);
    buf[(size_t)here * SECTOR_WORDS] = next * SECTOR_WORDS;
    if (s == 0)
        starts[c] = here * SECTOR_WORDS;
}

/* One warp per block; lanes 0..lanes-1 each follow their own chain of dependent loads through L2
 * (__ldcg: L1 never hits). The final index is stored so the chain cannot be dropped. */
__global__ void __launch_bounds__(32) chase(const unsigned *buf, const unsigned *starts,
                                            unsigned lanes, unsigned steps, unsigned *out)
{
    if (threadIdx.x >= lanes)
        return;
    unsigned c = blockIdx.x * lanes + threadIdx.x;
    unsigned p = starts[c];
    for (unsigned i = 0; i < steps; i++)
        p = __ldcg(buf + p);
    out[c] = p;
}

/*
 * L1 hits: each chain walks the whole cycle once to bring it into its SM's L1,
 * then times steps more loads (__ldca: cached in L1) with its SM's clock; the
 * blocks of one launch may land on any SM, so the warming is in the same kernel.
 */
__global__ void __launch_bounds__(32)
    chase_l1(const unsigned *buf, const unsigned *starts, unsigned lanes, unsigned steps,
             unsigned *out, long long *cycles)
{
    if (threadIdx.x >= lanes)
        return;
    unsigned c = blockIdx.x * lanes + threadIdx.x;
    unsigned p = starts[c];
    for (unsigned i = 0; i < (1u << L1_BITS); i++)
        p = __ldca(buf + p);
    long long t0 = clock64();
    for (unsigned i = 0; i < steps; i++)
        p = __ldca(buf + p);
    cycles[c] = clock64() - t0;
    out[c] = p;
}

/* Writes then reads a buffer several times the L2 so that no chain node stays cached. */
__global__ void flush(unsigned *scratch, size_t n, unsigned v, unsigned *sink)
{
    size_t i0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (size_t i = i0; i < n; i += stride)
        scratch[i] = v + (unsigned)i;
    for (size_t i = i0; i < n; i += stride)
        acc += __ldcg(scratch + i);
    if (acc == 0x9E3779B1u)
        sink[0] = acc;
}

/* Coalesced 16-byte reads of the whole buffer, reps times; each thread's sum is stored. */
__global__ void stream(const uint4 *a, size_t n, unsigned reps, unsigned *out)
{
    size_t i0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (unsigned r = 0; r < reps; r++)
        for (size_t i = i0; i < n; i += stride) {
            uint4 v = __ldcg(a + i);
            acc += v.x ^ v.y ^ v.z ^ v.w;
        }
    out[i0] = acc;
}

__global__ void empty(void)
{
}

/* Spins one thread for a given number of SM cycles and reports how many it counted. */
__global__ void spin(long long cycles, long long *out)
{
    long long t0 = clock64(), t;
    do
        t = clock64();
    while (t - t0 < cycles);
    out[0] = t - t0;
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double median3(double *v)
{
    double a = v[0], b = v[1], c = v[2];
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    if (b > c)
        b = c;
    return a > b ? a : b;
}

struct ctx {
    unsigned *big, *l2buf, *scratch, *starts, *out, *sink;
    unsigned *h_starts, *h_out;
    cudaEvent_t e0, e1;
    int sms;
};

static void do_flush(struct ctx *x, unsigned v)
{
    flush<<<x->sms * 8, 256>>>(x->scratch, FLUSH_BYTES / 4, v, x->sink);
    CKLAUNCH();
}

static void do_build(struct ctx *x, unsigned *buf, int lay, unsigned m, unsigned len,
                     unsigned spacing, unsigned base, unsigned nbits, unsigned key)
{
    size_t n = (size_t)m * len;
    build<<<(unsigned)((n + 255) / 256), 256>>>(buf, x->starts, lay, m, len, spacing, base, nbits,
                                                key);
    CKLAUNCH();
    CK(cudaMemcpy(x->h_starts, x->starts, m * sizeof(unsigned), cudaMemcpyDeviceToHost));
}

/* Runs one chase of m chains for steps loads each and returns the elapsed ms; every chain must
 * be back at its start (steps is a multiple of the cycle length). */
static float do_chase(struct ctx *x, const unsigned *buf, unsigned m, unsigned steps,
                      const char *what)
{
    unsigned warps = m < MAX_WARPS ? m : MAX_WARPS, lanes = m / warps;
    float ms = 0;
    CK(cudaMemset(x->out, 0xff, m * sizeof(unsigned)));
    CK(cudaEventRecord(x->e0));
    chase<<<warps, 32>>>(buf, x->starts, lanes, steps, x->out);
    CKLAUNCH();
    CK(cudaEventRecord(x->e1));
    CK(cudaEventSynchronize(x->e1));
    CK(cudaEventElapsedTime(&ms, x->e0, x->e1));
    CK(cudaMemcpy(x->h_out, x->out, m * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (unsigned c = 0; c < m; c++)
        if (x->h_out[c] != x->h_starts[c]) {
            fprintf(stderr, "gpu_calib: %s m=%u: chain %u ended at %u, not its start %u\n", what, m,
                    c, x->h_out[c], x->h_starts[c]);
            exit(1);
        }
    return ms;
}

/* Loads per chain: enough for 2^23 loads in all, between 64 and 2048. */
static unsigned steps_for(unsigned m)
{
    unsigned s = (1u << 23) / m;
    return s < 64 ? 64 : s > 2048 ? 2048 : s;
}

/* Measures one curve; prints the YAML list after the latencies as comments. */
static void curve(struct ctx *x, const char *name)
{
    char line[4096];
    size_t used = 0;
    unsigned key = 0x2545F491u, base = 0;
    printf(
        "  # %s: m, ns between completed loads (elapsed / loads), latency ns (elapsed / steps)\n",
        name);
    for (unsigned m = 1; m <= MAX_M; m *= 2) {
        unsigned steps = steps_for(m);
        double ns[REPS], lat[REPS];
        for (int r = 0; r < REPS; r++) {
            float ms;
            if (!strcmp(name, "l2_hit")) {
                /* Cycles of len nodes over the 8 MiB buffer, walked steps / len times. */
                unsigned len = (1u << L2_BITS) / m < steps ? (1u << L2_BITS) / m : steps;
                if (r == 0) {
                    do_build(x, x->l2buf, RANDOM, m, len, 0, 0, L2_BITS, key);
                    do_chase(x, x->l2buf, m, steps, name); /* warm L2 */
                }
                ms = do_chase(x, x->l2buf, m, steps, name);
            } else if (!strcmp(name, "row_miss")) {
                /* Fresh random sectors for each run, then L2 flushed of the build's writes. */
                do_build(x, x->big, RANDOM, m, steps, 0, base, BIG_BITS, key);
                base += m * steps;
                do_flush(x, (unsigned)r);
                ms = do_chase(x, x->big, m, steps, name);
            } else {
                if (r == 0)
                    do_build(x, x->big, SEQUENTIAL, m, steps, (1u << BIG_BITS) / m, 0, BIG_BITS,
                             key);
                do_flush(x, (unsigned)r);
                ms = do_chase(x, x->big, m, steps, name);
            }
            ns[r] = ms * 1e6 / ((double)m * steps);
            lat[r] = ms * 1e6 / steps;
        }
        double s = median3(ns), l = median3(lat);
        printf("  #   m %6u  steps %4u  ns %9.4f  latency %8.1f ns  (runs %.4f %.4f %.4f)\n", m,
               steps, s, l, ns[0], ns[1], ns[2]);
        used += (size_t)snprintf(line + used, sizeof line - used, "%s[%u, %.4g]",
                                 m == 1 ? "" : ", ", m, s);
    }
    printf("  %s: [%s]\n", name, line);
}

static int cmp_ll(const void *a, const void *b)
{
    long long u = *(const long long *)a, v = *(const long long *)b;
    return (u > v) - (u < v);
}

/*
 * The l1_hit curve: every chain on one random cycle of the 32 KiB buffer, from
 * its own node; S(m) = the chains' median latency / m (m chains in flight, as
 * the other curves' elapsed / loads is), at the SM clock ghz.
 */
static void l1_curve(struct ctx *x, double ghz)
{
    char line[4096];
    size_t used = 0;
    unsigned len = 1u << L1_BITS, *cyc = (unsigned *)malloc(len * sizeof(unsigned));
    long long *d_cyc, *h_cyc = (long long *)malloc(MAX_M * sizeof(long long));
    if (!cyc || !h_cyc) {
        fprintf(stderr, "gpu_calib: out of host memory\n");
        exit(1);
    }
    CK(cudaMalloc((void **)&d_cyc, MAX_M * sizeof(long long)));
    do_build(x, x->l2buf, RANDOM, 1, len, 0, 0, L1_BITS, 0x6C8E9CF5u);
    /* the cycle's nodes in order, read back from the device */
    {
        unsigned *h_buf = (unsigned *)malloc((size_t)SECTOR_WORDS * 4 << L1_BITS),
                 p = x->h_starts[0];
        if (!h_buf) {
            fprintf(stderr, "gpu_calib: out of host memory\n");
            exit(1);
        }
        CK(cudaMemcpy(h_buf, x->l2buf, (size_t)SECTOR_WORDS * 4 << L1_BITS,
                      cudaMemcpyDeviceToHost));
        for (unsigned i = 0; i < len; i++) {
            cyc[i] = p;
            p = h_buf[p];
        }
        if (p != x->h_starts[0]) {
            fprintf(stderr, "gpu_calib: l1_hit: the cycle is not %u nodes long\n", len);
            exit(1);
        }
        free(h_buf);
    }
    printf("  # l1_hit: m, ns between completed loads (median latency / m), median latency ns\n");
    for (unsigned m = 1; m <= MAX_M; m *= 2) {
        unsigned warps = m < MAX_WARPS ? m : MAX_WARPS, lanes = m / warps, steps = 2 * len;
        double ns[REPS], lat[REPS];
        for (unsigned c = 0; c < m; c++)
            x->h_starts[c] = cyc[(c * 37u) % len];
        CK(cudaMemcpy(x->starts, x->h_starts, m * sizeof(unsigned), cudaMemcpyHostToDevice));
        for (int r = 0; r < REPS; r++) {
            chase_l1<<<warps, 32>>>(x->l2buf, x->starts, lanes, steps, x->out, d_cyc);
            CKLAUNCH();
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(x->h_out, x->out, m * sizeof(unsigned), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h_cyc, d_cyc, m * sizeof(long long), cudaMemcpyDeviceToHost));
            for (unsigned c = 0; c < m; c++)
                if (x->h_out[c] != x->h_starts[c]) {
                    fprintf(stderr, "gpu_calib: l1_hit m=%u: chain %u did not return\n", m, c);
                    exit(1);
                }
            qsort(h_cyc, m, sizeof(long long), cmp_ll);
            lat[r] = h_cyc[m / 2] / (double)steps / ghz;
            ns[r] = lat[r] / m;
        }
        double sv = median3(ns), l = median3(lat);
        printf("  #   m %6u  steps %4u  ns %9.5f  latency %8.2f ns  (runs %.5f %.5f %.5f)\n", m,
               steps, sv, l, ns[0], ns[1], ns[2]);
        used += (size_t)snprintf(line + used, sizeof line - used, "%s[%u, %.4g]",
                                 m == 1 ? "" : ", ", m, sv);
    }
    printf("  l1_hit: [%s]\n", line);
    CK(cudaFree(d_cyc));
    free(cyc);
    free(h_cyc);
}

/* Read bandwidth over bytes, reps passes per kernel, median of REPS kernels, in GB/s. */
static double bandwidth(struct ctx *x, const void *buf, size_t bytes, unsigned reps)
{
    double gbs[REPS];
    stream<<<x->sms * 8, 256>>>((const uint4 *)buf, bytes / 16, 1, x->out); /* warm */
    CKLAUNCH();
    for (int r = 0; r < REPS; r++) {
        float ms = 0;
        CK(cudaEventRecord(x->e0));
        stream<<<x->sms * 8, 256>>>((const uint4 *)buf, bytes / 16, reps, x->out);
        CKLAUNCH();
        CK(cudaEventRecord(x->e1));
        CK(cudaEventSynchronize(x->e1));
        CK(cudaEventElapsedTime(&ms, x->e0, x->e1));
        gbs[r] = (double)bytes * reps / (ms * 1e6);
    }
    return median3(gbs);
}

int main(void)
{
    struct ctx x;
    struct cudaDeviceProp prop;
    int dev = 0, clock_khz = 0, mem_khz = 0;
    time_t t = time(NULL);
    char date[64];

    memset(&x, 0, sizeof x);
    CK(cudaSetDevice(dev));
    CK(cudaGetDeviceProperties(&prop, dev));
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
    CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    x.sms = prop.multiProcessorCount;
    printf("# bench/gpu/gpu_calib on %s: %d SMs, L2 %d bytes, %.1f GiB memory, max clock %d MHz, "
           "memory clock %d MHz, cc %d.%d; %s\n",
           prop.name, x.sms, prop.l2CacheSize, prop.totalGlobalMem / 1073741824.0, clock_khz / 1000,
           mem_khz / 1000, prop.major, prop.minor, date);

    CK(cudaMalloc((void **)&x.big, (size_t)SECTOR_WORDS * 4 << BIG_BITS));
    CK(cudaMalloc((void **)&x.l2buf, (size_t)SECTOR_WORDS * 4 << L2_BITS));
    CK(cudaMalloc((void **)&x.scratch, FLUSH_BYTES));
    CK(cudaMalloc((void **)&x.starts, MAX_M * sizeof(unsigned)));
    CK(cudaMalloc((void **)&x.out, (size_t)x.sms * 8 * 256 * sizeof(unsigned)));
    CK(cudaMalloc((void **)&x.sink, sizeof(unsigned)));
    CK(cudaMemset(x.big, 0x5a, (size_t)SECTOR_WORDS * 4 << BIG_BITS));
    CK(cudaMemset(x.l2buf, 0, (size_t)SECTOR_WORDS * 4 << L2_BITS));
    x.h_starts = (unsigned *)malloc(MAX_M * sizeof(unsigned));
    x.h_out = (unsigned *)malloc(MAX_M * sizeof(unsigned));
    if (!x.h_starts || !x.h_out) {
        fprintf(stderr, "gpu_calib: out of host memory\n");
        return 1;
    }
    CK(cudaEventCreate(&x.e0));
    CK(cudaEventCreate(&x.e1));
    if ((size_t)x.sms * 8 * 256 < MAX_M) {
        fprintf(stderr, "gpu_calib: %d SMs is too few for the output buffer\n", x.sms);
        return 1;
    }

    /* Launch + synchronize, and the BFS round: 4-byte copy in, launch, 4-byte copy out. */
    int flag = 0;
    double t0;
    for (int i = 0; i < 100; i++) {
        empty<<<1, 1>>>();
        CKLAUNCH();
        CK(cudaDeviceSynchronize());
    }
    t0 = now_us();
    for (int i = 0; i < 1000; i++) {
        empty<<<1, 1>>>();
        CKLAUNCH();
        CK(cudaDeviceSynchronize());
    }
    double host_launch_us = (now_us() - t0) / 1000;
    /*
     * launch_us is what a launch adds to a kernel timed as augur's CUDA kernels
     * time themselves (the run functions of the kernels' cuda.cu): CUDA events around it.
     */
    static float event_ms[1000];
    for (int i = 0; i < 1000; i++) {
        CK(cudaEventRecord(x.e0));
        empty<<<1, 1>>>();
        CKLAUNCH();
        CK(cudaEventRecord(x.e1));
        CK(cudaEventSynchronize(x.e1));
        CK(cudaEventElapsedTime(&event_ms[i], x.e0, x.e1));
    }
    qsort(event_ms, 1000, sizeof(float), [](const void *a, const void *b) {
        float u = *(const float *)a, v = *(const float *)b;
        return (u > v) - (u < v);
    });
    double launch_us = 1e3 * event_ms[500];
    /* the round as timed one by one: the VM's host timers are noisy, so the median of 1000 */
    static double round_trip[1000];
    for (int i = 0; i < 1100; i++) {
        t0 = now_us();
        CK(cudaMemcpy(x.sink, &flag, sizeof flag, cudaMemcpyHostToDevice));
        empty<<<1, 1>>>();
        CKLAUNCH();
        CK(cudaMemcpy(&flag, x.sink, sizeof flag, cudaMemcpyDeviceToHost));
        if (i >= 100)
            round_trip[i - 100] = now_us() - t0;
    }
    qsort(round_trip, 1000, sizeof(double), [](const void *a, const void *b) {
        double u = *(const double *)a, v = *(const double *)b;
        return (u > v) - (u < v);
    });
    double round_us = round_trip[500];

    /* SM clock: cycles counted by clock64 over the kernel's event time (about 0.1 s). */
    long long *d_cycles, cycles = 0;
    float spin_ms = 0;
    CK(cudaMalloc((void **)&d_cycles, sizeof(long long)));
    spin<<<1, 1>>>(1000000, d_cycles);
    CKLAUNCH();
    CK(cudaEventRecord(x.e0));
    spin<<<1, 1>>>(200000000LL, d_cycles);
    CKLAUNCH();
    CK(cudaEventRecord(x.e1));
    CK(cudaEventSynchronize(x.e1));
    CK(cudaEventElapsedTime(&spin_ms, x.e0, x.e1));
    CK(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
    double ghz = cycles / (spin_ms * 1e6);

    /* Streaming reads: 16 MiB of the scratch buffer (L2 resident), the 4 GiB buffer (DRAM). */
    CK(cudaMemset(x.scratch, 0x3c, L2BW_BYTES));
    double l2_gbs = bandwidth(&x, x.scratch, L2BW_BYTES, 400);
    double dram_gbs = bandwidth(&x, x.big, (size_t)SECTOR_WORDS * 4 << BIG_BITS, 4);

    printf("# launch_us: empty kernel <<<1,1>>> between two CUDA events, median of 1000 (min %.3f, "
           "max %.3f); launched and synchronized from the host: %.3f us each, mean of 1000\n",
           1e3 * event_ms[0], 1e3 * event_ms[999], host_launch_us);
    printf("# round_trip_us: 4-byte cudaMemcpy in + empty kernel + 4-byte cudaMemcpy out "
           "(kernels/bfs/cuda.cu's round), median of 1000 (min %.3f, max %.3f)\n",
           round_trip[0], round_trip[999]);
    printf("# sm_clock_ghz: %.4f (%lld clock64 cycles in %.3f ms)\n", ghz, cycles, spin_ms);
    printf("# l2_bandwidth_gbs: %.1f (16 MiB read 400 times, __ldcg, %d blocks x 256)\n", l2_gbs,
           x.sms * 8);
    printf("# dram_bandwidth_gbs: %.1f (4 GiB read 4 times, %d blocks x 256)\n", dram_gbs,
           x.sms * 8);
    printf("# curves: m chains of dependent 4-byte __ldcg loads (lane 0 of m one-warp blocks up "
           "to %d warps, then m / %d lanes per warp); median of %d runs\n",
           MAX_WARPS, MAX_WARPS, REPS);
    printf("#   l2_hit: random sectors of an 8 MiB buffer, warmed; row_miss: fresh random sectors "
           "of a 4 GiB buffer each run; row_hit: consecutive sectors of a private region per "
           "chain (4 GiB / m apart); 256 MiB written and read before each DRAM run\n");
    printf("gpu:\n");
    printf("  launch_us: %.3f\n", launch_us);
    printf("  round_trip_us: %.3f\n", round_us);
    fflush(stdout);
    curve(&x, "l2_hit");
    fflush(stdout);
    curve(&x, "row_hit");
    fflush(stdout);
    curve(&x, "row_miss");
    fflush(stdout);
    l1_curve(&x, ghz);

    CK(cudaFree(d_cycles));
    CK(cudaFree(x.big));
    CK(cudaFree(x.l2buf));
    CK(cudaFree(x.scratch));
    CK(cudaFree(x.starts));
    CK(cudaFree(x.out));
    CK(cudaFree(x.sink));
    CK(cudaEventDestroy(x.e0));
    CK(cudaEventDestroy(x.e1));
    free(x.h_starts);
    free(x.h_out);
    return 0;
}
