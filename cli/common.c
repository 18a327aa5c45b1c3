/*
 * common.c - error reporting, dispatch and dataset options shared by the
 * subcommands (module: cli).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int report(int status, const char *kind, const char *fmt, va_list ap) AUGUR_PRINTF(3, 0);

static int report(int status, const char *kind, const char *fmt, va_list ap)
{
    char msg[2048];

    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (cli_json) {
        json_t *doc = json_pack("{s:s}", "error", msg);

        json_dumpf(doc, stdout, JSON_COMPACT);
        fputc('\n', stdout);
        fflush(stdout);
        json_decref(doc);
    } else {
        fprintf(stderr, "augur: %s: %s\n", kind, msg);
    }
    return status;
}

int cli_error(const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = report(CLI_FAILED, "error", fmt, ap);
    va_end(ap);
    return rc;
}

int cli_diag_error(const struct augur_diag *diag)
{
    char msg[1200];

    augur_diag_format(diag, msg, sizeof(msg));
    return cli_error("%s", msg);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cli_error("%s", msg);
    if (!cli_json)
        fprintf(stderr, "see 'augur %s%s--help'\n", cmd ? cmd : "", cmd ? " " : "");
    return CLI_USAGE;
}

void cli_warning(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "augur: warning: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_dispatch(const struct cli_cmd *table, int argc, char **argv, const char *prefix,
                 void (*help)(FILE *fp))
{
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        help(argc < 1 ? stderr : stdout);
        return argc < 1 ? CLI_USAGE : CLI_OK;
    }
    for (const struct cli_cmd *c = table; c->name; c++) {
        if (strcmp(argv[0], c->name) != 0)
            continue;
        if (argc > 1 && c->help && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
            c->help(stdout);
            return CLI_OK;
        }
        optind = 0; /* glibc: restart getopt for this argv */
        return c->run(argc, argv);
    }
    return cli_usage_error(strcmp(prefix, "augur") == 0 ? NULL : prefix + 6,
                           "'%s' is not a command of '%s'", argv[0], prefix);
}

int cli_print_json(json_t *doc)
{
    int rc;

    if (!doc)
        return cli_error("cannot build the JSON result");
    rc = json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    fputc('\n', stdout);
    json_decref(doc);
    if (rc != 0 || fflush(stdout) != 0)
        return cli_error("cannot write the result to standard output");
    return CLI_OK;
}

int cli_load_option(const char *cmd, int opt, const char *arg, struct augur_load_opts *opts)
{
    char *end;

    switch (opt) {
    case 0x100:
        if (augur_format_parse(arg, &opts->format) != 0)
            return cli_usage_error(cmd, "unknown format '%s'", arg);
        return 1;
    case 0x101:
        opts->undirected = true;
        return 1;
    case 0x102:
        if (strcmp(arg, "0") != 0 && strcmp(arg, "1") != 0)
            return cli_usage_error(cmd, "--base must be 0 or 1, not '%s'", arg);
        opts->index_base = arg[0] - '0';
        opts->base_given = true;
        return 1;
    case 0x103: {
        unsigned long long v;

        errno = 0;
        v = strtoull(arg, &end, 10);
        if (errno || end == arg || *end || arg[0] == '-')
            return cli_usage_error(cmd, "--max-bytes needs a byte count, not '%s'", arg);
        opts->max_bytes = (size_t)v;
        return 1;
    }
    }
    return 0;
}

int cli_load_dataset(const char *path, const struct augur_load_opts *opts,
                     struct augur_dataset **out)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (augur_dataset_load(path, opts, out, &diag) != 0)
        return cli_diag_error(&diag);
    return CLI_OK;
}
