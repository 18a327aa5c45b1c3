/*
 * cmd_skeleton.c - "augur skeleton": C/CUDA kernels to skeletons, and
 * checking hand-written .skel files (module: cli).
 */
#include <stdlib.h>
#include <string.h>

#include "augur/frontend.h"
#include "cli.h"

void cmd_skeleton_help(FILE *fp)
{
    fprintf(fp,
            "usage: augur skeleton [OPTIONS] FILE [-- COMPILER_ARGS...]\n"
            "       augur skeleton --check [OPTIONS] FILE.skel\n"
            "\n"
            "Builds the skeleton of every kernel in a C, C++, OpenMP, AVX-512 or CUDA\n"
            "source file: loops with their bounds and OpenMP schedules, branches, every memory\n"
            "access with its index and whether it is indirect, operation counts, and the\n"
            "bindings of arrays to the dataset. With --check (or a .skel file), reads a\n"
            "skeleton written by hand or by an earlier run, validates it and prints it.\n"
            "\n"
            "options:\n"
            "  --function NAME   only this kernel (default: every kernel in the file)\n"
            "  -p DIR            take the file's flags from DIR/compile_commands.json\n"
            "  --bind LIST       bindings NAME=TARGET,... (csr.rowptr, csr.col, vec(n), n=100)\n"
            "  --launch G,B      CUDA launch: grid and block sizes (expressions)\n"
            "  --cuda            parse as CUDA whatever the file name\n"
            "  --template LIST   a template kernel's parameters (CUDA or C++) NAME=TYPE or\n"
            "                    NAME=VALUE,... (type parameters default to float)\n"
            "  --no-shim         CUDA: parse without augur's declarations of the CUDA API\n"
            "                    (the file brings its own; docs/skeleton.md)\n"
            "  --no-infer        do not infer bindings from the structure\n"
            "  --require-bind    fail when an array or scalar parameter is left unbound\n"
            "  --check           read FILE as a skeleton (.skel) instead of a source\n"
            "  --dump            print the text form (the default)\n"
            "  --json            print the JSON form\n"
            "  -o FILE           write to FILE instead of standard output\n"
            "  -h, --help        print this help\n"
            "\n"
            "Arguments after \"--\" go to the compiler (-I, -D, -fopenmp, -mavx512f, ...).\n"
            "The format is described in docs/skeleton.md.\n");
}

struct opts {
    const char *function, *build_dir, *bind, *launch, *out, *templ;
    bool no_shim;
    bool cuda, no_infer, require_bind, check, json;
};

/* "file:line:col" of a location, or the file alone when the line is unknown. */
static void where(const struct augur_skel *skel, const struct augur_node *k,
                  struct augur_srcloc loc, char *buf, size_t size)
{
    uint32_t f = loc.line ? loc.file : k->loc.file;
    const char *file = f < skel->nfiles ? skel->files[f] : "?";

    if (loc.line)
        snprintf(buf, size, "%s:%u:%u", file, loc.line, loc.col);
    else
        snprintf(buf, size, "%s", file);
}

/* Warns about (or, with --require-bind, fails on) every unbound array and scalar. */
static int report_unbound(const struct augur_skel *skel, bool fail)
{
    int unbound = 0;

    for (uint32_t i = 0; i < skel->nkernels; i++) {
        const struct augur_kernel_info *k = &skel->kernels[i]->u.kernel;

        for (uint32_t a = 0; a < k->narrays; a++) {
            const struct augur_array *arr = &k->arrays[a];
            char at[600], hint[200], name[128];

            if (arr->bind || arr->space == AUGUR_SPACE_SHARED || arr->space == AUGUR_SPACE_LOCAL)
                continue;
            unbound++;
            where(skel, skel->kernels[i], arr->loc, at, sizeof(at));
            augur_skel_bind_hint(skel->kernels[i], arr->name, hint, sizeof(hint));
            augur_skel_bind_name(arr->name, name, sizeof(name));
            fprintf(stderr,
                    "%s: %s: array '%s' of kernel %s is not bound to the dataset: bind it with "
                    "--bind %s=TARGET (%s) or #pragma augur bind(%s=TARGET)\n",
                    at, fail ? "error" : "warning", arr->name, k->name, name, hint, name);
        }
        for (uint32_t s = 0; s < k->nsyms; s++) {
            const struct augur_sym *sym = &k->syms[s];
            char at[600], name[128];

            if (sym->kind != AUGUR_SYM_PARAM || sym->bind ||
                !augur_skel_sym_used(skel->kernels[i], s))
                continue;
            unbound++;
            where(skel, skel->kernels[i], sym->loc, at, sizeof(at));
            augur_skel_bind_name(sym->name, name, sizeof(name));
            fprintf(stderr,
                    "%s: %s: scalar '%s' of kernel %s is not bound: bind it with --bind %s=TARGET "
                    "(n, m, nnz, an expression such as n-1, or a number)\n",
                    at, fail ? "error" : "warning", sym->name, k->name, name);
        }
    }
    return unbound;
}

static int write_out(const char *path, const struct augur_buf *buf)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (!path || strcmp(path, "-") == 0) {
        if (fwrite(buf->s, 1, buf->len, stdout) != buf->len || fflush(stdout) != 0)
            return cli_error("cannot write to standard output");
        return CLI_OK;
    }
    if (augur_file_write(path, buf->s, buf->len, &diag) != 0)
        return cli_diag_error(&diag);
    return CLI_OK;
}

/* One option: CLI_OK, -1 after --help, or an exit status. */
static int skeleton_option(struct opts *o, int opt, const char *arg, const char *given)
{
    switch (opt) {
    case 'f':
        o->function = arg;
        break;
    case 'p':
        o->build_dir = arg;
        break;
    case 'b':
        o->bind = arg;
        break;
    case 'l':
        o->launch = arg;
        break;
    case 'c':
        o->cuda = true;
        break;
    case 't':
        o->templ = arg;
        break;
    case 'S':
        o->no_shim = true;
        break;
    case 'n':
        o->no_infer = true;
        break;
    case 'r':
        o->require_bind = true;
        break;
    case 'k':
        o->check = true;
        break;
    case 'd':
        break;
    case 'j':
        o->json = true;
        cli_json = true;
        break;
    case 'o':
        o->out = arg;
        break;
    case 'h':
        cmd_skeleton_help(stdout);
        return -1;
    default:
        return cli_usage_error("skeleton", "unknown or incomplete option '%s'", given);
    }
    return CLI_OK;
}

/*
 * Parses the options: CLI_OK with *path the file and *nopt the index of "--"
 * (argc without one), -1 after --help, or an exit status.
 */
static int parse_args(int argc, char **argv, struct opts *o, int *nopt, const char **path)
{
    static const struct option longopts[] = {
        { "function", required_argument, NULL, 'f' },
        { "bind", required_argument, NULL, 'b' },
        { "launch", required_argument, NULL, 'l' },
        { "cuda", no_argument, NULL, 'c' },
        { "template", required_argument, NULL, 't' },
        { "no-infer", no_argument, NULL, 'n' },
        { "no-shim", no_argument, NULL, 'S' },
        { "require-bind", no_argument, NULL, 'r' },
        { "check", no_argument, NULL, 'k' },
        { "dump", no_argument, NULL, 'd' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int opt, rc;

    /* Everything after "--" belongs to the compiler. */
    *nopt = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            *nopt = i;
            break;
        }
    opterr = 0;
    while ((opt = getopt_long(*nopt, argv, "ho:p:", longopts, NULL)) != -1)
        if ((rc = skeleton_option(o, opt, optarg, argv[optind - 1])) != CLI_OK)
            return rc;
    if (optind >= *nopt)
        return cli_usage_error("skeleton", "missing the source file");
    if (optind + 1 < *nopt)
        return cli_usage_error("skeleton", "one file at a time ('%s' is extra)", argv[optind + 1]);
    *path = argv[optind];
    if (augur_str_ends_with(*path, ".skel"))
        o->check = true;
    if (o->check && *nopt < argc)
        return cli_usage_error("skeleton", "compiler arguments need a source file, not a "
                                           "skeleton");
    return CLI_OK;
}

/* A skeleton file (--check): loaded, bound by --bind, its other bindings inferred. */
static int load_skel(const struct opts *o, const char *path, struct augur_skel **skel)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (augur_skel_load(path, skel, &diag) != 0)
        return cli_diag_error(&diag);
    if (o->bind && augur_skel_bind(*skel, NULL, o->bind, AUGUR_BIND_CLI, &diag) != 0)
        return cli_diag_error(&diag);
    if (!o->no_infer && augur_skel_infer_bindings(*skel, &diag) != 0) {
        char msg[1200];

        augur_diag_format(&diag, msg, sizeof(msg));
        fprintf(stderr, "%s: warning: %s\n", path, msg);
    }
    return CLI_OK;
}

/* A C/CUDA source through the front end, with the compiler arguments args[nargs]. */
static int parse_source(const struct opts *o, const char *path, int nargs, char **args,
                        struct augur_skel **skel)
{
    struct augur_fe_opts fo;

    memset(&fo, 0, sizeof(fo));
    fo.args = (const char *const *)args;
    fo.nargs = (size_t)nargs;
    fo.build_dir = o->build_dir;
    fo.function = o->function;
    fo.bind = o->bind;
    fo.launch = o->launch;
    fo.templ = o->templ;
    fo.no_shim = o->no_shim;
    fo.cuda = o->cuda;
    fo.no_infer = o->no_infer;
    return cli_fe_parse(path, &fo, skel);
}

/* The kernel --function names is there; with --require-bind, every array and scalar is bound. */
static int check_kernels(const struct opts *o, const char *path, const struct augur_skel *skel)
{
    if (o->function && !o->check && !augur_skel_find_kernel(skel, o->function))
        return cli_error("no kernel '%s' in '%s'", o->function, path);
    if (report_unbound(skel, o->require_bind) && o->require_bind)
        return cli_error("unbound arrays or scalars in '%s'", path);
    return CLI_OK;
}

/* The skeleton's text (or JSON) form, to -o FILE or standard output. */
static int render(const struct opts *o, const struct augur_skel *skel)
{
    struct augur_buf buf;
    int rc;

    augur_buf_init(&buf);
    if (o->json || cli_json)
        augur_skel_format_json(skel, &buf);
    else
        augur_skel_format(skel, &buf);
    rc = write_out(o->out, &buf);
    augur_buf_release(&buf);
    return rc;
}

int cmd_skeleton(int argc, char **argv)
{
    struct opts o;
    struct augur_skel *skel = NULL;
    const char *path = NULL;
    int nopt, rc;

    memset(&o, 0, sizeof(o));
    rc = parse_args(argc, argv, &o, &nopt, &path);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (o.check)
        rc = load_skel(&o, path, &skel);
    else
        rc = parse_source(&o, path, nopt < argc ? argc - nopt - 1 : 0, argv + nopt + (nopt < argc),
                          &skel);
    if (rc == CLI_OK)
        rc = check_kernels(&o, path, skel);
    if (rc == CLI_OK)
        rc = render(&o, skel);
    augur_skel_free(skel);
    return rc;
}
