/*
 * pred_opa.c - Model 2: operational analysis of a queueing network, Pai et al. AGP'17 eq. 1-3
 * (module: predictor).
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
 * The CPU mapping of Pai et al. AGP'17 from a workload: memory instructions are the
 * jobs (the busiest thread's), each cache level's hits and memory's requests
 * the servers. n is the memory instructions in flight (core.inflight); a
 * server's service time at m = V n is pred_serve_ns() (L1: an issue slot).
 */
struct opa_work {
    struct augur_opa_input in;
    struct augur_opa_server servers[AUGUR_WORK_MAX_LEVELS];
    char names[AUGUR_WORK_MAX_LEVELS][24];
};

static int opa_build(const struct augur_model_input *mi, double accesses, const double *served,
                     struct opa_work *ow, struct augur_diag *diag)
{
    const struct augur_workload *w = mi->work;
    struct pred_rates r;
    double jobs = accesses * w->busiest_share;
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
        double c = served[i] * w->busiest_share;

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

static int opa_from_work(const struct augur_model_input *mi, struct opa_work *ow,
                         struct augur_diag *diag)
{
    return opa_build(mi, mi->work->total.accesses, mi->work->total.served, ow, diag);
}

/*
 * A level-synchronous kernel, round by round (Pai et al. AGP'17 section 5.2): each
 * round is its own network, the times add up. *worst gets the round of the
 * longest time; times (may be NULL) each round's nanoseconds.
 */
static int opa_rounds(const struct augur_model_input *mi, double *total, uint32_t *worst,
                      double *times, struct augur_diag *diag)
{
    const struct augur_workload *w = mi->work;
    double longest = -1;
    int rc;

    *total = 0;
    *worst = 0;
    for (uint32_t k = 0; k < w->nrounds; k++) {
        struct opa_work ow;
        struct augur_opa_result r = { 0 };

        if (times)
            times[k] = 0;
        if (!(w->rounds[k].accesses > 0))
            continue;
        if ((rc = opa_build(mi, w->rounds[k].accesses, w->rounds[k].served, &ow, diag)) < 0 ||
            (rc = augur_pred_opa(&ow.in, &r, diag)) < 0)
            return rc;
        *total += r.time;
        if (times)
            times[k] = r.time;
        if (r.time > longest) {
            longest = r.time;
            *worst = k;
        }
    }
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
    if (pred_is_gpu(in)) {
        out->model = augur_model_opa.name;
        return pred_gpu_opa_predict(in, out, diag);
    }
    if (in && !in->opa && in->work && in->machine && in->work->nrounds) {
        double total;
        uint32_t worst;
        const struct augur_work_round *wr;

        if ((rc = opa_rounds(in, &total, &worst, NULL, diag)) < 0)
            return rc;
        wr = &in->work->rounds[worst];
        if ((rc = opa_build(in, wr->accesses, wr->served, &ow, diag)) < 0 ||
            (rc = augur_pred_opa(&ow.in, &r, diag)) < 0)
            return rc;
        out->model = augur_model_opa.name;
        out->seconds = total * 1e-9;
        out->rate = total > 0 ? in->work->total.accesses / out->seconds : 0;
        out->rate_unit = "accesses/s";
        /* the longest round's bottleneck */
        out->bottleneck = in->work->level_name[r.bottleneck];
        return 0;
    }
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
    if (pred_is_gpu(in))
        return pred_gpu_opa_explain(in, buf, diag);
    if (in && !in->opa && in->work && in->machine && in->work->nrounds) {
        const struct augur_workload *w = in->work;
        double total, *times = augur_calloc(w->nrounds, sizeof(double));
        uint32_t worst;

        if (!times)
            return augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "out of memory");
        if ((rc = opa_rounds(in, &total, &worst, times, diag)) < 0) {
            augur_free(times);
            return rc;
        }
        augur_buf_printf(
            buf,
            "operational analysis (Pai et al. AGP'17 eq. 2-3), round by round: %u rounds, "
            "%.6g ns in all; the longest is round %u\n",
            w->nrounds, total, worst + 1);
        augur_buf_printf(buf, "%6s %12s %12s", "round", "N", "time ns");
        for (unsigned l = 0; l <= w->nlevels; l++)
            augur_buf_printf(buf, " %10s", w->level_name[l]);
        augur_buf_putc(buf, '\n');
        for (uint32_t k = 0; k < w->nrounds; k++) {
            /* the first and last rounds, and the longest, when there are many */
            if (w->nrounds > 24 && k >= 10 && k + 10 < w->nrounds && k != worst)
                continue;
            augur_buf_printf(buf, "%6u %12.6g %12.6g", k + 1, w->rounds[k].accesses, times[k]);
            for (unsigned l = 0; l <= w->nlevels; l++)
                augur_buf_printf(buf, " %10.4g", w->rounds[k].served[l]);
            augur_buf_puts(buf, k == worst ? "  <- longest\n" : "\n");
        }
        augur_free(times);
        return 0;
    }
    if ((rc = opa_input(in, &ow, &oi, diag)) < 0 || (rc = augur_pred_opa(oi, &r, diag)) < 0)
        return rc;
    augur_buf_printf(buf, "operational analysis (Pai et al. AGP'17 eq. 2-3): N %g n %g\n", oi->jobs,
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
    .source = "Pai et al. AGP'17 eq. 2-3",
    .predict = opa_predict,
    .explain = opa_explain,
};
