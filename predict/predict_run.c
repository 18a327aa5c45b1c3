/*
 * predict_run.c - augur_predict_run(): binds a dataset (or a sample of it) to
 * a kernel's skeleton, runs it through the simulated caches and branch
 * predictors, builds the workload and runs every model (module: predict).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#    include <omp.h>
#endif

#include "predict_int.h"

/* Longest BFS (accesses) that Model 2 also analyses round by round. */
#define MAX_ROUND_EVENTS 200000000u

struct augur_predict_ctx {
    const struct augur_dataset *ds;
    const struct augur_tree *tree;
    char *tree_name;
    /* the CSR form, built the first time a question needs it */
    struct augur_csr csr;
    bool have_csr, csr_stored_only;
    /* the sampler the tree picks, computed once */
    bool have_category;
    enum augur_sampler category;
    unsigned leaf;
    /* the last sample, reused while its options stay the same */
    struct augur_sample sample;
    bool have_sample;
    struct augur_sample_opts sample_opts;
    bool sample_stored_only;
};

int augur_predict_ctx_new(const struct augur_dataset *ds, const struct augur_tree *tree,
                          const char *tree_name, struct augur_predict_ctx **out,
                          struct augur_diag *diag)
{
    struct augur_predict_ctx *ctx;

    if (!ds)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "no dataset to predict on");
    ctx = augur_calloc(1, sizeof(*ctx));
    ctx->ds = ds;
    ctx->tree = tree;
    ctx->tree_name = augur_strdup(tree_name ? tree_name : "the categorizer tree");
    *out = ctx;
    return 0;
}

void augur_predict_ctx_free(struct augur_predict_ctx *ctx)
{
    if (!ctx)
        return;
    augur_csr_release(&ctx->csr);
    augur_sample_release(&ctx->sample);
    augur_free(ctx->tree_name);
    augur_free(ctx);
}

/* The dataset as CSR: both triangles of symmetric data unless stored_only. */
static int ctx_csr(struct augur_predict_ctx *ctx, bool stored_only, struct augur_diag *diag)
{
    int rc;

    if (ctx->have_csr && ctx->csr_stored_only == stored_only)
        return 0;
    augur_csr_release(&ctx->csr);
    ctx->have_csr = false;
    rc = augur_dataset_csr(ctx->ds, !stored_only, &ctx->csr, diag);
    if (rc)
        return rc;
    ctx->have_csr = true;
    ctx->csr_stored_only = stored_only;
    return 0;
}

/*
 * The sampler the tree picks for the data; Stride Average without a tree or
 * for a matrix that is not square. why says which.
 */
static int pick_sampler(struct augur_predict_ctx *ctx, enum augur_sampler *out, char *why,
                        size_t size, struct augur_diag *diag)
{
    const struct augur_csr *csr = &ctx->csr;

    if (!ctx->tree || csr->nrows != csr->ncols || csr->nrows == 0) {
        *out = AUGUR_SAMPLER_SA;
        snprintf(why, size, "sa (%s)",
                 !ctx->tree ? "no categorizer tree found (give --tree FILE or set AUGUR_TREE)"
                 : csr->nrows != csr->ncols ? "the matrix is not square"
                                            : "the matrix has no rows");
        return 0;
    }
    if (!ctx->have_category) {
        double x[AUGUR_CAT_NFEATURES];
        int rc = augur_cat_features(csr, ctx->ds->symmetry != AUGUR_SYM_GENERAL,
                                    augur_tree_feature_opts(ctx->tree), x, diag);

        if (rc)
            return rc;
        ctx->category = augur_tree_classify(ctx->tree, x, &ctx->leaf);
        ctx->have_category = true;
    }
    *out = ctx->category;
    snprintf(why, size, "%s, picked by the categorizer (leaf %u of %s)",
             augur_sampler_name(ctx->category), ctx->leaf, ctx->tree_name);
    return 0;
}

/* The sample asked for, drawn once per options. */
static int ctx_sample(struct augur_predict_ctx *ctx, const struct augur_sample_opts *so,
                      bool stored_only, struct augur_diag *diag)
{
    int rc;

    if (ctx->have_sample && ctx->sample_stored_only == stored_only &&
        ctx->sample_opts.method == so->method && ctx->sample_opts.rate == so->rate &&
        ctx->sample_opts.seed == so->seed && ctx->sample_opts.shifted == so->shifted)
        return 0;
    augur_sample_release(&ctx->sample);
    ctx->have_sample = false;
    if (ctx->csr.nnz == 0) /* named here: the sampler does not know the file */
        return augur_diag_set(diag, AUGUR_EINVAL, ctx->ds->path, 0, 0,
                              "the matrix (%u x %u) has no entries: nothing to sample",
                              ctx->csr.nrows, ctx->csr.ncols);
    rc = augur_sample_csr(&ctx->csr, so, &ctx->sample, diag);
    if (rc)
        return rc;
    ctx->have_sample = true;
    ctx->sample_opts = *so;
    ctx->sample_stored_only = stored_only;
    return 0;
}

static struct augur_bound_opts bound_opts(const struct augur_predict_opts *o, unsigned threads)
{
    struct augur_bound_opts bo = predict_bound_opts(&o->bound, o->round, threads);

    if (!bo.tile_size)
        bo.tile_size = o->tile_size; /* the tiling.* targets' schedule */
    return bo;
}

struct augur_bound_opts predict_bound_opts(const struct augur_bound_opts *given, uint32_t round,
                                           unsigned threads)
{
    struct augur_bound_opts bo = *given;

    bo.round = round ? round : 1;
    bo.nthreads = threads;
    return bo;
}

const struct augur_dataset *predict_ctx_dataset(const struct augur_predict_ctx *ctx)
{
    return ctx->ds;
}

int augur_predict_bound(struct augur_predict_ctx *ctx, const struct augur_predict_opts *opts,
                        struct augur_bound **out, struct augur_diag *diag)
{
    struct augur_bound_opts bo = bound_opts(opts, opts->threads ? opts->threads : 1);

    return augur_bound_new(ctx->ds, &bo, out, diag);
}

/* True when the subtree of n holds a SIMD access (lanes > 1). */
static bool has_simd_access(const struct augur_node *n)
{
    const struct augur_node *k;

    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.lanes > 1)
        return true;
    augur_node_for_each_kid(n, k)
        if (has_simd_access(k))
            return true;
    return false;
}

/*
 * The tiling-and-grouping statistics of the full data (Zhu et al. PACT'19 eq. 4-6): the
 * SIMD utilization for a kernel with SIMD accesses, the tile size and the
 * edges tiled for T_MIMD.
 */
static int apply_tiling(struct augur_predict_ctx *ctx, bool stored_only, uint32_t tile_size,
                        struct augur_predict_result *r, struct augur_diag *diag)
{
    int rc = ctx_csr(ctx, stored_only, diag);

    if (rc)
        return rc;
    if ((rc = augur_tiling_compute(&ctx->csr, tile_size, &r->tiling, diag)) != 0)
        return rc;
    r->tiling_run = augur_kernel_runs_tiling(r->kernel);
    r->simd_kernel = has_simd_access(r->kernel) && !r->tiling_run;
    if (r->simd_kernel)
        r->work.simd_util = r->tiling.simd_util;
    r->work.tile_size = tile_size;
    r->work.tile_edges = (double)r->tiling.nedges;
    r->work.avg_mimd = r->tiling.avg_mimd;
    return 0;
}

/*
 * A call that did no work, or less than the square root of the data's rows plus entries (less
 * than any surface of it), is a guard or a loop bound that skipped the kernel's loops, not a
 * time to report.
 */
static int check_work(const struct augur_predict_result *r, struct augur_diag *diag)
{
    const struct augur_dataset *ds = r->ds;
    double size = (double)ds->coo.nrows + (double)augur_dataset_nnz_full(ds);
    const struct augur_workload *w = &r->work;

    if (w->total.accesses > 0 && w->total.accesses >= sqrt(size))
        return 0;
    return augur_diag_set(
        diag, AUGUR_ERUN, NULL, 0, 0,
        "kernel '%s' did %s on %s (%.4g accesses a call for %u rows and %llu "
        "entries): a guard or a loop bound skipped its loops? 'augur simulate' "
        "shows what ran; --allow-empty predicts it anyway",
        r->kernel->u.kernel.name, w->total.accesses > 0 ? "almost no work" : "no work", ds->path,
        w->total.accesses, ds->coo.nrows, (unsigned long long)augur_dataset_nnz_full(ds));
}

int predict_setup(const struct augur_node *kernel, const struct augur_machine *m, unsigned threads,
                  unsigned sms, bool sampled, unsigned *out, struct augur_sim_opts *so,
                  struct augur_diag *diag)
{
    unsigned hw = m->cores * (m->threads_per_core ? m->threads_per_core : 1);
    const char *mfile = m->path && m->path[0] ? m->path : NULL;

    if (kernel->u.kernel.cuda != (m->kind == AUGUR_MACHINE_GPU))
        return augur_diag_set(diag, AUGUR_EINVAL, mfile, 0, 0,
                              "kernel '%s' is %s code but machine '%s' is a %s",
                              kernel->u.kernel.name, kernel->u.kernel.cuda ? "CUDA" : "CPU",
                              m->name, augur_machine_kind_name(m->kind));
    if (kernel->u.kernel.cuda) {
        /* one simulator thread per SM, the blocks dealt round-robin */
        if (threads || sampled)
            return augur_diag_set(diag, AUGUR_EINVAL, mfile, 0, 0, "kernel '%s' is CUDA: %s",
                                  kernel->u.kernel.name,
                                  threads ? "--threads does not apply (the machine's SMs run it)"
                                          : "--sample is for CPU kernels; give the full data");
        *out = sms ? sms : m->gpu.sms ? m->gpu.sms : m->cores;
        so->interp.sms = *out;
        so->interp.nthreads = *out;
        augur_sim_streams_from_machine(m, so);
        return 0;
    }
    *out = threads ? threads : 1;
    if (*out > hw)
        return augur_diag_set(diag, AUGUR_EINVAL, mfile, 0, 0,
                              "--threads %u, but machine '%s' runs %u thread%s", *out, m->name, hw,
                              m->cores == 1 ? "" : "s");
    so->interp.nthreads = *out;
    augur_bp_config_from_machine(m, &so->interp.predictor);
    augur_sim_streams_from_machine(m, so);
    return 0;
}

/* The schedule override: only where there are worksharing loops to take it. */
static int sched_setup(const struct augur_node *kernel, const struct augur_predict_opts *o,
                       struct augur_sim_opts *so, struct augur_predict_result *r,
                       struct augur_diag *diag)
{
    char text[48];

    augur_sched_format(o->sched, o->chunk, text, sizeof(text));
    if (kernel->u.kernel.cuda || augur_sched_nloops(kernel) == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "schedule %s: kernel '%s' has no OpenMP worksharing loop (omp for, "
                              "parallel for) to run it",
                              text, kernel->u.kernel.name);
    so->interp.sched_given = true;
    so->interp.sched = o->sched;
    so->interp.chunk = o->chunk;
    r->sched_given = true;
    r->sched = o->sched;
    r->chunk = o->chunk;
    return 0;
}

/*
 * Binds the data: the full dataset, or a sample whose caches shrink by the
 * ratio of the footprints (rows plus entries), as the full run meets caches
 * much larger than the sample does (docs/sampling.md).
 */
static int bind_data(struct augur_predict_ctx *ctx, const struct augur_predict_opts *o,
                     bool replicate, unsigned threads, struct augur_cache_config *cfg,
                     struct augur_predict_result *r, struct augur_bound **bound,
                     struct augur_diag *diag)
{
    struct augur_bound_opts bo = bound_opts(o, threads);
    struct augur_sample_opts sopt = { o->method, o->sample, o->seed, 0, replicate };
    double fp_ratio;
    int rc;

    r->scale = 1;
    /*
     * A search by rounds on a sample is not the search on the data: the
     * sample's frontier dies out after a few rounds (road_usa_FLA: 1 round of
     * its 1,921). It runs on the whole data, and the result says why.
     */
    if (o->sample > 0 && (o->rounds || o->round))
        snprintf(r->sample_note, sizeof(r->sample_note),
                 "--sample %g declined: a search by rounds on a sample stops after a few rounds, "
                 "so the whole data runs",
                 o->sample);
    if (!(o->sample > 0) || o->rounds || o->round)
        return augur_bound_new(ctx->ds, &bo, bound, diag);
    rc = ctx_csr(ctx, o->bound.stored_only, diag);
    if (!rc && !o->method_given)
        rc = pick_sampler(ctx, &sopt.method, r->sampler_why, sizeof(r->sampler_why), diag);
    if (!rc)
        rc = ctx_sample(ctx, &sopt, o->bound.stored_only, diag);
    if (!rc)
        rc = augur_bound_from_csr(&ctx->sample.csr, &bo, bound, diag);
    if (rc)
        return rc;
    if (ctx->sample.info.nnz < AUGUR_PREDICT_MIN_SAMPLE &&
        ctx->sample.info.nnz < ctx->sample.info.nnz_full)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "--sample %g: the %s sample holds %llu entries; at least %d are "
                              "needed for its counts to stand for the data's: raise the rate (or "
                              "--sample full)",
                              o->sample, augur_sampler_name(sopt.method),
                              (unsigned long long)ctx->sample.info.nnz, AUGUR_PREDICT_MIN_SAMPLE);
    r->sampled = true;
    r->sample = ctx->sample.info;
    r->scale = r->sample.nnz ? (double)r->sample.nnz_full / (double)r->sample.nnz : 1;
    fp_ratio = ((double)ctx->sample.csr.nrows + (double)ctx->sample.csr.nnz) /
               ((double)ctx->csr.nrows + (double)ctx->csr.nnz);
    if (fp_ratio > 0 && fp_ratio < 1)
        augur_cache_config_scale(cfg, fp_ratio);
    return 0;
}

/* What a loop's bounds are evaluated in: a binding, and the nodes before the loop. */
struct scalar_env {
    const struct augur_skel *skel;
    const struct augur_node *kernel;
    struct augur_bound *b;
    int depth;
};

static bool scalar_value(const struct scalar_env *env, const struct augur_expr *e, uint32_t before,
                         double *out);

/*
 * A local's value where node before runs: its last assignment before it
 * in the kernel's order (set up, then loop: tid = omp.thread; lo = n * tid
 * / nthreads); false where that reads anything but scalars.
 */
static bool local_value(const struct scalar_env *env, uint32_t sym, uint32_t before, double *out)
{
    struct scalar_env deeper = *env;

    if (env->depth >= 16)
        return false;
    deeper.depth++;
    for (uint32_t id = before; id-- > env->kernel->id + 1;) {
        const struct augur_node *n = env->skel->nodes[id];

        if (n->kind == AUGUR_NODE_ASSIGN && n->u.assign.sym == sym &&
            augur_node_kernel(n) == env->kernel)
            return n->u.assign.value && scalar_value(&deeper, n->u.assign.value, id, out);
    }
    return false;
}

static bool binary_value(enum augur_op op, double x, double z, double *out)
{
    switch (op) {
    case AUGUR_OP_ADD:
        *out = x + z;
        return true;
    case AUGUR_OP_SUB:
        *out = x - z;
        return true;
    case AUGUR_OP_MUL:
        *out = x * z;
        return true;
    case AUGUR_OP_DIV: /* the integer division of a split (n / nthreads) is near enough */
        *out = z != 0 ? x / z : 0;
        return z != 0;
    case AUGUR_OP_MOD:
        *out = z != 0 ? fmod(x, z) : 0;
        return z != 0;
    case AUGUR_OP_MIN:
        *out = x < z ? x : z;
        return true;
    case AUGUR_OP_MAX:
        *out = x > z ? x : z;
        return true;
    case AUGUR_OP_LT:
        *out = x < z;
        return true;
    case AUGUR_OP_LE:
        *out = x <= z;
        return true;
    case AUGUR_OP_GT:
        *out = x > z;
        return true;
    case AUGUR_OP_GE:
        *out = x >= z;
        return true;
    case AUGUR_OP_EQ:
        *out = x == z;
        return true;
    case AUGUR_OP_NE:
        *out = x != z;
        return true;
    default:
        return false;
    }
}

/*
 * The value of a scalar expression under a binding where node before runs:
 * parameters by their binding (n, nnz, ell.width, constants), locals by
 * their last assignment, OpenMP's thread as the first of one (a split of
 * n over the threads spans n); false where it reads an array or a value
 * outside the slice.
 */
static bool scalar_value(const struct scalar_env *env, const struct augur_expr *e, uint32_t before,
                         double *out)
{
    const struct augur_sym *y;
    double x, z;

    switch (e->kind) {
    case AUGUR_EXPR_INT:
        *out = (double)e->u.i;
        return true;
    case AUGUR_EXPR_FP:
        *out = e->u.f;
        return true;
    case AUGUR_EXPR_CAST:
        return scalar_value(env, e->u.cast.a, before, out);
    case AUGUR_EXPR_SYM:
        y = &env->kernel->u.kernel.syms[e->u.sym];
        if (y->kind == AUGUR_SYM_PARAM)
            return y->bind && augur_bound_scalar(env->b, y->bind, out, NULL) == 0;
        if (y->kind == AUGUR_SYM_LOCAL)
            return local_value(env, e->u.sym, before, out);
        /* builtins: OpenMP's thread as the first of one; CUDA's are no scalar of the data */
        if (strcmp(y->name, "omp.thread") == 0 || strcmp(y->name, "omp.nthreads") == 0) {
            *out = strcmp(y->name, "omp.nthreads") == 0;
            return true;
        }
        return false;
    case AUGUR_EXPR_UNARY:
        if (e->u.un.op != AUGUR_OP_NEG || !scalar_value(env, e->u.un.a, before, &x))
            return false;
        *out = -x;
        return true;
    case AUGUR_EXPR_SELECT:
        if (!scalar_value(env, e->u.sel.cond, before, &x))
            return false;
        return scalar_value(env, x != 0 ? e->u.sel.a : e->u.sel.b, before, out);
    case AUGUR_EXPR_BINARY:
        return scalar_value(env, e->u.bin.a, before, &x) &&
               scalar_value(env, e->u.bin.b, before, &z) && binary_value(e->u.bin.op, x, z, out);
    default:
        return false;
    }
}

static bool is_sym(const struct augur_expr *e, int32_t sym)
{
    while (e && e->kind == AUGUR_EXPR_CAST)
        e = e->u.cast.a;
    return e && sym >= 0 && e->kind == AUGUR_EXPR_SYM && e->u.sym == (uint32_t)sym;
}

/*
 * The side of a loop's condition that holds its variable v: v, v + x,
 * x + v or v - x, so that v = side - sign * shift (shift NULL: none).
 */
static bool var_side(const struct augur_expr *e, int32_t var, const struct augur_expr **shift,
                     double *sign)
{
    while (e && e->kind == AUGUR_EXPR_CAST)
        e = e->u.cast.a;
    *shift = NULL;
    *sign = 0;
    if (is_sym(e, var))
        return true;
    if (!e || e->kind != AUGUR_EXPR_BINARY)
        return false;
    if ((e->u.bin.op == AUGUR_OP_ADD || e->u.bin.op == AUGUR_OP_SUB) && is_sym(e->u.bin.a, var)) {
        *shift = e->u.bin.b;
        *sign = e->u.bin.op == AUGUR_OP_ADD ? 1 : -1;
        return true;
    }
    if (e->u.bin.op == AUGUR_OP_ADD && is_sym(e->u.bin.b, var)) {
        *shift = e->u.bin.a;
        *sign = 1;
        return true;
    }
    return false;
}

/*
 * The span a for loop's variable runs over under a binding: from its
 * start to where the condition's other side stops it (i + 8 <= n: n - 8).
 */
static bool loop_span(const struct scalar_env *env, const struct augur_node *loop, double *out)
{
    const struct augur_loop_info *l = &loop->u.loop;
    const struct augur_expr *c = l->cond, *end, *shift;
    double hi, lo, sign, by = 0;

    if (var_side(c->u.bin.a, l->var, &shift, &sign))
        end = c->u.bin.b;
    else if (var_side(c->u.bin.b, l->var, &shift, &sign))
        end = c->u.bin.a;
    else
        return false;
    if (!scalar_value(env, end, loop->id, &hi) || !scalar_value(env, l->init, loop->id, &lo) ||
        (shift && !scalar_value(env, shift, loop->id, &by)))
        return false;
    *out = fabs(hi - sign * by - lo);
    return *out > 0;
}

/* True when a break or a return in loop's body (not in a loop inside it) can leave it early. */
static bool leaves_early(const struct augur_node *n, bool top)
{
    const struct augur_node *k;

    if (n->kind == AUGUR_NODE_JUMP)
        return n->u.jump != AUGUR_JUMP_CONTINUE;
    if (n->kind == AUGUR_NODE_LOOP && !top)
        return false;
    augur_node_for_each_kid(n, k) {
        if (leaves_early(k, false))
            return true;
    }
    return false;
}

/*
 * How a loop's trips on the data compare with the sample's: *ratio, and
 * true when the ratio is known. A for loop whose span (loop_span) is a
 * scalar of the binding: the spans' ratio (for i = 0; i < n); a loop
 * whose condition is a constant (do ... while (0)): 1; a loop that leaves
 * early on what it finds (a search with break): 1, the same trips per
 * entry into it; the others (k < rowptr[i + 1], a while over loaded
 * values): not known.
 */
static bool loop_ratio(const struct scalar_env *full, const struct scalar_env *sample,
                       const struct augur_node *loop, double *ratio)
{
    const struct augur_loop_info *l = &loop->u.loop;
    const struct augur_expr *c = l->cond;
    double on_data, on_sample;

    *ratio = 1;
    if (!c)
        return l->trips >= 0;
    if (c->kind == AUGUR_EXPR_INT || leaves_early(loop, true))
        return true;
    if (l->form != AUGUR_LOOP_FOR || !l->init || c->kind != AUGUR_EXPR_BINARY)
        return false;
    if (!loop_span(full, loop, &on_data) || !loop_span(sample, loop, &on_sample))
        return false;
    *ratio = on_data / on_sample;
    return true;
}

/*
 * How many times more often the nodes under loop run on the data than on
 * the sample: the loops around them from the innermost out, each by its
 * ratio (loop_ratio: the rows of SpMV's outer loop, for the sample has its
 * own rows, each with fewer entries than the data's); at the first loop
 * whose trips the data decide, the entries' ratio, which counts that
 * loop's iterations over all the loops around it. Outside every loop,
 * once per call.
 */
static double loop_scale(const struct scalar_env *full, const struct scalar_env *sample,
                         const struct augur_node *loop, double entries)
{
    double f = 1, ratio;

    for (const struct augur_node *p = loop; p && p != full->kernel; p = p->parent) {
        if (p->kind != AUGUR_NODE_LOOP)
            continue;
        if (!loop_ratio(full, sample, p, &ratio))
            return f * entries;
        f *= ratio;
    }
    return f;
}

/*
 * Scales a sampled run's counts up to the data's, each line by the loops
 * around it (loop_scale). full: the data's binding, for the loops' spans.
 */
static int scale_sampled(const struct augur_skel *skel, const struct augur_node *kernel,
                         struct augur_predict_ctx *ctx, const struct augur_predict_opts *o,
                         struct augur_bound *sample, struct augur_predict_result *r,
                         struct augur_diag *diag)
{
    struct augur_bound_opts bo = bound_opts(o, r->threads);
    struct augur_bound *full = NULL;
    struct scalar_env on_data = { skel, kernel, NULL, 0 }, on_sample = { skel, kernel, sample, 0 };
    double *f;
    int rc = augur_bound_from_csr(&ctx->csr, &bo, &full, diag);

    if (rc)
        return rc;
    on_data.b = full;
    f = augur_mallocarray(r->work.nlines ? r->work.nlines : 1, sizeof(*f));
    for (size_t i = 0; i < r->work.nlines; i++) {
        uint32_t loop = r->work.lines[i].loop;

        f[i] = loop_scale(&on_data, &on_sample,
                          loop && loop <= skel->nnodes ? skel->nodes[loop - 1] : NULL, r->scale);
    }
    augur_workload_scale_lines(&r->work, f, r->scale);
    augur_free(f);
    augur_bound_free(full);
    return 0;
}

/* The simulation's counts as the models read them: one call, scaled up from a sample. */
/*
 * The simulation and, for a CPU kernel, the second pass over the data
 * (update chains and loop exits: augur_chain_pass_new()), its own
 * interpreter on the same data. The two run side by side on two threads
 * where OpenMP gives them: neither reads what the other writes. A whole BFS
 * asks the data for each round's values as it runs, so its passes run one
 * after the other.
 */
static int simulate_and_count(const struct augur_skel *skel, const struct augur_node *kernel,
                              struct augur_bound *bound, const struct augur_cache_config *cfg,
                              const struct augur_sim_opts *so, struct augur_sim_profile **prof,
                              struct augur_interp **in, struct augur_chain_pass **cp,
                              struct augur_diag *diag)
{
    struct augur_diag d2;
    bool side = false;
    int rc = 0, rc2 = 0;

    *cp = NULL;
    augur_diag_init(&d2);
    if (!kernel->u.kernel.cuda) {
        rc = augur_chain_pass_new(skel, kernel, bound, &so->interp, so->rounds, cp, diag);
        if (rc)
            return rc;
    }
#ifdef _OPENMP
    side = *cp && !so->rounds && omp_get_max_threads() > 1;
#    pragma omp parallel sections num_threads(2) if (side)
    {
#    pragma omp section
        rc = augur_simulate(skel, kernel, bound, cfg, so, prof, in, diag);
#    pragma omp section
        if (side)
            rc2 = augur_chain_pass_run(*cp, &d2);
    }
#else
    rc = augur_simulate(skel, kernel, bound, cfg, so, prof, in, diag);
#endif
    if (!rc && !side && *cp)
        rc2 = augur_chain_pass_run(*cp, &d2);
    if (!rc && rc2) {
        *diag = d2;
        rc = rc2;
    }
    return rc;
}

static int build_workload(const struct augur_skel *skel, const struct augur_node *kernel,
                          const struct augur_machine *m, const struct augur_predict_opts *o,
                          struct augur_predict_ctx *ctx, const struct augur_cache_config *cfg,
                          struct augur_bound *bound, struct augur_sim_opts *so,
                          const struct augur_sim_profile *prof, const struct augur_interp *in,
                          struct augur_chain_pass *cp, struct augur_predict_result *r,
                          struct augur_diag *diag)
{
    double calls = o->rounds ? 1.0 : (prof->rounds ? prof->rounds : 1);
    struct augur_codegen cg;
    int rc;

    /* one call: a run, or every round of a BFS */
    augur_codegen_from_machine(m, &cg);
    rc = augur_workload_from_profile(skel, kernel, in, prof, calls, &cg, &r->work, diag);
    if (rc)
        return rc;
    if (kernel->u.kernel.cuda) {
        struct augur_gpu_block_use use = o->gpu_use;

        if (r->sampled)
            augur_workload_scale(&r->work, r->scale);
        use.shared_bytes += augur_gpu_static_shared(kernel);
        rc = augur_gpu_occupancy(m, prof->stats.block, &use, &r->occupancy, diag);
        return rc ? rc
                  : augur_workload_gpu(prof, m, calls, o->rounds ? prof->rounds : 1, &r->occupancy,
                                       &r->work, diag);
    }
    /* chains and mispredicted exits are a CPU core's costs */
    rc = augur_chain_pass_finish(cp, 1, r->sampled ? NULL : prof, &r->work, diag);
    if (!rc && r->sampled)
        rc = scale_sampled(skel, kernel, ctx, o, bound, r, diag);
    if (rc)
        return rc;
    /*
     * Model 2 analyses a BFS round by round: one more run through the caches,
     * unless the search is too long to simulate twice in reasonable time.
     */
    if (o->rounds && !r->sampled && prof->rounds && prof->events <= MAX_ROUND_EVENTS)
        rc = augur_workload_add_rounds(skel, kernel, bound, cfg, &so->interp, prof->rounds,
                                       &r->work, diag);
    return rc;
}

/* What a machine file gives the cache simulation: the profile predicts only for the same. */
static void machine_caches(const struct augur_machine *m, struct augur_predict_cache *out,
                           uint32_t *n, uint32_t *row_bytes, uint32_t *banks)
{
    *n = 0;
    for (uint32_t i = 0; i < m->ncaches && i < AUGUR_WORK_MAX_LEVELS; i++) {
        const struct augur_machine_cache *c = &m->caches[i];
        struct augur_predict_cache *p = &out[(*n)++];

        memset(p, 0, sizeof(*p));
        snprintf(p->name, sizeof(p->name), "%s", c->name);
        p->size = c->size;
        p->line = c->line;
        p->sector = c->sector;
        p->ways = c->ways;
        p->shared_by = c->shared_by;
        p->inclusive = c->inclusive;
        p->write_alloc = c->write_alloc;
        p->write_policy = c->write_policy;
        p->prefetch = c->prefetch;
        p->replacement = c->replacement;
    }
    *row_bytes = m->has_memory ? m->memory.row_buffer_bytes : 0;
    *banks = m->has_memory ? m->memory.banks : 0;
}

/* What ran on what, for the reports and the profile file. */
static void describe(struct augur_predict_result *r, const struct augur_skel *skel,
                     const struct augur_node *kernel, const struct augur_dataset *ds,
                     const struct augur_machine *m)
{
    r->kernel_name = kernel->u.kernel.name;
    r->files = (const char *const *)skel->files;
    r->nfiles = skel->nfiles;
    r->kernel_file = kernel->loc.file;
    r->kernel_line = kernel->loc.line;
    r->cuda = kernel->u.kernel.cuda;
    r->dataset = ds->path;
    r->rows = ds->coo.nrows;
    r->cols = ds->coo.ncols;
    r->nnz = augur_dataset_nnz_full(ds);
    machine_caches(m, r->caches, &r->ncaches, &r->row_buffer_bytes, &r->banks);
}

static bool same_cache(const struct augur_predict_cache *a, const struct augur_predict_cache *b)
{
    return strcmp(a->name, b->name) == 0 && a->size == b->size && a->line == b->line &&
           a->sector == b->sector && a->ways == b->ways && a->shared_by == b->shared_by &&
           a->inclusive == b->inclusive && a->write_alloc == b->write_alloc &&
           a->write_policy == b->write_policy && a->prefetch == b->prefetch &&
           a->replacement == b->replacement;
}

int augur_predict_models(struct augur_predict_result *r, const struct augur_machine *m,
                         struct augur_diag *diag)
{
    struct augur_predict_cache mc[AUGUR_WORK_MAX_LEVELS];
    struct augur_model_input mi;
    uint32_t n, rowb, banks, hw = m->cores * (m->threads_per_core ? m->threads_per_core : 1);
    const char *mfile = m->path && m->path[0] ? m->path : NULL;

    machine_caches(m, mc, &n, &rowb, &banks);
    if (r->cuda != (m->kind == AUGUR_MACHINE_GPU))
        return augur_diag_set(diag, AUGUR_EINVAL, mfile, 0, 0,
                              "kernel '%s' is %s code but machine '%s' is a %s", r->kernel_name,
                              r->cuda ? "CUDA" : "CPU", m->name, augur_machine_kind_name(m->kind));
    if (!r->cuda && r->threads > hw)
        return augur_diag_set(diag, AUGUR_EINVAL, mfile, 0, 0,
                              "the counts are of %u threads, but machine '%s' runs %u", r->threads,
                              m->name, hw);
    if (n != r->ncaches || rowb != r->row_buffer_bytes || banks != r->banks)
        return augur_diag_set(
            diag, AUGUR_EINVAL, mfile, 0, 0,
            "machine '%s' has %u cache levels and DRAM rows of %u bytes in %u "
            "banks; the counts were simulated with %u levels, %u bytes, %u banks: "
            "simulate again for it",
            m->name, n, rowb, banks, r->ncaches, r->row_buffer_bytes, r->banks);
    for (uint32_t i = 0; i < n; i++)
        if (!same_cache(&mc[i], &r->caches[i]))
            return augur_diag_set(diag, AUGUR_EINVAL, mfile, m->caches[i].loc.line,
                                  m->caches[i].loc.col,
                                  "cache %s of machine '%s' is not the %s the counts were "
                                  "simulated with (size, line, ways, sharing or policy differ): "
                                  "simulate again for it",
                                  mc[i].name, m->name, r->caches[i].name);
    memset(&mi, 0, sizeof(mi));
    mi.work = &r->work;
    mi.machine = m;
    for (uint32_t i = 0; i < r->nmodels; i++)
        augur_free(r->pred[i].line_seconds);
    memset(r->pred, 0, sizeof(r->pred));
    r->machine = m;
    r->nmodels = augur_model_count();
    return augur_predict_all(&mi, r->pred, r->why, &r->selected, r->selected_why,
                             sizeof(r->selected_why), diag);
}

/* One prediction; a replicate draws its sample shifted (SA) and has no interval. */
static int predict_once(struct augur_predict_ctx *ctx, const struct augur_skel *skel,
                        const struct augur_node *kernel, const struct augur_machine *m,
                        const struct augur_predict_opts *o, bool replicate,
                        struct augur_predict_result **out, struct augur_diag *diag)
{
    struct augur_predict_result *r = augur_calloc(1, sizeof(*r));
    struct augur_bound *bound = NULL;
    struct augur_interp *in = NULL;
    struct augur_sim_profile *prof = NULL;
    struct augur_chain_pass *chains = NULL;
    struct augur_cache_config cfg;
    struct augur_sim_opts so;
    unsigned threads = 1;
    double t0 = augur_now();
    int rc;

    memset(&so, 0, sizeof(so));
    r->skel = skel;
    r->kernel = kernel;
    r->ds = ctx->ds;
    describe(r, skel, kernel, ctx->ds, m);
    if (o->round && o->rounds) {
        rc = augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                            "round %u and every round: one round, or all of them", o->round);
        goto out;
    }
    rc = predict_setup(kernel, m, o->threads, 0, o->sample > 0, &threads, &so, diag);
    if (!rc && o->sched_given)
        rc = sched_setup(kernel, o, &so, r, diag);
    if (!rc)
        rc = augur_cache_config_from_machine(m, threads, &cfg, diag);
    if (!rc)
        rc = bind_data(ctx, o, replicate, threads, &cfg, r, &bound, diag);
    if (rc)
        goto out;
    r->threads = threads;
    so.interp.grid = o->grid;
    so.interp.block = o->block;
    so.interp.seed = o->seed;
    so.interp.on_warn = o->on_warn;
    so.interp.on_progress = o->on_progress;
    so.interp.ud = o->warn_ud;
    so.rounds = o->rounds;
    /*
     * A warm call leaves its dirty lines in the caches, as the next repetition
     * finds them. A whole BFS is counted from cold caches: its rounds warm each
     * other, and running it twice would double the slowest simulation.
     */
    so.warm = !o->cold && !o->rounds;
    so.no_flush = !o->cold;
    r->cold_caches = o->cold || o->rounds;
    rc = simulate_and_count(skel, kernel, bound, &cfg, &so, &prof, &in, &chains, diag);
    if (rc)
        goto out;
    r->sim_events = prof->events;
    r->rounds = prof->rounds;
    r->sim_seconds = prof->seconds;
    rc = build_workload(skel, kernel, m, o, ctx, &cfg, bound, &so, prof, in, chains, r, diag);
    if (!rc && !o->allow_empty && !o->round)
        rc = check_work(r, diag);
    if (!rc && o->tile_size)
        rc = apply_tiling(ctx, o->bound.stored_only, o->tile_size, r, diag);
    if (!rc)
        rc = augur_predict_models(r, m, diag);
    if (rc)
        goto out;
    r->seconds = augur_now() - t0;
    *out = r;
    r = NULL;
out:
    augur_predict_result_free(r);
    augur_sim_profile_free(prof);
    augur_chain_pass_free(chains);
    augur_interp_free(in);
    augur_bound_free(bound);
    return rc;
}

/* Student's t, two-sided 95 %, for 1 .. 16 degrees of freedom (the replicates' cap). */
static const double student_975[AUGUR_PREDICT_MAX_REPLICAS] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
    2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
};

enum augur_sampler augur_predict_replicate_method(enum augur_sampler first, unsigned j)
{
    static const enum augur_sampler turns[] = { AUGUR_SAMPLER_SA, AUGUR_SAMPLER_RT,
                                                AUGUR_SAMPLER_RB };
    enum augur_sampler order[4];
    unsigned n = 0;

    for (unsigned k = 0; k < 3; k++)
        if (turns[k] != first)
            order[n++] = turns[k];
    order[n++] = first;
    return order[(j - 1) % n];
}

/*
 * r's interval (struct augur_predict_interval): the replicates predict on
 * samples at r's rate drawn with seeds seed + 1, seed + 2, ..., by the
 * samplers in turn: one sampler's samples scatter less than they all miss
 * the full data by (docs/sampling.md measures it), so their spread alone
 * would be a narrow interval around a shared bias;
 * the context's sample is r's again afterwards, as augur_predict_bound()
 * and a later question expect.
 */
static int predict_interval(struct augur_predict_ctx *ctx, const struct augur_skel *skel,
                            const struct augur_node *kernel, const struct augur_machine *m,
                            const struct augur_predict_opts *o, unsigned replicas,
                            struct augur_predict_result *r, struct augur_diag *diag)
{
    struct augur_predict_interval *iv = &r->interval;
    struct augur_predict_opts ro = *o;
    struct augur_sample_opts back = { r->sample.method, o->sample, o->seed, 0, false };
    double sum = 0, ss = 0, t;
    char first[160] = "";

    ro.method_given = true;
    ro.on_warn = NULL;
    ro.on_progress = NULL;
    iv->level = 0.95;
    iv->method[iv->samples] = r->sample.method;
    iv->seed[iv->samples] = o->seed;
    iv->seconds[iv->samples++] = augur_predict_selected(r)->seconds;
    for (unsigned j = 1; j <= replicas; j++) {
        struct augur_predict_result *x = NULL;
        struct augur_diag d = { 0 };

        ro.seed = o->seed + j;
        ro.method = augur_predict_replicate_method(r->sample.method, j);
        if (predict_once(ctx, skel, kernel, m, &ro, true, &x, &d) == 0 &&
            x->pred[r->selected].seconds > 0) {
            iv->method[iv->samples] = ro.method;
            iv->seed[iv->samples] = ro.seed;
            iv->seconds[iv->samples++] = x->pred[r->selected].seconds;
        } else {
            if (!iv->failed)
                snprintf(first, sizeof(first), "%.120s", x ? x->why[r->selected] : d.msg);
            iv->failed++;
        }
        augur_predict_result_free(x);
    }
    if (iv->samples < 2) {
        snprintf(iv->why, sizeof(iv->why), "no interval: the %u other sample%s failed (%.100s)",
                 replicas, replicas == 1 ? "" : "s", first);
        iv->samples = 0;
    } else {
        for (uint32_t i = 0; i < iv->samples; i++)
            sum += log(iv->seconds[i]);
        for (uint32_t i = 0; i < iv->samples; i++) {
            double d = log(iv->seconds[i]) - sum / iv->samples;

            ss += d * d;
        }
        iv->log_sd = sqrt(ss / (iv->samples - 1));
        t = student_975[iv->samples - 2];
        iv->lo = iv->seconds[0] * exp(-t * iv->log_sd);
        iv->hi = iv->seconds[0] * exp(t * iv->log_sd);
    }
    return ctx_sample(ctx, &back, o->bound.stored_only, diag);
}

int augur_predict_run(struct augur_predict_ctx *ctx, const struct augur_skel *skel,
                      const struct augur_node *kernel, const struct augur_machine *m,
                      const struct augur_predict_opts *opts, struct augur_predict_result **out,
                      struct augur_diag *diag)
{
    static const struct augur_predict_opts defaults;
    const struct augur_predict_opts *o = opts ? opts : &defaults;
    struct augur_predict_result *r = NULL;
    int replicas = o->replicas ? o->replicas : AUGUR_PREDICT_REPLICAS;
    uint64_t budget = o->sample_budget ? o->sample_budget : AUGUR_PREDICT_FULL_ENTRIES;
    struct augur_predict_opts eff;
    char why[160] = "";
    double t0 = augur_now();
    int rc;

    if (replicas > AUGUR_PREDICT_MAX_REPLICAS)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "%d replicates for the interval: at most %d", replicas,
                              AUGUR_PREDICT_MAX_REPLICAS);
    if (o->sample_auto) {
        uint64_t nnz = augur_dataset_nnz_full(ctx->ds);

        eff = *o;
        if (budget < AUGUR_PREDICT_MIN_SAMPLE)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "a sampling budget of %llu entries: at least %d are needed",
                                  (unsigned long long)budget, AUGUR_PREDICT_MIN_SAMPLE);
        eff.sample = nnz > budget ? (double)budget / (double)nnz : 0;
        snprintf(why, sizeof(why), "--sample auto: %llu entries, %s the %llu simulated whole",
                 (unsigned long long)nnz, nnz > budget ? "over" : "within",
                 (unsigned long long)budget);
        o = &eff;
    }
    rc = predict_once(ctx, skel, kernel, m, o, false, &r, diag);
    if (!rc)
        snprintf(r->sample_auto, sizeof(r->sample_auto), "%s", why);
    if (!rc && r->sampled && replicas > 0)
        rc = predict_interval(ctx, skel, kernel, m, o, (unsigned)replicas, r, diag);
    if (rc) {
        augur_predict_result_free(r);
        return rc;
    }
    r->seconds = augur_now() - t0;
    *out = r;
    return 0;
}

const struct augur_prediction *augur_predict_selected(const struct augur_predict_result *r)
{
    return &r->pred[r->selected];
}

void augur_predict_result_free(struct augur_predict_result *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->nmodels; i++)
        augur_free(r->pred[i].line_seconds);
    augur_workload_release(&r->work);
    augur_arena_release(&r->strings);
    augur_free(r);
}
