/*
 * t_category.c - the categorizer: feature vector, CART training, the tree
 * file (round trip, corrupt files), classification with the shipped tree,
 * and the generated training matrices (R-MAT, block diagonal).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"
#include "augur/data.h"
#include "tap.h"

#define NF AUGUR_CAT_NFEATURES

static void test_features(void)
{
    struct augur_csr c;
    struct augur_features f;
    struct augur_cc_estimate e;
    struct augur_cat_opts o = { .rnn_rate = 0.2, .seed = 3 };
    struct augur_rnn_opts ro = { .rate = 0.2, .seed = 3 };
    struct augur_diag d;
    double x[NF];

    augur_diag_init(&d);
    ok(augur_generate_rmat(10, 8, 0.57, 0.19, 0.19, 5, &c, &d) == 0, "R-MAT scale 10");
    ok(augur_cat_features(&c, false, &o, x, &d) == 0, "feature vector of an R-MAT matrix");
    augur_features_compute(&c, NULL, &f, &d);
    augur_clustering_estimate(&c, &ro, &e, &d);
    ok(x[AUGUR_CAT_NNZ_TOT] == (double)f.nnz_tot && x[AUGUR_CAT_NNZ_MAX] == (double)f.nnz_row.max &&
           x[AUGUR_CAT_NNZ_SIG] == f.nnz_row.std && x[AUGUR_CAT_NNZB_TOT] == (double)f.nnzb_tot &&
           x[AUGUR_CAT_SNZB_MU] == f.snzb.mean && x[AUGUR_CAT_NNZ_CV] == f.nnz_row.cv,
       "features: Table I values of augur_features_compute()");
    is_double(x[AUGUR_CAT_CC], e.value, 0, "feature cc: the undirected RNN estimate");
    is_str(augur_cat_feature_name(AUGUR_CAT_CC), "cc", "feature name 'cc'");
    is_str(augur_cat_feature_name(AUGUR_CAT_SNZB_SIG), "snzb_sig", "feature name 'snzb_sig'");
    is_str(augur_cat_feature_name(AUGUR_CAT_DIST_MED), "dist_med", "feature name 'dist_med'");
    augur_csr_release(&c);
    {
        /* Rows 0..99: the diagonal and i + 1; row 0 also column 99. */
        uint64_t rowptr[101];
        uint32_t col[200];
        uint64_t k = 0;

        for (uint32_t i = 0; i < 100; i++) {
            rowptr[i] = k;
            col[k++] = i;
            if (i + 1 < 100)
                col[k++] = i + 1;
            if (i == 0)
                col[k++] = 99;
        }
        rowptr[100] = k;
        memset(&c, 0, sizeof(c));
        c.nrows = c.ncols = 100;
        c.nnz = k;
        c.rowptr = rowptr;
        c.col = col;
        ok(augur_cat_features(&c, false, &o, x, &d) == 0, "features of a bidiagonal matrix");
        is_double(x[AUGUR_CAT_PREV_LINE], 185.0 / 197.0, 1e-12,
                  "prev_line: of the 197 entries below row 0, all but the 12 (i, i + 1) with "
                  "i + 1 a multiple of 8 share a line with row i - 1");
        is_double(x[AUGUR_CAT_DIST_MED], 0.0, 0, "dist_med: 100 of 200 entries on the diagonal");
        /* Row 0 becomes columns 1, 2 and 99: 99 entries on the diagonal, 101 off it. */
        col[0] = 1;
        col[1] = 2;
        col[2] = 99;
        ok(augur_cat_features(&c, false, &o, x, &d) == 0 && x[AUGUR_CAT_DIST_MED] == 1.0,
           "dist_med: 101 of 200 entries off the diagonal, median 1");
    }
}

/* Points labelled rt where cc < 0.1 and nnz_cv > 2, else sa. */
static void make_data(size_t n, double *x, enum augur_sampler *y)
{
    for (size_t i = 0; i < n; i++) {
        double *v = x + i * NF;

        for (int f = 0; f < NF; f++)
            v[f] = (double)((i * 7919 + f * 104729) % 1000);
        v[AUGUR_CAT_CC] = (double)(i % 10) / 20.0;   /* 0 .. 0.45 */
        v[AUGUR_CAT_NNZ_CV] = (double)(i % 7) / 1.5; /* 0 .. 4 */
        y[i] =
            v[AUGUR_CAT_CC] < 0.1 && v[AUGUR_CAT_NNZ_CV] > 2 ? AUGUR_SAMPLER_RT : AUGUR_SAMPLER_SA;
    }
}

static void test_train(void)
{
    enum { N = 140 };
    double *x = malloc(N * NF * sizeof(double));
    enum augur_sampler y[N];
    struct augur_tree *t = NULL, *back = NULL, *one = NULL;
    struct augur_tree_opts to = { .max_depth = 3, .min_leaf = 1 };
    struct augur_cat_opts feat = {
        .rnn_rate = 0.05, .row_fraction = 0.5, .seed = 9, .block_size = 4
    };
    struct augur_buf a, b;
    struct augur_diag d;
    size_t right = 0;

    augur_diag_init(&d);
    make_data(N, x, y);
    ok(augur_tree_train(x, y, N, &to, &feat, &t, &d) == 0, "CART trains");
    for (size_t i = 0; i < N; i++)
        right += augur_tree_classify(t, x + i * NF, NULL) == y[i];
    is_int(right, N, "a separable set is learned exactly");
    ok(augur_tree_depth(t) == 2 && augur_tree_nnodes(t) == 5,
       "two splits (cc, nnz_cv): depth 2, 5 nodes");

    augur_buf_init(&a);
    augur_buf_init(&b);
    augur_tree_format(t, "a test tree\nsecond line", &a);
    ok(strstr(a.s, "augur-categorizer 1\n# a test tree\n# second line\n") == a.s,
       "format: header, then the comment");
    ok(strstr(a.s, "block-size 4") && strstr(a.s, "row-fraction 0.5") && strstr(a.s, "seed 9"),
       "format: the feature settings");
    ok(augur_tree_parse(a.s, a.len, "t.tree", &back, &d) == 0, "the text parses back");
    if (back) {
        augur_tree_format(back, "a test tree\nsecond line", &b);
        is_str(b.s, a.s, "round trip: the same text");
        right = 0;
        for (size_t i = 0; i < N; i++)
            right += augur_tree_classify(back, x + i * NF, NULL) ==
                     augur_tree_classify(t, x + i * NF, NULL);
        is_int(right, N, "round trip: the same classification");
        ok(augur_tree_feature_opts(back)->block_size == 4 &&
               augur_tree_feature_opts(back)->rnn_rate == 0.05,
           "round trip: the feature settings");
    }
    to.feature_mask = (uint64_t)1 << AUGUR_CAT_NNZ_CV;
    ok(augur_tree_train(x, y, N, &to, NULL, &one, &d) == 0, "a tree on nnz_cv alone trains");
    ok(one &&
           strstr((augur_buf_reset(&b), augur_tree_format(one, NULL, &b), b.s), "split cc") == NULL,
       "feature_mask: no split on a masked feature");
    {
        enum augur_sampler bad[1] = { (enum augur_sampler)7 };

        ok(augur_tree_train(x, bad, 1, NULL, NULL, &one, &d) == AUGUR_EINVAL,
           "a label that is no sampler is refused");
        ok(augur_tree_train(x, y, 0, NULL, NULL, &one, &d) == AUGUR_EINVAL,
           "no training matrices: refused");
    }
    {
        struct augur_tree *leaf = NULL;
        enum augur_sampler same[4] = { AUGUR_SAMPLER_RT, AUGUR_SAMPLER_RT, AUGUR_SAMPLER_RT,
                                       AUGUR_SAMPLER_RT };

        ok(augur_tree_train(x, same, 4, NULL, NULL, &leaf, &d) == 0 &&
               augur_tree_nnodes(leaf) == 1 &&
               augur_tree_classify(leaf, x, NULL) == AUGUR_SAMPLER_RT,
           "one class: a single leaf");
        augur_tree_free(leaf);
    }
    augur_buf_release(&a);
    augur_buf_release(&b);
    augur_tree_free(t);
    augur_tree_free(back);
    augur_tree_free(one);
    free(x);
}

/* A corrupt tree file fails with the line (and column) of the problem. */
static void bad_tree(const char *text, int code, uint32_t line, const char *msg)
{
    struct augur_tree *t = NULL;
    struct augur_diag d;
    char name[160];
    int rc;

    augur_diag_init(&d);
    rc = augur_tree_parse(text, strlen(text), "bad.tree", &t, &d);
    snprintf(name, sizeof(name), "corrupt tree: %s", msg);
    ok(rc == code && t == NULL && d.line == line && strstr(d.msg, msg) &&
           strcmp(d.file, "bad.tree") == 0,
       name);
    if (rc != code || d.line != line || !strstr(d.msg, msg))
        diag("rc %d line %u: %s", rc, d.line, d.msg);
    augur_tree_free(t);
}

#define HDR "augur-categorizer 1\nfeatures rnn-rate 0.05 row-fraction 1 seed 1 block-size run\n"

/* The answer of a tree trained on n matrices, for the first; -1 when it does not train. */
static int single_leaf(const double *x, const enum augur_sampler *y, size_t n,
                       const struct augur_tree_opts *to)
{
    struct augur_tree *t = NULL;
    int s = -1;

    if (augur_tree_train(x, y, n, to, NULL, &t, NULL) == 0)
        s = (int)augur_tree_classify(t, x, NULL);
    augur_tree_free(t);
    return s;
}

/*
 * Cost-sensitive splits. Twelve matrices, one split allowed: two big wins
 * (sa by 1, rb by 1) and eight small ones (by 0.01). Feature 0 puts each
 * big win with the small wins of the other sampler; feature 1 puts all but
 * the four small rb wins on one side. The labels' Gini impurity prefers
 * feature 1 (one pure side), whose mixed side answers sa and loses the big
 * rb wins: a summed error of 2. The costs prefer feature 0: each side
 * answers its big win and loses only small ones, 0.08.
 */
static void test_train_cost(void)
{
    enum { N = 12 };
    static const struct {
        double f0, f1, sa, rb;
        enum augur_sampler label;
        unsigned copies;
    } kind[] = {
        { 0, 0, 0, 1, AUGUR_SAMPLER_SA, 2 },
        { 1, 0, 1, 0, AUGUR_SAMPLER_RB, 2 },
        { 1, 0, 0, 0.01, AUGUR_SAMPLER_SA, 4 },
        { 0, 1, 0.01, 0, AUGUR_SAMPLER_RB, 4 },
    };
    double x[N * NF] = { 0 }, cost[N * AUGUR_SAMPLER_COUNT];
    enum augur_sampler y[N];
    struct augur_tree_opts to = { .max_depth = 1, .min_leaf = 2 };
    struct augur_tree *gini = NULL, *by_cost = NULL, *t = NULL;
    struct augur_diag d;
    size_t m = 0;

    augur_diag_init(&d);
    for (size_t k = 0; k < sizeof(kind) / sizeof(kind[0]); k++)
        for (unsigned c = 0; c < kind[k].copies; c++, m++) {
            x[m * NF + 0] = kind[k].f0;
            x[m * NF + 1] = kind[k].f1;
            for (unsigned s = 0; s < AUGUR_SAMPLER_COUNT; s++)
                cost[m * AUGUR_SAMPLER_COUNT + s] = INFINITY;
            cost[m * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_SA] = kind[k].sa;
            cost[m * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_RB] = kind[k].rb;
            y[m] = kind[k].label;
        }
    ok(augur_tree_train(x, y, N, &to, NULL, &gini, &d) == 0, "Gini tree trains");
    to.cost = cost;
    ok(augur_tree_train(x, y, N, &to, NULL, &by_cost, &d) == 0, "cost-sensitive tree trains");
    if (gini && by_cost) {
        double eg = 0, ec = 0;

        for (size_t i = 0; i < N; i++) {
            eg += cost[i * AUGUR_SAMPLER_COUNT + augur_tree_classify(gini, x + i * NF, NULL)];
            ec += cost[i * AUGUR_SAMPLER_COUNT + augur_tree_classify(by_cost, x + i * NF, NULL)];
        }
        is_double(eg, 2.0, 1e-9, "Gini: the pure split, the big rb wins lost");
        is_double(ec, 0.08, 1e-9, "costs: the split that keeps both big wins");
        ok(augur_tree_nnodes(by_cost) == 3, "costs: one split");
    }
    augur_tree_free(gini);
    augur_tree_free(by_cost);

    /* A leaf answers the least summed cost, not the most labels: 2 small sa wins, 1 big rb. */
    {
        double c3[3 * AUGUR_SAMPLER_COUNT];
        enum augur_sampler y3[3] = { AUGUR_SAMPLER_SA, AUGUR_SAMPLER_SA, AUGUR_SAMPLER_RB };
        double x3[3 * NF] = { 0 };

        for (size_t i = 0; i < 3 * AUGUR_SAMPLER_COUNT; i++)
            c3[i] = INFINITY;
        c3[0 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_SA] = 0;
        c3[0 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_RB] = 0.01;
        c3[1 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_SA] = 0;
        c3[1 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_RB] = 0.01;
        c3[2 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_SA] = 1;
        c3[2 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_RB] = 0;
        to.cost = NULL;
        is_int(single_leaf(x3, y3, 3, &to), AUGUR_SAMPLER_SA,
               "labels: the leaf answers the majority (sa)");
        to.cost = c3;
        is_int(single_leaf(x3, y3, 3, &to), AUGUR_SAMPLER_RB,
               "costs: the leaf answers the least summed error (rb 0.02 against sa 1)");
        /* a sampler infinite for one matrix is never that leaf's answer */
        c3[0 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_RB] = INFINITY;
        is_int(single_leaf(x3, y3, 3, &to), AUGUR_SAMPLER_SA,
               "costs: a sampler that is no candidate for one matrix is not its leaf's");
        c3[1 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_SA] = NAN;
        ok(augur_tree_train(x3, y3, 3, &to, NULL, &t, &d) == AUGUR_EINVAL &&
               strstr(d.msg, "training matrix 1"),
           "a NaN cost is refused, naming the matrix");
        c3[1 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_SA] = -1;
        ok(augur_tree_train(x3, y3, 3, &to, NULL, &t, &d) == AUGUR_EINVAL,
           "a negative cost is refused");
        c3[1 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_SA] = INFINITY;
        c3[1 * AUGUR_SAMPLER_COUNT + AUGUR_SAMPLER_RB] = INFINITY;
        ok(augur_tree_train(x3, y3, 3, &to, NULL, &t, &d) == AUGUR_EINVAL &&
               strstr(d.msg, "no sampler"),
           "a matrix without a finite cost is refused");
    }
}

static void test_corrupt(void)
{
    struct augur_tree *t = NULL;
    struct augur_diag d;
    const char *good = HDR "# comment\nnode 0 split cc 0.25 1 2  # tail comment\n"
                           "node 1 leaf rt 1 2 3\nnode 2 split dist_med 500 3 4\n"
                           "node 3 leaf sa 0 4 1 2 # re sa rt rb\nnode 4 leaf rb\n";
    double x[NF] = { 0 };

    augur_diag_init(&d);
    ok(augur_tree_parse(good, strlen(good), "good.tree", &t, &d) == 0,
       "a hand-written tree parses");
    if (t) {
        x[AUGUR_CAT_CC] = 0.25;
        ok(augur_tree_classify(t, x, NULL) == AUGUR_SAMPLER_RT, "cc <= 0.25: rt");
        x[AUGUR_CAT_CC] = 0.26;
        ok(augur_tree_classify(t, x, NULL) == AUGUR_SAMPLER_SA, "cc > 0.25, dist_med <= 500: sa");
        x[AUGUR_CAT_DIST_MED] = 501;
        ok(augur_tree_classify(t, x, NULL) == AUGUR_SAMPLER_RB, "dist_med > 500: rb");
        {
            struct augur_buf b;

            augur_buf_init(&b);
            augur_tree_format(t, NULL, &b);
            ok(strstr(b.s, "node 1 leaf rt 1 2 3 0\n") && strstr(b.s, "node 3 leaf sa 0 4 1 2\n"),
               "leaf counts: three (re, sa, rt: before rb) read as rb 0; four written");
            augur_buf_release(&b);
        }
        augur_tree_free(t);
    }
    bad_tree("", AUGUR_EPARSE, 1, "empty file");
    bad_tree("hello 1\n", AUGUR_EPARSE, 1, "not a categorizer tree");
    bad_tree("augur-categorizer 2\n", AUGUR_EFORMAT, 1, "version 2");
    bad_tree("augur-categorizer 1 x\n", AUGUR_EPARSE, 1, "unexpected 'x'");
    bad_tree(HDR "node 0 leaf sa\nbranch 1\n", AUGUR_EPARSE, 4, "unknown keyword 'branch'");
    bad_tree(HDR "node 0 split cx 0.1 1 2\n", AUGUR_EPARSE, 3, "unknown feature 'cx'");
    bad_tree(HDR "node 0 split cc abc 1 2\n", AUGUR_EPARSE, 3, "threshold");
    bad_tree(HDR "node 0 split cc 0.1 0 2\n", AUGUR_EPARSE, 3, "children must have larger ids");
    bad_tree(HDR "node 0 leaf sa\nnode 0 leaf rt\n", AUGUR_EPARSE, 4, "defined twice");
    bad_tree(HDR "node 0 leaf xx\n", AUGUR_EPARSE, 3, "unknown sampler 'xx'");
    bad_tree(HDR "node 0 fork\n", AUGUR_EPARSE, 3, "expected 'split' or 'leaf'");
    bad_tree(HDR "node 0 split cc 0.1 1 3\nnode 1 leaf sa\nnode 3 leaf rt\n", AUGUR_EPARSE, 0,
             "node 2 is missing");
    bad_tree(HDR "node 0 split cc 0.1 1 2\nnode 1 leaf sa\n", AUGUR_EPARSE, 3,
             "child 2 is not defined");
    bad_tree(HDR "node 0 split cc 0.1 1 2\nnode 1 split cc 0.2 2 3\nnode 2 leaf sa\n"
                 "node 3 leaf rt\n",
             AUGUR_EPARSE, 4, "node 2 is the child of two nodes");
    bad_tree(HDR "node 0 leaf sa\nnode 1 leaf rt\n", AUGUR_EPARSE, 4, "node 1 is not reachable");
    bad_tree(HDR "node 5000 leaf sa\n", AUGUR_ELIMIT, 3, "at most 4096 nodes");
    bad_tree("augur-categorizer 1\nnode 0 leaf sa\n", AUGUR_EPARSE, 0, "no features line");
    bad_tree(HDR, AUGUR_EPARSE, 0, "no nodes");
    bad_tree("augur-categorizer 1\nfeatures rnn-rate 0.05 seed 1 block-size run\n", AUGUR_EPARSE, 2,
             "lacks 'row-fraction'");
    bad_tree("augur-categorizer 1\nfeatures rnn-rate 2 row-fraction 1 seed 1 block-size run\n",
             AUGUR_ERANGE, 2, "rnn-rate 2 is not in (0, 1]");
    bad_tree("augur-categorizer 1\nfeatures rnn-rate 0.1 rnn-rate 0.1\n", AUGUR_EPARSE, 2,
             "given twice");
    bad_tree(HDR "features rnn-rate 0.1 row-fraction 1 seed 1 block-size run\n", AUGUR_EPARSE, 3,
             "a second features line");
    bad_tree(HDR "node 0 leaf sa 1 2\n", AUGUR_EPARSE, 3, "training count");
    bad_tree(HDR "node 0 leaf rb 1 2 3 4 5\n", AUGUR_EPARSE, 3, "unexpected");
    {
        /* A NUL byte inside the text is an error, not the end of it. */
        static const char nul[] = HDR "node 0 leaf sa\n\0node 1 leaf rt\n";

        augur_diag_init(&d);
        t = NULL;
        ok(augur_tree_parse(nul, sizeof(nul) - 1, "nul.tree", &t, &d) == AUGUR_EPARSE &&
               d.line == 4,
           "corrupt tree: a NUL byte is refused at its line");
        augur_tree_free(t);
    }
    augur_diag_init(&d);
    ok(augur_tree_load("/nonexistent/x.tree", &t, &d) != 0 && d.code != 0,
       "a missing tree file fails");
}

/* The shipped tree on matrices whose class is not in doubt. */
static void test_shipped(void)
{
    const char *src = getenv("AUGUR_SOURCE_DIR");
    char path[1024];
    struct augur_tree *t = NULL;
    struct augur_diag d;
    struct augur_csr c;
    double x[NF];
    unsigned leaf;

    snprintf(path, sizeof(path), "%s/samples/categorizer.tree", src ? src : ".");
    augur_diag_init(&d);
    if (augur_tree_load(path, &t, &d) != 0) {
        diag("%s", d.msg);
        ok(0, "the shipped tree loads");
        return;
    }
    ok(augur_tree_nnodes(t) >= 1 && augur_tree_depth(t) <= 4, "the shipped tree: small");
    /*
     * Trained on predicted times, the tree keeps Stride Average for small
     * matrices, whose 5 % samples hold a few thousand entries, and takes
     * whole rows (Random Row Blocks) for large ones (docs/sampling.md).
     */
    augur_generate_blocks(2048, 32, 4, 3, &c, &d);
    augur_cat_features(&c, false, augur_tree_feature_opts(t), x, &d);
    ok(augur_tree_classify(t, x, &leaf) == AUGUR_SAMPLER_SA,
       "shipped tree: 2048 nodes in blocks of 32 -> sa");
    augur_csr_release(&c);
    augur_generate_blocks(262144, 262144, 4, 3, &c, &d);
    augur_cat_features(&c, false, augur_tree_feature_opts(t), x, &d);
    ok(augur_tree_classify(t, x, &leaf) == AUGUR_SAMPLER_RB,
       "shipped tree: 4 random neighbours among 262144 nodes -> rb");
    augur_csr_release(&c);
    augur_tree_free(t);
}

static void test_generators(void)
{
    struct augur_csr a, b;
    struct augur_diag d;
    bool ok_rows = true, in_block = true, sorted = true, loops = false;

    augur_diag_init(&d);
    ok(augur_generate_rmat(12, 8, 0.57, 0.19, 0.19, 1, &a, &d) == 0, "R-MAT scale 12");
    is_int(a.nrows, 4096, "R-MAT: 2^scale nodes");
    ok(a.nnz <= 8 * 4096 && a.nnz > 4 * 4096, "R-MAT: at most ef 2^scale edges, duplicates gone");
    for (uint32_t i = 0; i < a.nrows; i++)
        for (uint64_t k = a.rowptr[i]; k < a.rowptr[i + 1]; k++) {
            loops |= a.col[k] == i;
            sorted &= k == a.rowptr[i] || a.col[k] > a.col[k - 1];
        }
    ok(sorted && !loops, "R-MAT: rows sorted, distinct, no self loops");
    ok(augur_generate_rmat(12, 8, 0.57, 0.19, 0.19, 1, &b, &d) == 0 && b.nnz == a.nnz &&
           memcmp(a.col, b.col, a.nnz * 4) == 0,
       "R-MAT: same seed, same matrix");
    ok(a.rowptr[1] - a.rowptr[0] > 10 * a.nnz / a.nrows, "R-MAT a 0.57: node 0 is a hub");
    augur_csr_release(&a);
    augur_csr_release(&b);

    ok(augur_generate_blocks(1000, 64, 4, 2, &a, &d) == 0, "blocks: 1000 nodes, b 64");
    for (uint32_t i = 0; i < a.nrows; i++) {
        uint32_t lo = i / 64 * 64, hi = lo + 64;

        if (lo >= 960) { /* the tail of 40 is its own block */
            lo = 960;
            hi = 1000;
        }
        ok_rows &= a.rowptr[i + 1] - a.rowptr[i] == 4;
        for (uint64_t k = a.rowptr[i]; k < a.rowptr[i + 1]; k++) {
            in_block &= a.col[k] >= lo && a.col[k] < hi && a.col[k] != i;
            sorted &= k == a.rowptr[i] || a.col[k] > a.col[k - 1];
        }
    }
    ok(ok_rows && in_block && sorted, "blocks: 4 distinct neighbours in the own block");
    augur_csr_release(&a);
    ok(augur_generate_blocks(1002, 500, 4, 2, &a, &d) == 0 && a.nnz == 4 * 1002,
       "blocks: a tail of 2 joins the block before");
    augur_csr_release(&a);
    ok(augur_generate_blocks(100, 4, 4, 1, &a, &d) == AUGUR_EINVAL,
       "blocks: b must exceed the degree");
    ok(augur_generate_rmat(0, 8, 0.5, 0.2, 0.2, 1, &a, &d) == AUGUR_EINVAL &&
           augur_generate_rmat(10, 8, 0.7, 0.3, 0.2, 1, &a, &d) == AUGUR_EINVAL,
       "R-MAT: scale 0 or probabilities over 1 refused");
}

int main(void)
{
    test_features();
    test_train();
    test_train_cost();
    test_corrupt();
    test_shipped();
    test_generators();
    return tap_done();
}
