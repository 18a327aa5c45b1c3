/*
 * main.c - the augur command: global options and the subcommand table (module: cli).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A sanitizer build checks for leaks where the out-of-memory handler exits. */
#if defined(__SANITIZE_ADDRESS__)
#    define CLI_LSAN 1
#elif defined(__has_feature)
#    if __has_feature(address_sanitizer)
#        define CLI_LSAN 1
#    endif
#endif
#ifdef CLI_LSAN
#    include <sanitizer/lsan_interface.h>
#endif

bool cli_json;

static int cmd_help(int argc, char **argv);
static void cmd_help_help(FILE *fp);
static void main_help(FILE *fp);

static const struct cli_cmd commands[] = {
    { "advise", cmd_advise, cmd_advise_help, "rank threads, schedules and reorderings; verify" },
    { "batch", cmd_batch, cmd_batch_help, "many predictions from a manifest, by make or Slurm" },
    { "calibrate", cmd_calibrate, cmd_calibrate_help,
      "measure this machine, write its machine file" },
    { "data", cmd_data, cmd_data_help, "load, inspect, convert, reorder and generate datasets" },
    { "help", cmd_help, cmd_help_help, "show help for a command" },
    { "measure", cmd_measure, cmd_measure_help, "time a kernel on a dataset (generated driver)" },
    { "predict", cmd_predict, cmd_predict_help,
      "predict a kernel's time on a dataset and a machine (the main job)" },
    { "simulate", cmd_simulate, cmd_simulate_help,
      "run a kernel on a dataset through the cache simulator" },
    { "skeleton", cmd_skeleton, cmd_skeleton_help, "build the skeleton of a C/CUDA kernel" },
    { "train", cmd_train, cmd_train_help, "train the categorizer tree" },
    { NULL, NULL, NULL, NULL },
};

static void main_help(FILE *fp)
{
    fprintf(fp, "usage: augur [--json] [--version] [--help] COMMAND [ARGS]\n"
                "\n"
                "Predicts how fast an irregular kernel (sparse matrix, graph, unstructured\n"
                "mesh) runs on a machine and a real input, and explains why.\n"
                "\n"
                "commands:\n");
    for (const struct cli_cmd *c = commands; c->name; c++)
        fprintf(fp, "  %-12s %s\n", c->name, c->summary);
    fprintf(fp, "\n"
                "options:\n"
                "  --json       results (and errors) as JSON on standard output\n"
                "  --version    print the version and exit\n"
                "  --help       print this help and exit\n"
                "\n"
                "'augur help COMMAND' or 'augur COMMAND --help' shows a command's options.\n");
}

static void cmd_help_help(FILE *fp)
{
    fprintf(fp, "usage: augur help [COMMAND [SUBCOMMAND]]\n"
                "\n"
                "Prints the help of a command, or the list of commands.\n");
}

/* "augur help data info" is "augur data info --help". */
static int cmd_help(int argc, char **argv)
{
    char *args[4];
    int n = 0;

    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        if (argc >= 2)
            cmd_help_help(stdout);
        else
            main_help(stdout);
        return CLI_OK;
    }
    if (argc > 3)
        return cli_usage_error("help", "too many arguments");
    for (int i = 1; i < argc; i++)
        args[n++] = argv[i];
    args[n++] = (char *)"--help"; /* dispatch takes argv-style, non-const */
    args[n] = NULL;
    return cli_dispatch(commands, n, args, "augur", main_help);
}

/*
 * Out of memory: a clean error and exit status 1, not an abort. Nothing here
 * allocates (the heap is what ran out). _Exit, not exit: the failure may
 * come on any thread, in any state, where atexit handlers and library
 * destructors are not safe to run; the OS takes the memory back. _Exit skips
 * LeakSanitizer's check at exit, so a sanitizer build runs it here: memory
 * still reachable is what the interrupted operation held, anything else was
 * lost before the failure and is reported.
 */
static void out_of_memory(size_t size)
{
    static const char hint[] = "this process may not use more (ulimit -v, or the machine's "
                               "memory): give it more, or predict from a sample (--sample)";

    if (cli_json)
        printf("{\"error\": \"out of memory allocating %zu bytes: %s\"}\n", size, hint);
    fprintf(stderr, "augur: error: out of memory allocating %zu bytes: %s\n", size, hint);
    fflush(NULL);
#ifdef CLI_LSAN
    __lsan_do_recoverable_leak_check();
#endif
    _Exit(CLI_FAILED);
}

/*
 * $AUGUR_FAIL_ALLOC=N (tests, tests/t_alloc_fail.sh): the N-th allocation of
 * this run fails as a real one would (augur_alloc_fail_nth); 0 fails none.
 * Either way the run ends by printing how many allocations it made. Returns
 * whether the variable is set; exits with CLI_USAGE when it is not a number.
 */
static bool fail_alloc_from_env(void)
{
    const char *s = getenv("AUGUR_FAIL_ALLOC");
    unsigned long long n;
    char *end;

    if (!s)
        return false;
    errno = 0;
    n = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || errno) {
        cli_usage_error(NULL, "AUGUR_FAIL_ALLOC='%s' is not a number of allocations", s);
        exit(CLI_USAGE);
    }
    augur_alloc_fail_nth(n ? (uint64_t)n : UINT64_MAX);
    return true;
}

static int run(int argc, char **argv)
{
    int i = 1;

    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            cli_json = true;
        } else if (strcmp(argv[i], "--version") == 0) {
            if (cli_json) {
                json_t *doc = json_pack("{s:s}", "version", augur_version());

                return cli_print_json(doc);
            }
            printf("augur %s\n", augur_version());
            return CLI_OK;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            main_help(stdout);
            return CLI_OK;
        } else {
            return cli_usage_error(NULL, "unknown option '%s'", argv[i]);
        }
    }
    if (i == argc) {
        main_help(stderr);
        return CLI_USAGE;
    }
    return cli_dispatch(commands, argc - i, argv + i, "augur", main_help);
}

int main(int argc, char **argv)
{
    bool counting;
    int rc;

    augur_set_oom_handler(out_of_memory);
    counting = fail_alloc_from_env();
    rc = run(argc, argv);
    if (counting)
        fprintf(stderr, "augur: %llu allocations\n", (unsigned long long)augur_alloc_calls());
    return rc;
}
