/*
 * pred_fit.c - fits the core rates of a machine file to measured runs: the
 * issue rates, the misses in flight, the cost of a mispredicted branch and
 * of an OpenMP region, chosen so that Model 3 best predicts the runs (module:
 * predictor). docs/models.md, "Fitting the core", states the objective.
 */
#include <math.h>
#include <string.h>

#include "pred_int.h"

enum { P_ISSUE, P_INT, P_MLP, P_BRANCH, P_REGION, P_CHAIN, P_CHUNK, P_MIMD, NPARAMS };

/*
 * The range of each parameter: issue scale, integer scale (source-level index
 * arithmetic that compilers fold into addressing), misses in flight,
 * cycles, ns, cycles, ns, and eq. 4's a in seconds (from a nanosecond to a
 * millisecond a tile per thread).
 */
static const double lo[NPARAMS] = { 0.25, 0.25, 1, 1, 10, 1, 1, 1e-9 };
static const double hi[NPARAMS] = { 4, 8, 128, 100, 1e5, 100, 1e4, 1e-3 };

/* Where T_MIMD applies (eq. 4): a tiled run of a team; else a is not fitted. */
static bool mimd_run(const struct augur_workload *w)
{
    return w->tile_size > 0 && w->tile_edges > 0 && w->threads >= 2;
}

/*
 * The core the parameters stand for: the machine's (or default) rates times
 * the issue scale; what the fit leaves alone (the window, the branch
 * learning curve) stays the machine's.
 */
static void core_of(const struct augur_machine *m, const struct pred_rates *base, const double *p,
                    struct augur_machine_core *c)
{
    *c = m->core;
    c->given = true;
    c->loads_per_cycle = base->loads_per_cycle * p[P_ISSUE];
    c->stores_per_cycle = base->stores_per_cycle * p[P_ISSUE];
    c->fp_ops_per_cycle = base->fp_ops_per_cycle * p[P_ISSUE];
    c->int_ops_per_cycle = base->int_ops_per_cycle * p[P_ISSUE] * p[P_INT];
    c->issue_width = base->issue_width * p[P_ISSUE];
    c->inflight = base->inflight;
    c->mlp = p[P_MLP];
    c->branch_miss_cycles = p[P_BRANCH];
    c->region_ns = p[P_REGION];
    c->chain_cycles = p[P_CHAIN];
    c->chunk_ns = p[P_CHUNK];
}

/* Mean |ln(predicted / measured)| over the runs, or HUGE_VAL when a run cannot be predicted. */
static double objective(const struct augur_machine *m, const struct pred_rates *base,
                        const double *p, bool mimd, const struct augur_fit_run *runs, size_t n)
{
    struct augur_machine mm = *m;
    struct augur_model_input in;
    double sum = 0;

    core_of(m, base, p, &mm.core);
    if (mimd) {
        mm.model.given = true;
        mm.model.mimd_a = p[P_MIMD];
    }
    memset(&in, 0, sizeof(in));
    in.machine = &mm;
    for (size_t i = 0; i < n; i++) {
        struct augur_prediction pr;

        memset(&pr, 0, sizeof(pr));
        in.work = runs[i].work;
        if (augur_model_skope.predict(&in, &pr, NULL) < 0 || !(pr.seconds > 0))
            return HUGE_VAL;
        sum += fabs(log(pr.seconds / runs[i].measured));
    }
    return sum / (double)n;
}

int augur_fit_core(const struct augur_machine *m, const struct augur_fit_run *runs, size_t n,
                   struct augur_fit_result *out, struct augur_diag *diag)
{
    struct pred_rates base;
    double p[NPARAMS], best, step = 2.0;
    bool mimd = false;
    int rc;

    if (!m || !runs || !out || n == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "fit: no runs");
    for (size_t i = 0; i < n; i++)
        if (!runs[i].work || !(runs[i].measured > 0))
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "fit: run %zu has no workload or no measured time", i + 1);
    for (size_t i = 0; i < n; i++)
        mimd |= mimd_run(runs[i].work);
    /* the starting point: the machine's own rates (the defaults where it gives none) */
    if ((rc = pred_rates_of(m, runs[0].work, &base, diag)) < 0)
        return rc;
    {
        struct augur_machine plain = *m;

        /* the issue scale multiplies the machine's rates; the others start where it is */
        p[P_ISSUE] = 1;
        p[P_INT] = 1;
        p[P_MLP] = base.mlp;
        p[P_BRANCH] = base.branch_miss_cycles;
        p[P_REGION] = base.region_ns;
        p[P_CHAIN] = base.chain_cycles;
        p[P_CHUNK] = base.chunk_ns;
        /* a starts where the machine has it, else a microsecond (it moves by factors) */
        p[P_MIMD] = m->model.given && m->model.mimd_a > 0 ? m->model.mimd_a : 1e-6;
        for (int k = 0; k < NPARAMS; k++)
            p[k] = p[k] < lo[k] ? lo[k] : p[k] > hi[k] ? hi[k] : p[k];
        out->before = objective(&plain, &base, p, false, runs, n);
    }
    best = out->before;
    if (!isfinite(best))
        return augur_diag_set(diag, AUGUR_EMODEL, NULL, 0, 0,
                              "fit: the aggregate model cannot predict every run");
    /* coordinate descent in log space, the step shrinking from x2 to x1.01 */
    out->evaluations = 1;
    while (step > 1.01) {
        bool moved = false;

        for (int k = 0; k < NPARAMS; k++)
            for (int dir = -1; dir <= 1; dir += 2) {
                double save = p[k], f;

                if (k == P_MIMD && !mimd)
                    continue;
                p[k] = dir > 0 ? p[k] * step : p[k] / step;
                if (p[k] < lo[k] || p[k] > hi[k]) {
                    p[k] = save;
                    continue;
                }
                f = objective(m, &base, p, mimd, runs, n);
                out->evaluations++;
                if (f < best - 1e-12) {
                    best = f;
                    moved = true;
                } else {
                    p[k] = save;
                }
            }
        if (!moved)
            step = sqrt(step);
    }
    core_of(m, &base, p, &out->core);
    out->mimd_fitted = mimd;
    out->mimd_a = mimd ? p[P_MIMD] : m->model.mimd_a;
    out->after = best;
    out->issue_scale = p[P_ISSUE];
    return 0;
}
