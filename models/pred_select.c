/*
 * pred_select.c - runs every model on a workload and picks the estimate
 * (module: models). docs/models.md, "Which estimate", says why this one.
 */
#include <stdio.h>
#include <string.h>

#include "pred_int.h"

int augur_predict_all(const struct augur_model_input *in, struct augur_prediction *out,
                      char (*why)[160], uint32_t *selected, char *selected_why, size_t why_size,
                      struct augur_diag *diag)
{
    uint32_t n = augur_model_count(), best = UINT32_MAX, aggregate = UINT32_MAX;
    struct augur_diag first;
    bool have_first = false;

    if (!in || !in->work || !out || !why || !selected)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "predict: bad arguments");
    for (uint32_t i = 0; i < n; i++) {
        const struct augur_model_ops *ops = augur_model_at(i);
        struct augur_diag d;
        double *lines = augur_calloc(in->work->nlines ? in->work->nlines : 1, sizeof(double));

        augur_diag_init(&d);
        memset(&out[i], 0, sizeof(out[i]));
        out[i].line_seconds = lines;
        why[i][0] = '\0';
        if (!lines || ops->predict(in, &out[i], &d) < 0) {
            out[i].model = ops->name;
            out[i].seconds = 0;
            snprintf(why[i], sizeof(why[i]), "%.150s", lines ? d.msg : "out of memory");
            if (!have_first) {
                first = d;
                have_first = true;
            }
            continue;
        }
        out[i].model = ops->name;
        if (strcmp(ops->name, "skope") == 0)
            aggregate = i;
        if (out[i].seconds > 0 && (best == UINT32_MAX || out[i].seconds > out[best].seconds))
            best = i;
    }
    if (pred_is_gpu(in)) {
        for (uint32_t i = 0; i < n; i++)
            if (strcmp(out[i].model, "opa") == 0 && out[i].seconds > 0) {
                *selected = i;
                if (selected_why)
                    snprintf(selected_why, why_size,
                             "Pai et al.'s GPU model: the warps' memory instructions queue at L2 "
                             "and the DRAM row buffers, their load from the busiest warp");
                return 0;
            }
    }
    if (aggregate != UINT32_MAX && out[aggregate].seconds > 0) {
        *selected = aggregate;
        if (selected_why)
            snprintf(selected_why, why_size,
                     "the aggregate counts every level, the compute and the busiest thread; "
                     "the other two are bottleneck bounds");
        return 0;
    }
    if (best != UINT32_MAX) {
        *selected = best;
        if (selected_why)
            snprintf(selected_why, why_size,
                     "the aggregate could not answer; the longest time is the tightest bound");
        return 0;
    }
    if (diag && have_first)
        *diag = first;
    return have_first ? first.code : AUGUR_EINVAL;
}
