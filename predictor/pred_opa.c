/*
 * pred_opa.c - Model 2: operational analysis of a queueing network, seed 000 eq. 1-3 (module:
 * predictor).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "pred_int.h"

double augur_pred_curve_at(const struct augur_curve_point *c, uint32_t n, double m)
{
    if (!c || n == 0)
        return 0;
    if (m <= c[0].m)
        return c[0].ns;
    for (uint32_t i = 1; i < n; i++) {
        if (m <= c[i].m) {
            double span = c[i].m - c[i - 1].m;
            if (span <= 0)
                return c[i].ns;
            return c[i - 1].ns + (c[i].ns - c[i - 1].ns) * (m - c[i - 1].m) / span;
        }
    }
    return c[n - 1].ns;
}

int augur_pred_opa(const struct augur_opa_input *in, struct augur_opa_result *out,
                   struct augur_diag *diag)
{
    double best = -1;

    if (!in || !out || !in->servers)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "operational analysis: no input");
    if (in->nservers == 0 || in->nservers > AUGUR_PRED_MAX_SERVERS)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "operational analysis: %u servers (1 to %u)", in->nservers,
                              (unsigned)AUGUR_PRED_MAX_SERVERS);
    if (!isfinite(in->jobs) || in->jobs <= 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "operational analysis: jobs N is %g (must be > 0)", in->jobs);
    if (!isfinite(in->load) || in->load < 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "operational analysis: load n is %g",
                              in->load);
    for (uint32_t i = 0; i < in->nservers; i++) {
        const struct augur_opa_server *s = &in->servers[i];
        const char *name = s->name ? s->name : "?";
        double v, S;
        if (!isfinite(s->completions) || s->completions < 0)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "operational analysis: server %s: completions %g", name,
                                  s->completions);
        if (!isfinite(s->service) || s->service < 0)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "operational analysis: server %s: service time %g", name,
                                  s->service);
        if (s->service == 0 && (!s->curve || s->ncurve == 0))
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "operational analysis: server %s has neither a service time "
                                  "nor a curve",
                                  name);
        v = s->completions / in->jobs; /* V_i = C_i / N */
        out->visits[i] = v;
        out->mlp[i] = v * in->load; /* m_i = V_i n */
        S = s->service > 0 ? s->service : augur_pred_curve_at(s->curve, s->ncurve, out->mlp[i]);
        if (!isfinite(S) || S < 0)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "operational analysis: server %s: curve gives %g", name, S);
        out->service[i] = S;
        out->demand[i] = v * S;
        if (out->demand[i] > best) { /* eq. 3: V_B S_B = max V_i S_i */
            best = out->demand[i];
            out->bottleneck = i;
        }
    }
    if (best <= 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "operational analysis: no server does any work");
    out->throughput = 1 / best; /* eq. 2, the forced-flow law */
    out->time = in->jobs * best;
    return 0;
}

int augur_pred_opa_rounds(const struct augur_opa_input *rounds, uint32_t nrounds,
                          struct augur_opa_result *results, double *total_time,
                          struct augur_diag *diag)
{
    double total = 0;

    if (!rounds || nrounds == 0 || !total_time)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "operational analysis: no rounds");
    for (uint32_t r = 0; r < nrounds; r++) {
        struct augur_opa_result one;
        int rc = augur_pred_opa(&rounds[r], &one, diag);
        if (rc < 0) {
            if (diag) {
                char why[sizeof diag->msg];
                memcpy(why, diag->msg, sizeof why);
                why[sizeof why - 1] = '\0';
                augur_diag_set(diag, rc, NULL, 0, 0, "round %u: %s", r + 1, why);
            }
            return rc;
        }
        total += one.time;
        if (results)
            results[r] = one;
    }
    *total_time = total;
    return 0;
}

/*
 * The CPU mapping of seed 000 from a workload: memory instructions are the
 * jobs (the busiest thread's), each cache level's hits and memory's requests
 * the servers. n is the memory instructions in flight (core.inflight); a
 * server's service time at m = V n is pred_serve_ns() (L1: an issue slot).
 */
struct opa_work {
    struct augur_opa_input in;
    struct augur_opa_server servers[AUGUR_WORK_MAX_LEVELS];
    char names[AUGUR_WORK_MAX_LEVELS][24];
};

static int opa_from_work(const struct augur_model_input *mi, struct opa_work *ow,
                         struct augur_diag *diag)
{
    const struct augur_workload *w = mi->work;
    struct pred_rates r;
    double jobs = w->total.accesses * w->busiest_share;
    int rc;

    memset(ow, 0, sizeof(*ow));
    if ((rc = pred_rates_of(mi->machine, w, &r, diag)) < 0)
        return rc;
    if (!(jobs > 0))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "operational analysis: no accesses");
    ow->in.jobs = jobs;
    ow->in.load = r.inflight;
    for (unsigned i = 0; i <= r.nlevels; i++) {
        struct augur_opa_server *s = &ow->servers[i];
        double c = w->total.served[i] * w->busiest_share;

        snprintf(ow->names[i], sizeof(ow->names[i]), "%s%s", w->level_name[i],
                 i < r.nlevels ? " hit" : "");
        s->name = ow->names[i];
        s->completions = c;
        s->service = i == 0 ? 1.0 / (r.loads_per_cycle * r.clock_ghz)
                            : pred_serve_ns(&r, i, c / jobs * r.inflight);
        if (!(s->service > 0))
            s->service = 1e-9; /* a level without cost never bounds */
    }
    ow->in.servers = ow->servers;
    ow->in.nservers = r.nlevels + 1;
    return 0;
}

static int opa_input(const struct augur_model_input *in, struct opa_work *ow,
                     const struct augur_opa_input **oi, struct augur_diag *diag)
{
    if (!in || (!in->opa && !(in->work && in->machine)))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "operational analysis: no input");
    if (in->opa) {
        *oi = in->opa;
        return 0;
    }
    *oi = &ow->in;
    return opa_from_work(in, ow, diag);
}

static int opa_predict(const struct augur_model_input *in, struct augur_prediction *out,
                       struct augur_diag *diag)
{
    const struct augur_opa_input *oi;
    struct augur_opa_result r;
    struct opa_work ow;
    int rc;

    if (!out)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "operational analysis: no output");
    if ((rc = opa_input(in, &ow, &oi, diag)) < 0 || (rc = augur_pred_opa(oi, &r, diag)) < 0)
        return rc;
    out->model = augur_model_opa.name;
    out->rate = in->opa ? r.throughput : r.throughput * 1e9;
    out->rate_unit = in->opa ? "jobs per time unit" : "accesses/s";
    /* borrowed from the input: the workload's level names outlive the call */
    out->bottleneck = in->opa ? oi->servers[r.bottleneck].name : in->work->level_name[r.bottleneck];
    out->seconds = in->opa ? 0 : r.time * 1e-9;
    return 0;
}

static int opa_explain(const struct augur_model_input *in, struct augur_buf *buf,
                       struct augur_diag *diag)
{
    const struct augur_opa_input *oi;
    struct augur_opa_result r;
    struct opa_work ow;
    int rc;

    if (!buf)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "operational analysis: no output");
    if ((rc = opa_input(in, &ow, &oi, diag)) < 0 || (rc = augur_pred_opa(oi, &r, diag)) < 0)
        return rc;
    augur_buf_printf(buf, "operational analysis (seed 000 eq. 2-3): N %g n %g\n", oi->jobs,
                     oi->load);
    augur_buf_printf(buf, "%-10s %12s %9s %9s %10s %10s\n", "server", "C", "V", "m", "S", "V*S");
    for (uint32_t i = 0; i < oi->nservers; i++) {
        const struct augur_opa_server *s = &oi->servers[i];
        augur_buf_printf(buf, "%-10s %12g %9.4f %9.3f %10.4g %10.4g%s\n", s->name ? s->name : "?",
                         s->completions, r.visits[i], in->opa ? r.mlp[i] : r.visits[i] * oi->load,
                         r.service[i], r.demand[i], i == r.bottleneck ? "  <- bottleneck" : "");
    }
    augur_buf_printf(buf, "X0 %.6g jobs per time unit, time %.6g\n", r.throughput, r.time);
    return 0;
}

const struct augur_model_ops augur_model_opa = {
    .name = "opa",
    .source = "seed 000 (operational analysis of graph programs) eq. 2-3",
    .predict = opa_predict,
    .explain = opa_explain,
};
