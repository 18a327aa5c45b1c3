/*
 * pred_workload.c - what a workload is besides its counts: freeing it and
 * scaling a sample's counts to the full data's (module: models).
 */
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

void augur_workload_scale(struct augur_workload *w, double f)
{
    struct augur_work_line *ls[2] = { &w->total, NULL };

    for (size_t i = 0; i <= w->nlines; i++) {
        struct augur_work_line *l = i == w->nlines ? ls[0] : &w->lines[i];

        l->accesses *= f;
        l->loads *= f;
        l->stores *= f;
        l->bytes *= f;
        l->irregular *= f;
        l->irregular_bytes *= f;
        l->row_misses *= f;
        l->branch_misses *= f;
        l->guessed *= f;
        l->chained *= f;
        for (unsigned b = 0; b < AUGUR_CHAIN_BUCKETS; b++)
            l->chain_dist[b] *= f;
        for (unsigned b = 0; b < AUGUR_CHAIN_LENS; b++)
            l->chain_lens[b] *= f;
        l->atomics *= f;
        l->carried_iters *= f;
        l->carried_runs *= f;
        for (unsigned b = 0; b < AUGUR_CARRIED_LENS; b++)
            l->carried_lens[b] *= f;
        for (unsigned v = 0; v < AUGUR_WORK_MAX_LEVELS; v++) {
            l->served[v] *= f;
            l->irr_served[v] *= f;
            l->atomic_served[v] *= f;
            l->transfers[v] *= f;
            l->dep_misses[v] *= f;
            l->guessed_dep[v] *= f;
            l->fill_bytes[v] *= f;
            l->writeback_bytes[v] *= f;
        }
        for (int k = 0; k < AUGUR_OPK_COUNT; k++) {
            l->instr[k] *= f;
            l->elems[k] *= f;
            l->carried[k] *= f;
        }
        /* lengths and runs (chain_len, carried_len, branch_run) are not counts */
    }
    for (unsigned v = 0; v < AUGUR_WORK_MAX_LEVELS; v++) {
        w->irr_requests[v] *= f;
        w->irr_hits[v] *= f;
    }
    w->flops *= f;
    w->footprint_bytes *= f;
}
