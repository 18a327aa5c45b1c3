/*
 * gpu_measure.c - times augur's CUDA kernels (kernels/{spmv,bfs,fv}/cuda.cu)
 * on real datasets, loaded by augur's own loaders so that the GPU sees the
 * same rows, order and ELLPACK layout the simulator sees; checks each result
 * against the C reference; prints one CSV row per dataset and kernel. Needs
 * an NVIDIA GPU: bench/gpu_measure.sh runs it, plain and under Nsight
 * Compute, and bench/gpu_compare.sh compares its rows with augur's
 * predictions. Built only when nvcc is found (bench, not a test).
 *
 * usage: bench_gpu_measure [--reps R] [--kernels LIST] [--max-width W] DATASET...
 * LIST is a comma-separated subset of spmv,spmvv,bfs,fv1,fv2 (default all; spmvv:
 * the warp-per-row SpMV).
 */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"
#include "bfs/kernel.h"
#include "fv/kernel.h"
#include "spmv/kernel.h"

#define FV_BLOCK 256 /* threads per block of the finite-volume kernels */

struct options {
    int reps;
    uint32_t max_width; /* ELLPACK wider than this is not run (Kernel 1's shared memory) */
    bool spmv, spmvv, bfs, fv1, fv2;
};

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

/* Largest relative difference between a GPU result and the reference. */
static double max_rel_diff(const double *got, const double *want, uint32_t n)
{
    double worst = 0.0;

    for (uint32_t i = 0; i < n; i++) {
        double d = fabs(got[i] - want[i]) / (fabs(want[i]) > 1.0 ? fabs(want[i]) : 1.0);

        if (!(d <= worst)) /* a NaN counts as the worst */
            worst = isnan(d) ? INFINITY : d;
    }
    return worst;
}

static void row(const char *dataset, const char *kernel, const struct augur_csr *csr,
                uint32_t width, int rounds, int reps, double seconds, const char *check)
{
    printf("%s,%s,%u,%llu,%u,%d,%d,%.9g,%s\n", dataset, kernel, csr->nrows,
           (unsigned long long)csr->nnz, width, rounds, reps, seconds, check);
    fflush(stdout);
}

static void run_spmv(const char *name, bool vector, const struct augur_csr *csr, const double *val,
                     const struct options *o)
{
    const char *kernel = vector ? "spmvv" : "spmv";
    double *x = malloc(csr->ncols * sizeof(double));
    double *y = malloc(csr->nrows * sizeof(double));
    double *want = malloc(csr->nrows * sizeof(double));
    double seconds = 0.0;

    if (!x || !y || !want) {
        row(name, kernel, csr, 0, 0, 0, 0.0, "no memory");
        goto out;
    }
    for (uint32_t j = 0; j < csr->ncols; j++)
        x[j] = 1.0 + (double)(j % 7) / 8.0;
    spmv_csr_ref(csr->nrows, csr->rowptr, csr->col, val, x, want);
    if ((vector ? spmv_csr_vector_cuda_run : spmv_csr_cuda_run)(
            csr->nrows, csr->nnz, csr->rowptr, csr->col, val, x, y, o->reps, &seconds)) {
        row(name, kernel, csr, 0, 0, o->reps, 0.0, "no GPU");
        goto out;
    }
    row(name, kernel, csr, 0, 1, o->reps, seconds,
        max_rel_diff(y, want, csr->nrows) < 1e-9 ? "ok" : "WRONG");
out:
    free(x);
    free(y);
    free(want);
}

static uint32_t max_degree_node(const struct augur_csr *csr)
{
    uint32_t best = 0;

    for (uint32_t v = 1; v < csr->nrows; v++)
        if (csr->rowptr[v + 1] - csr->rowptr[v] > csr->rowptr[best + 1] - csr->rowptr[best])
            best = v;
    return best;
}

static void run_bfs(const char *name, const struct augur_csr *csr)
{
    int32_t *level = malloc(csr->nrows * sizeof(int32_t));
    int32_t *want = malloc(csr->nrows * sizeof(int32_t));
    uint32_t src = max_degree_node(csr);
    double seconds = 0.0;
    int32_t rounds, want_rounds;

    if (!level || !want) {
        row(name, "bfs", csr, 0, 0, 0, 0.0, "no memory");
        goto out;
    }
    want_rounds = bfs_topo_ref(csr->nrows, csr->rowptr, csr->col, src, want);
    rounds = bfs_topo_cuda_run(csr->nrows, csr->nnz, csr->rowptr, csr->col, src, level, &seconds);
    if (rounds < 0) {
        row(name, "bfs", csr, 0, 0, 1, 0.0, "no GPU");
        goto out;
    }
    row(name, "bfs", csr, 0, rounds, 1, seconds,
        rounds >= want_rounds && !memcmp(level, want, csr->nrows * sizeof(int32_t)) ? "ok"
                                                                                    : "WRONG");
out:
    free(level);
    free(want);
}

static void run_fv(const char *name, int which, const struct augur_csr *csr,
                   const struct options *o)
{
    const char *kernel = which == 1 ? "fv1" : "fv2";
    struct augur_ell ell = { 0 };
    struct augur_diag diag = { 0 };
    double *a = NULL, *x = NULL, *y = NULL, *want = NULL;
    double seconds = 0.0;
    size_t slots;

    if (augur_csr_to_ell(csr, 0, &ell, &diag)) {
        row(name, kernel, csr, 0, 0, 0, 0.0, "no ELLPACK");
        return;
    }
    if (ell.width > o->max_width) {
        row(name, kernel, csr, ell.width, 0, 0, 0.0, "skipped: width");
        goto out;
    }
    slots = (size_t)ell.nrows * ell.width;
    a = malloc((slots ? slots : 1) * sizeof(double));
    x = malloc(ell.nrows * sizeof(double));
    y = malloc(ell.nrows * sizeof(double));
    want = malloc(ell.nrows * sizeof(double));
    if (!a || !x || !y || !want) {
        row(name, kernel, csr, ell.width, 0, 0, 0.0, "no memory");
        goto out;
    }
    /* A slot pointing at its own row adds a (x(i) - x(i)) = 0 whatever a is: padding gets 0. */
    for (size_t s = 0; s < slots; s++)
        a[s] = ell.idx[s] == s % ell.nrows ? 0.0 : (ell.val ? ell.val[s] : 1.0);
    for (uint32_t i = 0; i < ell.nrows; i++)
        x[i] = 1.0 + (double)(i % 5) / 4.0;
    fv_ell_ref(ell.nrows, ell.width, ell.idx, a, x, want);
    if (fv_ell_cuda_run(which, ell.nrows, ell.width, ell.idx, a, x, y, FV_BLOCK, o->reps,
                        &seconds)) {
        row(name, kernel, csr, ell.width, 0, o->reps, 0.0, "no GPU");
        goto out;
    }
    row(name, kernel, csr, ell.width, 1, o->reps, seconds,
        max_rel_diff(y, want, ell.nrows) < 1e-9 ? "ok" : "WRONG");
out:
    augur_ell_release(&ell);
    free(a);
    free(x);
    free(y);
    free(want);
}

static int parse_kernels(const char *list, struct options *o)
{
    char buf[128], *save = NULL;

    if (strlen(list) >= sizeof(buf))
        return -1;
    strcpy(buf, list);
    o->spmv = o->spmvv = o->bfs = o->fv1 = o->fv2 = false;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "spmv"))
            o->spmv = true;
        else if (!strcmp(t, "spmvv"))
            o->spmvv = true;
        else if (!strcmp(t, "bfs"))
            o->bfs = true;
        else if (!strcmp(t, "fv1"))
            o->fv1 = true;
        else if (!strcmp(t, "fv2"))
            o->fv2 = true;
        else
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct options o = { .reps = 20,
                         .max_width = 16,
                         .spmv = true,
                         .spmvv = true,
                         .bfs = true,
                         .fv1 = true,
                         .fv2 = true };
    static const struct option longopts[] = {
        { "reps", required_argument, NULL, 'r' },
        { "kernels", required_argument, NULL, 'k' },
        { "max-width", required_argument, NULL, 'w' },
        { NULL, 0, NULL, 0 },
    };
    int c, status = 0;

    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        if (c == 'r' && atoi(optarg) > 0)
            o.reps = atoi(optarg);
        else if (c == 'w' && atoi(optarg) > 0)
            o.max_width = (uint32_t)atoi(optarg);
        else if (c == 'k' && !parse_kernels(optarg, &o))
            continue;
        else if (c != 'r' && c != 'w') {
            fprintf(stderr,
                    "usage: bench_gpu_measure [--reps R] [--kernels spmv,spmvv,bfs,fv1,fv2] "
                    "[--max-width W] DATASET...\n");
            return 2;
        }
    }
    printf("dataset,kernel,rows,nnz,width,rounds,reps,seconds,check\n");
    for (int i = optind; i < argc; i++) {
        struct augur_dataset *ds = NULL;
        struct augur_csr csr = { 0 };
        struct augur_diag diag = { 0 };
        const char *name = base_name(argv[i]);
        double *val = NULL;

        if (augur_dataset_load(argv[i], NULL, &ds, &diag) ||
            augur_dataset_csr(ds, true, &csr, &diag)) {
            char msg[1200];

            augur_diag_format(&diag, msg, sizeof(msg));
            fprintf(stderr, "bench_gpu_measure: %s\n", msg);
            augur_dataset_free(ds);
            status = 1;
            continue;
        }
        val = csr.val;
        if (!val && (val = malloc((csr.nnz ? csr.nnz : 1) * sizeof(double))))
            for (uint64_t k = 0; k < csr.nnz; k++)
                val[k] = 1.0;
        if (o.spmv && val && csr.nrows == csr.ncols)
            run_spmv(name, false, &csr, val, &o);
        if (o.spmvv && val && csr.nrows == csr.ncols)
            run_spmv(name, true, &csr, val, &o);
        if (o.bfs && csr.nrows == csr.ncols)
            run_bfs(name, &csr);
        if (o.fv1 && csr.nrows == csr.ncols)
            run_fv(name, 1, &csr, &o);
        if (o.fv2 && csr.nrows == csr.ncols)
            run_fv(name, 2, &csr, &o);
        if (val != csr.val)
            free(val);
        augur_csr_release(&csr);
        augur_dataset_free(ds);
    }
    return status;
}
