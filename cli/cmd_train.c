/*
 * cmd_train.c - "augur train": fits what augur learns from measured runs;
 * here the categorizer tree of Zhu et al. PACT'19 section III-D (module: cli).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void categorizer_help(FILE *fp)
{
    fprintf(
        fp,
        "usage: augur train categorizer [OPTIONS] --machine MACHINE -o TREE [FILE...]\n"
        "\n"
        "Trains the categorizer of Zhu et al. PACT'19 section III-D: a CART decision tree over\n"
        "the Table I features and the Random Node Neighbor clustering coefficient\n"
        "that picks Stride Average (sa), Random Tile (rt) or Random Row Blocks (rb)\n"
        "for a matrix. Each training matrix is labelled with the sampler whose\n"
        "samples best predict the full run's L1 miss rate (Zhu et al. PACT'19 eq. 7; the\n"
        "kernel's accesses simulated on the machine's caches, one core), or with\n"
        "--errors by the errors a file gives for it. The\n"
        "matrices: FILE..., every dataset under --datasets (mtx/ and the meshes'\n"
        "duals from mesh/), and generated R-MAT and block-diagonal matrices.\n"
        "Prints each matrix's features, errors and label,\n"
        "the k-fold cross-validated accuracy with and without the clustering\n"
        "coefficient, and the tree, which it writes to TREE.\n"
        "\n"
        "options:\n"
        "  --machine FILE    machine file whose caches label the matrices (required)\n"
        "  -o, --output TREE write the tree here\n"
        "  --datasets DIR    add DIR/mtx/* and DIR/mesh/* (default: $AUGUR_DATASETS\n"
        "                    when no FILE is given)\n"
        "  --generated N     add N R-MAT and N block-diagonal matrices (default 16;\n"
        "                    with --errors 0)\n"
        "  --kernel K        the kernel whose L1 miss rate labels: spmv (default), fv,\n"
        "                    ireduce, or all (the mean error over the three)\n"
        "  --errors FILE     label each matrix by the errors FILE gives for it (lines\n"
        "                    NAME SA RT RB: a matrix file's name, each sampler's error;\n"
        "                    bench/sampling_vs_full.py --errors-out writes those of\n"
        "                    predicted times) instead of simulating miss rates; a\n"
        "                    matrix it does not name is skipped\n"
        "  --rate P          sampling rate, 0 < P <= 1 (default 0.05)\n"
        "  --seeds N         Random Tile and Row Blocks seeds per matrix, errors\n"
        "                    averaged (default 5)\n"
        "  --scaling X       cache scaling of sampled runs: auto (default), reuse,\n"
        "                    footprint, none\n"
        "  --rnn-rate P      rate of the clustering coefficient estimate (default 0.05)\n"
        "  --sample-rows F   Table I features from a Random Row sample (default 1: all)\n"
        "  --split C         how a split is chosen: error (default), the least\n"
        "                    summed error of the samplers each side would pick; gini,\n"
        "                    the labels' Gini impurity (a label won by 0.5 points\n"
        "                    counts as much as one won by 30)\n"
        "  --max-depth D     deepest split (default 3)\n"
        "  --min-leaf L      fewest training matrices in a leaf (default 2)\n"
        "  --folds K         cross-validation folds (default 5)\n"
        "  --seed S          seed of the generators, features and folds (default 1)\n"
        "  --json            print the result as JSON\n"
        "  -h, --help        print this help\n");
}

/* One training matrix. */
struct item {
    char *name;
    const char *kind; /* "mtx", "mesh", "rmat", "blocks", "file" */
    uint32_t n;
    uint64_t nnz;
    double x[AUGUR_CAT_NFEATURES];
    double full_l1, miss[AUGUR_SAMPLER_COUNT], err[AUGUR_SAMPLER_COUNT];
    enum augur_sampler label, cv, cv_base;
};

struct train_args {
    const char *machine, *output, *datasets;
    unsigned generated, seeds, folds;
    int kernel; /* -1: all */
    double rate;
    enum augur_scaling scaling;
    struct augur_cat_opts feat;
    struct augur_tree_opts tree;
    bool by_error; /* --split error: cost-sensitive splits, depth by cross-validated error */
    uint64_t seed;
    bool generated_given;           /* --generated N (with --errors, none by default) */
    const char *errors_path;        /* --errors FILE */
    struct augur_cat_errors errors; /* its rows (n 0: label by simulated miss rates) */
};

static int parse_uint(const char *cmd, const char *opt, const char *arg, unsigned long long lo,
                      unsigned long long hi, unsigned long long *out)
{
    unsigned long long v;
    char *end;

    errno = 0;
    v = strtoull(arg, &end, 10);
    if (errno || end == arg || *end || arg[0] == '-' || v < lo || v > hi)
        return cli_usage_error(cmd, "--%s needs an integer from %llu to %llu, not '%s'", opt, lo,
                               hi, arg);
    *out = v;
    return 0;
}

/* The defaults of train categorizer. */
static void train_defaults(struct train_args *a)
{
    memset(a, 0, sizeof(*a));
    a->generated = 16;
    a->seeds = 5;
    a->folds = 5;
    a->rate = 0.05;
    a->scaling = AUGUR_SCALING_AUTO;
    a->feat.rnn_rate = 0.05;
    a->feat.row_fraction = 1.0;
    a->feat.seed = 1;
    a->seed = 1;
    a->kernel = AUGUR_STREAM_SPMV;
    a->by_error = true;
}

/* One option of train categorizer: 0, -1 after --help, or CLI_USAGE. */
static int train_option(const char *cmd, int opt, const char *arg, const char *given,
                        struct train_args *a)
{
    unsigned long long v = 0;
    int rc = 0;

    switch (opt) {
    case 'h':
        categorizer_help(stdout);
        return -1;
    case 'j':
        cli_json = true;
        break;
    case 'M':
        a->machine = arg;
        break;
    case 'o':
        a->output = arg;
        break;
    case 'd':
        a->datasets = arg;
        break;
    case 'E':
        a->errors_path = arg;
        break;
    case 'g':
        rc = parse_uint(cmd, "generated", arg, 0, 1000, &v);
        a->generated = (unsigned)v;
        a->generated_given = true;
        break;
    case 'k':
        rc = cli_parse_stream_kernel(cmd, arg, &a->kernel);
        break;
    case 'r':
        rc = cli_parse_fraction(cmd, "--rate", arg, true, &a->rate);
        break;
    case 'n':
        rc = parse_uint(cmd, "seeds", arg, 1, 1000, &v);
        a->seeds = (unsigned)v;
        break;
    case 'S':
        rc = cli_parse_scaling(cmd, arg, &a->scaling);
        break;
    case 'e':
        rc = cli_parse_fraction(cmd, "--rnn-rate", arg, true, &a->feat.rnn_rate);
        break;
    case 'R':
        rc = cli_parse_fraction(cmd, "--sample-rows", arg, true, &a->feat.row_fraction);
        break;
    case 'c':
        if (strcmp(arg, "error") != 0 && strcmp(arg, "gini") != 0)
            return cli_usage_error(cmd, "--split needs error or gini, not '%s'", arg);
        a->by_error = strcmp(arg, "error") == 0;
        break;
    case 'D':
        rc = parse_uint(cmd, "max-depth", arg, 1, 16, &v);
        a->tree.max_depth = (unsigned)v;
        break;
    case 'L':
        rc = parse_uint(cmd, "min-leaf", arg, 1, 1000, &v);
        a->tree.min_leaf = (unsigned)v;
        break;
    case 'f':
        rc = parse_uint(cmd, "folds", arg, 2, 100, &v);
        a->folds = (unsigned)v;
        break;
    case 's':
        rc = parse_uint(cmd, "seed", arg, 0, UINT64_MAX, &v);
        a->seed = v;
        a->feat.seed = v;
        break;
    default:
        return cli_usage_error(cmd, "unknown or incomplete option '%s'", given);
    }
    return rc;
}

static int parse_train_args(int argc, char **argv, struct train_args *a, int *first)
{
    static const char *cmd = "train categorizer";
    static const struct option longopts[] = {
        { "machine", required_argument, NULL, 'M' },
        { "output", required_argument, NULL, 'o' },
        { "datasets", required_argument, NULL, 'd' },
        { "generated", required_argument, NULL, 'g' },
        { "kernel", required_argument, NULL, 'k' },
        { "rate", required_argument, NULL, 'r' },
        { "errors", required_argument, NULL, 'E' },
        { "seeds", required_argument, NULL, 'n' },
        { "scaling", required_argument, NULL, 'S' },
        { "rnn-rate", required_argument, NULL, 'e' },
        { "sample-rows", required_argument, NULL, 'R' },
        { "split", required_argument, NULL, 'c' },
        { "max-depth", required_argument, NULL, 'D' },
        { "min-leaf", required_argument, NULL, 'L' },
        { "folds", required_argument, NULL, 'f' },
        { "seed", required_argument, NULL, 's' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int opt, rc;

    train_defaults(a);
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1)
        if ((rc = train_option(cmd, opt, optarg, argv[optind - 1], a)) != 0)
            return rc;
    if (!a->machine)
        return cli_usage_error(cmd, "expected --machine FILE");
    if (a->errors_path && !a->generated_given)
        a->generated = 0; /* the file names none of them */
    if (!a->output)
        return cli_usage_error(cmd, "expected -o TREE");
    if (!a->datasets && optind == argc) {
        const char *env = getenv("AUGUR_DATASETS");

        if (!env || !*env)
            return cli_usage_error(cmd, "no matrices: give FILE..., --datasets DIR or set "
                                        "AUGUR_DATASETS");
        a->datasets = env;
    }
    *first = optind;
    return 0;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/*
 * The data files of dir, sorted, added to paths (strings the caller frees).
 * A TetGen mesh is named by its .ele file (the loader finds the .node beside
 * it), so that the pair counts once. A missing dir adds nothing.
 */
static void list_dir(const char *dir, struct augur_vec *paths)
{
    struct augur_vec names;
    struct dirent *e;
    DIR *d = opendir(dir);

    if (!d)
        return;
    augur_vec_init(&names, sizeof(char *));
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "MANIFEST.md") == 0 ||
            augur_str_ends_with(e->d_name, ".node") || augur_str_ends_with(e->d_name, ".node.gz"))
            continue;
        *(char **)augur_vec_push(&names) = augur_strdup(e->d_name);
    }
    closedir(d);
    qsort(names.data, names.len, sizeof(char *), cmp_str);
    for (size_t i = 0; i < names.len; i++) {
        struct augur_buf p;

        augur_buf_init(&p);
        augur_buf_printf(&p, "%s/%s", dir, AUGUR_VEC_AT(&names, char *, i));
        *(char **)augur_vec_push(paths) = augur_buf_detach(&p, NULL);
        augur_free(AUGUR_VEC_AT(&names, char *, i));
    }
    augur_vec_release(&names);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');

    return s ? s + 1 : path;
}

/* The sampler of least error; ties go to Stride Average (deterministic, cheaper), then Random Tile.
 */
static void pick_label(struct item *it)
{
    it->label = AUGUR_SAMPLER_SA;
    if (it->err[AUGUR_SAMPLER_RT] < it->err[it->label])
        it->label = AUGUR_SAMPLER_RT;
    if (it->err[AUGUR_SAMPLER_RB] < it->err[it->label])
        it->label = AUGUR_SAMPLER_RB;
}

/*
 * Features, full run and the sampled runs of one matrix; the label is the
 * sampler (sa, rt or rb) with the smallest mean L1 error. Returns 0, or a failure
 * to report and skip.
 */
static int label_matrix(const struct augur_csr *csr, bool symmetric, const struct train_args *a,
                        const struct augur_cache_config *cfg, struct item *it,
                        struct augur_diag *diag)
{
    static const enum augur_sampler cand[] = { AUGUR_SAMPLER_SA, AUGUR_SAMPLER_RT,
                                               AUGUR_SAMPLER_RB };
    int k0 = a->kernel < 0 ? 0 : a->kernel, k1 = a->kernel < 0 ? AUGUR_STREAM_COUNT : k0 + 1;
    int rc;

    it->n = csr->nrows;
    it->nnz = csr->nnz;
    rc = augur_cat_features(csr, symmetric, &a->feat, it->x, diag);
    if (rc)
        return rc;
    for (int k = k0; k < k1; k++) {
        struct augur_stream_result full;

        rc = augur_stream_simulate(csr, (enum augur_stream_kernel)k, 0, cfg, NULL, false, &full,
                                   diag);
        if (rc)
            return rc;
        it->full_l1 += full.miss_rate[0] / (k1 - k0);
        for (int c = 0; c < 3; c++) {
            enum augur_sampler m = cand[c];
            unsigned nseeds = m == AUGUR_SAMPLER_SA ? 1 : a->seeds;

            for (unsigned s = 0; s < nseeds; s++) {
                struct augur_sample_opts so = { 0 };
                struct augur_stream_result r;
                double w = 1.0 / ((double)nseeds * (k1 - k0));

                so.method = m;
                so.rate = a->rate;
                so.seed = a->seed + s;
                rc = augur_sample_simulate(csr, &so, (enum augur_stream_kernel)k, cfg, a->scaling,
                                           false, &r, NULL, diag);
                if (rc)
                    return rc;
                it->miss[m] += w * r.miss_rate[0];
                it->err[m] += w * augur_error_rate(full.miss_rate[0], r.miss_rate[0]);
            }
        }
    }
    pick_label(it);
    return 0;
}

/* The label and errors --errors gives for a matrix, its features computed. */
static int label_given(const struct augur_csr *csr, bool symmetric, const struct train_args *a,
                       const char *name, struct item *it, struct augur_diag *diag)
{
    const struct augur_cat_error *e = augur_cat_errors_find(&a->errors, name);

    if (!e)
        return augur_diag_set(diag, AUGUR_EINVAL, a->errors_path, 0, 0,
                              "no errors for %s in the file", name);
    it->n = csr->nrows;
    it->nnz = csr->nnz;
    memcpy(it->err, e->err, sizeof(it->err));
    pick_label(it);
    return augur_cat_features(csr, symmetric, &a->feat, it->x, diag);
}

/* A matrix's costs for a cost-sensitive tree: its errors; Random Edge is not a candidate. */
static void item_costs(const struct item *it, double cost[AUGUR_SAMPLER_COUNT])
{
    for (unsigned k = 0; k < AUGUR_SAMPLER_COUNT; k++)
        cost[k] = k == AUGUR_SAMPLER_RE ? INFINITY : it->err[k];
}

/*
 * k-fold cross-validation: items shuffled by seed, item i in fold i mod k;
 * each fold is predicted by a tree trained on the others. mask limits the
 * features. Writes each item's prediction to cv (an offset into struct item)
 * and returns the number predicted correctly.
 */
static size_t cross_validate(struct item *items, size_t n, const struct train_args *a,
                             uint64_t mask, bool base_only)
{
    size_t *perm = augur_mallocarray(n, sizeof(size_t)), correct = 0;
    double *x = augur_mallocarray(n * AUGUR_CAT_NFEATURES, sizeof(double));
    enum augur_sampler *y = augur_mallocarray(n, sizeof(enum augur_sampler));
    double *cost = augur_mallocarray(n * AUGUR_SAMPLER_COUNT, sizeof(double));
    uint64_t state = a->seed;

    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(augur_rand(&state) % i), t = perm[i - 1];

        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    for (unsigned f = 0; f < a->folds; f++) {
        struct augur_tree_opts to = a->tree;
        struct augur_tree *t = NULL;
        size_t m = 0;

        to.feature_mask = mask;
        to.cost = a->by_error ? cost : NULL;
        for (size_t i = 0; i < n; i++)
            if (i % a->folds != f) {
                memcpy(x + m * AUGUR_CAT_NFEATURES, items[perm[i]].x, sizeof(items[0].x));
                item_costs(&items[perm[i]], cost + m * AUGUR_SAMPLER_COUNT);
                y[m++] = items[perm[i]].label;
            }
        if (m == 0 || augur_tree_train(x, y, m, &to, &a->feat, &t, NULL) != 0)
            continue;
        for (size_t i = f; i < n; i += a->folds) {
            struct item *it = &items[perm[i]];
            enum augur_sampler p = augur_tree_classify(t, it->x, NULL);

            if (base_only)
                it->cv_base = p;
            else
                it->cv = p;
            correct += p == it->label;
        }
        augur_tree_free(t);
    }
    augur_free(perm);
    augur_free(x);
    augur_free(y);
    augur_free(cost);
    return correct;
}

static void item_free(struct item *it)
{
    augur_free(it->name);
}

/* Loads a matrix file, or generates matrix number g; returns 0 or a failure. */
static int load_item(const char *path, const char *kind, struct augur_csr *csr, bool *symmetric,
                     struct augur_diag *diag)
{
    struct augur_load_opts lo = { 0 };
    struct augur_dataset *ds = NULL;
    int rc = augur_dataset_load(path, &lo, &ds, diag);

    (void)kind;
    if (rc)
        return rc;
    *symmetric = ds->symmetry != AUGUR_SYM_GENERAL;
    rc = augur_dataset_csr(ds, true, csr, diag);
    augur_dataset_free(ds);
    return rc;
}

/*
 * Generated matrix g: R-MAT for even g (a over 0.45, 0.57, 0.65, 0.75, then
 * scale 11 to 14, edge factor cycling 4, 8, 16), block diagonal for odd g
 * (b of 8, 32, 128, 512, 2048, 4096 and n, then n 2^13 to 2^15; degree 4).
 */
static int generate_item(unsigned g, uint64_t seed, struct augur_csr *csr, char *name, size_t size,
                         struct augur_diag *diag)
{
    static const double rmat_a[] = { 0.45, 0.57, 0.65, 0.75 };
    static const unsigned rmat_ef[] = { 4, 8, 16 };
    static const uint32_t block_b[] = { 8, 32, 128, 512, 2048, 4096, 0 }; /* 0: n */
    unsigned i = g / 2;

    if (g % 2 == 0) {
        unsigned scale = 11 + (i / 4) % 4, ef = rmat_ef[(i + i / 4) % 3];
        double a = rmat_a[i % 4], d = 0.05, b = (1.0 - a - d) / 2.0;

        snprintf(name, size, "rmat-s%u-e%u-a%.2f", scale, ef, a);
        return augur_generate_rmat(scale, ef, a, b, b, seed + g, csr, diag);
    } else {
        uint32_t n = 1u << (13 + (i / 7) % 3), b = block_b[i % 7] ? block_b[i % 7] : n;

        snprintf(name, size, "blocks-n%u-b%u-d4", n, b);
        return augur_generate_blocks(n, b, 4, seed + g, csr, diag);
    }
}

static json_t *item_json(const struct item *it)
{
    json_t *f = json_object();

    for (unsigned i = 0; i < AUGUR_CAT_NFEATURES; i++)
        json_object_set_new(f, augur_cat_feature_name(i), json_real(it->x[i]));
    return json_pack("{s:s,s:s,s:i,s:I,s:o,s:f,s:{s:f,s:f,s:f},s:{s:f,s:f,s:f},s:s,s:s,s:s}",
                     "name", it->name, "kind", it->kind, "rows", (json_int_t)it->n, "nnz",
                     (json_int_t)it->nnz, "features", f, "full_l1", it->full_l1, "miss_rate", "sa",
                     it->miss[AUGUR_SAMPLER_SA], "rt", it->miss[AUGUR_SAMPLER_RT], "rb",
                     it->miss[AUGUR_SAMPLER_RB], "error", "sa", it->err[AUGUR_SAMPLER_SA], "rt",
                     it->err[AUGUR_SAMPLER_RT], "rb", it->err[AUGUR_SAMPLER_RB], "label",
                     augur_sampler_name(it->label), "cv", augur_sampler_name(it->cv), "cv_base",
                     augur_sampler_name(it->cv_base));
}

/* What train categorizer learns, freed together (training_free). */
struct training {
    struct augur_vec items; /* struct item: the matrices labelled */
    size_t n;               /* items.len */
    double *x, *cost;       /* the features and the costs of every item, for the tree */
    enum augur_sampler *y;  /* the labels */
    struct augur_tree *tree;
    struct augur_buf text, comment; /* the tree file, and its comment */
    /* cross-validated: items right with and without the clustering coefficient */
    size_t correct, correct_base, nsa, nrt;
    /* mean L1 errors: each sampler's, the best of the three, the tree's with and without cc */
    double err_sa, err_rt, err_rb, err_best, err_cv, err_base;
    double depth_acc[17], depth_err[17]; /* by depth: cross-validated accuracy, mean error */
    unsigned ndepths;
};

static void training_free(struct training *t)
{
    for (size_t i = 0; i < t->items.len; i++)
        item_free(&AUGUR_VEC_AT(&t->items, struct item, i));
    augur_vec_release(&t->items);
    augur_buf_release(&t->text);
    augur_buf_release(&t->comment);
    augur_free(t->x);
    augur_free(t->y);
    augur_free(t->cost);
    augur_tree_free(t->tree);
}

/* The matrix files: FILE..., then those under --datasets (mtx/ and mesh/). */
static void collect_paths(const struct train_args *a, int first, int argc, char **argv,
                          struct augur_vec *paths)
{
    struct augur_buf d;

    for (int i = first; i < argc; i++)
        *(char **)augur_vec_push(paths) = augur_strdup(argv[i]);
    if (!a->datasets)
        return;
    augur_buf_init(&d);
    augur_buf_printf(&d, "%s/mtx", a->datasets);
    list_dir(d.s, paths);
    augur_buf_reset(&d);
    augur_buf_printf(&d, "%s/mesh", a->datasets);
    list_dir(d.s, paths);
    augur_buf_release(&d);
}

/*
 * Matrix i: the file paths[i], else generated matrix i - paths->len; labelled
 * and added to items, or skipped with a warning.
 */
static void label_item(const struct train_args *a, const struct augur_cache_config *cfg,
                       const struct augur_vec *paths, size_t i, struct augur_vec *items)
{
    struct augur_csr csr = { 0 };
    struct augur_diag diag;
    struct item it;
    bool symmetric = false;
    char name[96];
    double t0 = augur_now();
    int rc;

    memset(&it, 0, sizeof(it));
    augur_diag_init(&diag);
    if (i < paths->len) {
        const char *p = AUGUR_VEC_AT(paths, char *, i);

        it.kind = strstr(p, "/mesh/") ? "mesh" : strstr(p, "/mtx/") ? "mtx" : "file";
        snprintf(name, sizeof(name), "%s", base_name(p));
        rc = load_item(p, it.kind, &csr, &symmetric, &diag);
    } else {
        unsigned g = (unsigned)(i - paths->len);

        it.kind = g % 2 ? "blocks" : "rmat";
        rc = generate_item(g, a->seed, &csr, name, sizeof(name), &diag);
    }
    if (!rc && a->errors.n)
        rc = label_given(&csr, symmetric, a, name, &it, &diag);
    else if (!rc)
        rc = label_matrix(&csr, symmetric, a, cfg, &it, &diag);
    augur_csr_release(&csr);
    if (rc) {
        char msg[1200];

        augur_diag_format(&diag, msg, sizeof(msg));
        cli_warning("skipping %s: %s", name, msg);
        return;
    }
    it.name = augur_strdup(name);
    if (!cli_json)
        fprintf(stderr, "augur: labelled %-34s %-4s (sa %.3f, rt %.3f, rb %.3f) in %.2f s\n", name,
                augur_sampler_name(it.label), it.err[AUGUR_SAMPLER_SA], it.err[AUGUR_SAMPLER_RT],
                it.err[AUGUR_SAMPLER_RB], augur_now() - t0);
    *(struct item *)augur_vec_push(items) = it;
}

/*
 * The depth: the one of 1 .. --max-depth whose cross-validated accuracy is
 * best (then the lower mean error, then the shallower); with --split error,
 * the one whose cross-validated mean error is least (then the shallower).
 * Sets a->tree.max_depth, and each depth's accuracy and error in t.
 */
static void choose_depth(struct train_args *a, struct training *t)
{
    struct item *it = t->items.data;
    size_t n = t->n, best_correct = 0;
    unsigned maxd = a->tree.max_depth ? a->tree.max_depth : 3, best = 1;
    double best_err = INFINITY;

    for (unsigned dep = 1; dep <= maxd; dep++) {
        size_t correct;
        double e = 0.0;

        a->tree.max_depth = dep;
        correct = cross_validate(it, n, a, 0, false);
        for (size_t i = 0; i < n; i++)
            e += it[i].err[it[i].cv] / n;
        t->depth_acc[dep] = (double)correct / n;
        t->depth_err[dep] = e;
        if (a->by_error
                ? e < best_err - 1e-12
                : correct > best_correct || (correct == best_correct && e < best_err - 1e-12)) {
            best = dep;
            best_correct = correct;
            best_err = e;
        }
    }
    a->tree.max_depth = best;
    t->ndepths = maxd;
}

/* At the chosen depth: cross-validated with and without cc, the mean errors, the tree's input. */
static void cross_validated(const struct train_args *a, struct training *t)
{
    struct item *it = t->items.data;
    uint64_t base_mask = ((uint64_t)1 << AUGUR_CAT_NFEATURES) - 1;
    size_t n = t->n;

    t->correct = cross_validate(it, n, a, 0, false);
    t->correct_base = cross_validate(it, n, a, base_mask & ~((uint64_t)1 << AUGUR_CAT_CC), true);
    t->x = augur_mallocarray(n * AUGUR_CAT_NFEATURES, sizeof(double));
    t->y = augur_mallocarray(n, sizeof(*t->y));
    t->cost = augur_mallocarray(n * AUGUR_SAMPLER_COUNT, sizeof(double));
    for (size_t i = 0; i < n; i++) {
        memcpy(t->x + i * AUGUR_CAT_NFEATURES, it[i].x, sizeof(it[i].x));
        item_costs(&it[i], t->cost + i * AUGUR_SAMPLER_COUNT);
        t->y[i] = it[i].label;
        t->nsa += it[i].label == AUGUR_SAMPLER_SA;
        t->nrt += it[i].label == AUGUR_SAMPLER_RT;
        t->err_sa += it[i].err[AUGUR_SAMPLER_SA] / n;
        t->err_rt += it[i].err[AUGUR_SAMPLER_RT] / n;
        t->err_rb += it[i].err[AUGUR_SAMPLER_RB] / n;
        t->err_best += it[i].err[it[i].label] / n;
        t->err_cv += it[i].err[it[i].cv] / n;
        t->err_base += it[i].err[it[i].cv_base] / n;
    }
}

/* The tree on every item, its comment (how it was trained and how well), written to -o. */
static int fit_tree(struct train_args *a, const struct augur_machine *machine, struct training *t)
{
    struct augur_diag diag;
    size_t n = t->n;

    augur_diag_init(&diag);
    a->tree.cost = a->by_error ? t->cost : NULL;
    if (augur_tree_train(t->x, t->y, n, &a->tree, &a->feat, &t->tree, &diag) != 0)
        return cli_diag_error(&diag);
    augur_buf_printf(&t->comment,
                     "Trained by 'augur train categorizer' on %zu matrices (%zu labelled sa, %zu "
                     "rt, %zu rb).\n",
                     n, t->nsa, t->nrt, n - t->nsa - t->nrt);
    if (a->errors.n)
        augur_buf_printf(&t->comment, "Label: the sampler of the least error in %s.\n",
                         a->errors_path);
    else
        augur_buf_printf(
            &t->comment,
            "Label: the sampler whose samples (rate %g; rt, rb: %u seeds) best "
            "predict the L1 miss rate of %s\non %s, one core, caches scaled: %s.\n",
            a->rate, a->seeds,
            a->kernel < 0 ? "spmv, fv and ireduce (mean)"
                          : augur_stream_kernel_name((enum augur_stream_kernel)a->kernel),
            machine->name ? machine->name : a->machine, augur_scaling_name(a->scaling));
    augur_buf_printf(
        &t->comment,
        "Splits by %s; depth %u (of 1..%u, the best %u-fold cross-validated %s).\n"
        "%u-fold cross-validated accuracy: %.1f %% (without cc: %.1f %%).\n"
        "Mean %s: sa %.2f %%, rt %.2f %%, rb %.2f %%, tree (cross-validated) %.2f %%, best of "
        "the three %.2f %%.",
        a->by_error ? "the samplers' summed errors" : "the labels' Gini impurity",
        a->tree.max_depth, t->ndepths, a->folds, a->by_error ? "mean error" : "accuracy", a->folds,
        100.0 * (double)t->correct / n, 100.0 * (double)t->correct_base / n,
        a->errors.n ? "error given" : "L1 miss-rate error (eq. 7)", 100.0 * t->err_sa,
        100.0 * t->err_rt, 100.0 * t->err_rb, 100.0 * t->err_cv, 100.0 * t->err_best);
    augur_tree_format(t->tree, t->comment.s, &t->text);
    if (augur_file_write(a->output, t->text.s, t->text.len, &diag) != 0)
        return cli_diag_error(&diag);
    return CLI_OK;
}

static int training_json(const struct train_args *a, const struct training *t)
{
    json_t *arr = json_array(), *depths = json_array();
    size_t n = t->n;

    for (unsigned dep = 1; dep <= t->ndepths; dep++)
        json_array_append_new(depths, json_pack("{s:i,s:f,s:f}", "depth", (int)dep, "cv_accuracy",
                                                t->depth_acc[dep], "cv_error", t->depth_err[dep]));

    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, item_json(&AUGUR_VEC_AT(&t->items, struct item, i)));
    return cli_print_json(json_pack(
        "{s:s,s:i,s:o,s:i,s:i,s:i,s:i,s:i,s:f,s:f,s:{s:f,s:f,s:f,s:f,s:f,s:f},s:o,s:s}", "output",
        a->output, "depth", (int)a->tree.max_depth, "depths", depths, "matrices", (int)n,
        "labelled_sa", (int)t->nsa, "labelled_rt", (int)t->nrt, "labelled_rb",
        (int)(n - t->nsa - t->nrt), "folds", (int)a->folds, "cv_accuracy", (double)t->correct / n,
        "cv_accuracy_without_cc", (double)t->correct_base / n, "mean_error", "sa", t->err_sa, "rt",
        t->err_rt, "rb", t->err_rb, "tree_cv", t->err_cv, "tree_cv_without_cc", t->err_base,
        "better", t->err_best, "items", arr, "tree", t->text.s));
}

static int training_text(const struct train_args *a, const struct training *t)
{
    printf("%-34s %-6s %9s %9s %8s %7s %8s %9s %8s %8s %8s %5s %4s\n", "matrix", "kind", "rows",
           "nnz", "cc", "nnz_cv", "dist_med", "prev_line", "err sa", "err rt", "err rb", "label",
           "cv");
    for (size_t i = 0; i < t->n; i++) {
        const struct item *it = &AUGUR_VEC_AT(&t->items, struct item, i);

        printf("%-34s %-6s %9u %9llu %8.4f %7.3f %8.0f %9.4f %7.2f%% %7.2f%% %7.2f%% %5s "
               "%4s\n",
               it->name, it->kind, it->n, (unsigned long long)it->nnz, it->x[AUGUR_CAT_CC],
               it->x[AUGUR_CAT_NNZ_CV], it->x[AUGUR_CAT_DIST_MED], it->x[AUGUR_CAT_PREV_LINE],
               100.0 * it->err[AUGUR_SAMPLER_SA], 100.0 * it->err[AUGUR_SAMPLER_RT],
               100.0 * it->err[AUGUR_SAMPLER_RB], augur_sampler_name(it->label),
               augur_sampler_name(it->cv));
    }
    printf("\ndepth  cv accuracy  cv mean %s\n", a->errors.n ? "error" : "L1 error");
    for (unsigned dep = 1; dep <= t->ndepths; dep++)
        printf("%5u  %10.1f %%  %14.2f %%\n", dep, 100.0 * t->depth_acc[dep],
               100.0 * t->depth_err[dep]);
    printf("\n%s\n\n%s", t->comment.s, t->text.s);
    printf("written to %s (%u nodes, depth %u)\n", a->output, augur_tree_nnodes(t->tree),
           augur_tree_depth(t->tree));
    return cli_flush_stdout();
}

static int train_categorizer(int argc, char **argv)
{
    struct train_args a;
    struct augur_cache_config cfg;
    struct augur_machine *machine = NULL;
    struct augur_vec paths;
    struct training t;
    struct augur_diag diag;
    int first = 0, rc;

    rc = parse_train_args(argc, argv, &a, &first);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    augur_diag_init(&diag);
    if (a.errors_path && augur_cat_errors_load(a.errors_path, &a.errors, &diag) != 0)
        return cli_diag_error(&diag);
    if (augur_machine_load(a.machine, &machine, &diag) != 0 ||
        augur_cache_config_from_machine(machine, 1, &cfg, &diag) != 0) {
        augur_machine_free(machine);
        augur_cat_errors_release(&a.errors);
        return cli_diag_error(&diag);
    }
    memset(&t, 0, sizeof(t));
    augur_vec_init(&paths, sizeof(char *));
    augur_vec_init(&t.items, sizeof(struct item));
    augur_buf_init(&t.text);
    augur_buf_init(&t.comment);
    collect_paths(&a, first, argc, argv, &paths);
    /* Files first, then the generated matrices. */
    for (size_t i = 0; i < paths.len + 2 * (size_t)a.generated; i++)
        label_item(&a, &cfg, &paths, i, &t.items);
    t.n = t.items.len;
    if (t.n < a.folds) {
        rc = cli_error("only %zu training matrices: %u folds need at least as many", t.n, a.folds);
    } else {
        choose_depth(&a, &t);
        cross_validated(&a, &t);
        rc = fit_tree(&a, machine, &t);
        if (rc == CLI_OK)
            rc = cli_json ? training_json(&a, &t) : training_text(&a, &t);
    }
    for (size_t i = 0; i < paths.len; i++)
        augur_free(AUGUR_VEC_AT(&paths, char *, i));
    augur_vec_release(&paths);
    training_free(&t);
    augur_machine_free(machine);
    augur_cat_errors_release(&a.errors);
    return rc;
}

static const struct cli_cmd train_commands[] = {
    { "categorizer", train_categorizer, categorizer_help,
      "the decision tree that picks a sampler (Zhu et al. PACT'19 section III-D)" },
    { "model", train_model, train_model_help,
      "the machine's core rates, fitted to measured augur predict runs" },
    { NULL, NULL, NULL, NULL },
};

void cmd_train_help(FILE *fp)
{
    fprintf(fp, "usage: augur train COMMAND [OPTIONS]\n"
                "\n"
                "Fits what augur learns from measured or simulated runs.\n"
                "\n"
                "commands:\n");
    for (const struct cli_cmd *c = train_commands; c->name; c++)
        fprintf(fp, "  %-12s %s\n", c->name, c->summary);
}

int cmd_train(int argc, char **argv)
{
    return cli_dispatch(train_commands, argc - 1, argv + 1, "augur train", cmd_train_help);
}
