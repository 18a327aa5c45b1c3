/*
 * calib_bench.c - the portable microbenchmark kernels of `augur
 * calibrate`: streaming load, copy and triad, pointer chasing with one or
 * more chains in flight, gathers and scatters, and a dependent chain of
 * additions for the clock (module: machine).
 */
#include "calib_int.h"

double calib_load_c(const double *a, size_t n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;

    for (size_t i = 0; i < n; i += 8) {
        s0 += a[i];
        s1 += a[i + 1];
        s2 += a[i + 2];
        s3 += a[i + 3];
        s4 += a[i + 4];
        s5 += a[i + 5];
        s6 += a[i + 6];
        s7 += a[i + 7];
    }
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
}

void calib_copy_c(double *restrict b, const double *restrict a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        b[i] = a[i];
}

void calib_triad_c(double *restrict a, const double *restrict b, const double *restrict c, double s,
                   size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
}

uintptr_t calib_chase(void **heads, int k, uint64_t steps)
{
    void *p[CALIB_MAX_CHAINS];
    uintptr_t sum = 0;

    if (k == 1) {
        void *q = heads[0];

        /* Eight links an iteration: the loop's own work hides under the loads. */
        for (uint64_t s = 0; s + 8 <= steps; s += 8) {
            q = *(void **)q;
            q = *(void **)q;
            q = *(void **)q;
            q = *(void **)q;
            q = *(void **)q;
            q = *(void **)q;
            q = *(void **)q;
            q = *(void **)q;
        }
        for (uint64_t s = steps - steps % 8; s < steps; s++)
            q = *(void **)q;
        heads[0] = q;
        return (uintptr_t)q;
    }
    for (int j = 0; j < k; j++)
        p[j] = heads[j];
    for (uint64_t s = 0; s < steps; s++) {
        for (int j = 0; j < k; j++)
            p[j] = *(void **)p[j];
    }
    for (int j = 0; j < k; j++) {
        heads[j] = p[j];
        sum ^= (uintptr_t)p[j];
    }
    return sum;
}

static uint64_t xorshift(uint64_t *s)
{
    uint64_t x = *s;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}

double calib_gather_c(const double *x, uint32_t mask, uint64_t n, uint64_t *state)
{
    double s0 = 0, s1 = 0;

    /* Two generators, so that the next index does not wait for one chain of shifts. */
    for (uint64_t i = 0; i < n * 8; i++) {
        s0 += x[xorshift(&state[0]) & mask];
        s1 += x[xorshift(&state[1]) & mask];
    }
    return s0 + s1;
}

void calib_scatter_c(double *x, uint32_t mask, uint64_t n, uint64_t *state)
{
    for (uint64_t i = 0; i < n * 8; i++) {
        x[xorshift(&state[0]) & mask] = 1.0;
        x[xorshift(&state[1]) & mask] = 2.0;
    }
}

static volatile uint64_t calib_one = 1;

uint64_t calib_add_chain(uint64_t n)
{
    uint64_t v = n;
#if defined(__x86_64__) && defined(__GNUC__)
    /* Loaded, so that neither the compiler nor the renamer knows it is 1. */
    uint64_t one = calib_one;
#endif

    for (uint64_t i = 0; i < n; i++) {
#if defined(__x86_64__) && defined(__GNUC__)
        /*
         * Sixteen dependent adds, each waiting for the one before (1 cycle).
         * Register to register: Intel's cores since Golden Cove (Sapphire
         * Rapids) fold adds of small immediates into the renamer, several a
         * cycle, and `add $1` chains read 2.6 times the clock there.
         */
        __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                         : "+r"(v)
                         : "r"(one));
#else
        /* Elsewhere a volatile round trip per addition: a rough estimate only. */
        volatile uint64_t t = v;

        for (int j = 0; j < 16; j++)
            t = t + 1;
        v = t;
#endif
    }
    return v;
}

double calib_update(double *y, const uint32_t *idx, const double *w, uint32_t len, uint64_t reps)
{
    for (uint64_t r = 0; r < reps; r++)
        for (uint32_t e = 0; e < len; e++)
            y[idx[e]] += w[e];
    return y[idx[0]];
}

double calib_atomic_update(double *y, const uint32_t *idx, const double *w, uint32_t len,
                           uint64_t reps)
{
    for (uint64_t r = 0; r < reps; r++)
        for (uint32_t e = 0; e < len; e++) {
#ifdef _OPENMP
#    pragma omp atomic
            y[idx[e]] += w[e];
#else
            double *p = &y[idx[e]], old, want;

            __atomic_load(p, &old, __ATOMIC_RELAXED);
            do
                want = old + w[e];
            while (!__atomic_compare_exchange(p, &old, &want, false, __ATOMIC_SEQ_CST,
                                              __ATOMIC_RELAXED));
#endif
        }
    return y[idx[0]];
}

#if defined(__x86_64__) && defined(__GNUC__)
#    define FMA_TARGET __attribute__((target("fma")))
#else
#    define FMA_TARGET
#endif

/* Its own function: the target attribute lets the compiler use the instruction here alone. */
FMA_TARGET static double fma_chain(const double *w, uint32_t len, uint64_t reps)
{
    double s = 0, k = 0.5;

    for (uint64_t r = 0; r < reps; r++)
        for (uint32_t e = 0; e < len; e++)
            s = __builtin_fma(w[e], k, s);
    return s;
}

double calib_fp_chain(const double *w, uint32_t len, uint64_t reps, bool fma)
{
    double s = 0;

    if (fma)
        return fma_chain(w, len, reps);
    for (uint64_t r = 0; r < reps; r++)
        for (uint32_t e = 0; e < len; e++)
            s += w[e];
    return s;
}

/* Keeps v in a register the compiler cannot see into: no vector division of the 8. */
#if defined(__x86_64__) && defined(__GNUC__)
#    define OPAQUE(v) __asm__ volatile("" : "+x"(v))
#elif defined(__aarch64__) && defined(__GNUC__)
#    define OPAQUE(v) __asm__ volatile("" : "+w"(v))
#else
#    define OPAQUE(v) ((void)0)
#endif

double calib_fdiv(double w, double k, uint64_t reps)
{
    double a0 = 1, a1 = 1.1, a2 = 1.2, a3 = 1.3, a4 = 1.4, a5 = 1.5, a6 = 1.6, a7 = 1.7;

    for (uint64_t r = 0; r < reps; r++) {
        a0 = k / (a0 + w);
        a1 = k / (a1 + w);
        a2 = k / (a2 + w);
        a3 = k / (a3 + w);
        a4 = k / (a4 + w);
        a5 = k / (a5 + w);
        a6 = k / (a6 + w);
        a7 = k / (a7 + w);
        OPAQUE(a0);
        OPAQUE(a1);
        OPAQUE(a2);
        OPAQUE(a3);
        OPAQUE(a4);
        OPAQUE(a5);
        OPAQUE(a6);
        OPAQUE(a7);
    }
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

bool calib_has_fma(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("fma");
#elif defined(__aarch64__)
    return true;
#else
    return false;
#endif
}

/* taken + 1 when bit is set, through a conditional jump (a compiler would make a cmov of the C). */
static inline uint64_t jump_on(uint64_t bit, uint64_t taken)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__ volatile("test %1, %1\n\tjz 1f\n\tadd $1, %0\n1:" : "+r"(taken) : "r"(bit));
#else
    if (bit)
        taken++;
#endif
    return taken;
}

uint64_t calib_branch(uint64_t mask, uint64_t n, uint64_t *state)
{
    uint64_t s = *state, taken = 0;

    for (uint64_t i = 0; i < n; i++) {
        uint64_t bit;

        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        bit = s & mask;
        taken = jump_on(bit, taken);
    }
    *state = s;
    return taken;
}

uint64_t calib_branch_table(const uint8_t *bits, uint64_t mask, uint64_t n)
{
    uint64_t taken = 0;

    for (uint64_t i = 0; i < n; i++) {
        taken = jump_on(bits[i & mask], taken);
    }
    return taken;
}
