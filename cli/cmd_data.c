/*
 * cmd_data.c - "augur data": load, inspect and convert datasets (module: cli).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void info_help(FILE *fp)
{
    fprintf(fp, "usage: augur data info [OPTIONS] FILE\n"
                "\n"
                "Loads a sparse matrix, graph or tetrahedral mesh and prints what it is:\n"
                "format, size, symmetry, duplicates and the time each part took.\n"
                "\n"
                "options:\n" CLI_LOAD_HELP "  --json            print the result as JSON\n"
                "  -h, --help        print this help\n");
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

/* Parses the options shared by the data subcommands; *first is the first operand. */
static int parse_args(const char *cmd, void (*help)(FILE *), int argc, char **argv,
                      struct augur_load_opts *opts, int *first)
{
    static const struct option longopts[] = {
        CLI_LOAD_LONGOPTS,
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int opt;

    memset(opts, 0, sizeof(*opts));
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
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

static int data_info(int argc, char **argv)
{
    struct augur_load_opts opts;
    struct augur_dataset *ds = NULL;
    int first, rc;

    rc = parse_args("data info", info_help, argc, argv, &opts, &first);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (argc - first != 1)
        return cli_usage_error("data info", "expected one FILE");
    rc = cli_load_dataset(argv[first], &opts, &ds);
    if (rc)
        return rc;
    if (cli_json) {
        json_t *doc = dataset_json(ds);
        json_t *t = json_object();

        json_object_set_new(t, "parse", json_real(ds->parse_seconds));
        json_object_set_new(t, "build", json_real(ds->build_seconds));
        json_object_set_new(doc, "seconds", t);
        rc = cli_print_json(doc);
    } else {
        dataset_text(ds);
        printf("time:          %.3f s parse (%.0f MB/s), %.3f s build\n", ds->parse_seconds,
               ds->parse_seconds > 0 ? 1e-6 * (double)ds->bytes / ds->parse_seconds : 0.0,
               ds->build_seconds);
    }
    augur_dataset_free(ds);
    return rc;
}

static int data_convert(int argc, char **argv)
{
    struct augur_load_opts opts;
    struct augur_dataset *ds = NULL;
    struct augur_diag diag;
    int first, rc;

    rc = parse_args("data convert", convert_help, argc, argv, &opts, &first);
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
