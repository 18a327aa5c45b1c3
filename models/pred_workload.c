/*
 * pred_workload.c - what a workload is besides its counts: freeing it and
 * scaling a sample's counts to the full data's (module: models).
 */
#include <stddef.h>
#include <stdlib.h>

#include "pred_int.h"

void augur_workload_release(struct augur_workload *w)
{
    if (!w)
        return;
    augur_free(w->lines);
    augur_free(w->rounds);
    w->lines = NULL;
    w->nlines = 0;
    w->rounds = NULL;
    w->nrounds = 0;
}

/* The counts of a line, as (offset, doubles): what a sample scales; lengths and runs are not. */
#define COUNT(field)                                                      \
    {                                                                     \
        offsetof(struct augur_work_line, field),                          \
            sizeof(((struct augur_work_line *)0)->field) / sizeof(double) \
    }

static const struct {
    size_t off, n;
} counts[] = {
    COUNT(accesses),   COUNT(loads),           COUNT(stores),        COUNT(bytes),
    COUNT(irregular),  COUNT(irregular_bytes), COUNT(row_misses),    COUNT(branch_misses),
    COUNT(guessed),    COUNT(chained),         COUNT(chain_dist),    COUNT(chain_lens),
    COUNT(atomics),    COUNT(carried_iters),   COUNT(carried_runs),  COUNT(carried_lens),
    COUNT(served),     COUNT(irr_served),      COUNT(atomic_served), COUNT(transfers),
    COUNT(dep_misses), COUNT(guessed_dep),     COUNT(fill_bytes),    COUNT(writeback_bytes),
    COUNT(instr),      COUNT(elems),           COUNT(carried),
};

static double *count_at(struct augur_work_line *l, size_t c, size_t k)
{
    return (double *)(void *)((char *)l + counts[c].off) + k;
}

static void scale_line(struct augur_work_line *l, double f)
{
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
        for (size_t k = 0; k < counts[c].n; k++)
            *count_at(l, c, k) *= f;
}

static void scale_kernel_wide(struct augur_workload *w, double requests, double flops,
                              double footprint)
{
    for (unsigned v = 0; v < AUGUR_WORK_MAX_LEVELS; v++) {
        w->irr_requests[v] *= requests;
        w->irr_hits[v] *= requests;
    }
    w->flops *= flops;
    w->footprint_bytes *= footprint;
}

void augur_workload_scale(struct augur_workload *w, double f)
{
    for (size_t i = 0; i < w->nlines; i++)
        scale_line(&w->lines[i], f);
    scale_line(&w->total, f);
    scale_kernel_wide(w, f, f, f);
}

/*
 * Each count of the whole kernel by the mean of the lines' factors weighted
 * by their share of it (where the lines hold none of it, fallback): the
 * total's counts stay the sum of the lines' where they were.
 */
void augur_workload_scale_lines(struct augur_workload *w, const double *f, double fallback)
{
    double irr = 0, irr_f = 0, fp = 0, fp_f = 0;

    for (size_t i = 0; i < w->nlines; i++) {
        const struct augur_work_line *l = &w->lines[i];
        double e = 0;

        for (int k = 0; k < AUGUR_OPK_COUNT; k++)
            e += l->elems[k];
        irr += l->irregular;
        irr_f += l->irregular * f[i];
        fp += e;
        fp_f += e * f[i];
    }
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
        for (size_t k = 0; k < counts[c].n; k++) {
            double sum = 0, sum_f = 0;

            for (size_t i = 0; i < w->nlines; i++) {
                double *x = count_at(&w->lines[i], c, k);

                sum += *x;
                sum_f += *x * f[i];
                *x *= f[i];
            }
            *count_at(&w->total, c, k) *= sum > 0 ? sum_f / sum : fallback;
        }
    scale_kernel_wide(w, irr > 0 ? irr_f / irr : fallback, fp > 0 ? fp_f / fp : fallback, fallback);
}
