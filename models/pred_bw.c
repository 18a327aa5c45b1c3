/*
 * pred_bw.c - Model 1: the per-level bandwidth model of Langguth et al. JPDC'15 section 9, eq. 2-6
 * (module: predictor).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "pred_int.h"

static int bad(struct augur_diag *diag, const char *what, double v)
{
    return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "bandwidth model: %s is %g", what, v);
}

/* v must be finite and >= 0 (> 0 when positive is set). */
static int check(struct augur_diag *diag, const char *what, double v, int positive)
{
    if (!isfinite(v) || v < 0 || (positive && v == 0))
        return bad(diag, what, v);
    return 0;
}

int augur_pred_bw(const struct augur_bw_input *in, struct augur_bw_result *out,
                  struct augur_diag *diag)
{
    int rc;

    if (!in || !out)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "bandwidth model: no input");
    if (!in->levels || in->nlevels == 0 || in->nlevels > AUGUR_PRED_MAX_LEVELS)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "bandwidth model: %u levels (1 to %u)", in->nlevels,
                              (unsigned)AUGUR_PRED_MAX_LEVELS);
    if ((rc = check(diag, "R (regular words per flop)", in->regular, 0)) ||
        (rc = check(diag, "U (irregular words per flop)", in->irregular, 0)) ||
        (rc = check(diag, "the words a hit consumes", in->hit_words, 0)) ||
        (rc = check(diag, "w (bytes per word)", in->word_bytes, 1)) ||
        (rc = check(diag, "W (working set in words)", in->ws_words, 1)))
        return rc;
    if (in->regular + in->irregular == 0)
        return bad(diag, "R + U", 0);
    for (uint32_t i = 0; i < in->nlevels; i++) {
        const struct augur_bw_level *l = &in->levels[i];
        if ((rc = check(diag, "a level's size C", l->size_words, 0)) ||
            (rc = check(diag, "a level's line CL", l->line_words, 1)) ||
            (rc = check(diag, "a level's bandwidth", l->bw_gbs, 1)))
            return rc;
        if (isnan(l->hit) || l->hit > 1)
            return bad(diag, "a level's hit rate h", l->hit);
    }

    out->gflops_min = INFINITY;
    out->bottleneck = 0;
    for (uint32_t i = 0; i < in->nlevels; i++) {
        const struct augur_bw_level *l = &in->levels[i];
        double h = l->hit >= 0 ? l->hit : fmin(1.0, l->size_words / in->ws_words);
        /* eq. 4: a hit consumes hit_words of the line, a miss the whole line CL */
        double wpf = in->regular + in->irregular * (h * in->hit_words + (1 - h) * l->line_words);
        double p = l->bw_gbs / (in->word_bytes * wpf);
        out->hit[i] = h;
        out->wpf[i] = wpf;
        out->gflops[i] = p;
        if (p < out->gflops_min) {
            out->gflops_min = p;
            out->bottleneck = i;
        }
    }
    return 0;
}

int augur_pred_bw_levels(const struct augur_machine *m, uint32_t threads, double word_bytes,
                         struct augur_bw_level *levels, uint32_t *nlevels, struct augur_diag *diag)
{
    const char *file;
    double above;
    uint32_t n = 0;

    if (!m || !levels || !nlevels || !isfinite(word_bytes) || word_bytes <= 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "bandwidth model: bad arguments");
    file = m->path && m->path[0] ? m->path : NULL;
    if (threads == 0)
        threads = 1;
    if (m->ncaches == 0 || m->ncaches > AUGUR_MACHINE_MAX_CACHES)
        return augur_diag_set(diag, AUGUR_EMODEL, file, 0, 0,
                              "bandwidth model: machine '%s' has %u cache levels", m->name,
                              m->ncaches);
    if (!m->has_memory || m->memory.nbandwidth == 0)
        return augur_diag_set(diag, AUGUR_EMODEL, file, 0, 0,
                              "bandwidth model: machine '%s' gives no memory bandwidth", m->name);
    /* level 0 of "cache" is the register file (Langguth et al. JPDC'15 section 9) */
    above = (double)m->registers_bytes;
    for (uint32_t i = 0; i < m->ncaches; i++) {
        const struct augur_machine_cache *c = &m->caches[i];
        if (c->nbandwidth == 0)
            return augur_diag_set(diag, AUGUR_EMODEL, file, c->loc.line, c->loc.col,
                                  "bandwidth model: cache %s gives no bandwidth", c->name);
        levels[n].name = c->name;
        levels[n].size_words = above / word_bytes;
        levels[n].line_words = c->line / word_bytes;
        levels[n].bw_gbs = augur_machine_bw_at(c->bandwidth, c->nbandwidth, threads);
        levels[n].hit = -1;
        n++;
        above = (double)c->size;
        if (c->shared_by > 1)
            above /= threads < c->shared_by ? threads : c->shared_by;
    }
    levels[n].name = "Memory";
    levels[n].size_words = above / word_bytes;
    levels[n].line_words = m->caches[m->ncaches - 1].line / word_bytes;
    levels[n].bw_gbs = augur_machine_bw_at(m->memory.bandwidth, m->memory.nbandwidth, threads);
    levels[n].hit = -1;
    n++;
    *nlevels = n;
    return 0;
}

double augur_pred_bw_crossover(double bw_cache, double bw_mem, double access_bytes,
                               double item_bytes)
{
    if (!(bw_cache > 0) || !(bw_mem > 0) || !(access_bytes > 0) || !(item_bytes > 0))
        return -1;
    return item_bytes * bw_cache / (access_bytes * bw_mem);
}

/*
 * Eq. 4-5 from a workload: F is the flops (the accesses for a kernel without
 * flops), R and U the regular and indirect words per F, h of level i the
 * share of indirect accesses that hit in the cache above it (the register
 * file's h is min(1, C/W): nothing simulates it).
 */
struct bw_work {
    struct augur_bw_input in;
    struct augur_bw_level levels[AUGUR_PRED_MAX_LEVELS];
    double units; /* F per call */
    const char *unit;
};

static int bw_from_work(const struct augur_model_input *mi, struct bw_work *bw,
                        struct augur_diag *diag)
{
    const struct augur_workload *w = mi->work;
    double words = 8.0, first;
    int rc;

    memset(bw, 0, sizeof(*bw));
    if ((rc = augur_pred_bw_levels(mi->machine, w->threads, words, bw->levels, &bw->in.nlevels,
                                   diag)) < 0)
        return rc;
    bw->units = w->flops > 0 ? w->flops : w->total.accesses;
    bw->unit = w->flops > 0 ? "GFLOP/s" : "G accesses/s";
    if (!(bw->units > 0))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "bandwidth model: no work");
    bw->in.regular = (w->total.bytes - w->total.irregular_bytes) / words / bw->units;
    bw->in.irregular = w->total.irregular_bytes / words / bw->units;
    bw->in.hit_words = 1;
    bw->in.word_bytes = words;
    bw->in.ws_words = w->footprint_bytes / words;
    bw->in.levels = bw->levels;
    first = w->irr_requests[0];
    for (uint32_t i = 1; i < bw->in.nlevels && i - 1 < w->nlevels; i++) {
        double missed = w->irr_requests[i - 1] - w->irr_hits[i - 1], h;

        if (!(first > 0))
            break;
        h = 1 - missed / first;
        bw->levels[i].hit = h < 0 ? 0 : h > 1 ? 1 : h;
    }
    return 0;
}

/* The paper's input as given, or derived from the workload; then eq. 4-5. */
static int bw_eval(const struct augur_model_input *in, struct bw_work *bw,
                   const struct augur_bw_input **bi, struct augur_bw_result *r,
                   struct augur_diag *diag)
{
    int rc;

    if (!in || (!in->bw && !(in->work && in->machine)))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "bandwidth model: no input");
    if (in->bw) {
        *bi = in->bw;
    } else {
        if ((rc = bw_from_work(in, bw, diag)) < 0)
            return rc;
        *bi = &bw->in;
    }
    return augur_pred_bw(*bi, r, diag);
}

static int bw_predict(const struct augur_model_input *in, struct augur_prediction *out,
                      struct augur_diag *diag)
{
    struct augur_bw_result r;
    struct bw_work bw;
    const struct augur_bw_input *bi = NULL;
    int rc;

    if (!out)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "bandwidth model: no output");
    if (pred_is_gpu(in)) {
        out->model = augur_model_bw.name;
        return pred_gpu_bw_predict(in, out, diag);
    }
    if ((rc = bw_eval(in, &bw, &bi, &r, diag)) < 0)
        return rc;
    out->model = augur_model_bw.name;
    out->rate = r.gflops_min;
    out->rate_unit = in->bw ? "GFLOP/s" : bw.unit;
    out->bottleneck = bi->levels[r.bottleneck].name;
    out->seconds = in->bw ? 0 : bw.units / (r.gflops_min * 1e9);
    return 0;
}

static int bw_explain(const struct augur_model_input *in, struct augur_buf *buf,
                      struct augur_diag *diag)
{
    struct augur_bw_result r;
    struct bw_work bw;
    const struct augur_bw_input *bi = NULL;
    int rc;

    if (!buf)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "bandwidth model: no output");
    if (pred_is_gpu(in))
        return pred_gpu_bw_explain(in, buf, diag);
    if ((rc = bw_eval(in, &bw, &bi, &r, diag)) < 0)
        return rc;
    augur_buf_printf(buf,
                     "bandwidth model (Langguth et al. JPDC'15 eq. 4-5): R %g U %g w %g W %g\n",
                     bi->regular, bi->irregular, bi->word_bytes, bi->ws_words);
    augur_buf_printf(buf, "%-8s %12s %4s %9s %8s %9s %9s\n", "level", "C (words)", "CL", "BW GB/s",
                     "h", "WpF", in->bw ? "GFLOP/s" : bw.unit);
    for (uint32_t i = 0; i < bi->nlevels; i++) {
        const struct augur_bw_level *l = &bi->levels[i];
        augur_buf_printf(buf, "%-8s %12.0f %4g %9.2f %8.5f %9.5f %9.4f%s\n",
                         l->name ? l->name : "?", l->size_words, l->line_words, l->bw_gbs, r.hit[i],
                         r.wpf[i], r.gflops[i], i == r.bottleneck ? "  <- bottleneck" : "");
    }
    augur_buf_printf(buf, "minimum %.4f %s\n", r.gflops_min, in->bw ? "GFLOP/s" : bw.unit);
    return 0;
}

const struct augur_model_ops augur_model_bw = {
    .name = "bw",
    .source = "Langguth et al. JPDC'15 section 9, eq. 4-5",
    .predict = bw_predict,
    .explain = bw_explain,
};
