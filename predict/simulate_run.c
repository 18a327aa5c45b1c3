/*
 * simulate_run.c - augur_simulate_run(): a kernel's skeleton on a dataset
 * through the interpreter and a machine's simulated caches, the counts per
 * level, line, array and thread (module: predict).
 */
#include <string.h>

#include "predict_int.h"

int augur_simulate_run(struct augur_predict_ctx *ctx, const struct augur_skel *skel,
                       const struct augur_node *kernel, const struct augur_machine *m,
                       const struct augur_simulate_opts *opts, struct augur_simulation **out,
                       struct augur_diag *diag)
{
    static const struct augur_simulate_opts defaults;
    const struct augur_simulate_opts *o = opts ? opts : &defaults;
    struct augur_bound_opts bo;
    struct augur_simulation *r;
    struct augur_cache_config cfg;
    struct augur_sim_opts so;
    unsigned threads = 1;
    int rc;

    memset(&so, 0, sizeof(so));
    rc = predict_setup(kernel, m, o->threads, o->sms, false, &threads, &so, diag);
    if (!rc)
        rc = augur_cache_config_from_machine(m, threads, &cfg, diag);
    if (rc)
        return rc;
    if (o->no_prefetch)
        for (unsigned l = 0; l < cfg.nlevels; l++)
            cfg.level[l].prefetch = AUGUR_CACHE_PREFETCH_NONE;
    bo = predict_bound_opts(&o->bound, o->round, kernel->u.kernel.cuda ? 1 : threads);
    r = augur_calloc(1, sizeof(*r));
    r->threads = threads;
    rc = augur_bound_new(predict_ctx_dataset(ctx), &bo, &r->bound, diag);
    if (rc) {
        augur_simulation_free(r);
        return rc;
    }
    so.interp.grid = o->grid;
    so.interp.block = o->block;
    so.interp.quantum = o->quantum;
    so.interp.layout = o->align ? AUGUR_LAYOUT_ALIGN : AUGUR_LAYOUT_MALLOC;
    so.interp.align = o->align;
    so.interp.seed = o->seed;
    so.interp.place = o->place;
    so.interp.probs = o->probs;
    so.interp.trips = o->trips;
    so.interp.on_warn = o->on_warn;
    so.interp.on_progress = o->on_progress;
    so.interp.ud = o->warn_ud;
    so.runs = o->runs;
    so.rounds = o->rounds;
    so.warm = o->warm;
    so.no_flush = o->no_flush;
    so.trace = o->trace;
    rc = augur_simulate(skel, kernel, r->bound, &cfg, &so, &r->profile, &r->interp, diag);
    if (rc) {
        augur_simulation_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void augur_simulation_free(struct augur_simulation *s)
{
    if (!s)
        return;
    augur_sim_profile_free(s->profile);
    augur_interp_free(s->interp);
    augur_bound_free(s->bound);
    augur_free(s);
}
