/*
 * simulate.c - throughput of the skeleton interpreter alone, with a
 * subscriber that only reads the events, and feeding the cache simulator,
 * next to the native run of the same kernel (bench, not a test).
 *
 * usage: bench_simulate KERNEL.skel|KERNEL.c FUNCTION DATASET MACHINE [REPS]
 * The kernel is a C file parsed by the front end, or a .skel file. For a
 * function named spmv*, the native CSR pass is timed beside it. The last
 * two modes are augur_simulate() as `augur predict` runs its counted call
 * (the machine's branch predictor on every jump, its prefetch streams
 * telling near requests from far ones), on one thread and with the
 * simulator on a second thread beside the interpreter: wall time of the
 * run, which on one thread is its CPU time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#    include <omp.h>
#endif

#include "augur/augur.h"

static double cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const struct augur_diag *d)
{
    char msg[1200];

    augur_diag_format(d, msg, sizeof(msg));
    fprintf(stderr, "bench_simulate: %s\n", msg);
    exit(1);
}

struct sink {
    uint64_t sum;
};

static void on_events(void *ud, const struct augur_event *ev, size_t n)
{
    struct sink *s = ud;

    for (size_t i = 0; i < n; i++)
        s->sum += ev[i].addr ^ ev[i].node;
}

struct feed {
    struct augur_cachesim *sim;
    struct augur_cache_access buf[1024];
};

static void on_feed(void *ud, const struct augur_event *ev, size_t n)
{
    struct feed *f = ud;

    for (size_t i = 0; i < n; i++) {
        f->buf[i].addr = ev[i].addr;
        f->buf[i].size = ev[i].size;
        f->buf[i].thread = ev[i].thread;
        f->buf[i].is_write = (ev[i].flags & AUGUR_EV_WRITE) != 0;
        f->buf[i].tag = ev[i].node;
    }
    augur_cachesim_access_batch(f->sim, f->buf, n);
}

/* The native pass: y = A x over the same CSR (the reference kernel's loop). */
static double native_spmv(const struct augur_csr *a, int reps, double *check)
{
    double *x = malloc(a->ncols * sizeof(double)), *y = malloc(a->nrows * sizeof(double));
    double best = 1e30;

    for (uint32_t j = 0; j < a->ncols; j++)
        x[j] = 1.0 + j % 7;
    for (int r = 0; r < reps; r++) {
        double t0 = cpu_now(), t;

        for (uint32_t i = 0; i < a->nrows; i++) {
            double s = 0;

            for (uint64_t j = a->rowptr[i]; j < a->rowptr[i + 1]; j++)
                s += (a->val ? a->val[j] : 1.0) * x[a->col[j]];
            y[i] = s;
        }
        t = cpu_now() - t0;
        if (t < best)
            best = t;
    }
    *check = y[a->nrows / 2];
    free(x);
    free(y);
    return best;
}

int main(int argc, char **argv)
{
    struct augur_diag d;
    struct augur_skel *skel = NULL;
    struct augur_dataset *ds = NULL;
    struct augur_bound *b = NULL;
    struct augur_machine *m = NULL;
    struct augur_cache_config cfg;
    const struct augur_node *k;
    int reps = argc > 5 ? atoi(argv[5]) : 3;
    double best[5] = { 1e30, 1e30, 1e30, 1e30, 1e30 }, native, check;
    uint64_t events = 0;

    if (argc < 5) {
        fprintf(stderr, "usage: bench_simulate KERNEL.c|.skel FUNCTION DATASET MACHINE [REPS]\n");
        return 2;
    }
    augur_diag_init(&d);
    if (strstr(argv[1], ".skel")) {
        if (augur_skel_load(argv[1], &skel, &d) || augur_skel_infer_bindings(skel, &d))
            die(&d);
    } else {
        struct augur_fe *fe;
        struct augur_fe_opts fo;

        memset(&fo, 0, sizeof(fo));
        fo.function = argv[2];
        if (augur_fe_new(&fe, &d) || augur_fe_parse(fe, argv[1], &fo, &skel, &d))
            die(&d);
        augur_fe_free(fe);
    }
    k = augur_skel_find_kernel(skel, argv[2]);
    if (!k) {
        fprintf(stderr, "bench_simulate: no kernel %s\n", argv[2]);
        return 1;
    }
    if (augur_dataset_load(argv[3], NULL, &ds, &d) || augur_bound_new(ds, NULL, &b, &d) ||
        augur_machine_load(argv[4], &m, &d) || augur_cache_config_from_machine(m, 1, &cfg, &d))
        die(&d);
    for (int r = 0; r < 2 * reps; r++) {
        struct augur_sim_opts so;
        struct augur_sim_profile *prof;
        int mode = 3 + r % 2;

        memset(&so, 0, sizeof(so));
        so.interp.nthreads = 1;
        augur_bp_config_from_machine(m, &so.interp.predictor);
        augur_sim_streams_from_machine(m, &so);
        so.no_flush = true;
#ifdef _OPENMP
        omp_set_num_threads(mode == 3 ? 1 : 2);
#else
        if (mode == 4)
            continue;
#endif
        if (augur_simulate(skel, k, b, &cfg, &so, &prof, NULL, &d))
            die(&d);
        if (prof->seconds < best[mode])
            best[mode] = prof->seconds;
        augur_sim_profile_free(prof);
    }
    for (int mode = 0; mode < 3; mode++) {
        for (int r = 0; r < reps; r++) {
            struct augur_interp *in;
            struct sink s = { 0 };
            struct feed *f = NULL;
            double t0, t;

            if (augur_interp_new_bound(skel, k, b, NULL, &in, &d))
                die(&d);
            if (mode == 1)
                augur_interp_subscribe(in, on_events, &s);
            if (mode == 2) {
                f = calloc(1, sizeof(*f));
                if (augur_cachesim_new(&cfg, 1, 1u << 16, &f->sim, &d))
                    die(&d);
                augur_interp_subscribe(in, on_feed, f);
            }
            t0 = cpu_now();
            if (augur_interp_run(in, &d))
                die(&d);
            t = cpu_now() - t0;
            if (t < best[mode])
                best[mode] = t;
            events = augur_interp_stats(in)->events;
            if (f) {
                augur_cachesim_free(f->sim);
                free(f);
            }
            augur_interp_free(in);
        }
    }
    native = 0;
    check = 0;
    if (strstr(argv[2], "spmv")) {
        struct augur_csr csr;

        if (augur_dataset_csr(ds, true, &csr, &d))
            die(&d);
        native = native_spmv(&csr, reps, &check);
        augur_csr_release(&csr);
    }
    printf("kernel %s on %s: %llu accesses per pass (best of %d, CPU time)\n", argv[2], argv[3],
           (unsigned long long)events, reps);
    printf("%-37s %10s %14s %12s\n", "mode", "seconds", "M accesses/s", "x native");
    {
        static const char *const what[5] = { "interpreter, no subscriber",
                                             "interpreter, reading the events",
                                             "interpreter + cache simulator",
                                             "augur_simulate, one thread",
                                             "augur_simulate, two threads (wall)" };

        for (int mode = 0; mode < 5; mode++) {
            if (best[mode] >= 1e30)
                continue;
            printf("%-37s %10.4f %14.1f", what[mode], best[mode], events / best[mode] / 1e6);
            if (native > 0)
                printf(" %12.1f\n", best[mode] / native);
            else
                printf(" %12s\n", "-");
        }
    }
    if (native > 0)
        printf("%-37s %10.4f %14.1f %12.1f   (y check %g)\n", "native SpMV pass (C, -O2)", native,
               events / native / 1e6, 1.0, check);
    augur_machine_free(m);
    augur_bound_free(b);
    augur_dataset_free(ds);
    augur_skel_free(skel);
    return 0;
}
