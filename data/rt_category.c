/*
 * rt_category.c - the dataset categorizer of Zhu et al. PACT'19 section III-D: the
 * feature vector (Table I and the RNN clustering coefficient), CART training,
 * the tree file (format, parser) and classification; and the generated
 * training matrices, R-MAT and Langguth et al.'s block-diagonal instances
 * (module: data).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt_int.h"

static const char *const feature_names[] = {
#define X(e, name) name,
    AUGUR_CAT_FEATURES(X)
#undef X
};

const char *augur_cat_feature_name(enum augur_cat_feature f)
{
    return (unsigned)f < AUGUR_CAT_NFEATURES ? feature_names[f] : "?";
}

static double rnn_rate_of(const struct augur_cat_opts *o)
{
    return o->rnn_rate > 0.0 ? o->rnn_rate : 0.01;
}

/* The median of |i - j| over the entries (a count per distance); 0 for an empty matrix. */
static double dist_median(const struct augur_csr *csr)
{
    uint32_t n = csr->nrows > csr->ncols ? csr->nrows : csr->ncols;
    uint64_t *count, seen = 0;
    uint32_t d = 0;

    if (csr->nnz == 0)
        return 0.0;
    count = augur_calloc((size_t)n + 1, sizeof(uint64_t));
    for (uint32_t i = 0; i < csr->nrows; i++)
        for (uint64_t k = csr->rowptr[i]; k < csr->rowptr[i + 1]; k++)
            count[i > csr->col[k] ? i - csr->col[k] : csr->col[k] - i]++;
    for (d = 0; d < n; d++) {
        seen += count[d];
        if (2 * seen >= csr->nnz)
            break;
    }
    augur_free(count);
    return (double)d;
}

/*
 * The share of the entries (i, j), i > 0, whose line j / AUGUR_SAMPLE_ALIGN
 * row i - 1 touches too: a merge of the two sorted rows' lines.
 */
static double prev_line_share(const struct augur_csr *csr)
{
    uint64_t hit = 0, all = 0;

    for (uint32_t i = 1; i < csr->nrows; i++) {
        uint64_t a = csr->rowptr[i - 1], a_end = csr->rowptr[i];

        for (uint64_t k = csr->rowptr[i]; k < csr->rowptr[i + 1]; k++) {
            uint32_t line = csr->col[k] / AUGUR_SAMPLE_ALIGN;

            while (a < a_end && csr->col[a] / AUGUR_SAMPLE_ALIGN < line)
                a++;
            hit += a < a_end && csr->col[a] / AUGUR_SAMPLE_ALIGN == line;
            all++;
        }
    }
    return all ? (double)hit / (double)all : 0.0;
}

int augur_cat_features(const struct augur_csr *csr, bool symmetric,
                       const struct augur_cat_opts *opts, double out[AUGUR_CAT_NFEATURES],
                       struct augur_diag *diag)
{
    struct augur_feature_opts fo = { 0 };
    struct augur_rnn_opts ro = { 0 };
    struct augur_features f;
    struct augur_cc_estimate cc;
    double v[AUGUR_CAT_NFEATURES];
    int rc;

    fo.block_size = opts->block_size;
    fo.sample_fraction = opts->row_fraction;
    fo.seed = opts->seed;
    rc = augur_features_compute(csr, &fo, &f, diag);
    if (rc)
        return rc;
    ro.rate = rnn_rate_of(opts);
    ro.seed = opts->seed;
    ro.symmetric = symmetric;
    rc = augur_clustering_estimate(csr, &ro, &cc, diag);
    if (rc)
        return rc;
    v[AUGUR_CAT_NNZ_TOT] = (double)f.nnz_tot;
    v[AUGUR_CAT_NNZ_FRAC] = f.nnz_frac;
    v[AUGUR_CAT_NNZ_MIN] = (double)f.nnz_row.min;
    v[AUGUR_CAT_NNZ_MAX] = (double)f.nnz_row.max;
    v[AUGUR_CAT_NNZ_MU] = f.nnz_row.mean;
    v[AUGUR_CAT_NNZ_SIG] = f.nnz_row.std;
    v[AUGUR_CAT_NNZB_TOT] = (double)f.nnzb_tot;
    v[AUGUR_CAT_NNZB_MIN] = (double)f.nnzb_row.min;
    v[AUGUR_CAT_NNZB_MAX] = (double)f.nnzb_row.max;
    v[AUGUR_CAT_NNZB_MU] = f.nnzb_row.mean;
    v[AUGUR_CAT_NNZB_SIG] = f.nnzb_row.std;
    v[AUGUR_CAT_SNZB_MIN] = (double)f.snzb.min;
    v[AUGUR_CAT_SNZB_MAX] = (double)f.snzb.max;
    v[AUGUR_CAT_SNZB_MU] = f.snzb.mean;
    v[AUGUR_CAT_SNZB_SIG] = f.snzb.std;
    v[AUGUR_CAT_NNZ_CV] = f.nnz_row.cv;
    v[AUGUR_CAT_CC] = cc.value;
    v[AUGUR_CAT_DIST_MED] = dist_median(csr);
    v[AUGUR_CAT_PREV_LINE] = prev_line_share(csr);
    memcpy(out, v, sizeof(v));
    return 0;
}

/* ---- the tree ----------------------------------------------------------- */

#define TREE_MAX_NODES 4096
#define TREE_VERSION   1

struct tree_node {
    int feature; /* -1: a leaf */
    double threshold;
    unsigned left, right; /* x[feature] <= threshold: left */
    enum augur_sampler cls;
    uint64_t count[AUGUR_SAMPLER_COUNT]; /* training matrices per class that reached it */
    bool defined;
};

struct augur_tree {
    struct tree_node *node;
    unsigned n;
    struct augur_cat_opts feat;
};

static struct augur_tree *tree_new(unsigned cap)
{
    struct augur_tree *t = augur_calloc(1, sizeof(*t));

    t->node = augur_calloc(cap ? cap : 1, sizeof(struct tree_node));
    return t;
}

void augur_tree_free(struct augur_tree *t)
{
    if (!t)
        return;
    augur_free(t->node);
    augur_free(t);
}

unsigned augur_tree_nnodes(const struct augur_tree *t)
{
    return t->n;
}

static unsigned depth_of(const struct augur_tree *t, unsigned id)
{
    const struct tree_node *nd = &t->node[id];
    unsigned l, r;

    if (nd->feature < 0)
        return 0;
    l = depth_of(t, nd->left);
    r = depth_of(t, nd->right);
    return 1 + (l > r ? l : r);
}

unsigned augur_tree_depth(const struct augur_tree *t)
{
    return t->n ? depth_of(t, 0) : 0;
}

const struct augur_cat_opts *augur_tree_feature_opts(const struct augur_tree *t)
{
    return &t->feat;
}

enum augur_sampler augur_tree_classify(const struct augur_tree *t,
                                       const double x[AUGUR_CAT_NFEATURES], unsigned *leaf)
{
    unsigned id = 0;

    /* Children have larger ids than their parent (checked on load): the walk ends. */
    while (t->node[id].feature >= 0)
        id = x[t->node[id].feature] <= t->node[id].threshold ? t->node[id].left : t->node[id].right;
    if (leaf)
        *leaf = id;
    return t->node[id].cls;
}

/* ---- CART training ------------------------------------------------------ */

struct trainer {
    const double *x;
    const enum augur_sampler *y;
    size_t *idx;
    double *keys; /* scratch: (value, index) sorting */
    size_t *order;
    struct augur_tree_opts opts;
    struct augur_tree *t;
    unsigned cap;
};

static double gini(const uint64_t *c, uint64_t n)
{
    double s = 0.0;

    if (n == 0)
        return 0.0;
    for (unsigned k = 0; k < AUGUR_SAMPLER_COUNT; k++)
        s += ((double)c[k] / (double)n) * ((double)c[k] / (double)n);
    return 1.0 - s;
}

static const double *sort_x;
static unsigned sort_f;

static int cmp_by_feature(const void *a, const void *b)
{
    double u = sort_x[*(const size_t *)a * AUGUR_CAT_NFEATURES + sort_f];
    double v = sort_x[*(const size_t *)b * AUGUR_CAT_NFEATURES + sort_f];

    if (u < v)
        return -1;
    if (u > v)
        return 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : *(const size_t *)a > *(const size_t *)b;
}

static unsigned add_node(struct trainer *tr)
{
    if (tr->t->n == tr->cap) {
        tr->cap *= 2;
        tr->t->node = augur_reallocarray(tr->t->node, tr->cap, sizeof(struct tree_node));
    }
    memset(&tr->t->node[tr->t->n], 0, sizeof(struct tree_node));
    tr->t->node[tr->t->n].defined = true;
    return tr->t->n++;
}

/* Stride Average first (deterministic and cheapest), then Random Tile, Row Blocks, Random Edge. */
static const enum augur_sampler cost_order[AUGUR_SAMPLER_COUNT] = {
    AUGUR_SAMPLER_SA, AUGUR_SAMPLER_RT, AUGUR_SAMPLER_RB, AUGUR_SAMPLER_RE
};

/*
 * The summed costs of a set of matrices, per sampler: the finite costs'
 * sum and how many are infinite (a sampler not a candidate for some of
 * them), so that one can be taken off again.
 */
struct costs {
    double sum[AUGUR_SAMPLER_COUNT];
    uint64_t inf[AUGUR_SAMPLER_COUNT];
};

static void costs_add(struct costs *c, const double *cost, double sign)
{
    for (unsigned k = 0; k < AUGUR_SAMPLER_COUNT; k++) {
        if (isfinite(cost[k]))
            c->sum[k] += sign * cost[k];
        else
            c->inf[k] += sign > 0 ? 1 : (uint64_t)-1;
    }
}

/* The least of the summed costs, and its sampler (ties by cost_order); INFINITY when none. */
static double least_cost(const struct costs *c, unsigned *cls)
{
    double best = INFINITY;

    for (unsigned k = 0; k < AUGUR_SAMPLER_COUNT; k++) {
        unsigned s = cost_order[k];

        if (c->inf[s] == 0 && c->sum[s] < best) {
            best = c->sum[s];
            if (cls)
                *cls = s;
        }
    }
    return best;
}

/*
 * The split of idx[lo, lo + n) on feature f that leaves the least impurity
 * (Gini) or summed cost of its two sides, if lower than best's; at stays 0
 * when no split leaves min_leaf on both sides.
 */
struct split {
    double score, threshold;
    size_t at;
    unsigned feature;
};

static void best_split_on(struct trainer *tr, size_t lo, size_t n, unsigned f,
                          const uint64_t *count, const struct costs *all, struct split *best)
{
    uint64_t left[AUGUR_SAMPLER_COUNT] = { 0 }, right[AUGUR_SAMPLER_COUNT];
    struct costs lc = { { 0 }, { 0 } }, rc = *all;
    const double *cost = tr->opts.cost;

    memcpy(tr->order, tr->idx + lo, n * sizeof(size_t));
    sort_x = tr->x;
    sort_f = f;
    qsort(tr->order, n, sizeof(size_t), cmp_by_feature);
    memcpy(right, count, sizeof(right));
    for (size_t i = 1; i < n; i++) {
        size_t prev = tr->order[i - 1];
        double a = tr->x[prev * AUGUR_CAT_NFEATURES + f];
        double b = tr->x[tr->order[i] * AUGUR_CAT_NFEATURES + f];
        double g;

        left[tr->y[prev]]++;
        right[tr->y[prev]]--;
        if (cost) {
            costs_add(&lc, cost + prev * AUGUR_SAMPLER_COUNT, 1);
            costs_add(&rc, cost + prev * AUGUR_SAMPLER_COUNT, -1);
        }
        if (!(a < b) || i < tr->opts.min_leaf || n - i < tr->opts.min_leaf)
            continue;
        g = cost ? least_cost(&lc, NULL) + least_cost(&rc, NULL)
                 : ((double)i * gini(left, i) + (double)(n - i) * gini(right, n - i)) / (double)n;
        if (g < best->score - 1e-12) {
            double thr = a + (b - a) / 2.0;

            best->score = g;
            best->feature = f;
            best->threshold = thr < b ? thr : a;
            best->at = i;
        }
    }
}

/* Grows the subtree of idx[lo, hi) at depth; returns its root's id (pre-order numbering). */
static unsigned grow(struct trainer *tr, size_t lo, size_t hi, unsigned depth)
{
    uint64_t count[AUGUR_SAMPLER_COUNT] = { 0 }, n = hi - lo;
    struct costs all = { { 0 }, { 0 } };
    double parent;
    unsigned id = add_node(tr), best_f, cls = AUGUR_SAMPLER_SA;
    struct split best = { INFINITY, 0.0, 0, 0 };
    double best_thr;
    struct tree_node *nd;

    for (size_t i = lo; i < hi; i++) {
        count[tr->y[tr->idx[i]]]++;
        if (tr->opts.cost)
            costs_add(&all, tr->opts.cost + tr->idx[i] * AUGUR_SAMPLER_COUNT, 1);
    }
    if (tr->opts.cost) {
        parent = least_cost(&all, &cls);
    } else {
        for (unsigned k = 0; k < AUGUR_SAMPLER_COUNT; k++)
            if (count[k] > count[cls])
                cls = k;
        parent = gini(count, n);
    }
    nd = &tr->t->node[id];
    nd->feature = -1;
    nd->cls = (enum augur_sampler)cls;
    memcpy(nd->count, count, sizeof(count));
    if (depth >= tr->opts.max_depth || parent == 0.0 || n < 2 * (uint64_t)tr->opts.min_leaf)
        return id;

    for (unsigned f = 0; f < AUGUR_CAT_NFEATURES; f++)
        if (!tr->opts.feature_mask || tr->opts.feature_mask >> f & 1)
            best_split_on(tr, lo, n, f, count, &all, &best);
    if (best.at == 0 || !(best.score < parent - 1e-12 * (parent > 1 ? parent : 1)))
        return id;
    best_f = best.feature;
    best_thr = best.threshold;

    /* Partition idx[lo, hi) by the split, keeping the order stable. */
    {
        size_t nl = 0, nr = 0;

        for (size_t i = lo; i < hi; i++) {
            size_t k = tr->idx[i];

            if (tr->x[k * AUGUR_CAT_NFEATURES + best_f] <= best_thr)
                tr->order[nl++] = k;
        }
        for (size_t i = lo; i < hi; i++) {
            size_t k = tr->idx[i];

            if (!(tr->x[k * AUGUR_CAT_NFEATURES + best_f] <= best_thr))
                tr->order[nl + nr++] = k;
        }
        memcpy(tr->idx + lo, tr->order, n * sizeof(size_t));
        {
            unsigned l = grow(tr, lo, lo + nl, depth + 1);
            unsigned r = grow(tr, lo + nl, hi, depth + 1);

            nd = &tr->t->node[id]; /* the array may have moved */
            nd->feature = (int)best_f;
            nd->threshold = best_thr;
            nd->left = l;
            nd->right = r;
        }
    }
    return id;
}

int augur_tree_train(const double *x, const enum augur_sampler *y, size_t n,
                     const struct augur_tree_opts *opts, const struct augur_cat_opts *feat,
                     struct augur_tree **out, struct augur_diag *diag)
{
    struct trainer tr;

    if (n == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "no training matrices");
    for (size_t i = 0; i < n; i++) {
        bool some = false;

        if ((unsigned)y[i] >= AUGUR_SAMPLER_COUNT)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "training matrix %zu: label %d is not a sampler", i, (int)y[i]);
        for (unsigned k = 0; opts && opts->cost && k < AUGUR_SAMPLER_COUNT; k++) {
            double c = opts->cost[i * AUGUR_SAMPLER_COUNT + k];

            if (!(c >= 0))
                return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                      "training matrix %zu: the cost of %s is %g, not >= 0", i,
                                      augur_sampler_name(k), c);
            some |= isfinite(c);
        }
        if (opts && opts->cost && !some)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "training matrix %zu: no sampler has a finite cost", i);
        for (unsigned f = 0; f < AUGUR_CAT_NFEATURES; f++)
            if (!isfinite(x[i * AUGUR_CAT_NFEATURES + f]))
                return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                      "training matrix %zu: feature %s is not finite", i,
                                      feature_names[f]);
    }
    memset(&tr, 0, sizeof(tr));
    tr.x = x;
    tr.y = y;
    tr.opts = opts ? *opts : tr.opts;
    if (tr.opts.max_depth == 0)
        tr.opts.max_depth = 3;
    if (tr.opts.max_depth > 16)
        tr.opts.max_depth = 16;
    if (tr.opts.min_leaf == 0)
        tr.opts.min_leaf = 2;
    tr.cap = 16;
    tr.t = tree_new(tr.cap);
    if (feat)
        tr.t->feat = *feat;
    tr.idx = augur_mallocarray(n, sizeof(size_t));
    tr.order = augur_mallocarray(n, sizeof(size_t));
    for (size_t i = 0; i < n; i++)
        tr.idx[i] = i;
    grow(&tr, 0, n, 0);
    augur_free(tr.idx);
    augur_free(tr.order);
    *out = tr.t;
    return 0;
}

/* ---- the tree file ------------------------------------------------------ */

static void format_block_size(uint32_t b, char *buf, size_t size)
{
    if (b == AUGUR_BLOCK_RUNS)
        snprintf(buf, size, "run");
    else
        snprintf(buf, size, "%u", b);
}

void augur_tree_format(const struct augur_tree *t, const char *comment, struct augur_buf *buf)
{
    char bs[16];

    augur_buf_printf(buf, "augur-categorizer %d\n", TREE_VERSION);
    if (comment) {
        /* One "# " line per line of the comment. */
        const char *p = comment;

        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);

            augur_buf_puts(buf, "# ");
            augur_buf_add(buf, p, len);
            augur_buf_putc(buf, '\n');
            p += len + (nl != NULL);
        }
    }
    format_block_size(t->feat.block_size, bs, sizeof(bs));
    augur_buf_printf(buf, "features rnn-rate %.17g row-fraction %.17g seed %llu block-size %s\n",
                     rnn_rate_of(&t->feat), t->feat.row_fraction > 0 ? t->feat.row_fraction : 1.0,
                     (unsigned long long)t->feat.seed, bs);
    for (unsigned i = 0; i < t->n; i++) {
        const struct tree_node *nd = &t->node[i];

        if (nd->feature >= 0)
            augur_buf_printf(buf, "node %u split %s %.17g %u %u\n", i, feature_names[nd->feature],
                             nd->threshold, nd->left, nd->right);
        else
            augur_buf_printf(buf, "node %u leaf %s %llu %llu %llu %llu\n", i,
                             augur_sampler_name(nd->cls), (unsigned long long)nd->count[0],
                             (unsigned long long)nd->count[1], (unsigned long long)nd->count[2],
                             (unsigned long long)nd->count[3]);
    }
}

/* After a line's fields: blanks, then the end of the line or a '#' comment. */
static int end_of_line(struct rt_scan *s, const char *what)
{
    rt_skip_blanks(s);
    if (*s->p == '#' && s->p < s->end)
        return 0;
    return rt_expect_eol(s, what);
}

static int parse_features(struct rt_scan *s, struct augur_cat_opts *f)
{
    bool seen[4] = { false, false, false, false };
    static const char *const keys[] = { "rnn-rate", "row-fraction", "seed", "block-size" };
    char word[32];

    while (!rt_at_eol(s) && *s->p != '#') {
        int k = -1, rc;
        const char *at = s->p;

        rt_parse_word(s, word, sizeof(word));
        for (int i = 0; i < 4; i++)
            if (strcmp(word, keys[i]) == 0)
                k = i;
        if (k < 0) {
            s->p = at;
            return rt_error(s, AUGUR_EPARSE,
                            "unknown feature setting '%s' (rnn-rate, row-fraction, seed, "
                            "block-size)",
                            word);
        }
        if (seen[k]) {
            s->p = at;
            return rt_error(s, AUGUR_EPARSE, "feature setting '%s' given twice", word);
        }
        seen[k] = true;
        if (k == 0 || k == 1) {
            double v;

            rc = rt_parse_double(s, &v, keys[k]);
            if (rc)
                return rc;
            if (!(v > 0.0 && v <= 1.0))
                return rt_error(s, AUGUR_ERANGE, "%s %g is not in (0, 1]", keys[k], v);
            if (k == 0)
                f->rnn_rate = v;
            else
                f->row_fraction = v;
        } else if (k == 2) {
            rc = rt_parse_u64(s, &f->seed, "seed");
            if (rc)
                return rc;
        } else {
            uint64_t b;

            rt_skip_blanks(s);
            if (strncmp(s->p, "run", 3) == 0 &&
                (s->p + 3 >= s->end || s->p[3] == ' ' || s->p[3] == '\t' || s->p[3] == '\n' ||
                 s->p[3] == '\r' || s->p[3] == '\0')) {
                s->p += 3;
                f->block_size = AUGUR_BLOCK_RUNS;
                continue;
            }
            rc = rt_parse_u64(s, &b, "block-size");
            if (rc)
                return rc;
            if (b < 1 || b > UINT32_MAX)
                return rt_error(s, AUGUR_ERANGE, "block-size %llu is not 'run' or 1..%u",
                                (unsigned long long)b, UINT32_MAX);
            f->block_size = (uint32_t)b;
        }
    }
    for (int i = 0; i < 4; i++)
        if (!seen[i])
            return rt_error(s, AUGUR_EPARSE, "the features line lacks '%s'", keys[i]);
    return end_of_line(s, "the feature settings");
}

static int parse_node(struct rt_scan *s, struct augur_tree *t, uint32_t *ref_line)
{
    char word[32];
    uint64_t id, v;
    struct tree_node *nd;
    const char *at;
    int rc;

    rt_skip_blanks(s);
    at = s->p;
    rc = rt_parse_u64(s, &id, "node id");
    if (rc)
        return rc;
    if (id >= TREE_MAX_NODES) {
        s->p = at;
        return rt_error(s, AUGUR_ELIMIT, "node id %llu: a tree has at most %d nodes",
                        (unsigned long long)id, TREE_MAX_NODES);
    }
    nd = &t->node[id];
    if (nd->defined) {
        s->p = at;
        return rt_error(s, AUGUR_EPARSE, "node %llu defined twice", (unsigned long long)id);
    }
    nd->defined = true;
    ref_line[id] = rt_line(s);
    if (id + 1 > t->n)
        t->n = (unsigned)id + 1;
    at = s->p;
    if (!rt_parse_word(s, word, sizeof(word)))
        return rt_error(s, AUGUR_EPARSE, "expected 'split' or 'leaf' after the node id");
    if (strcmp(word, "leaf") == 0) {
        enum augur_sampler cls;

        nd->feature = -1;
        rt_skip_blanks(s);
        at = s->p;
        if (!rt_parse_word(s, word, sizeof(word)))
            return rt_error(s, AUGUR_EPARSE, "expected the leaf's sampler (sa, rt, rb, re)");
        if (augur_sampler_parse(word, &cls) != 0) {
            s->p = at;
            return rt_error(s, AUGUR_EPARSE, "unknown sampler '%s' (sa, rt, rb, re)", word);
        }
        nd->cls = cls;
        /* The counts of re, sa and rt (files written before rb had three), then rb's. */
        if (!rt_at_eol(s) && *s->p != '#')
            for (unsigned k = 0; k < AUGUR_SAMPLER_COUNT; k++) {
                rt_skip_blanks(s);
                if (k == AUGUR_SAMPLER_RB && (rt_at_eol(s) || *s->p == '#'))
                    break;
                rc = rt_parse_u64(s, &nd->count[k], "training count");
                if (rc)
                    return rc;
            }
        return end_of_line(s, "the leaf");
    }
    if (strcmp(word, "split") != 0) {
        s->p = at;
        rt_skip_blanks(s);
        return rt_error(s, AUGUR_EPARSE, "expected 'split' or 'leaf', not '%s'", word);
    }
    rt_skip_blanks(s);
    at = s->p;
    if (!rt_parse_word(s, word, sizeof(word)))
        return rt_error(s, AUGUR_EPARSE, "expected a feature name after 'split'");
    nd->feature = -1;
    for (int f = 0; f < AUGUR_CAT_NFEATURES; f++)
        if (strcmp(word, feature_names[f]) == 0)
            nd->feature = f;
    if (nd->feature < 0) {
        s->p = at;
        return rt_error(s, AUGUR_EPARSE, "unknown feature '%s'", word);
    }
    rc = rt_parse_double(s, &nd->threshold, "threshold");
    if (rc)
        return rc;
    for (int c = 0; c < 2; c++) {
        rt_skip_blanks(s);
        at = s->p;
        rc = rt_parse_u64(s, &v, c ? "right child" : "left child");
        if (rc)
            return rc;
        if (v <= id || v >= TREE_MAX_NODES) {
            s->p = at;
            return rt_error(s, AUGUR_EPARSE,
                            "child %llu of node %llu: children must have larger ids (below %d)",
                            (unsigned long long)v, (unsigned long long)id, TREE_MAX_NODES);
        }
        if (c)
            nd->right = (unsigned)v;
        else
            nd->left = (unsigned)v;
    }
    return end_of_line(s, "the split");
}

int augur_tree_parse(const char *text, size_t len, const char *name, struct augur_tree **out,
                     struct augur_diag *diag)
{
    struct augur_tree *t = tree_new(TREE_MAX_NODES);
    uint32_t *ref_line = augur_calloc(TREE_MAX_NODES, sizeof(uint32_t));
    uint8_t *refs = augur_calloc(TREE_MAX_NODES, 1);
    char *buf = augur_malloc(len + 1);
    bool header = false, features = false;
    struct rt_scan s;
    char word[32];
    int rc = 0;

    memcpy(buf, text, len);
    buf[len] = '\0';
    rt_scan_init(&s, buf, len, name, diag);
    while (rt_next_content_line(&s, "#")) {
        const char *at = s.p;

        if (!rt_parse_word(&s, word, sizeof(word))) {
            rc = rt_error(&s, AUGUR_EPARSE, "expected a keyword");
            goto fail;
        }
        if (!header) {
            uint64_t v;

            if (strcmp(word, "augur-categorizer") != 0) {
                s.p = at;
                rc = rt_error(&s, AUGUR_EPARSE,
                              "not a categorizer tree: the first line must be "
                              "'augur-categorizer %d'",
                              TREE_VERSION);
                goto fail;
            }
            rt_skip_blanks(&s);
            at = s.p;
            rc = rt_parse_u64(&s, &v, "version");
            if (rc)
                goto fail;
            if (v != TREE_VERSION) {
                s.p = at;
                rc = rt_error(&s, AUGUR_EFORMAT, "tree file version %llu; this augur reads %d",
                              (unsigned long long)v, TREE_VERSION);
                goto fail;
            }
            rc = end_of_line(&s, "the version");
            if (rc)
                goto fail;
            header = true;
        } else if (strcmp(word, "features") == 0) {
            if (features) {
                s.p = at;
                rc = rt_error(&s, AUGUR_EPARSE, "a second features line");
                goto fail;
            }
            features = true;
            rc = parse_features(&s, &t->feat);
            if (rc)
                goto fail;
        } else if (strcmp(word, "node") == 0) {
            rc = parse_node(&s, t, ref_line);
            if (rc)
                goto fail;
        } else {
            s.p = at;
            rc = rt_error(&s, AUGUR_EPARSE, "unknown keyword '%s' (features, node)", word);
            goto fail;
        }
        rt_next_line(&s);
    }
    if (!header) {
        rc = augur_diag_set(diag, AUGUR_EPARSE, name, 1, 0, "empty file: not a categorizer tree");
        goto fail;
    }
    if (!features) {
        rc = augur_diag_set(diag, AUGUR_EPARSE, name, 0, 0, "the tree has no features line");
        goto fail;
    }
    if (t->n == 0) {
        rc = augur_diag_set(diag, AUGUR_EPARSE, name, 0, 0, "the tree has no nodes");
        goto fail;
    }
    /* Every id below n defined, every child defined and the child of exactly one node. */
    for (unsigned i = 0; i < t->n; i++) {
        const struct tree_node *nd = &t->node[i];

        if (!nd->defined) {
            rc = augur_diag_set(diag, AUGUR_EPARSE, name, 0, 0,
                                "node %u is missing (ids run from 0 to %u)", i, t->n - 1);
            goto fail;
        }
        if (nd->feature < 0)
            continue;
        for (int c = 0; c < 2; c++) {
            unsigned k = c ? nd->right : nd->left;

            if (k >= t->n || !t->node[k].defined) {
                rc = augur_diag_set(diag, AUGUR_EPARSE, name, ref_line[i], 0,
                                    "node %u: child %u is not defined", i, k);
                goto fail;
            }
            if (refs[k]++) {
                rc = augur_diag_set(diag, AUGUR_EPARSE, name, ref_line[i], 0,
                                    "node %u: node %u is the child of two nodes", i, k);
                goto fail;
            }
        }
    }
    for (unsigned i = 1; i < t->n; i++)
        if (!refs[i]) {
            rc = augur_diag_set(diag, AUGUR_EPARSE, name, ref_line[i], 0,
                                "node %u is not reachable from node 0", i);
            goto fail;
        }
    augur_free(ref_line);
    augur_free(refs);
    augur_free(buf);
    *out = t;
    return 0;
fail:
    augur_free(ref_line);
    augur_free(refs);
    augur_free(buf);
    augur_tree_free(t);
    return rc;
}

int augur_tree_load(const char *path, struct augur_tree **out, struct augur_diag *diag)
{
    struct augur_buf buf;
    int rc;

    augur_buf_init(&buf);
    rc = augur_file_read(path, 1u << 24, &buf, NULL, diag);
    if (!rc)
        rc = augur_tree_parse(buf.s, buf.len, path, out, diag);
    augur_buf_release(&buf);
    return rc;
}

/* ---- errors given per matrix ------------------------------------------ */

/* A training set's matrices at most (names are checked pairwise for repeats). */
#define CAT_ERRORS_MAX 10000

const struct augur_cat_error *augur_cat_errors_find(const struct augur_cat_errors *e,
                                                    const char *path)
{
    const char *base = strrchr(path, '/');

    base = base ? base + 1 : path;
    for (size_t i = 0; i < e->n; i++)
        if (strcmp(e->rows[i].name, base) == 0)
            return &e->rows[i];
    return NULL;
}

void augur_cat_errors_release(struct augur_cat_errors *e)
{
    augur_free(e->rows);
    e->rows = NULL;
    e->n = 0;
}

int augur_cat_errors_parse(const char *text, size_t len, const char *name,
                           struct augur_cat_errors *out, struct augur_diag *diag)
{
    static const enum augur_sampler cols[] = { AUGUR_SAMPLER_SA, AUGUR_SAMPLER_RT,
                                               AUGUR_SAMPLER_RB };
    struct augur_vec rows;
    struct rt_scan s;
    char *buf = augur_malloc(len + 1);
    int rc = 0;

    memcpy(buf, text, len);
    buf[len] = '\0';
    augur_vec_init(&rows, sizeof(struct augur_cat_error));
    rt_scan_init(&s, buf, len, name, diag);
    while (!rc && rt_next_content_line(&s, "#")) {
        struct augur_cat_error r;
        const char *at = s.p;
        size_t wlen;

        if (rows.len == CAT_ERRORS_MAX) {
            rc = rt_error(&s, AUGUR_ERANGE, "more than %d matrices", CAT_ERRORS_MAX);
            break;
        }
        memset(&r, 0, sizeof(r));
        for (unsigned k = 0; k < AUGUR_SAMPLER_COUNT; k++)
            r.err[k] = INFINITY;
        rt_parse_word(&s, r.name, sizeof(r.name));
        wlen = (size_t)(s.p - at);
        if (wlen >= sizeof(r.name) || memchr(at, '/', wlen)) {
            s.p = at;
            rc = rt_error(&s, AUGUR_EPARSE,
                          "a matrix file's name without its folder, under %zu bytes",
                          sizeof(r.name));
            break;
        }
        for (unsigned c = 0; c < 3 && !rc; c++) {
            const char *v = s.p;

            rc = rt_parse_double(&s, &r.err[cols[c]], augur_sampler_name(cols[c]));
            if (!rc && !(r.err[cols[c]] >= 0)) {
                s.p = v;
                rt_skip_blanks(&s);
                rc = rt_error(&s, AUGUR_ERANGE, "a negative error for %s",
                              augur_sampler_name(cols[c]));
            }
        }
        if (!rc)
            rc = end_of_line(&s, "the Random Row Blocks error");
        if (!rc &&
            augur_cat_errors_find(&(struct augur_cat_errors){ rows.data, rows.len }, r.name)) {
            s.p = at;
            rc = rt_error(&s, AUGUR_EPARSE, "'%s' is given a second time", r.name);
        }
        if (!rc)
            *(struct augur_cat_error *)augur_vec_push(&rows) = r;
    }
    augur_free(buf);
    if (rc) {
        augur_vec_release(&rows);
        return rc;
    }
    if (rows.len == 0) {
        augur_vec_release(&rows);
        return augur_diag_set(diag, AUGUR_EPARSE, name, 0, 0,
                              "no matrix: expected lines NAME SA RT RB");
    }
    out->rows = rows.data;
    out->n = rows.len;
    return 0;
}

int augur_cat_errors_load(const char *path, struct augur_cat_errors *out, struct augur_diag *diag)
{
    struct augur_buf buf;
    int rc;

    augur_buf_init(&buf);
    rc = augur_file_read(path, 1u << 24, &buf, NULL, diag);
    if (!rc)
        rc = augur_cat_errors_parse(buf.s, buf.len, path, out, diag);
    augur_buf_release(&buf);
    return rc;
}

/* ---- generated matrices ------------------------------------------------- */

/* CSR from sorted distinct keys row << 32 | col. */
static void csr_from_keys(uint32_t n, const uint64_t *keys, size_t nkeys, struct augur_csr *out)
{
    memset(out, 0, sizeof(*out));
    out->nrows = out->ncols = n;
    out->nnz = nkeys;
    out->rowptr = augur_calloc((size_t)n + 1, sizeof(uint64_t));
    out->col = augur_mallocarray(nkeys ? nkeys : 1, sizeof(uint32_t));
    for (size_t k = 0; k < nkeys; k++) {
        out->rowptr[(keys[k] >> 32) + 1]++;
        out->col[k] = (uint32_t)keys[k];
    }
    for (uint32_t i = 0; i < n; i++)
        out->rowptr[i + 1] += out->rowptr[i];
}

int augur_generate_rmat(unsigned scale, unsigned edge_factor, double a, double b, double c,
                        uint64_t seed, struct augur_csr *out, struct augur_diag *diag)
{
    uint64_t state = seed, m, k = 0;
    uint64_t *keys;
    uint32_t n;

    if (scale < 1 || scale > 24)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "R-MAT scale %u is not in 1..24",
                              scale);
    if (edge_factor < 1 || edge_factor > 64)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "R-MAT edge factor %u is not in 1..64", edge_factor);
    if (!(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1.0))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "R-MAT probabilities a %g, b %g, c %g are not a distribution", a, b,
                              c);
    n = 1u << scale;
    m = (uint64_t)edge_factor * n;
    keys = augur_mallocarray(m, sizeof(uint64_t));
    for (uint64_t e = 0; e < m; e++) {
        uint32_t i = 0, j = 0;

        for (unsigned lv = 0; lv < scale; lv++) {
            double r = augur_rand_unit(&state);

            i <<= 1;
            j <<= 1;
            if (r < a) {
            } else if (r < a + b) {
                j |= 1;
            } else if (r < a + b + c) {
                i |= 1;
            } else {
                i |= 1;
                j |= 1;
            }
        }
        if (i != j)
            keys[k++] = (uint64_t)i << 32 | j;
    }
    qsort(keys, k, sizeof(uint64_t), augur_cmp_u64);
    m = 0;
    for (uint64_t e = 0; e < k; e++)
        if (e == 0 || keys[e] != keys[m - 1])
            keys[m++] = keys[e];
    csr_from_keys(n, keys, m, out);
    augur_free(keys);
    return 0;
}

int augur_generate_blocks(uint32_t n, uint32_t b, uint32_t degree, uint64_t seed,
                          struct augur_csr *out, struct augur_diag *diag)
{
    uint64_t state = seed;
    uint64_t *keys;
    size_t k = 0;

    if (n < 2 || n > (1u << 26))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "%u nodes is not in 2..2^26", n);
    if (degree < 1 || degree > 64)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "degree %u is not in 1..64", degree);
    if (b < degree + 1 || b > n)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "block size %u must be in %u..%u (degree + 1 .. n)", b, degree + 1,
                              n);
    keys = augur_mallocarray((size_t)n * degree, sizeof(uint64_t));
    for (uint32_t lo = 0; lo < n;) {
        uint32_t rem = n - lo, hi = lo + b;

        /* A tail too small for degree + 1 nodes joins the block before it. */
        if (rem <= b || rem - b < degree + 1)
            hi = n;
        for (uint32_t i = lo; i < hi; i++) {
            uint32_t pick[64], np = 0;

            while (np < degree) {
                uint32_t j = lo + augur_rand_below(&state, hi - lo);
                bool dup = j == i;

                for (uint32_t q = 0; q < np && !dup; q++)
                    dup = pick[q] == j;
                if (!dup)
                    pick[np++] = j;
            }
            /* Insertion sort: rows come out sorted. */
            for (uint32_t q = 1; q < np; q++)
                for (uint32_t r = q; r > 0 && pick[r - 1] > pick[r]; r--) {
                    uint32_t tmp = pick[r];

                    pick[r] = pick[r - 1];
                    pick[r - 1] = tmp;
                }
            for (uint32_t q = 0; q < np; q++)
                keys[k++] = (uint64_t)i << 32 | pick[q];
        }
        lo = hi;
    }
    csr_from_keys(n, keys, k, out);
    augur_free(keys);
    return 0;
}
