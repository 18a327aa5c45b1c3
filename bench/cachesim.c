/*
 * cachesim.c - throughput of the cache simulator on one core: uniform random
 * 8-byte reads over working sets sized for each level, and the access stream
 * of CSR SpMV over a real matrix (benchmark; not part of libaugur).
 *
 *   bench_cachesim [--machine FILE.yml] [--data MATRIX] [--accesses N] [--passes P]
 *   bench_cachesim --native [--data MATRIX] [--passes P]
 *
 * --native runs the SpMV kernel itself instead of simulating it (bench/cachesim.sh times it
 * natively and under cachegrind, for the slowdown of an independent simulator).
 *
 * Defaults: samples/machines/dev-xeon-2vcpu.yml (L1 32 KiB 8-way, L2 1 MiB
 * 16-way, L3 35.75 MiB 11-way), $AUGUR_DATASETS/mtx/road_usa_FLA.mtx.gz,
 * 16 M accesses per random stream, 3 SpMV passes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "augur/augur.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* CPU seconds of this process: the development machine is shared, so wall time is noisy. */
static double cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_levels(const struct augur_cachesim *sim)
{
    unsigned l, n = augur_cachesim_nlevels(sim);

    printf("    ");
    for (l = 0; l < n; l++) {
        struct augur_cache_counts c;

        augur_cachesim_counts(sim, l, -1, &c);
        printf("%s %5.1f%% hit  ", augur_cachesim_level_name(sim, l),
               c.accesses ? 100.0 * (double)c.hits / (double)c.accesses : 0.0);
    }
    {
        struct augur_cache_counts m;

        augur_cachesim_counts(sim, n, -1, &m);
        printf("memory %llu requests, rows %.1f%% hit\n", (unsigned long long)m.accesses,
               m.row_hits + m.row_misses
                   ? 100.0 * (double)m.row_hits / (double)(m.row_hits + m.row_misses)
                   : 0.0);
    }
}

static int new_sim(const struct augur_cache_config *cfg, struct augur_cachesim **sim)
{
    struct augur_diag d;

    augur_diag_init(&d);
    if (augur_cachesim_new(cfg, 1, 8, sim, &d)) {
        fprintf(stderr, "bench_cachesim: %s\n", d.msg);
        return 1;
    }
    return 0;
}

static const char *ws_name(uint64_t ws)
{
    return ws >= (1u << 30)     ? "1 GiB"
           : ws >= (8u << 20)   ? "8 MiB"
           : ws >= (512u << 10) ? "512 KiB"
                                : "16 KiB";
}

/*
 * Uniform random 8-byte reads over ws bytes, timed twice on a warm
 * simulator: one augur_cachesim_access() call per access, and through
 * augur_cachesim_access_batch() in chunks of 4096.
 */
static int random_stream(const struct augur_cache_config *cfg, uint64_t ws, uint64_t *addr,
                         size_t n)
{
    static struct augur_cache_access chunk[4096];
    struct augur_cachesim *sim;
    size_t i, j;
    double t0, t1, t2, c0, c1, c2;

    for (i = 0; i < n; i++)
        addr[i] = (next_rand() % ws) & ~(uint64_t)7;
    if (new_sim(cfg, &sim))
        return 1;
    for (i = 0; i < n / 4; i++)
        augur_cachesim_access(sim, 0, addr[i], 8, false, 0);
    augur_cachesim_reset_counts(sim);
    t0 = augur_now();
    c0 = cpu_now();
    for (i = 0; i < n; i++)
        augur_cachesim_access(sim, 0, addr[i], 8, false, (uint32_t)(i & 3));
    t1 = augur_now();
    augur_cachesim_reset_counts(sim); /* the levels printed below are the batch pass's */
    c1 = cpu_now();
    for (i = 0; i < n; i += 4096) {
        size_t m = n - i < 4096 ? n - i : 4096;

        for (j = 0; j < m; j++) {
            chunk[j].addr = addr[i + j];
            chunk[j].size = 8;
            chunk[j].thread = 0;
            chunk[j].is_write = 0;
            chunk[j].tag = (uint32_t)(j & 3);
        }
        augur_cachesim_access_batch(sim, chunk, m);
    }
    t2 = augur_now();
    c2 = cpu_now();
    printf("random %-8s %9zu accesses  single %6.1f M/s (cpu %6.1f)  batch %6.1f M/s (cpu %6.1f)\n",
           ws_name(ws), n, (double)n / (t1 - t0) / 1e6, (double)n / (c1 - c0) / 1e6,
           (double)n / (t2 - t1) / 1e6, (double)n / (c2 - c1) / 1e6);
    print_levels(sim);
    augur_cachesim_free(sim);
    return 0;
}

/* Hands one access to the simulator, or to the batch it fills (handed over when full). */
struct feed {
    struct augur_cachesim *sim;
    bool batch;
    size_t n;
    struct augur_cache_access buf[4096];
};

static inline void feed(struct feed *f, uint64_t addr, uint32_t size, bool w, uint32_t tag)
{
    struct augur_cache_access *a;

    if (!f->batch) {
        augur_cachesim_access(f->sim, 0, addr, size, w, tag);
        return;
    }
    a = &f->buf[f->n++];
    a->addr = addr;
    a->size = size;
    a->thread = 0;
    a->is_write = w;
    a->pad = 0;
    a->tag = tag;
    if (f->n == 4096) {
        augur_cachesim_access_batch(f->sim, f->buf, f->n);
        f->n = 0;
    }
}

/*
 * CSR SpMV y = A x: per row, rowptr[i + 1] (rowptr[0] once), per non-zero
 * col[j], val[j] and x[col[j]], then the store of y[i]. Arrays are laid out
 * one after the other, each 64-byte aligned, as malloc would place them.
 * Passed one call per access (batch false), or in batches of 4096 through
 * augur_cachesim_access_batch() as the interpreter passes its events.
 */
static int spmv_stream(const struct augur_cache_config *cfg, const struct augur_csr *A,
                       unsigned passes, bool batch)
{
    static struct feed f;
    uint64_t rowptr = 1u << 20, col, val, x, y, n = 0;
    uint32_t i, p;
    double t0, t1, c0, c1;

    col = (rowptr + 8 * ((uint64_t)A->nrows + 1) + 63) & ~(uint64_t)63;
    val = (col + 4 * A->nnz + 63) & ~(uint64_t)63;
    x = (val + 8 * A->nnz + 63) & ~(uint64_t)63;
    y = (x + 8 * (uint64_t)A->ncols + 63) & ~(uint64_t)63;
    if (new_sim(cfg, &f.sim))
        return 1;
    f.batch = batch;
    f.n = 0;
    t0 = augur_now();
    c0 = cpu_now();
    for (p = 0; p < passes; p++) {
        feed(&f, rowptr, 8, false, 0);
        n++;
        for (i = 0; i < A->nrows; i++) {
            uint64_t j, end = A->rowptr[i + 1];

            feed(&f, rowptr + 8 * ((uint64_t)i + 1), 8, false, 0);
            for (j = A->rowptr[i]; j < end; j++) {
                feed(&f, col + 4 * j, 4, false, 1);
                feed(&f, val + 8 * j, 8, false, 2);
                feed(&f, x + 8 * (uint64_t)A->col[j], 8, false, 3);
            }
            feed(&f, y + 8 * (uint64_t)i, 8, true, 4);
            n += 2 + 3 * (end - A->rowptr[i]);
        }
    }
    if (f.n)
        augur_cachesim_access_batch(f.sim, f.buf, f.n);
    t1 = augur_now();
    c1 = cpu_now();
    printf("spmv csr %-6s %u passes %10llu accesses %7.3f s  %6.1f M/s (cpu %6.1f)\n",
           batch ? "batch" : "single", passes, (unsigned long long)n, t1 - t0,
           (double)n / (t1 - t0) / 1e6, (double)n / (c1 - c0) / 1e6);
    print_levels(f.sim);
    {
        struct augur_cache_counts c;
        static const char *const names[] = { "rowptr", "col", "val", "x", "y" };
        unsigned t, last = augur_cachesim_nlevels(f.sim) - 1;

        printf("    %s misses per array:", augur_cachesim_level_name(f.sim, last));
        for (t = 0; t < 5; t++) {
            augur_cachesim_counts(f.sim, last, (int)t, &c);
            printf(" %s %llu", names[t], (unsigned long long)c.misses);
        }
        printf("\n");
    }
    augur_cachesim_free(f.sim);
    return 0;
}

/* y = A x for real, passes times; returns the seconds of the kernel alone. */
static double spmv_native(const struct augur_csr *A, unsigned passes, uint64_t *naccesses)
{
    double *x = malloc(sizeof(double) * A->ncols), *y = malloc(sizeof(double) * A->nrows);
    double *val = A->val, t0, t1, sum = 0;
    uint64_t i, j;
    unsigned p;

    if (!val) {
        /* a pattern matrix: read ones, as a real SpMV reads its values */
        val = malloc(sizeof(double) * (A->nnz ? A->nnz : 1));
        for (j = 0; j < A->nnz; j++)
            val[j] = 1.0;
    }
    for (i = 0; i < A->ncols; i++)
        x[i] = 1.0 + (double)(i % 7);
    t0 = augur_now();
    for (p = 0; p < passes; p++)
        for (i = 0; i < A->nrows; i++) {
            double acc = 0;

            for (j = A->rowptr[i]; j < A->rowptr[i + 1]; j++)
                acc += val[j] * x[A->col[j]];
            y[i] = acc;
        }
    t1 = augur_now();
    for (i = 0; i < A->nrows; i++)
        sum += y[i];
    printf("checksum %.6g\n", sum);
    *naccesses = (uint64_t)passes * (1 + 2 * (uint64_t)A->nrows + 3 * A->nnz);
    if (val != A->val)
        free(val);
    free(x);
    free(y);
    return t1 - t0;
}

int main(int argc, char **argv)
{
    const char *src = getenv("AUGUR_SOURCE_DIR"), *data_dir = getenv("AUGUR_DATASETS");
    char machine_path[1024], data_path[1024];
    size_t n = 16u << 20;
    unsigned passes = 3;
    struct augur_machine *m = NULL;
    struct augur_cache_config cfg;
    struct augur_diag d;
    struct augur_dataset *ds = NULL;
    struct augur_csr A;
    uint64_t *addr;
    char msg[1200];
    bool native = false;
    int i, rc = 0;

    snprintf(machine_path, sizeof(machine_path), "%s/samples/machines/dev-xeon-2vcpu.yml",
             src ? src : ".");
    snprintf(data_path, sizeof(data_path), "%s/mtx/road_usa_FLA.mtx.gz",
             data_dir ? data_dir : "../shared/datasets");
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--machine") == 0 && i + 1 < argc)
            snprintf(machine_path, sizeof(machine_path), "%s", argv[++i]);
        else if (strcmp(argv[i], "--data") == 0 && i + 1 < argc)
            snprintf(data_path, sizeof(data_path), "%s", argv[++i]);
        else if (strcmp(argv[i], "--accesses") == 0 && i + 1 < argc)
            n = (size_t)strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc)
            passes = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--native") == 0)
            native = true;
        else {
            fprintf(stderr, "usage: bench_cachesim [--machine FILE.yml] [--data MATRIX] "
                            "[--accesses N] [--passes P] [--native]\n");
            return 2;
        }
    }
    augur_diag_init(&d);
    if (native) {
        uint64_t nacc = 0;
        double t;

        if (augur_dataset_load(data_path, NULL, &ds, &d) || augur_dataset_csr(ds, true, &A, &d)) {
            augur_diag_format(&d, msg, sizeof(msg));
            fprintf(stderr, "bench_cachesim: %s\n", msg);
            augur_dataset_free(ds);
            return 1;
        }
        t = spmv_native(&A, passes, &nacc);
        printf("native spmv csr  %u passes %llu accesses %.4f s\n", passes,
               (unsigned long long)nacc, t);
        augur_csr_release(&A);
        augur_dataset_free(ds);
        return 0;
    }
    if (augur_machine_load(machine_path, &m, &d) ||
        augur_cache_config_from_machine(m, 1, &cfg, &d)) {
        augur_diag_format(&d, msg, sizeof(msg));
        fprintf(stderr, "bench_cachesim: %s\n", msg);
        augur_machine_free(m);
        return 1;
    }
    printf("machine %s (%s), one simulator thread\n", m->name, machine_path);
    addr = malloc(n * sizeof(*addr));
    if (!addr)
        return 1;
    rc |= random_stream(&cfg, 16u << 10, addr, n);
    rc |= random_stream(&cfg, 512u << 10, addr, n);
    rc |= random_stream(&cfg, 8u << 20, addr, n);
    rc |= random_stream(&cfg, 1u << 30, addr, n);
    free(addr);
    if (augur_dataset_load(data_path, NULL, &ds, &d) == 0 &&
        augur_dataset_csr(ds, true, &A, &d) == 0) {
        printf("matrix %s: %u rows, %llu non-zeros\n", data_path, A.nrows,
               (unsigned long long)A.nnz);
        rc |= spmv_stream(&cfg, &A, passes, false);
        rc |= spmv_stream(&cfg, &A, passes, true);
        augur_csr_release(&A);
    } else {
        augur_diag_format(&d, msg, sizeof(msg));
        printf("spmv: skipped (%s)\n", msg);
    }
    augur_dataset_free(ds);
    augur_machine_free(m);
    return rc;
}
