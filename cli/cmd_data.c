/*
 * cmd_data.c - "augur data": load, inspect, convert, reorder and generate
 * datasets (module: cli).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* What "data info" computes beyond loading. */
struct info_opts {
    struct augur_feature_opts features;
    bool no_clustering;
    double rnn_rate;  /* rate of the Random Node Neighbor estimate */
    double rnn_error; /* its relative error target past the rate (0: none) */
    const char *tree; /* --tree, or NULL: look for the shipped one */
    /* --tile-size: the tiling statistics at this size; 0: none */
    uint32_t tile_size;
};

/* The rate of the clustering estimate in "data info" (Zhu et al. PACT'19 reports 1 %). */
#define INFO_RNN_RATE 0.01

static void info_help(FILE *fp)
{
    fprintf(fp, "usage: augur data info [OPTIONS] FILE\n"
                "\n"
                "Loads a sparse matrix, graph or tetrahedral mesh and prints what it is:\n"
                "format, size, symmetry and duplicates; its features (empty rows, bandwidth,\n"
                "row degree spread, the Table I features of Zhu et al.: non-zeros, non-zero\n"
                "blocks and their sizes per row); its exact global clustering coefficient;\n"
                "and the time each part took. Symmetric data is expanded to both triangles\n"
                "first (the \"full\" pattern).\n"
                "\n"
                "options:\n" CLI_LOAD_HELP
                "  --block-size B    a non-zero block is a column block of width B (>= 1);\n"
                "                    'run' (default): a maximal run of adjacent columns\n"
                "  --sample-rows F   features from a Random Row sample of a fraction F of the\n"
                "                    rows, 0 < F <= 1 (default 1: every row)\n"
                "  --seed S          seed of the row sample and of the RNN estimate (default 1)\n"
                "  --no-clustering   skip the exact clustering coefficient (the costly part)\n"
                "  --rnn-rate P      rate of the Random Node Neighbor estimate of the\n"
                "                    clustering coefficient, 0 < P <= 1 (default 0.01)\n"
                "  --rnn-error E     past the rate, draw nodes until the estimate's standard\n"
                "                    error is at most E of it, 0 < E < 1 (with at least 16\n"
                "                    nodes on a triangle drawn), or every node is drawn\n"
                "  --tree FILE       categorizer tree that gives the category (default: the\n"
                "                    shipped samples/categorizer.tree, or $AUGUR_TREE)\n"
                "  --tile-size T     also the tiling-and-grouping statistics at tile size T\n"
                "                    (SIMD utilization, avg_MIMD; docs/tiling.md)\n"
                "  --json            print the result as JSON\n"
                "  -h, --help        print this help\n"
                "\n"
                "The clustering coefficient follows Zhu et al. PACT'19 eq. 1-3: undirected on the\n"
                "symmetrised pattern and, for general (unsymmetric) data, also directed on\n"
                "the pattern as stored; nodes with fewer than 2 neighbours count as 0 in\n"
                "the average, as in its Algorithm 3. Self loops are ignored. The estimate\n"
                "(Algorithm 3, undirected, seeded by --seed) is shown with its error\n"
                "against the exact value (Zhu et al. PACT'19 eq. 7). The category is the sampler\n"
                "the categorizer tree picks for 'augur data sample --method auto'.\n");
}

static void convert_help(FILE *fp)
{
    fprintf(fp, "usage: augur data convert [OPTIONS] IN OUT\n"
                "\n"
                "Writes the dataset IN as a Matrix Market coordinate file OUT (\"-\" for\n"
                "standard output), keeping its symmetry and values. A mesh is written as\n"
                "its face-adjacency dual graph.\n"
                "\n"
                "options:\n" CLI_LOAD_HELP "  --json            print a summary as JSON\n"
                "  -h, --help        print this help\n");
}

/* A whole number in [lo, hi], without a sign. */
static bool parse_whole(const char *arg, unsigned long long lo, unsigned long long hi,
                        unsigned long long *out)
{
    char *end;

    errno = 0;
    *out = strtoull(arg, &end, 10);
    return !errno && end != arg && !*end && arg[0] != '-' && *out >= lo && *out <= hi;
}

/* Parses --block-size: "run" or a width 1..2^32-1. */
static int parse_block_size(const char *arg, uint32_t *out)
{
    unsigned long long v;

    if (strcmp(arg, "run") == 0 || strcmp(arg, "runs") == 0) {
        *out = AUGUR_BLOCK_RUNS;
        return 0;
    }
    if (!parse_whole(arg, 1, UINT32_MAX, &v))
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Handles an option of "data info" (info_longopts); returns 1 when used, or CLI_USAGE. */
static int info_option(const char *cmd, int opt, const char *arg, struct info_opts *info)
{
    unsigned long long v;

    switch (opt) {
    case 'b':
        if (parse_block_size(arg, &info->features.block_size) != 0)
            return cli_usage_error(cmd, "--block-size needs 'run' or a width >= 1, not '%s'", arg);
        return 1;
    case 'r':
        return cli_parse_fraction(cmd, "--sample-rows", arg, true, &info->features.sample_fraction)
                   ? CLI_USAGE
                   : 1;
    case 's':
        if (!parse_whole(arg, 0, ULLONG_MAX, &v))
            return cli_usage_error(cmd, "--seed needs a non-negative integer, not '%s'", arg);
        info->features.seed = v;
        return 1;
    case 'n':
        info->no_clustering = true;
        return 1;
    case 'e':
        return cli_parse_fraction(cmd, "--rnn-rate", arg, true, &info->rnn_rate) ? CLI_USAGE : 1;
    case 'E':
        return cli_parse_fraction(cmd, "--rnn-error", arg, false, &info->rnn_error) ? CLI_USAGE : 1;
    case 't':
        info->tree = arg;
        return 1;
    case 'T':
        if (!parse_whole(arg, 1, UINT32_MAX, &v))
            return cli_usage_error(cmd, "--tile-size needs an integer in 1..%u, not '%s'",
                                   UINT32_MAX, arg);
        info->tile_size = (uint32_t)v;
        return 1;
    }
    return 0;
}

/*
 * Parses the options of a data subcommand; *first is the first operand. info
 * is NULL for the subcommands without the feature options.
 */
static int parse_args(const char *cmd, void (*help)(FILE *), int argc, char **argv,
                      struct augur_load_opts *opts, struct info_opts *info, int *first)
{
    static const struct option longopts[] = {
        CLI_LOAD_LONGOPTS,
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const struct option info_longopts[] = {
        CLI_LOAD_LONGOPTS,
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { "block-size", required_argument, NULL, 'b' },
        { "sample-rows", required_argument, NULL, 'r' },
        { "seed", required_argument, NULL, 's' },
        { "no-clustering", no_argument, NULL, 'n' },
        { "rnn-rate", required_argument, NULL, 'e' },
        { "rnn-error", required_argument, NULL, 'E' },
        { "tree", required_argument, NULL, 't' },
        { "tile-size", required_argument, NULL, 'T' },
        { NULL, 0, NULL, 0 },
    };
    int opt;

    memset(opts, 0, sizeof(*opts));
    if (info) {
        memset(info, 0, sizeof(*info));
        info->features.seed = 1;
        info->rnn_rate = INFO_RNN_RATE;
    }
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "h", info ? info_longopts : longopts, NULL)) != -1) {
        int used;

        if (opt == 'h') {
            help(stdout);
            return -1;
        }
        if (opt == 'j') {
            cli_json = true;
            continue;
        }
        if (opt == '?')
            return cli_usage_error(cmd, "unknown or incomplete option '%s'", argv[optind - 1]);
        used = info ? info_option(cmd, opt, optarg, info) : 0;
        if (used == 0)
            used = cli_load_option(cmd, opt, optarg, opts);
        if (used != 1)
            return used ? used : cli_usage_error(cmd, "unknown option");
    }
    *first = optind;
    return 0;
}

/* The range of the stored values and how many are negative (a kernel that relaxes distances
 * along them may never finish on a negative cycle). False: the dataset holds no values. */
static bool value_range(const struct augur_dataset *ds, double *lo, double *hi, uint64_t *neg)
{
    *lo = *hi = 0;
    *neg = 0;
    if (!ds->coo.val || ds->coo.nnz == 0)
        return false;
    *lo = *hi = ds->coo.val[0];
    for (uint64_t e = 0; e < ds->coo.nnz; e++) {
        double v = ds->coo.val[e];

        *lo = v < *lo ? v : *lo;
        *hi = v > *hi ? v : *hi;
        *neg += v < 0;
    }
    return true;
}

static json_t *dataset_json(const struct augur_dataset *ds)
{
    json_t *o = json_object();
    double lo, hi;
    uint64_t neg;

    json_object_set_new(o, "file", json_string(ds->path));
    json_object_set_new(o, "format", json_string(augur_format_name(ds->format)));
    json_object_set_new(o, "compressed", json_boolean(ds->compressed));
    json_object_set_new(o, "rows", json_integer(ds->coo.nrows));
    json_object_set_new(o, "cols", json_integer(ds->coo.ncols));
    json_object_set_new(o, "nnz_stored", json_integer((json_int_t)ds->coo.nnz));
    json_object_set_new(o, "nnz_full", json_integer((json_int_t)augur_dataset_nnz_full(ds)));
    json_object_set_new(o, "symmetry", json_string(augur_symmetry_name(ds->symmetry)));
    json_object_set_new(o, "field", json_string(augur_field_name(ds->field)));
    json_object_set_new(o, "entries_read", json_integer((json_int_t)ds->nentries_read));
    json_object_set_new(o, "duplicates_merged", json_integer((json_int_t)ds->nduplicates));
    json_object_set_new(o, "diagonal", json_integer((json_int_t)ds->ndiagonal));
    if (value_range(ds, &lo, &hi, &neg))
        json_object_set_new(
            o, "values",
            json_pack("{s:f, s:f, s:I}", "min", lo, "max", hi, "negative", (json_int_t)neg));
    json_object_set_new(o, "bytes", json_integer((json_int_t)ds->bytes));
    if (augur_format_is_mesh(ds->format)) {
        json_t *m = json_object();

        json_object_set_new(m, "nodes", json_integer((json_int_t)ds->nnodes));
        json_object_set_new(m, "tets", json_integer((json_int_t)ds->ncells));
        json_object_set_new(m, "other_elements", json_integer((json_int_t)ds->nother_elements));
        json_object_set_new(m, "boundary_faces", json_integer((json_int_t)ds->nboundary_faces));
        json_object_set_new(o, "mesh", m);
    }
    return o;
}

static void dataset_text(const struct augur_dataset *ds)
{
    double lo, hi;
    uint64_t neg;

    printf("file:          %s\n", ds->path);
    printf("format:        %s%s\n", augur_format_name(ds->format), ds->compressed ? " (gzip)" : "");
    if (augur_format_is_mesh(ds->format)) {
        printf("mesh:          %llu nodes, %llu tets, %llu other elements skipped\n",
               (unsigned long long)ds->nnodes, (unsigned long long)ds->ncells,
               (unsigned long long)ds->nother_elements);
        printf("dual graph:    cells sharing a face; %llu boundary faces\n",
               (unsigned long long)ds->nboundary_faces);
    }
    printf("rows x cols:   %u x %u\n", ds->coo.nrows, ds->coo.ncols);
    printf("nnz:           %llu stored, %llu full\n", (unsigned long long)ds->coo.nnz,
           (unsigned long long)augur_dataset_nnz_full(ds));
    printf("symmetry:      %s\n", augur_symmetry_name(ds->symmetry));
    printf("field:         %s\n", augur_field_name(ds->field));
    printf("diagonal:      %llu entries\n", (unsigned long long)ds->ndiagonal);
    if (value_range(ds, &lo, &hi, &neg))
        printf("values:        %g .. %g, %llu negative\n", lo, hi, (unsigned long long)neg);
    printf("duplicates:    %llu merged (values summed) of %llu entries read\n",
           (unsigned long long)ds->nduplicates, (unsigned long long)ds->nentries_read);
}

/* Seconds each stage of "data info" took. */
struct info_times {
    double load, csr, features, clustering, estimate, category;
};

/* A "  key:   value" line of a section, values aligned. */
static void kv(const char *key, const char *fmt, ...) AUGUR_PRINTF(2, 3);

static void kv(const char *key, const char *fmt, ...)
{
    va_list ap;

    printf("  %s:%*s", key, (int)(22 - strlen(key)), "");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static const char *pattern_name(const struct augur_dataset *ds)
{
    return ds->symmetry == AUGUR_SYM_GENERAL ? "stored" : "full";
}

static void blocks_text(uint32_t block_size, char *buf, size_t size)
{
    if (block_size == AUGUR_BLOCK_RUNS)
        snprintf(buf, size, "maximal runs of adjacent columns in a row");
    else
        snprintf(buf, size, "column blocks of width %u in a row, non-zero if they hold one",
                 block_size);
}

static void features_text(const struct augur_dataset *ds, const struct augur_features *f)
{
    char blocks[96];
    const char *est = f->sampled ? " (estimated)" : "";

    const char *pattern =
        ds->symmetry == AUGUR_SYM_GENERAL ? "stored pattern" : "full pattern (both triangles)";

    if (f->sampled)
        printf("features:      %s, Random Row sample: %u of %u rows (fraction %.6g), seed %llu\n",
               pattern, f->nrows_sampled, f->nrows, f->sample_fraction,
               (unsigned long long)f->seed);
    else
        printf("features:      %s, every row\n", pattern);
    kv("empty rows", "%llu (%.4g %%)%s", (unsigned long long)f->nempty_rows,
       f->nrows ? 100.0 * (double)f->nempty_rows / f->nrows : 0.0, est);
    kv("bandwidth", "%llu (max |i-j|)%s", (unsigned long long)f->bandwidth,
       f->sampled ? " (over the sample)" : "");
    kv("mean |i-j|", "%.6g", f->mean_distance);
    kv("row degree", "min %llu, max %llu, mean %.6g, std %.6g", (unsigned long long)f->nnz_row.min,
       (unsigned long long)f->nnz_row.max, f->nnz_row.mean, f->nnz_row.std);
    kv("degree cv", "%.6g (std / mean)", f->nnz_row.cv);
    blocks_text(f->block_size, blocks, sizeof(blocks));
    printf("Table I:       blocks are %s\n", blocks);
    kv("nnz_tot", "%llu", (unsigned long long)f->nnz_tot);
    kv("nnz_frac", "%.6g %%", f->nnz_frac);
    kv("nnz_{min,max,mu,sig}", "%llu, %llu, %.6g, %.6g", (unsigned long long)f->nnz_row.min,
       (unsigned long long)f->nnz_row.max, f->nnz_row.mean, f->nnz_row.std);
    kv("nnzb_tot", "%llu%s", (unsigned long long)f->nnzb_tot, est);
    kv("nnzb_{min,max,mu,sig}", "%llu, %llu, %.6g, %.6g", (unsigned long long)f->nnzb_row.min,
       (unsigned long long)f->nnzb_row.max, f->nnzb_row.mean, f->nnzb_row.std);
    kv("snzb_{min,max,mu,sig}", "%llu, %llu, %.6g, %.6g", (unsigned long long)f->snzb.min,
       (unsigned long long)f->snzb.max, f->snzb.mean, f->snzb.std);
}

static void cc_text(const char *key, const struct augur_cc *cc, const char *how, const char *links)
{
    kv(key, "%.6f (%s)", cc->global, how);
    kv("  nodes with k < 2", "%u of %u (C_i = 0); mean over the others %.6f", cc->nlow_degree,
       cc->nnodes, cc->mean_deg2);
    kv("  counts", "%llu %s, %llu %s, max k %u", (unsigned long long)cc->nlinks, links,
       (unsigned long long)cc->nedges, strcmp(links, "triangles") == 0 ? "edges" : "arcs",
       cc->max_degree);
}

static void clustering_text(const struct augur_clustering *cl, const char *skipped)
{
    if (skipped) {
        printf("clustering:    skipped (%s)\n", skipped);
        return;
    }
    printf(
        "clustering:    exact, Zhu et al. PACT'19 eq. 1-3; k < 2 counts as 0 (Algorithm 3); no self "
        "loops\n");
    cc_text("undirected", &cl->undirected, "eq. 2 on the symmetrised pattern A + A^T", "triangles");
    if (cl->directed.computed)
        cc_text("directed", &cl->directed, "eq. 1 on the pattern as stored, N_i = out-neighbours",
                "links");
}

static json_t *stat_json(json_t *o, const char *prefix, const struct augur_stat *s)
{
    char key[64];

    snprintf(key, sizeof(key), "%s_min", prefix);
    json_object_set_new(o, key, json_integer((json_int_t)s->min));
    snprintf(key, sizeof(key), "%s_max", prefix);
    json_object_set_new(o, key, json_integer((json_int_t)s->max));
    snprintf(key, sizeof(key), "%s_mu", prefix);
    json_object_set_new(o, key, json_real(s->mean));
    snprintf(key, sizeof(key), "%s_sig", prefix);
    json_object_set_new(o, key, json_real(s->std));
    return o;
}

static json_t *features_json(const struct augur_dataset *ds, const struct augur_features *f)
{
    json_t *o = json_object(), *t = json_object(), *deg = json_object();

    json_object_set_new(o, "pattern", json_string(pattern_name(ds)));
    json_object_set_new(o, "sampled", json_boolean(f->sampled));
    json_object_set_new(o, "rows_sampled", json_integer(f->nrows_sampled));
    json_object_set_new(o, "sample_fraction", json_real(f->sample_fraction));
    json_object_set_new(o, "seed", json_integer((json_int_t)f->seed));
    json_object_set_new(o, "blocks",
                        json_string(f->block_size == AUGUR_BLOCK_RUNS ? "runs" : "fixed"));
    json_object_set_new(o, "block_size", json_integer(f->block_size));
    json_object_set_new(o, "empty_rows", json_integer((json_int_t)f->nempty_rows));
    json_object_set_new(o, "bandwidth", json_integer((json_int_t)f->bandwidth));
    json_object_set_new(o, "mean_distance", json_real(f->mean_distance));
    json_object_set_new(deg, "min", json_integer((json_int_t)f->nnz_row.min));
    json_object_set_new(deg, "max", json_integer((json_int_t)f->nnz_row.max));
    json_object_set_new(deg, "mean", json_real(f->nnz_row.mean));
    json_object_set_new(deg, "std", json_real(f->nnz_row.std));
    json_object_set_new(deg, "cv", json_real(f->nnz_row.cv));
    json_object_set_new(o, "degree", deg);
    json_object_set_new(t, "nnz_tot", json_integer((json_int_t)f->nnz_tot));
    json_object_set_new(t, "nnz_frac", json_real(f->nnz_frac));
    stat_json(t, "nnz", &f->nnz_row);
    json_object_set_new(t, "nnzb_tot", json_integer((json_int_t)f->nnzb_tot));
    stat_json(t, "nnzb", &f->nnzb_row);
    stat_json(t, "snzb", &f->snzb);
    json_object_set_new(o, "table1", t);
    return o;
}

static json_t *cc_json(const struct augur_cc *cc, const char *graph, bool directed)
{
    json_t *o = json_object();

    json_object_set_new(o, "value", json_real(cc->global));
    json_object_set_new(o, "graph", json_string(graph));
    json_object_set_new(o, "nodes", json_integer(cc->nnodes));
    json_object_set_new(o, "low_degree_nodes", json_integer(cc->nlow_degree));
    json_object_set_new(o, "mean_over_degree_ge2", json_real(cc->mean_deg2));
    json_object_set_new(o, "max_degree", json_integer(cc->max_degree));
    json_object_set_new(o, directed ? "arcs" : "edges", json_integer((json_int_t)cc->nedges));
    json_object_set_new(o, directed ? "links" : "triangles", json_integer((json_int_t)cc->nlinks));
    return o;
}

static json_t *clustering_json(const struct augur_clustering *cl, const char *skipped)
{
    json_t *o = json_object();

    if (skipped) {
        json_object_set_new(o, "skipped", json_string(skipped));
        return o;
    }
    json_object_set_new(
        o, "definition",
        json_string("Zhu et al. PACT'19 eq. 1-3, exact; the average is over all n nodes, "
                    "nodes with k < 2 count as 0 (Algorithm 3); self loops "
                    "ignored"));
    json_object_set_new(o, "undirected",
                        cc_json(&cl->undirected, "symmetrised pattern A + A^T (eq. 2)", false));
    if (cl->directed.computed)
        json_object_set_new(
            o, "directed",
            cc_json(&cl->directed, "pattern as stored, N_i = out-neighbours (eq. 1)", true));
    return o;
}

static void times_text(const struct augur_dataset *ds, const struct info_times *t,
                       const char *skipped)
{
    printf("time:\n");
    kv("load", "%.4f s (parse %.4f s at %.0f MB/s, build %.4f s)", t->load, ds->parse_seconds,
       ds->parse_seconds > 0 ? 1e-6 * (double)ds->bytes / ds->parse_seconds : 0.0,
       ds->build_seconds);
    kv("csr", "%.4f s", t->csr);
    kv("features", "%.4f s", t->features);
    if (skipped)
        kv("clustering", "skipped");
    else
        kv("clustering", "%.4f s", t->clustering);
    kv("clustering estimate", "%.4f s", t->estimate);
    kv("category", "%.4f s", t->category);
}

/* Wall-clock seconds of each stage: the only part of the document that differs between runs. */
static json_t *times_json(const struct augur_dataset *ds, const struct info_times *t, double tiling)
{
    json_t *o = json_object();

    json_object_set_new(o, "parse", json_real(ds->parse_seconds));
    json_object_set_new(o, "build", json_real(ds->build_seconds));
    json_object_set_new(o, "load", json_real(t->load));
    json_object_set_new(o, "csr", json_real(t->csr));
    json_object_set_new(o, "features", json_real(t->features));
    json_object_set_new(o, "clustering", json_real(t->clustering));
    json_object_set_new(o, "clustering_estimate", json_real(t->estimate));
    json_object_set_new(o, "category", json_real(t->category));
    if (tiling >= 0)
        json_object_set_new(o, "tiling", json_real(tiling));
    return o;
}

/* A library failure about the dataset: name the file when the diagnostic does not. */
static int dataset_error(const struct augur_dataset *ds, struct augur_diag *diag)
{
    if (!diag->file[0])
        snprintf(diag->file, sizeof(diag->file), "%s", ds->path);
    return cli_diag_error(diag);
}

static const char *sampler_title(enum augur_sampler s)
{
    switch (s) {
    case AUGUR_SAMPLER_SA:
        return "Stride Average";
    case AUGUR_SAMPLER_RT:
        return "Random Tile";
    case AUGUR_SAMPLER_RB:
        return "Random Row Blocks";
    default:
        return "Random Edge";
    }
}

static json_t *category_json(const struct cli_category *cat)
{
    json_t *o = json_object(), *f;

    if (!cat->have) {
        json_object_set_new(o, "unavailable", json_string(cat->why));
        return o;
    }
    json_object_set_new(o, "sampler", json_string(augur_sampler_name(cat->sampler)));
    json_object_set_new(o, "leaf", json_integer(cat->leaf));
    json_object_set_new(o, "tree", json_string(cat->tree));
    f = json_object();
    for (unsigned i = 0; i < AUGUR_CAT_NFEATURES; i++)
        json_object_set_new(f, augur_cat_feature_name(i), json_real(cat->x[i]));
    json_object_set_new(o, "features", f);
    return o;
}

static void estimate_text(const struct augur_cc_estimate *e, const struct augur_clustering *cl,
                          bool have_exact, const char *why)
{
    if (why) {
        kv("estimate (RNN)", "skipped (%s)", why);
        return;
    }
    kv("estimate (RNN)",
       "%.6f (Algorithm 3, undirected, rate %.6g, seed %llu: %u of %u nodes, "
       "%llu of %llu arcs)",
       e->value, e->rate, (unsigned long long)e->seed, e->nodes_sampled, e->nnodes,
       (unsigned long long)e->edges_sampled, (unsigned long long)e->nedges);
    if (isfinite(e->std_error))
        kv("standard error",
           "%.6f (%.3g %% of the estimate; %u of the nodes drawn on a triangle%s)", e->std_error,
           e->value > 0.0 ? 100.0 * e->std_error / e->value : 0.0, e->nodes_linked,
           e->rel_error > 0.0 ? ", drawn past the rate to the error target" : "");
    else
        kv("standard error", "unknown (fewer than two nodes drawn)");
    if (have_exact)
        kv("estimate error", "%.3f %% of the exact undirected value (Zhu et al. PACT'19 eq. 7)",
           100.0 * augur_error_rate(cl->undirected.global, e->value));
}

static json_t *estimate_json(const struct augur_cc_estimate *e, const struct augur_clustering *cl,
                             bool have_exact, const char *why)
{
    json_t *o = json_object();

    if (why) {
        json_object_set_new(o, "skipped", json_string(why));
        return o;
    }
    json_object_set_new(o, "value", json_real(e->value));
    json_object_set_new(o, "method", json_string("rnn"));
    json_object_set_new(o, "graph", json_string("symmetrised pattern A + A^T (eq. 2)"));
    json_object_set_new(o, "rate", json_real(e->rate));
    json_object_set_new(o, "std_error",
                        isfinite(e->std_error) ? json_real(e->std_error) : json_null());
    if (e->rel_error > 0.0)
        json_object_set_new(o, "rel_error_target", json_real(e->rel_error));
    json_object_set_new(o, "nodes_on_triangles", json_integer(e->nodes_linked));
    json_object_set_new(o, "seed", json_integer((json_int_t)e->seed));
    json_object_set_new(o, "nodes_sampled", json_integer(e->nodes_sampled));
    json_object_set_new(o, "nodes", json_integer(e->nnodes));
    json_object_set_new(o, "low_degree_nodes_sampled", json_integer(e->nodes_low));
    json_object_set_new(o, "arcs_sampled", json_integer((json_int_t)e->edges_sampled));
    json_object_set_new(o, "arcs", json_integer((json_int_t)e->nedges));
    if (have_exact) {
        json_object_set_new(o, "exact", json_real(cl->undirected.global));
        json_object_set_new(o, "error",
                            json_real(augur_error_rate(cl->undirected.global, e->value)));
    }
    return o;
}

static void category_text(const struct cli_category *cat)
{
    if (!cat->have)
        printf("category:      unavailable (%s)\n", cat->why);
    else
        printf("category:      %s: %s (leaf %u of %s)\n", augur_sampler_name(cat->sampler),
               sampler_title(cat->sampler), cat->leaf, cat->tree);
}

/* The tiling section of "data info" (--tile-size). */
static void tiling_text(const struct augur_tiling_stats *s, double seconds)
{
    printf("tiling:        tile size %u, %u-lane conflict-free groups (docs/tiling.md)\n",
           s->tile_size, AUGUR_TILING_LANES);
    kv("tiles", "%llu non-empty of %llu x %llu blocks; largest %llu edges",
       (unsigned long long)s->ntiles, (unsigned long long)s->nblocks,
       (unsigned long long)s->nblocks, (unsigned long long)s->max_tile_edges);
    kv("groups", "%llu (%llu full), %.4g lanes used of %u", (unsigned long long)s->ngroups,
       (unsigned long long)s->nfull, s->lanes_used, AUGUR_TILING_LANES);
    kv("SIMD utilization", "%.4f (edges / (%u groups))", s->simd_util, AUGUR_TILING_LANES);
    kv("tile groups", "%llu; tiles per tile group min %llu, max %llu",
       (unsigned long long)s->ntgroups, (unsigned long long)s->min_tiles,
       (unsigned long long)s->max_tiles);
    kv("avg_MIMD", "%.4g (tiles per tile group)", s->avg_mimd);
    kv("time", "%.4f s", seconds);
}

static json_t *tiling_json(const struct augur_tiling_stats *s)
{
    json_t *o = json_object();

    json_object_set_new(o, "tile_size", json_integer(s->tile_size));
    json_object_set_new(o, "lanes", json_integer(AUGUR_TILING_LANES));
    json_object_set_new(o, "nodes", json_integer(s->nnodes));
    json_object_set_new(o, "blocks", json_integer((json_int_t)s->nblocks));
    json_object_set_new(o, "edges", json_integer((json_int_t)s->nedges));
    json_object_set_new(o, "tiles", json_integer((json_int_t)s->ntiles));
    json_object_set_new(o, "max_tile_edges", json_integer((json_int_t)s->max_tile_edges));
    json_object_set_new(o, "groups", json_integer((json_int_t)s->ngroups));
    json_object_set_new(o, "full_groups", json_integer((json_int_t)s->nfull));
    json_object_set_new(o, "lanes_used", json_real(s->lanes_used));
    json_object_set_new(o, "simd_util", json_real(s->simd_util));
    json_object_set_new(o, "tile_groups", json_integer((json_int_t)s->ntgroups));
    json_object_set_new(o, "avg_mimd", json_real(s->avg_mimd));
    json_object_set_new(o, "min_tiles", json_integer((json_int_t)s->min_tiles));
    json_object_set_new(o, "max_tiles", json_integer((json_int_t)s->max_tiles));
    return o;
}

/* What "data info" finds in a dataset. */
struct info_result {
    struct augur_csr csr; /* the full pattern */
    struct augur_features f;
    struct augur_clustering cl;
    struct augur_cc_estimate est;
    struct cli_category cat;
    struct augur_tiling_stats tiling; /* --tile-size */
    struct info_times t;
    double tiling_s;
    /* why the exact coefficient and its estimate were not computed (NULL: they were) */
    const char *skipped, *est_skipped;
};

/* The exact clustering coefficient, unless --no-clustering or the matrix is not square. */
static int info_clustering(const struct augur_dataset *ds, const struct info_opts *info,
                           struct info_result *r, struct augur_diag *diag)
{
    struct augur_cc_opts co = { .undirected = true };
    double t0;
    int rc;

    if (info->no_clustering) {
        r->skipped = "--no-clustering";
        return 0;
    }
    if (r->csr.nrows != r->csr.ncols) {
        r->skipped = "the matrix is not square";
        return 0;
    }
    /*
     * Symmetric data expands to a symmetric pattern, whose directed
     * coefficient equals the undirected one, and which needs no transpose.
     */
    co.directed = ds->symmetry == AUGUR_SYM_GENERAL;
    co.symmetric = ds->symmetry != AUGUR_SYM_GENERAL;
    t0 = augur_now();
    rc = augur_clustering_compute(&r->csr, &co, &r->cl, diag);
    r->t.clustering = augur_now() - t0;
    return rc;
}

/* The Random Node Neighbor estimate of the undirected coefficient (--rnn-rate, --rnn-error). */
static int info_estimate(const struct augur_dataset *ds, const struct info_opts *info,
                         struct info_result *r, struct augur_diag *diag)
{
    struct augur_rnn_opts ro = { 0 };
    double t0;
    int rc;

    if (r->csr.nrows != r->csr.ncols) {
        r->est_skipped = "the matrix is not square";
        return 0;
    }
    if (r->csr.nrows == 0) {
        r->est_skipped = "the graph has no nodes";
        return 0;
    }
    ro.rate = info->rnn_rate;
    ro.rel_error = info->rnn_error;
    ro.seed = info->features.seed;
    ro.symmetric = ds->symmetry != AUGUR_SYM_GENERAL;
    t0 = augur_now();
    rc = augur_clustering_estimate(&r->csr, &ro, &r->est, diag);
    r->t.estimate = augur_now() - t0;
    return rc;
}

/* Everything "data info" computes on the loaded dataset, each stage timed. Reports failures. */
static int info_compute(const struct augur_dataset *ds, const struct info_opts *info,
                        struct info_result *r)
{
    struct augur_diag diag;
    double t0 = augur_now();
    int rc;

    augur_diag_init(&diag);
    rc = augur_dataset_csr(ds, true, &r->csr, &diag);
    r->t.csr = augur_now() - t0;
    if (!rc) {
        t0 = augur_now();
        rc = augur_features_compute(&r->csr, &info->features, &r->f, &diag);
        r->t.features = augur_now() - t0;
    }
    if (!rc)
        rc = info_clustering(ds, info, r, &diag);
    if (!rc)
        rc = info_estimate(ds, info, r, &diag);
    if (rc)
        return dataset_error(ds, &diag);
    t0 = augur_now();
    rc = cli_categorize(ds, &r->csr, info->tree, false, &r->cat, &diag);
    r->t.category = augur_now() - t0;
    if (rc)
        return cli_diag_error(&diag);
    if (info->tile_size) {
        t0 = augur_now();
        rc = augur_tiling_compute(&r->csr, info->tile_size, &r->tiling, &diag);
        r->tiling_s = augur_now() - t0;
        if (rc)
            return dataset_error(ds, &diag);
    }
    return CLI_OK;
}

static int info_render(const struct augur_dataset *ds, const struct info_opts *info,
                       const struct info_result *r)
{
    if (cli_json) {
        json_t *doc = dataset_json(ds);

        json_object_set_new(doc, "features", features_json(ds, &r->f));
        json_object_set_new(doc, "clustering", clustering_json(&r->cl, r->skipped));
        json_object_set_new(doc, "clustering_estimate",
                            estimate_json(&r->est, &r->cl, !r->skipped, r->est_skipped));
        json_object_set_new(doc, "category", category_json(&r->cat));
        if (info->tile_size)
            json_object_set_new(doc, "tiling", tiling_json(&r->tiling));
        json_object_set_new(doc, "timing",
                            times_json(ds, &r->t, info->tile_size ? r->tiling_s : -1));
        return cli_print_json(doc);
    }
    dataset_text(ds);
    features_text(ds, &r->f);
    clustering_text(&r->cl, r->skipped);
    estimate_text(&r->est, &r->cl, !r->skipped, r->est_skipped);
    category_text(&r->cat);
    if (info->tile_size)
        tiling_text(&r->tiling, r->tiling_s);
    times_text(ds, &r->t, r->skipped);
    return cli_flush_stdout();
}

static int data_info(int argc, char **argv)
{
    struct augur_load_opts opts;
    struct info_opts info;
    struct augur_dataset *ds = NULL;
    struct info_result r;
    double t0;
    int first = 0, rc;

    memset(&r, 0, sizeof(r));
    rc = parse_args("data info", info_help, argc, argv, &opts, &info, &first);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (argc - first != 1)
        return cli_usage_error("data info", "expected one FILE");
    t0 = augur_now();
    rc = cli_load_dataset(argv[first], &opts, &ds);
    if (rc)
        return rc;
    r.t.load = augur_now() - t0;
    rc = info_compute(ds, &info, &r);
    if (rc == CLI_OK)
        rc = info_render(ds, &info, &r);
    augur_csr_release(&r.csr);
    augur_dataset_free(ds);
    return rc;
}

static int data_convert(int argc, char **argv)
{
    struct augur_load_opts opts;
    struct augur_dataset *ds = NULL;
    struct augur_diag diag;
    int first = 0, rc;

    rc = parse_args("data convert", convert_help, argc, argv, &opts, NULL, &first);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (argc - first != 2)
        return cli_usage_error("data convert", "expected IN and OUT");
    if (cli_json && strcmp(argv[first + 1], "-") == 0)
        return cli_usage_error("data convert", "--json and OUT '-' both want standard output");
    rc = cli_load_dataset(argv[first], &opts, &ds);
    if (rc)
        return rc;
    augur_diag_init(&diag);
    if (augur_dataset_write_mtx(ds, argv[first + 1], &diag) != 0) {
        rc = cli_diag_error(&diag);
    } else if (cli_json) {
        json_t *doc = dataset_json(ds);

        json_object_set_new(doc, "output", json_string(argv[first + 1]));
        rc = cli_print_json(doc);
    }
    augur_dataset_free(ds);
    return rc;
}

/* ---- data sample ----------------------------------------------------------- */

static void sample_help(FILE *fp)
{
    fprintf(
        fp,
        "usage: augur data sample [OPTIONS] FILE -o OUT\n"
        "       augur data sample [OPTIONS] FILE --evaluate --machine MACHINE\n"
        "\n"
        "Takes a performance-preserving sample of a dataset (Zhu et al. PACT'19 section III) and\n"
        "writes it as a Matrix Market file: the entries taken, renumbered so that\n"
        "short strides and cache-line offsets stay as they were (docs/sampling.md).\n"
        "Symmetric data is sampled from its full pattern (both triangles); the sample\n"
        "is written as a general matrix.\n"
        "\n"
        "options:\n" CLI_LOAD_HELP
        "  --method M        auto (default): the categorizer tree picks sa, rt or rb;\n"
        "                    sa: Stride Average; rt: Random Tile; rb: Random Row\n"
        "                    Blocks (runs of whole rows); re: Random Edge\n"
        "  --rate P          fraction of the entries to take, 0 < P <= 1 (default 0.05)\n"
        "  --seed S          seed of the random samplers and of the categorizer's\n"
        "                    feature estimates (default 1)\n"
        "  --tile T          Random Tile: the default tile side (default n sqrt(P/8))\n"
        "  --tree FILE       categorizer tree for auto (default: the shipped\n"
        "                    samples/categorizer.tree, or $AUGUR_TREE)\n"
        "  -o, --output OUT  write the sample to OUT (\"-\": standard output)\n"
        "  --json            print a summary (or the evaluation) as JSON\n"
        "  -h, --help        print this help\n"
        "\n"
        "evaluation (instead of, or besides, writing the sample):\n"
        "  --evaluate        simulate kernels on the full data and on samples and\n"
        "                    report each level's miss rate and its error (eq. 7);\n"
        "                    --method may then be a list (re,sa,rt,rb,auto) or 'all'\n"
        "  --machine FILE    the machine file whose caches are simulated (one core)\n"
        "  --kernel K        spmv, fv, ireduce, or all (default all)\n"
        "  --seeds N         seeds S .. S+N-1 for the random samplers, errors\n"
        "                    averaged (default 5; Stride Average needs one)\n"
        "  --scaling X       the sampled run's cache capacities: auto (default: reuse\n"
        "                    for spmv and ireduce, none for fv), reuse (the part\n"
        "                    beyond the live stream lines times n'/n), footprint,\n"
        "                    none\n"
        "  --warm            count a second pass over warm caches (steady state)\n");
}

/* Options of "data sample". */
struct sample_args {
    struct augur_load_opts load;
    bool methods[AUGUR_SAMPLER_COUNT + 1]; /* the last one: auto */
    struct augur_sample_opts opts;
    const char *tree, *output, *machine;
    bool evaluate, warm, kernels[AUGUR_STREAM_COUNT];
    unsigned seeds;
    enum augur_scaling scaling;
    const char *file;
};

#define METHOD_AUTO AUGUR_SAMPLER_COUNT

static int parse_methods(const char *arg, bool list, bool *methods)
{
    char buf[64], *tok, *save = NULL;
    int n = 0;

    if (strlen(arg) >= sizeof(buf))
        return -1;
    snprintf(buf, sizeof(buf), "%s", arg);
    memset(methods, 0, sizeof(bool) * (AUGUR_SAMPLER_COUNT + 1));
    if (list && strcmp(arg, "all") == 0) {
        for (int i = 0; i <= AUGUR_SAMPLER_COUNT; i++)
            methods[i] = true;
        return 0;
    }
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        enum augur_sampler m;

        if (strcmp(tok, "auto") == 0)
            methods[METHOD_AUTO] = true;
        else if (augur_sampler_parse(tok, &m) == 0)
            methods[m] = true;
        else
            return -1;
        n++;
    }
    return n == 1 || (list && n > 1) ? 0 : -1;
}

/* --seed, --tile or --seeds of "data sample". Returns CLI_OK or CLI_USAGE. */
static int sample_number(const char *cmd, int opt, const char *arg, struct sample_args *a)
{
    unsigned long long v;

    switch (opt) {
    case 's':
        if (!parse_whole(arg, 0, ULLONG_MAX, &v))
            return cli_usage_error(cmd, "--seed needs a non-negative integer, not '%s'", arg);
        a->opts.seed = v;
        break;
    case 'T':
        if (!parse_whole(arg, 1, UINT32_MAX, &v))
            return cli_usage_error(cmd, "--tile needs a side of at least 1, not '%s'", arg);
        a->opts.tile = (uint32_t)v;
        break;
    default:
        if (!parse_whole(arg, 1, 1000, &v))
            return cli_usage_error(cmd, "--seeds needs a count from 1 to 1000, not '%s'", arg);
        a->seeds = (unsigned)v;
    }
    return CLI_OK;
}

/*
 * One option of "data sample" (--method and --kernel are kept as given, in
 * *method and *kernel): 1 when used, 0 when not one of these, -1 after --help,
 * or CLI_USAGE.
 */
static int sample_option(const char *cmd, int opt, const char *arg, const char *given,
                         struct sample_args *a, const char **method, const char **kernel)
{
    switch (opt) {
    case 'h':
        sample_help(stdout);
        return -1;
    case 'j':
        cli_json = true;
        return 1;
    case 'm':
        *method = arg;
        return 1;
    case 'r':
        return cli_parse_fraction(cmd, "--rate", arg, true, &a->opts.rate) ? CLI_USAGE : 1;
    case 's':
    case 'T':
    case 'n':
        return sample_number(cmd, opt, arg, a) ? CLI_USAGE : 1;
    case 't':
        a->tree = arg;
        return 1;
    case 'o':
        a->output = arg;
        return 1;
    case 'E':
        a->evaluate = true;
        return 1;
    case 'M':
        a->machine = arg;
        return 1;
    case 'k':
        *kernel = arg;
        return 1;
    case 'S':
        return cli_parse_scaling(cmd, arg, &a->scaling) ? CLI_USAGE : 1;
    case 'w':
        a->warm = true;
        return 1;
    case '?':
        return cli_usage_error(cmd, "unknown or incomplete option '%s'", given);
    }
    return 0;
}

/* What the options say together: the methods, the kernels, the file, and what is done. */
static int sample_check(const char *cmd, int argc, char **argv, const char *method,
                        const char *kernel, struct sample_args *a)
{
    int k;

    if (parse_methods(method, a->evaluate, a->methods) != 0)
        return cli_usage_error(cmd, "--method needs auto, sa, rt, rb or re%s, not '%s'",
                               a->evaluate ? " (a comma list, or all)" : "", method);
    if (cli_parse_stream_kernel(cmd, kernel, &k))
        return CLI_USAGE;
    for (int i = 0; i < AUGUR_STREAM_COUNT; i++)
        a->kernels[i] = k < 0 || i == k;
    if (argc - optind != 1)
        return cli_usage_error(cmd, "expected one FILE");
    a->file = argv[optind];
    if (!a->evaluate && !a->output)
        return cli_usage_error(cmd, "expected -o OUT (or --evaluate)");
    if (a->evaluate && !a->machine)
        return cli_usage_error(cmd, "--evaluate needs --machine FILE");
    if (!a->evaluate && a->machine)
        return cli_usage_error(cmd, "--machine is for --evaluate");
    if (a->output && a->evaluate && parse_methods(method, false, a->methods) != 0)
        return cli_usage_error(cmd, "-o writes one sample: give one --method");
    if (cli_json && a->output && strcmp(a->output, "-") == 0)
        return cli_usage_error(cmd, "--json and OUT '-' both want standard output");
    return 0;
}

static int parse_sample_args(int argc, char **argv, struct sample_args *a)
{
    static const char *cmd = "data sample";
    static const struct option longopts[] = {
        CLI_LOAD_LONGOPTS,
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { "method", required_argument, NULL, 'm' },
        { "rate", required_argument, NULL, 'r' },
        { "seed", required_argument, NULL, 's' },
        { "tile", required_argument, NULL, 'T' },
        { "tree", required_argument, NULL, 't' },
        { "output", required_argument, NULL, 'o' },
        { "evaluate", no_argument, NULL, 'E' },
        { "machine", required_argument, NULL, 'M' },
        { "kernel", required_argument, NULL, 'k' },
        { "seeds", required_argument, NULL, 'n' },
        { "scaling", required_argument, NULL, 'S' },
        { "warm", no_argument, NULL, 'w' },
        { NULL, 0, NULL, 0 },
    };
    const char *method = "auto", *kernel = "all";
    int opt;

    memset(a, 0, sizeof(*a));
    a->opts.rate = 0.05;
    a->opts.seed = 1;
    a->seeds = 5;
    a->scaling = AUGUR_SCALING_AUTO;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        int used = sample_option(cmd, opt, optarg, argv[optind - 1], a, &method, &kernel);

        if (used == 0)
            used = cli_load_option(cmd, opt, optarg, &a->load);
        if (used != 1)
            return used ? used : cli_usage_error(cmd, "unknown option");
    }
    return sample_check(cmd, argc, argv, method, kernel, a);
}

static json_t *info_json(const struct augur_sample *smp, const struct augur_csr *full)
{
    const struct augur_sample_info *in = &smp->info;
    json_t *o = json_object();

    json_object_set_new(o, "method", json_string(augur_sampler_name(in->method)));
    json_object_set_new(o, "rate", json_real(in->rate));
    json_object_set_new(o, "seed", json_integer((json_int_t)in->seed));
    json_object_set_new(o, "nnz_full", json_integer((json_int_t)in->nnz_full));
    json_object_set_new(o, "target", json_integer((json_int_t)in->target));
    json_object_set_new(o, "nnz", json_integer((json_int_t)in->nnz));
    json_object_set_new(o, "achieved", json_real(in->achieved));
    json_object_set_new(o, "whole", json_boolean(in->whole));
    json_object_set_new(o, "rows", json_integer(smp->csr.nrows));
    json_object_set_new(o, "cols", json_integer(smp->csr.ncols));
    json_object_set_new(o, "rows_full", json_integer(full->nrows));
    json_object_set_new(o, "cols_full", json_integer(full->ncols));
    if (in->method == AUGUR_SAMPLER_SA && !in->whole)
        json_object_set_new(o, "squares",
                            json_pack("{s:[i,i],s:i,s:[i,i],s:i}", "row_lo",
                                      (json_int_t)in->row_lo[0], (json_int_t)in->row_lo[1],
                                      "row_side", (json_int_t)in->row_side, "col_lo",
                                      (json_int_t)in->col_lo[0], (json_int_t)in->col_lo[1],
                                      "col_side", (json_int_t)in->col_side));
    if (in->method == AUGUR_SAMPLER_RT && !in->whole)
        json_object_set_new(o, "tiles",
                            json_pack("{s:i,s:I,s:I,s:I,s:I,s:b}", "tile", (json_int_t)in->tile,
                                      "drawn", (json_int_t)in->ntiles, "dense",
                                      (json_int_t)in->ndense, "sparse", (json_int_t)in->nsparse,
                                      "last_tile_nnz", (json_int_t)in->last_tile_nnz, "reached",
                                      in->reached));
    if (in->method == AUGUR_SAMPLER_RB && !in->whole)
        json_object_set_new(o, "row_blocks",
                            json_pack("{s:i,s:i}", "blocks", (json_int_t)in->blocks, "rows",
                                      (json_int_t)in->rows_taken));
    return o;
}

static void info_text(const struct augur_sample *smp, const struct augur_csr *full)
{
    const struct augur_sample_info *in = &smp->info;

    printf("sample:        %s: %s, rate %.6g, seed %llu\n", augur_sampler_name(in->method),
           sampler_title(in->method), in->rate, (unsigned long long)in->seed);
    kv("entries", "%llu of %llu (%.4g %%), target %llu", (unsigned long long)in->nnz,
       (unsigned long long)in->nnz_full, 100.0 * in->achieved, (unsigned long long)in->target);
    kv("size", "%u x %u, renumbered from %u x %u", smp->csr.nrows, smp->csr.ncols, full->nrows,
       full->ncols);
    if (in->whole)
        kv("whole", "rate 1 takes the whole matrix, numbering unchanged");
    else if (in->method == AUGUR_SAMPLER_SA)
        kv("squares", "rows [%u, %u) and [%u, %u), columns [%u, %u) and [%u, %u)", in->row_lo[0],
           in->row_lo[0] + in->row_side, in->row_lo[1], in->row_lo[1] + in->row_side, in->col_lo[0],
           in->col_lo[0] + in->col_side, in->col_lo[1], in->col_lo[1] + in->col_side);
    else if (in->method == AUGUR_SAMPLER_RT)
        kv("tiles",
           "%llu drawn of side %u (%llu dense at 1.5x, %llu sparse at 0.5x); the last "
           "added %llu",
           (unsigned long long)in->ntiles, in->tile, (unsigned long long)in->ndense,
           (unsigned long long)in->nsparse, (unsigned long long)in->last_tile_nnz);
    else if (in->method == AUGUR_SAMPLER_RB)
        kv("row blocks", "%u blocks, %u whole rows", in->blocks, in->rows_taken);
}

/* Loads the machine and builds its one-core cache configuration. */
static int load_caches(const char *path, struct augur_cache_config *cfg, char **name)
{
    struct augur_machine *m = NULL;
    struct augur_diag diag;
    int rc;

    augur_diag_init(&diag);
    rc = augur_machine_load(path, &m, &diag);
    if (!rc)
        rc = augur_cache_config_from_machine(m, 1, cfg, &diag);
    if (!rc)
        *name = augur_strdup(m->name ? m->name : path);
    augur_machine_free(m);
    return rc ? cli_diag_error(&diag) : CLI_OK;
}

/* Results of one sampler over the seeds, for one kernel. */
struct method_eval {
    bool done;
    enum augur_sampler used;
    unsigned nruns;
    double miss[4], err[4], achieved, scale;
    json_t *runs;
};

static int evaluate_method(const struct augur_csr *csr, const struct sample_args *a,
                           enum augur_stream_kernel k, enum augur_sampler method,
                           const struct augur_cache_config *cfg,
                           const struct augur_stream_result *full, struct method_eval *ev,
                           struct augur_diag *diag)
{
    unsigned nseeds = method == AUGUR_SAMPLER_SA ? 1 : a->seeds;

    memset(ev, 0, sizeof(*ev));
    ev->used = method;
    ev->runs = json_array();
    for (unsigned i = 0; i < nseeds; i++) {
        struct augur_sample_opts so = a->opts;
        struct augur_stream_result r;
        struct augur_sample_info info;
        json_t *run, *miss, *scales;
        int rc;

        so.method = method;
        so.seed = a->opts.seed + i;
        rc = augur_sample_simulate(csr, &so, k, cfg, a->scaling, a->warm, &r, &info, diag);
        if (rc) {
            json_decref(ev->runs);
            ev->runs = NULL;
            return rc;
        }
        miss = json_object();
        for (unsigned l = 0; l < r.nlevels; l++) {
            json_object_set_new(miss, r.name[l], json_real(r.miss_rate[l]));
            ev->miss[l] += r.miss_rate[l] / nseeds;
            ev->err[l] += augur_error_rate(full->miss_rate[l], r.miss_rate[l]) / nseeds;
        }
        ev->achieved += info.achieved / nseeds;
        ev->scale += r.scale[0] / nseeds;
        scales = json_array();
        for (unsigned l = 0; l < r.nlevels; l++)
            json_array_append_new(scales, json_real(r.scale[l]));
        run = json_pack("{s:I,s:f,s:o,s:o}", "seed", (json_int_t)so.seed, "achieved", info.achieved,
                        "scale", scales, "miss_rate", miss);
        json_array_append_new(ev->runs, run);
    }
    ev->nruns = nseeds;
    ev->done = true;
    return 0;
}

/* The --evaluate JSON document, its "kernels" array in *kernels; or the text's heading (NULL). */
static json_t *evaluate_head(const struct augur_dataset *ds, const struct augur_csr *csr,
                             const struct sample_args *a, const struct cli_category *cat,
                             const char *mname, json_t **kernels)
{
    json_t *doc;

    if (!cli_json) {
        printf("file:          %s (%u x %u, %llu entries%s)\n", ds->path, csr->nrows, csr->ncols,
               (unsigned long long)csr->nnz,
               ds->symmetry == AUGUR_SYM_GENERAL ? "" : ", full pattern");
        printf("machine:       %s (%s), one core\n", mname, a->machine);
        printf("evaluation:    rate %.6g, seeds %llu..%llu, caches scaled: %s, %s pass\n",
               a->opts.rate, (unsigned long long)a->opts.seed,
               (unsigned long long)(a->opts.seed + a->seeds - 1), augur_scaling_name(a->scaling),
               a->warm ? "warm (second)" : "cold (first)");
        if (cat->have)
            printf("auto:          %s (leaf %u of %s)\n", augur_sampler_name(cat->sampler),
                   cat->leaf, cat->tree);
        return NULL;
    }
    doc = json_pack("{s:s,s:s,s:s,s:f,s:I,s:i,s:s,s:b}", "file", ds->path, "machine", a->machine,
                    "machine_name", mname, "rate", a->opts.rate, "seed", (json_int_t)a->opts.seed,
                    "seeds", (int)a->seeds, "scaling", augur_scaling_name(a->scaling), "warm",
                    a->warm);
    if (cat->have)
        json_object_set_new(doc, "category", category_json(cat));
    *kernels = json_array();
    json_object_set_new(doc, "kernels", *kernels);
    return doc;
}

/* A kernel's entry of the --evaluate JSON, with its full run, in kernels; returns its "methods". */
static json_t *full_json(enum augur_stream_kernel k, const struct augur_stream_result *full,
                         json_t *kernels)
{
    json_t *lv = json_object(), *kj, *methods;

    for (unsigned l = 0; l < full->nlevels; l++)
        json_object_set_new(lv, full->name[l],
                            json_pack("{s:f,s:I,s:I}", "miss_rate", full->miss_rate[l], "accesses",
                                      (json_int_t)full->accesses[l], "misses",
                                      (json_int_t)full->misses[l]));
    kj = json_pack("{s:s,s:{s:o,s:I}}", "kernel", augur_stream_kernel_name(k), "full", "levels", lv,
                   "footprint", (json_int_t)full->footprint);
    methods = json_array();
    json_object_set_new(kj, "methods", methods);
    json_array_append_new(kernels, kj);
    return methods;
}

/* A kernel's table in the --evaluate text: its heading and the full run's row. */
static void full_text(enum augur_stream_kernel k, const struct augur_stream_result *full)
{
    printf("kernel %s: %s, footprint %.4g MB\n", augur_stream_kernel_name(k),
           k == AUGUR_STREAM_SPMV ? "CSR y = A x"
           : k == AUGUR_STREAM_FV ? "finite volume over ELLPACK"
                                  : "Euler reduction over the edges",
           1e-6 * (double)full->footprint);
    printf("  %-8s %7s %8s", "run", "seeds", "scale");
    for (unsigned l = 0; l < full->nlevels; l++)
        printf("  %6s miss (error)", full->name[l]);
    printf("\n  %-8s %7s %8s", "full", "-", "1");
    for (unsigned l = 0; l < full->nlevels; l++)
        printf("  %11.5f        ", full->miss_rate[l]);
    printf("\n");
}

/* Method m's sampled runs (sampler used) against the full run, as JSON. */
static json_t *method_json(int m, enum augur_sampler used, const struct method_eval *ev,
                           const struct augur_stream_result *full)
{
    json_t *mj = json_object(), *miss = json_object(), *err = json_object();

    for (unsigned l = 0; l < full->nlevels; l++) {
        json_object_set_new(miss, full->name[l], json_real(ev->miss[l]));
        json_object_set_new(err, full->name[l], json_real(ev->err[l]));
    }
    json_object_set_new(mj, "method",
                        json_string(m == METHOD_AUTO ? "auto" : augur_sampler_name(used)));
    json_object_set_new(mj, "sampler", json_string(augur_sampler_name(used)));
    json_object_set_new(mj, "achieved", json_real(ev->achieved));
    json_object_set_new(mj, "scale_l1", json_real(ev->scale));
    json_object_set_new(mj, "miss_rate", miss);
    json_object_set_new(mj, "error", err);
    json_object_set_new(mj, "runs", json_incref(ev->runs));
    return mj;
}

/* The same as a row of the kernel's table. */
static void method_text(int m, enum augur_sampler used, const struct method_eval *ev,
                        const struct augur_stream_result *full)
{
    char label[16];

    snprintf(label, sizeof(label), "%s%s", m == METHOD_AUTO ? "auto=" : "",
             augur_sampler_name(used));
    printf("  %-8s %7u %8.4f", label, ev->nruns, ev->scale);
    for (unsigned l = 0; l < full->nlevels; l++)
        printf("  %11.5f (%5.1f %%)", ev->miss[l], 100.0 * ev->err[l]);
    printf("\n");
}

/* One kernel of --evaluate: the full run, then each --method's runs (kernels: the JSON's). */
static int evaluate_kernel(const struct augur_dataset *ds, const struct augur_csr *csr,
                           const struct sample_args *a, const struct cli_category *cat,
                           const struct augur_cache_config *cfg, enum augur_stream_kernel k,
                           json_t *kernels)
{
    struct augur_stream_result full;
    struct method_eval ev[AUGUR_SAMPLER_COUNT + 1];
    struct augur_diag diag;
    json_t *methods = NULL;
    int rc = CLI_OK;

    memset(ev, 0, sizeof(ev));
    augur_diag_init(&diag);
    if (augur_stream_simulate(csr, k, 0, cfg, NULL, a->warm, &full, &diag) != 0)
        return dataset_error(ds, &diag);
    if (cli_json)
        methods = full_json(k, &full, kernels);
    else
        full_text(k, &full);
    for (int m = 0; m <= AUGUR_SAMPLER_COUNT; m++) {
        enum augur_sampler used = m == METHOD_AUTO ? cat->sampler : (enum augur_sampler)m;

        if (!a->methods[m])
            continue;
        if (!ev[used].done && evaluate_method(csr, a, k, used, cfg, &full, &ev[used], &diag) != 0) {
            rc = dataset_error(ds, &diag);
            break;
        }
        if (cli_json)
            json_array_append_new(methods, method_json(m, used, &ev[used], &full));
        else
            method_text(m, used, &ev[used], &full);
    }
    for (int m = 0; m < AUGUR_SAMPLER_COUNT; m++)
        json_decref(ev[m].runs);
    return rc;
}

static int data_sample_evaluate(const struct augur_dataset *ds, const struct augur_csr *csr,
                                const struct sample_args *a, const struct cli_category *cat)
{
    struct augur_cache_config cfg;
    char *mname = NULL;
    json_t *doc, *kernels = NULL;
    int rc;

    rc = load_caches(a->machine, &cfg, &mname);
    if (rc)
        return rc;
    doc = evaluate_head(ds, csr, a, cat, mname, &kernels);
    for (int k = 0; k < AUGUR_STREAM_COUNT && rc == CLI_OK; k++)
        if (a->kernels[k])
            rc = evaluate_kernel(ds, csr, a, cat, &cfg, (enum augur_stream_kernel)k, kernels);
    if (rc == CLI_OK)
        rc = cli_json ? cli_print_json(doc) : cli_flush_stdout();
    else
        json_decref(doc);
    augur_free(mname);
    return rc;
}

/* What was written: the sample's summary (not when it went to stdout), and a short Random Tile. */
static int sample_render(const struct augur_dataset *ds, const struct augur_csr *csr,
                         const struct sample_args *a, const struct cli_category *cat,
                         const struct augur_sample *smp)
{
    int rc = CLI_OK;

    if (cli_json) {
        json_t *doc = json_pack("{s:s,s:o,s:s}", "file", ds->path, "sample", info_json(smp, csr),
                                "output", a->output);

        if (a->methods[METHOD_AUTO])
            json_object_set_new(doc, "category", category_json(cat));
        rc = cli_print_json(doc);
    } else if (strcmp(a->output, "-") != 0) {
        printf("file:          %s\n", ds->path);
        if (a->methods[METHOD_AUTO])
            printf("auto:          %s picked by leaf %u of %s\n", augur_sampler_name(cat->sampler),
                   cat->leaf, cat->tree);
        info_text(smp, csr);
        printf("output:        %s\n", a->output);
        rc = cli_flush_stdout();
    }
    if (smp->info.method == AUGUR_SAMPLER_RT && !smp->info.reached)
        cli_warning("Random Tile stopped after %llu tiles with %llu of %llu entries",
                    (unsigned long long)smp->info.ntiles, (unsigned long long)smp->info.nnz,
                    (unsigned long long)smp->info.target);
    return rc;
}

/* The sample of --method (auto: the category's sampler), written to -o OUT. */
static int write_sample(const struct augur_dataset *ds, const struct augur_csr *csr,
                        struct sample_args *a, const struct cli_category *cat,
                        struct augur_sample *smp)
{
    struct augur_dataset *out_ds = NULL;
    struct augur_diag diag;
    char desc[PATH_MAX + 96];
    int rc;

    augur_diag_init(&diag);
    for (int m = 0; m < AUGUR_SAMPLER_COUNT; m++)
        if (a->methods[m])
            a->opts.method = (enum augur_sampler)m;
    if (a->methods[METHOD_AUTO])
        a->opts.method = cat->sampler;
    if (augur_sample_csr(csr, &a->opts, smp, &diag) != 0)
        return dataset_error(ds, &diag);
    snprintf(desc, sizeof(desc), "%s sample (rate %.6g, seed %llu) of %s",
             augur_sampler_name(a->opts.method), a->opts.rate, (unsigned long long)a->opts.seed,
             ds->path);
    rc = augur_sample_dataset(smp, ds->field, desc, &out_ds, &diag);
    if (!rc)
        rc = augur_dataset_write_mtx(out_ds, a->output, &diag);
    augur_dataset_free(out_ds);
    return rc ? cli_diag_error(&diag) : CLI_OK;
}

static int data_sample(int argc, char **argv)
{
    struct sample_args a;
    struct augur_dataset *ds = NULL;
    struct augur_csr csr;
    struct augur_sample smp;
    struct cli_category cat;
    struct augur_diag diag;
    int rc;

    memset(&csr, 0, sizeof(csr));
    memset(&smp, 0, sizeof(smp));
    memset(&cat, 0, sizeof(cat));
    rc = parse_sample_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    rc = cli_load_dataset(a.file, &a.load, &ds);
    if (rc)
        return rc;
    augur_diag_init(&diag);
    rc = augur_dataset_csr(ds, true, &csr, &diag);
    if (!rc && a.methods[METHOD_AUTO])
        rc = cli_categorize(ds, &csr, a.tree, true, &cat, &diag);
    if (rc)
        rc = dataset_error(ds, &diag);
    else if (a.evaluate && !a.output)
        rc = data_sample_evaluate(ds, &csr, &a, &cat);
    else if ((rc = write_sample(ds, &csr, &a, &cat, &smp)) == CLI_OK)
        rc = a.evaluate ? data_sample_evaluate(ds, &csr, &a, &cat)
                        : sample_render(ds, &csr, &a, &cat, &smp);
    augur_sample_release(&smp);
    augur_csr_release(&csr);
    augur_dataset_free(ds);
    return rc;
}

/* ---- data reorder ---------------------------------------------------------- */

static void reorder_help(FILE *fp)
{
    fprintf(fp, "usage: augur data reorder [OPTIONS] IN OUT --method rcm|metis:B\n"
                "\n"
                "Renumbers the rows and columns of a square dataset IN alike and writes it\n"
                "as a Matrix Market file OUT (\"-\" for standard output), with the\n"
                "permutation beside it: line k of OUT.perm (after a comment line) holds the\n"
                "original 1-based index of new row k, so the same renumbering can be applied\n"
                "to the arrays of a program. A mesh is renumbered by its cells and written\n"
                "as its dual graph.\n"
                "\n"
                "options:\n" CLI_LOAD_HELP
                "  --method M        rcm: reverse Cuthill-McKee (a small bandwidth);\n"
                "                    metis:B: METIS k-way parts of about B rows each\n"
                "                    (k = ceil(rows / B)), numbered part by part, so a block\n"
                "                    of B consecutive rows is one part of the graph; none\n"
                "  --perm FILE       where the permutation goes (default OUT.perm; needed\n"
                "                    when OUT is \"-\")\n"
                "  --json            print a summary as JSON\n"
                "  -h, --help        print this help\n"
                "\n"
                "The summary gives the bandwidth and the mean |i - j| of the stored entries\n"
                "before and after, METIS's parts and edge cut, and the time the reordering\n"
                "took (what a program pays once to use it).\n");
}

/* The summary of a reordering written to out_path (no text when a file goes to standard output). */
static int reorder_render(const struct augur_dataset *ds, const struct augur_dataset *out,
                          const struct augur_reorder *how, const struct augur_reorder_info *info,
                          const char *out_path, const char *perm)
{
    char name[32];

    augur_reorder_format(how, name, sizeof(name));
    if (cli_json) {
        json_t *doc = dataset_json(out), *r;

        json_object_set_new(doc, "output", json_string(out_path));
        json_object_set_new(doc, "perm", json_string(perm));
        r = json_pack("{s:s,s:f,s:I,s:I,s:f,s:f}", "method", name, "seconds", info->seconds,
                      "bandwidth_before", (json_int_t)info->bandwidth_before, "bandwidth_after",
                      (json_int_t)info->bandwidth_after, "distance_before", info->distance_before,
                      "distance_after", info->distance_after);
        if (how->method == AUGUR_REORDER_METIS) {
            json_object_set_new(r, "parts", json_integer(info->parts));
            json_object_set_new(r, "edge_cut", json_integer((json_int_t)info->edge_cut));
        }
        json_object_set_new(doc, "reorder", r);
        return cli_print_json(doc);
    }
    if (strcmp(out_path, "-") == 0 || strcmp(perm, "-") == 0)
        return CLI_OK; /* standard output holds a file */
    printf("%s -> %s (permutation: %s)\n", ds->path, out_path, perm);
    kv("method", "%s", name);
    kv("rows", "%u", out->coo.nrows);
    kv("bandwidth", "%" PRIu64 " -> %" PRIu64, info->bandwidth_before, info->bandwidth_after);
    kv("mean |i - j|", "%.4g -> %.4g", info->distance_before, info->distance_after);
    if (how->method == AUGUR_REORDER_METIS)
        kv("parts", "%u, edge cut %" PRIu64, info->parts, info->edge_cut);
    kv("time", "%.4g s", info->seconds);
    return cli_flush_stdout();
}

static int data_reorder(int argc, char **argv)
{
    static const char *cmd = "data reorder";
    static const struct option longopts[] = {
        CLI_LOAD_LONGOPTS,
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { "method", required_argument, NULL, 'm' },
        { "perm", required_argument, NULL, 'P' },
        { NULL, 0, NULL, 0 },
    };
    struct augur_load_opts load;
    struct augur_reorder how;
    struct augur_reorder_info info;
    struct augur_dataset *ds = NULL, *out = NULL;
    struct augur_diag diag;
    const char *method = NULL, *perm = NULL;
    char perm_path[PATH_MAX], name[32], comment[PATH_MAX + 64];
    uint32_t *order = NULL;
    int opt, rc;

    memset(&load, 0, sizeof(load));
    augur_diag_init(&diag);
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        int used;

        switch (opt) {
        case 'h':
            reorder_help(stdout);
            return CLI_OK;
        case 'j':
            cli_json = true;
            continue;
        case 'm':
            method = optarg;
            continue;
        case 'P':
            perm = optarg;
            continue;
        case '?':
            return cli_usage_error(cmd, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
        used = cli_load_option(cmd, opt, optarg, &load);
        if (used != 1)
            return used ? used : cli_usage_error(cmd, "unknown option");
    }
    if (argc - optind != 2)
        return cli_usage_error(cmd, "expected IN and OUT");
    if (!method)
        return cli_usage_error(cmd, "missing --method rcm|metis:B");
    if (augur_reorder_parse(method, &how, &diag) != 0)
        return cli_usage_error(cmd, "--method: %s", diag.msg);
    if (strcmp(argv[optind + 1], "-") == 0 && (!perm || strcmp(perm, "-") == 0))
        return cli_usage_error(cmd, "OUT '-' needs --perm FILE for the permutation");
    if (cli_json && (strcmp(argv[optind + 1], "-") == 0 || (perm && strcmp(perm, "-") == 0)))
        return cli_usage_error(cmd, "--json and '-' both want standard output");
    if (!perm) {
        if ((size_t)snprintf(perm_path, sizeof(perm_path), "%s.perm", argv[optind + 1]) >=
            sizeof(perm_path))
            return cli_usage_error(cmd, "OUT is too long a path");
        perm = perm_path;
    }
    if ((rc = cli_load_dataset(argv[optind], &load, &ds)) != 0)
        return rc;
    augur_reorder_format(&how, name, sizeof(name));
    snprintf(comment, sizeof(comment),
             "augur data reorder --method %s %s: original row of each row", name, ds->path);
    if (augur_dataset_reorder(ds, &how, &out, &order, &info, &diag) != 0)
        rc = dataset_error(ds, &diag);
    else if (augur_dataset_write_mtx(out, argv[optind + 1], &diag) != 0 ||
             augur_order_write(order, out->coo.nrows, comment, perm, &diag) != 0)
        rc = cli_diag_error(&diag);
    else
        rc = reorder_render(ds, out, &how, &info, argv[optind + 1], perm);
    augur_free(order);
    augur_dataset_free(out);
    augur_dataset_free(ds);
    return rc;
}

/* ---- data generate --------------------------------------------------------- */

static void generate_help(FILE *fp)
{
    fprintf(fp, "usage: augur data generate [OPTIONS] SPEC OUT\n"
                "\n"
                "Writes a generated matrix as a Matrix Market pattern file OUT (\"-\" for\n"
                "standard output). SPEC is one of:\n"
                "  blocks:N:B[:D]    N nodes in disjoint blocks of B consecutive ids, each\n"
                "                    joined to D (default 4) distinct random others of its\n"
                "                    block: the constructed instances of Langguth et al.\n"
                "                    JPDC'15 section 4 (B = N: one random block)\n"
                "  rmat:S:E[:A]      R-MAT with 2^S nodes and E x 2^S edges drawn with\n"
                "                    quadrant probabilities A (default 0.57), (1 - A - 0.05)/2\n"
                "                    twice and 0.05; duplicates and self loops dropped\n"
                "\n"
                "options:\n"
                "  --seed S          seed of the random choices (default 1)\n"
                "  --json            print a summary as JSON\n"
                "  -h, --help        print this help\n");
}

/* Parses "A:B[:C]" after the prefix into up to 3 numbers; returns how many, 0 when bad. */
static int spec_numbers(const char *p, double *v)
{
    int n = 0;

    while (n < 3) {
        char *end;

        if (*p < '0' || *p > '9')
            return 0;
        v[n++] = strtod(p, &end);
        if (!*end)
            return n;
        if (*end != ':')
            return 0;
        p = end + 1;
    }
    return 0;
}

static int generate(const char *spec, uint64_t seed, struct augur_csr *csr, struct augur_diag *diag)
{
    double v[3] = { 0 };
    int k;

    if (strncmp(spec, "blocks:", 7) == 0 && (k = spec_numbers(spec + 7, v)) >= 2) {
        if (v[0] != floor(v[0]) || v[1] != floor(v[1]) || v[2] != floor(v[2]) ||
            v[0] > UINT32_MAX || v[1] > UINT32_MAX || v[2] > 64)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "'%s': whole numbers N, B and D (D at most 64)", spec);
        return augur_generate_blocks((uint32_t)v[0], (uint32_t)v[1], k > 2 ? (uint32_t)v[2] : 4,
                                     seed, csr, diag);
    }
    if (strncmp(spec, "rmat:", 5) == 0 && (k = spec_numbers(spec + 5, v)) >= 2) {
        double a = k > 2 ? v[2] : 0.57, b = (1.0 - a - 0.05) / 2;

        if (v[0] != floor(v[0]) || v[1] != floor(v[1]) || v[0] < 1 || v[0] > 26 || v[1] < 1 ||
            v[1] > 64 || !(a > 0 && b > 0))
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "'%s': S in 1..26, E in 1..64 and A in (0, 0.95)", spec);
        return augur_generate_rmat((unsigned)v[0], (unsigned)v[1], a, b, b, seed, csr, diag);
    }
    return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                          "'%s' is not blocks:N:B[:D] or rmat:S:E[:A]", spec);
}

static int data_generate(int argc, char **argv)
{
    static const char *cmd = "data generate";
    static const struct option longopts[] = {
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { "seed", required_argument, NULL, 's' },
        { NULL, 0, NULL, 0 },
    };
    struct augur_csr csr = { 0 };
    struct augur_dataset *ds = NULL;
    struct augur_diag diag;
    unsigned long long seed = 1;
    char name[96];
    int opt, rc = CLI_OK;

    opterr = 0;
    while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (opt == 'h') {
            generate_help(stdout);
            return CLI_OK;
        }
        if (opt == 'j')
            cli_json = true;
        else if (opt == 's' && !parse_whole(optarg, 0, ULLONG_MAX, &seed))
            return cli_usage_error(cmd, "--seed needs a non-negative integer, not '%s'", optarg);
        else if (opt != 's')
            return cli_usage_error(cmd, "unknown or incomplete option '%s'", argv[optind - 1]);
    }
    if (argc - optind != 2)
        return cli_usage_error(cmd, "expected SPEC and OUT");
    if (cli_json && strcmp(argv[optind + 1], "-") == 0)
        return cli_usage_error(cmd, "--json and OUT '-' both want standard output");
    augur_diag_init(&diag);
    if (generate(argv[optind], seed, &csr, &diag) != 0)
        return cli_usage_error(cmd, "%s", diag.msg);
    snprintf(name, sizeof(name), "%s (seed %llu)", argv[optind], seed);
    if (augur_dataset_from_csr(&csr, name, &ds, &diag) != 0 ||
        augur_dataset_write_mtx(ds, argv[optind + 1], &diag) != 0) {
        rc = cli_diag_error(&diag);
    } else if (cli_json) {
        json_t *doc = dataset_json(ds);

        json_object_set_new(doc, "output", json_string(argv[optind + 1]));
        rc = cli_print_json(doc);
    }
    augur_dataset_free(ds);
    augur_csr_release(&csr);
    return rc;
}

static const struct cli_cmd data_commands[] = {
    { "info", data_info, info_help, "what a dataset is: size, structure, features" },
    { "convert", data_convert, convert_help, "write a dataset as Matrix Market" },
    { "sample", data_sample, sample_help, "take a performance-preserving sample" },
    { "reorder", data_reorder, reorder_help, "renumber rows and columns: RCM or METIS blocks" },
    { "generate", data_generate, generate_help, "write a generated matrix: blocks, R-MAT" },
    { NULL, NULL, NULL, NULL },
};

void cmd_data_help(FILE *fp)
{
    fprintf(fp, "usage: augur data COMMAND [OPTIONS] FILE...\n"
                "\n"
                "Datasets: Matrix Market (.mtx, .mtx.gz), edge lists, DIMACS-9 .gr, METIS\n"
                ".graph, and tetrahedral meshes (TetGen .node/.ele, gmsh 2.2 .msh, Medit\n"
                ".mesh) read as their face-adjacency dual graph.\n"
                "\n"
                "commands:\n");
    for (const struct cli_cmd *c = data_commands; c->name; c++)
        fprintf(fp, "  %-10s %s\n", c->name, c->summary);
}

int cmd_data(int argc, char **argv)
{
    return cli_dispatch(data_commands, argc - 1, argv + 1, "augur data", cmd_data_help);
}
