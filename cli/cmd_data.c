/*
 * cmd_data.c - "augur data": load, inspect and convert datasets (module: cli).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* What "data info" computes beyond loading. */
struct info_opts {
    struct augur_feature_opts features;
    bool no_clustering;
};

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
                "  --seed S          seed of the row sample (default 1)\n"
                "  --no-clustering   skip the clustering coefficient (the costly part)\n"
                "  --json            print the result as JSON\n"
                "  -h, --help        print this help\n"
                "\n"
                "The clustering coefficient follows seed 002 eq. 1-3: undirected on the\n"
                "symmetrised pattern and, for general (unsymmetric) data, also directed on\n"
                "the pattern as stored; nodes with fewer than 2 neighbours count as 0 in\n"
                "the average, as in its Algorithm 3. Self loops are ignored.\n");
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

/* Parses --block-size: "run" or a width 1..2^32-1. */
static int parse_block_size(const char *arg, uint32_t *out)
{
    unsigned long long v;
    char *end;

    if (strcmp(arg, "run") == 0 || strcmp(arg, "runs") == 0) {
        *out = AUGUR_BLOCK_RUNS;
        return 0;
    }
    errno = 0;
    v = strtoull(arg, &end, 10);
    if (errno || end == arg || *end || arg[0] == '-' || v < 1 || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Handles an option of "data info" (info_longopts); returns 1 when used, or CLI_USAGE. */
static int info_option(const char *cmd, int opt, const char *arg, struct info_opts *info)
{
    char *end;

    switch (opt) {
    case 'b':
        if (parse_block_size(arg, &info->features.block_size) != 0)
            return cli_usage_error(cmd, "--block-size needs 'run' or a width >= 1, not '%s'", arg);
        return 1;
    case 'r': {
        double f;

        errno = 0;
        f = strtod(arg, &end);
        if (errno || end == arg || *end || !(f > 0.0 && f <= 1.0))
            return cli_usage_error(cmd, "--sample-rows needs a fraction in (0, 1], not '%s'", arg);
        info->features.sample_fraction = f;
        return 1;
    }
    case 's': {
        unsigned long long v;

        errno = 0;
        v = strtoull(arg, &end, 10);
        if (errno || end == arg || *end || arg[0] == '-')
            return cli_usage_error(cmd, "--seed needs a non-negative integer, not '%s'", arg);
        info->features.seed = v;
        return 1;
    }
    case 'n':
        info->no_clustering = true;
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
        { NULL, 0, NULL, 0 },
    };
    int opt;

    memset(opts, 0, sizeof(*opts));
    if (info) {
        memset(info, 0, sizeof(*info));
        info->features.seed = 1;
    }
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "+h", info ? info_longopts : longopts, NULL)) != -1) {
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

static json_t *dataset_json(const struct augur_dataset *ds)
{
    json_t *o = json_object();

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
    printf("duplicates:    %llu merged (values summed) of %llu entries read\n",
           (unsigned long long)ds->nduplicates, (unsigned long long)ds->nentries_read);
}

/* Seconds each stage of "data info" took. */
struct info_times {
    double load, csr, features, clustering;
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
    printf("clustering:    exact, seed 002 eq. 1-3; k < 2 counts as 0 (Algorithm 3); no self "
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
    json_object_set_new(o, "definition",
                        json_string("seed 002 eq. 1-3, exact; the average is over all n nodes, "
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
}

static json_t *times_json(const struct augur_dataset *ds, const struct info_times *t)
{
    json_t *o = json_object();

    json_object_set_new(o, "parse", json_real(ds->parse_seconds));
    json_object_set_new(o, "build", json_real(ds->build_seconds));
    json_object_set_new(o, "load", json_real(t->load));
    json_object_set_new(o, "csr", json_real(t->csr));
    json_object_set_new(o, "features", json_real(t->features));
    json_object_set_new(o, "clustering", json_real(t->clustering));
    return o;
}

/* A library failure about the dataset: name the file when the diagnostic does not. */
static int dataset_error(const struct augur_dataset *ds, struct augur_diag *diag)
{
    if (!diag->file[0])
        snprintf(diag->file, sizeof(diag->file), "%s", ds->path);
    return cli_diag_error(diag);
}

static int data_info(int argc, char **argv)
{
    struct augur_load_opts opts;
    struct info_opts info;
    struct augur_dataset *ds = NULL;
    struct augur_csr csr;
    struct augur_features f;
    struct augur_clustering cl;
    struct augur_diag diag;
    struct info_times t = { 0 };
    const char *skipped = NULL;
    double t0;
    int first, rc;

    memset(&csr, 0, sizeof(csr));
    memset(&cl, 0, sizeof(cl));
    rc = parse_args("data info", info_help, argc, argv, &opts, &info, &first);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (argc - first != 1)
        return cli_usage_error("data info", "expected one FILE");
    t0 = augur_now();
    rc = cli_load_dataset(argv[first], &opts, &ds);
    if (rc)
        return rc;
    t.load = augur_now() - t0;

    augur_diag_init(&diag);
    t0 = augur_now();
    rc = augur_dataset_csr(ds, true, &csr, &diag);
    t.csr = augur_now() - t0;
    if (rc) {
        rc = dataset_error(ds, &diag);
        goto out;
    }
    t0 = augur_now();
    rc = augur_features_compute(&csr, &info.features, &f, &diag);
    t.features = augur_now() - t0;
    if (rc) {
        rc = dataset_error(ds, &diag);
        goto out;
    }
    if (info.no_clustering) {
        skipped = "--no-clustering";
    } else if (csr.nrows != csr.ncols) {
        skipped = "the matrix is not square";
    } else {
        struct augur_cc_opts co = { .undirected = true };

        /*
         * Symmetric data expands to a symmetric pattern, whose directed
         * coefficient equals the undirected one, and which needs no transpose.
         */
        co.directed = ds->symmetry == AUGUR_SYM_GENERAL;
        co.symmetric = ds->symmetry != AUGUR_SYM_GENERAL;
        t0 = augur_now();
        rc = augur_clustering_compute(&csr, &co, &cl, &diag);
        t.clustering = augur_now() - t0;
        if (rc) {
            rc = dataset_error(ds, &diag);
            goto out;
        }
    }

    if (cli_json) {
        json_t *doc = dataset_json(ds);

        json_object_set_new(doc, "features", features_json(ds, &f));
        json_object_set_new(doc, "clustering", clustering_json(&cl, skipped));
        json_object_set_new(doc, "seconds", times_json(ds, &t));
        rc = cli_print_json(doc);
    } else {
        dataset_text(ds);
        features_text(ds, &f);
        clustering_text(&cl, skipped);
        times_text(ds, &t, skipped);
        rc = fflush(stdout) == 0 ? CLI_OK : cli_error("cannot write to standard output");
    }
out:
    augur_csr_release(&csr);
    augur_dataset_free(ds);
    return rc;
}

static int data_convert(int argc, char **argv)
{
    struct augur_load_opts opts;
    struct augur_dataset *ds = NULL;
    struct augur_diag diag;
    int first, rc;

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

static const struct cli_cmd data_commands[] = {
    { "info", data_info, info_help, "what a dataset is: size, structure, features" },
    { "convert", data_convert, convert_help, "write a dataset as Matrix Market" },
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
