/*
 * pred_opa.c - Model 2: operational analysis of a queueing network, seed 000 eq. 1-3 (module:
 * predictor).
 */
#include <math.h>
#include <stddef.h>
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

static int opa_predict(const struct augur_model_input *in, struct augur_prediction *out,
                       struct augur_diag *diag)
{
    struct augur_opa_result r;
    int rc;

    if (!in || !in->opa || !out)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "operational analysis: no input");
    if ((rc = augur_pred_opa(in->opa, &r, diag)) < 0)
        return rc;
    out->model = augur_model_opa.name;
    out->rate = r.throughput;
    out->rate_unit = "jobs per time unit";
    out->bottleneck = in->opa->servers[r.bottleneck].name;
    return 0;
}

static int opa_explain(const struct augur_model_input *in, struct augur_buf *buf,
                       struct augur_diag *diag)
{
    struct augur_opa_result r;
    int rc;

    if (!in || !in->opa || !buf)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "operational analysis: no input");
    if ((rc = augur_pred_opa(in->opa, &r, diag)) < 0)
        return rc;
    augur_buf_printf(buf, "operational analysis (seed 000 eq. 2-3): N %g n %g\n", in->opa->jobs,
                     in->opa->load);
    augur_buf_printf(buf, "%-10s %12s %9s %9s %10s %10s\n", "server", "C", "V", "m", "S", "V*S");
    for (uint32_t i = 0; i < in->opa->nservers; i++) {
        const struct augur_opa_server *s = &in->opa->servers[i];
        augur_buf_printf(buf, "%-10s %12g %9.4f %9.3f %10.4g %10.4g%s\n", s->name ? s->name : "?",
                         s->completions, r.visits[i], r.mlp[i], r.service[i], r.demand[i],
                         i == r.bottleneck ? "  <- bottleneck" : "");
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
