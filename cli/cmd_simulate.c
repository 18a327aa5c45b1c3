/*
 * cmd_simulate.c - "augur simulate": runs a kernel's skeleton on a dataset
 * through the interpreter and the cache simulator, and prints the counts
 * per cache level, source line, array and thread (module: cli).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/frontend.h"
#include "augur/interp.h"
#include "cli.h"

void cmd_simulate_help(FILE *fp)
{
    fprintf(fp,
            "usage: augur simulate [OPTIONS] FILE.c|FILE.cu|FILE.skel --data DATASET [-- "
            "COMPILER_ARGS...]\n"
            "\n"
            "Runs a kernel's address and control slice on a dataset (loops and branches on\n"
            "the real index values; OpenMP schedules for T threads) and simulates every\n"
            "access on the machine's caches. Prints accesses, hits, misses, miss rates,\n"
            "write-backs and bytes per cache level, per source line and per array, the\n"
            "branches each thread's simulated predictor mispredicted (CUDA: the warp\n"
            "branches whose lanes diverge), and the work of each thread.\n"
            "\n"
            "options:\n"
            "  --data FILE       the dataset (Matrix Market, edge list, mesh, ...); required\n"
            "  --function NAME   the kernel to run (needed when the file has several)\n"
            "  --bind LIST       bindings NAME=TARGET,... (csr.rowptr, ell.idx, vec(n), n=100)\n"
            "  -p, --compile-commands PATH\n"
            "                    the file's flags from compile_commands.json (the file, or\n"
            "                    its folder)\n"
            "  --machine FILE    machine file, or 'auto' (the default, else $AUGUR_MACHINE):\n"
            "                    this host, calibrated once and cached\n"
            "  --threads T       OpenMP threads, one simulator thread each (default 1)\n"
            "  --sms N           CUDA kernels: SMs simulated (default: the machine's, else 1)\n"
            "  --launch G,B      CUDA launch: grid and block sizes (numbers or expressions)\n"
            "  --template LIST   a template kernel's parameters (CUDA or C++) NAME=TYPE or\n"
            "                    NAME=VALUE,... (type parameters default to float)\n"
            "  --no-shim         CUDA: parse without augur's declarations of the CUDA API\n"
            "                    (the file brings its own; docs/skeleton.md)\n"
            "  --round R         the value of a parameter bound to 'round' (default 1); a\n"
            "                    bfs.level array holds the levels before round R\n"
            "  --rounds          run rounds 1, 2, ... until one stores nothing into the\n"
            "                    bfs.level array (a whole topology-driven BFS)\n"
            "  --source V        the BFS source node, or 'maxdeg' (default 0)\n"
            "  --runs N          run the kernel N times in a row (caches stay warm)\n"
            "  --warm            run once before counting\n"
            "  --ell-width W     ELLPACK width (default: the largest row degree)\n"
            "  --tile-size T     the tile size of the tiling.* bindings' schedule\n"
            "                    (docs/tiling.md)\n"
            "  --stored-only     symmetric data: the stored triangle only (default: both)\n"
            "  --quantum Q       events a thread runs before the next one's turn (default 16)\n"
            "  --layout L        'malloc' (default) or an alignment in bytes for every array\n"
            "  --place LIST      NAME=ADDRESS,...: put these arrays at these addresses\n"
            "  --prob LIST       LINE=P,...: branches on these lines taken with probability P\n"
            "  --trips LIST      LINE=N,...: loops on these lines run N iterations\n"
            "  --seed S          seed of the random stand-ins (probabilities)\n"
            "  --no-prefetch     switch the machine's prefetchers off\n"
            "  --no-flush        do not write the dirty lines back at the end\n"
            "  --trace FILE      write every event to FILE (binary, docs/interpreter.md)\n"
            "  -o, --output FILE write the profile stage instead: the counts of one call as\n"
            "                    augur predict models them (a warm call, or every round of\n"
            "                    a BFS), for augur predict --profile FILE; takes --threads,\n"
            "                    --launch, --round(s), --source, --seed, --ell-width and\n"
            "                    --stored-only, not the options of this command's own run\n"
            "  --top N           show the N busiest source lines (default: all)\n" CLI_GPU_USE_HELP
                CLI_NCU_HELP "  --json            the result as JSON\n" CLI_LOAD_HELP
            "  --quiet           no progress line (drawn on a terminal for a long simulation)\n"
            "  -h, --help        print this help\n"
            "\n"
            "Arguments after \"--\" go to the compiler. docs/cli/simulate.md has examples.\n");
}

struct opts {
    struct cli_kernel_args k;
    const char *launch, *trace, *place, *probs, *trips;
    unsigned threads, sms, quantum, top, runs;
    int64_t round;
    uint64_t seed, align;
    bool rounds, warm, no_prefetch, no_flush, round_given;
    const char *output; /* -o: the profile stage file */
    bool own_run;       /* an option of this command's own run was given (not with -o) */
    struct augur_load_opts load;
    struct cli_ncu ncu;     /* --ncu FILE: Nsight Compute's counts beside the simulated ones */
    struct cli_gpu_use gpu; /* --regs, --smem */
    struct augur_gpu_occupancy occ; /* a CUDA launch's, for the output */
};

/* An interpreter warning: "file:line:col: warning: message". */
static double rate(uint64_t part, uint64_t whole)
{
    return whole ? (double)part / (double)whole : 0.0;
}

static const char *file_of(const struct augur_skel *skel, uint32_t f)
{
    const char *s = f < skel->nfiles ? skel->files[f] : "?";
    const char *slash = strrchr(s, '/');

    return slash ? slash + 1 : s;
}

/* ---- text -------------------------------------------------------------------------------- */

static void print_levels(const struct augur_sim_profile *p)
{
    printf("%-8s %13s %13s %13s %9s %12s %14s %14s %11s\n", "level", "accesses", "hits", "misses",
           "miss rate", "write-backs", "bytes in", "bytes out", "transfers");
    for (unsigned l = 0; l < p->nlevels; l++) {
        const struct augur_cache_counts *c = &p->level[l];

        printf("%-8s %13" PRIu64 " %13" PRIu64 " %13" PRIu64 " %8.2f%% %12" PRIu64 " %14" PRIu64
               " %14" PRIu64 " %11" PRIu64 "\n",
               p->level_name[l], c->accesses, c->hits, c->misses,
               100 * rate(c->misses, c->accesses), c->writebacks, c->fill_bytes, c->writeback_bytes,
               c->transfers);
    }
    {
        const struct augur_cache_counts *c = &p->level[p->nlevels];

        printf("%-8s %13" PRIu64 " %13s %13s %9s %12s %14" PRIu64 " %14" PRIu64 " %11" PRIu64
               "   (row buffer hits %" PRIu64 ", misses %" PRIu64 ")\n",
               p->level_name[p->nlevels], c->accesses, "-", "-", "-", "-", c->fill_bytes,
               c->writeback_bytes, c->transfers, c->row_hits, c->row_misses);
    }
}

/* One row of misses per level for a group. */
static void print_group_misses(const struct augur_sim_profile *p, const struct augur_sim_group *g)
{
    for (unsigned l = 0; l < p->nlevels; l++)
        printf(" %12" PRIu64 " %6.2f%%", g->level[l].misses,
               100 * rate(g->level[l].misses, g->level[l].accesses));
    printf(" %13" PRIu64 "\n",
           g->level[p->nlevels].fill_bytes + g->level[p->nlevels].writeback_bytes);
}

static void print_group_header(const struct augur_sim_profile *p, const char *what, int width)
{
    printf("%-*s %12s", width, what, "accesses");
    for (unsigned l = 0; l < p->nlevels; l++)
        printf(" %9s miss %6s", p->level_name[l], "rate");
    printf(" %13s\n", "memory bytes");
}

static int cmp_events(const void *a, const void *b)
{
    const struct augur_sim_group *x = *(const struct augur_sim_group *const *)a;
    const struct augur_sim_group *y = *(const struct augur_sim_group *const *)b;

    return x->events < y->events ? 1 : x->events > y->events ? -1 : 0;
}

/* A kernel node whose jumps the simulated branch predictor got wrong, and how often. */
struct wrong {
    uint32_t node;
    int64_t count;
};

static int cmp_wrong(const void *a, const void *b)
{
    const struct wrong *x = a, *y = b;

    return x->count != y->count ? (x->count < y->count ? 1 : -1)
                                : (x->node > y->node) - (x->node < y->node);
}

/*
 * The ifs and loops whose conditional jumps the simulated predictors got
 * wrong, most first; *n gets how many. NULL with *n = 0 where none ran.
 */
static struct wrong *mispredicted(const struct augur_skel *skel, const struct augur_node *k,
                                  const struct augur_interp *in, size_t *n)
{
    struct wrong *w = NULL;

    *n = 0;
    if (augur_interp_node_mispredicts(in, k->id) < 0)
        return NULL;
    w = augur_mallocarray(skel->nnodes + 1, sizeof(*w));
    if (!w)
        return NULL;
    for (uint32_t id = k->id + 1; id < skel->nnodes && augur_node_kernel(skel->nodes[id]) == k;
         id++) {
        enum augur_node_kind kind = skel->nodes[id]->kind;
        int64_t c;

        if ((kind == AUGUR_NODE_BRANCH || kind == AUGUR_NODE_LOOP) &&
            (c = augur_interp_node_mispredicts(in, id)) > 0)
            w[(*n)++] = (struct wrong){ id, c };
    }
    qsort(w, *n, sizeof(*w), cmp_wrong);
    return w;
}

/* CUDA: an if or loop and its warp branch instructions, of them the divergent ones. */
struct split {
    uint32_t node;
    uint64_t branches, divergent;
};

static int cmp_split(const void *a, const void *b)
{
    const struct split *x = a, *y = b;

    return x->divergent != y->divergent ? (x->divergent < y->divergent ? 1 : -1)
                                        : (x->node > y->node) - (x->node < y->node);
}

/*
 * CUDA: the ifs and loops whose jumps the warps reached, the most divergent
 * first; *n gets how many. NULL with *n = 0 for a CPU kernel.
 */
static struct split *divergent(const struct augur_skel *skel, const struct augur_node *k,
                               const struct augur_interp *in, size_t *n)
{
    struct split *w;
    uint64_t d;

    *n = 0;
    if (augur_interp_node_warp_branches(in, k->id, &d) < 0)
        return NULL;
    w = augur_mallocarray(skel->nnodes + 1, sizeof(*w));
    for (uint32_t id = k->id + 1; id < skel->nnodes && augur_node_kernel(skel->nodes[id]) == k;
         id++) {
        int64_t c = augur_interp_node_warp_branches(in, id, &d);

        if (c > 0)
            w[(*n)++] = (struct split){ id, (uint64_t)c, d };
    }
    qsort(w, *n, sizeof(*w), cmp_split);
    return w;
}

static const char *branch_kind(const struct augur_node *n)
{
    return n->kind == AUGUR_NODE_LOOP ? "loop" : n->kind == AUGUR_NODE_BRANCH ? "if" : "other";
}

/* Each thread's work, the load imbalance and the operations counted. */
static void print_work(const struct augur_sim_profile *p)
{
    printf("\nwork per thread:\n%-8s %14s %14s %10s %16s\n", "thread", "accesses", "iterations",
           "chunks", "operations");
    for (unsigned t = 0; t < p->stats.nthreads; t++)
        printf("%-8u %14" PRIu64 " %14" PRIu64 " %10" PRIu64 " %16" PRIu64 "\n", t,
               p->thread[t].events, p->thread[t].iterations, p->thread[t].chunks, p->thread[t].ops);
    if (p->stats.parallel)
        printf("load imbalance %.4f over %" PRIu64
               " parallel phase%s (busiest thread's accesses / mean per thread)\n",
               p->stats.imbalance, p->stats.parallel, p->stats.parallel == 1 ? "" : "s");
    printf("operations:");
    for (int i = 0; i < AUGUR_OPK_COUNT; i++)
        if (p->ops[i])
            printf(" %s=%" PRIu64, augur_opkind_name((enum augur_opkind)i), p->ops[i]);
    printf("\n");
}

/*
 * CUDA: each line's warp memory instructions and their active lanes; a line
 * under a branch that splits warps has fewer than the lines around it.
 */
static void print_line_lanes(const struct augur_skel *skel,
                             const struct augur_sim_group *const *lines, size_t n)
{
    int width = 18;
    char where[64];

    for (size_t i = 0; i < n; i++) {
        int w =
            snprintf(where, sizeof(where), "%s:%u", file_of(skel, lines[i]->file), lines[i]->key);

        width = w > width && w < (int)sizeof(where) ? w : width;
    }
    printf("\nper source line, active lanes per warp memory instruction:\n%-*s %14s %8s %7s\n",
           width, "line", "warp instrs", "lanes", "SIMT");
    for (size_t i = 0; i < n; i++) {
        const struct augur_sim_group *g = lines[i];

        if (!g->warp_jobs)
            continue;
        snprintf(where, sizeof(where), "%s:%u", file_of(skel, g->file), g->key);
        printf("%-*s %14" PRIu64 " %8.1f %6.1f%%\n", width, where, g->warp_jobs,
               (double)g->warp_lanes / (double)g->warp_jobs,
               100.0 * (double)g->warp_lanes / (32.0 * (double)g->warp_jobs));
    }
}

/* CPU: the jumps the simulated predictors got wrong, most first. */
static void print_mispredicted(const struct opts *o, const struct augur_skel *skel,
                               const struct augur_node *k, const struct augur_interp *in)
{
    size_t nw, show;
    struct wrong *w = mispredicted(skel, k, in, &nw);

    show = o->top && o->top < nw ? o->top : nw;
    if (nw) {
        printf("\nmispredicted jumps (each thread's simulated branch predictor, fresh in the "
               "counted run):\n%-18s %-6s %14s %14s\n",
               "line", "node", "executions", "mispredicted");
        for (size_t i = 0; i < show; i++) {
            const struct augur_node *n = skel->nodes[w[i].node];
            char where[64];

            snprintf(where, sizeof(where), "%s:%u", file_of(skel, n->loc.file), n->loc.line);
            printf("%-18s %-6s %14" PRIu64 " %14" PRId64 "\n", where,
                   n->kind == AUGUR_NODE_LOOP ? "loop" : "if",
                   augur_interp_node_count(in, w[i].node, -1), w[i].count);
        }
    }
    augur_free(w);
}

/* CUDA: the warp branches of each if and loop, the most divergent first. */
static void print_divergent(const struct opts *o, const struct augur_skel *skel,
                            const struct augur_node *k, const struct augur_interp *in)
{
    size_t ns, show;
    struct split *w = divergent(skel, k, in, &ns);

    show = o->top && o->top < ns ? o->top : ns;
    if (ns) {
        printf("\nwarp branches (a divergent one: some lanes of the warp take the jump, "
               "some not):\n%-18s %-6s %14s %14s %8s\n",
               "line", "node", "warp branches", "divergent", "share");
        for (size_t i = 0; i < show; i++) {
            const struct augur_node *n = skel->nodes[w[i].node];
            char where[64];

            snprintf(where, sizeof(where), "%s:%u", file_of(skel, n->loc.file), n->loc.line);
            printf("%-18s %-6s %14" PRIu64 " %14" PRIu64 " %7.1f%%\n", where, branch_kind(n),
                   w[i].branches, w[i].divergent,
                   100.0 * (double)w[i].divergent / (double)w[i].branches);
        }
    }
    augur_free(w);
}

static void print_text(const struct opts *o, const struct augur_skel *skel,
                       const struct augur_node *k, const struct augur_dataset *ds,
                       const struct augur_machine *m, const char *mpath,
                       const struct augur_sim_profile *p, const struct augur_interp *in)
{
    const struct augur_sim_group **lines;
    size_t nshow = p->nlines;

    printf("kernel %s (%s:%u) on %s: %" PRIu32 " x %" PRIu32 ", %" PRIu64 " entries\n",
           k->u.kernel.name, file_of(skel, k->loc.file), k->loc.line, ds->path, ds->coo.nrows,
           ds->coo.ncols, augur_dataset_nnz_full(ds));
    printf("machine %s (%s), %u %s%s\n", m->name, mpath, p->stats.nthreads,
           k->u.kernel.cuda ? "SM" : "simulator thread", p->stats.nthreads == 1 ? "" : "s");
    printf("%" PRIu32 " run%s, %" PRIu64 " accesses in %.3f s (%.1f M accesses/s)\n\n", p->rounds,
           p->rounds == 1 ? "" : "s", p->events, p->seconds,
           p->seconds > 0 ? (double)p->events / p->seconds / 1e6 : 0.0);
    if (k->u.kernel.cuda) {
        printf("launch %" PRIu64 " x %" PRIu64 " threads, %" PRIu64
               " warp memory instructions, %" PRIu64 " of them loads (Pai et al. AGP'17 jobs)\n",
               p->stats.grid, p->stats.block, p->warp_jobs, p->warp_loads);
        if (p->warp_jobs)
            printf("active lanes per warp memory instruction: %.1f of 32 (%.1f %%: branches, "
                   "guards and a last partial warp idle the rest)\n",
                   (double)p->warp_lanes / (double)p->warp_jobs,
                   100.0 * (double)p->warp_lanes / (32.0 * (double)p->warp_jobs));
        if (p->stats.warp_branches)
            printf("warp branch instructions: %" PRIu64 ", %" PRIu64
                   " divergent (branch efficiency %.1f %%), %.1f active lanes each\n",
                   p->stats.warp_branches, p->stats.divergent_branches,
                   100.0 *
                       (1.0 - (double)p->stats.divergent_branches / (double)p->stats.warp_branches),
                   (double)p->stats.branch_lanes / (double)p->stats.warp_branches);
        cli_print_occupancy(&o->occ, o->gpu.regs_from);
        /* a warp waits for its slowest lane */
        printf("loads by the level of their slowest request:");
        for (unsigned l = 0; l <= p->nlevels; l++)
            printf("%s %s %" PRIu64, l ? "," : "", p->level_name[l], p->warp_load_reach[l]);
        printf("\n\n");
    }
    print_levels(p);

    printf("\nper source line (misses and miss rate per level):\n");
    lines = augur_mallocarray(p->nlines ? p->nlines : 1, sizeof(*lines));
    for (size_t i = 0; i < p->nlines; i++)
        lines[i] = &p->lines[i];
    if (o->top && o->top < nshow) {
        qsort(lines, p->nlines, sizeof(*lines), cmp_events);
        nshow = o->top;
    }
    print_group_header(p, "line", 18);
    for (size_t i = 0; i < nshow; i++) {
        char where[64];

        snprintf(where, sizeof(where), "%s:%u", file_of(skel, lines[i]->file), lines[i]->key);
        printf("%-18s %12" PRIu64, where, lines[i]->events);
        print_group_misses(p, lines[i]);
    }
    if (k->u.kernel.cuda)
        print_line_lanes(skel, (const struct augur_sim_group *const *)lines, nshow);
    augur_free(lines);

    printf("\nper array:\n");
    print_group_header(p, "array", 18);
    for (size_t a = 0; a < p->narrays; a++) {
        struct augur_interp_array ia;

        augur_interp_array(in, (unsigned)a, &ia);
        printf("%-18s %12" PRIu64, ia.name, p->arrays[a].events);
        print_group_misses(p, &p->arrays[a]);
    }
    printf("\n%-18s %10s %12s %14s %10s %14s\n", "array", "target", "address", "elements",
           "elem size", "bytes");
    for (size_t a = 0; a < p->narrays; a++) {
        struct augur_interp_array ia;

        augur_interp_array(in, (unsigned)a, &ia);
        printf("%-18s %10s %#12" PRIx64 " %14" PRIu64 " %10" PRIu32 " %14" PRIu64 "\n", ia.name,
               ia.target ? ia.target : "-", ia.base, ia.extent, ia.elem_size,
               ia.extent * ia.elem_size);
    }

    print_mispredicted(o, skel, k, in);
    print_divergent(o, skel, k, in);
    print_work(p);
}

/* ---- JSON ------------------------------------------------------------------------------------ */

static json_t *counts_json(const char *name, const struct augur_cache_counts *c, bool memory)
{
    json_t *j = json_object();

    if (name)
        json_object_set_new(j, "name", json_string(name));
    json_object_set_new(j, "accesses", json_integer((json_int_t)c->accesses));
    json_object_set_new(j, "reads", json_integer((json_int_t)c->reads));
    json_object_set_new(j, "writes", json_integer((json_int_t)c->writes));
    if (!memory) {
        json_object_set_new(j, "hits", json_integer((json_int_t)c->hits));
        json_object_set_new(j, "misses", json_integer((json_int_t)c->misses));
        json_object_set_new(j, "read_misses", json_integer((json_int_t)c->read_misses));
        json_object_set_new(j, "write_misses", json_integer((json_int_t)c->write_misses));
        json_object_set_new(j, "miss_rate", json_real(rate(c->misses, c->accesses)));
        json_object_set_new(j, "evictions", json_integer((json_int_t)c->evictions));
        json_object_set_new(j, "writebacks", json_integer((json_int_t)c->writebacks));
        json_object_set_new(j, "prefetches", json_integer((json_int_t)c->prefetches));
        if (c->sector_accesses) {
            json_object_set_new(j, "sector_accesses", json_integer((json_int_t)c->sector_accesses));
            json_object_set_new(j, "sector_misses", json_integer((json_int_t)c->sector_misses));
            json_object_set_new(j, "sector_writes", json_integer((json_int_t)c->sector_writes));
            json_object_set_new(j, "sector_write_misses",
                                json_integer((json_int_t)c->sector_write_misses));
        }
    } else {
        json_object_set_new(j, "row_hits", json_integer((json_int_t)c->row_hits));
        json_object_set_new(j, "row_misses", json_integer((json_int_t)c->row_misses));
    }
    json_object_set_new(j, "fill_bytes", json_integer((json_int_t)c->fill_bytes));
    json_object_set_new(j, "writeback_bytes", json_integer((json_int_t)c->writeback_bytes));
    json_object_set_new(j, "transfers", json_integer((json_int_t)c->transfers));
    return j;
}

static json_t *group_levels(const struct augur_sim_profile *p, const struct augur_sim_group *g)
{
    json_t *a = json_array();

    for (unsigned l = 0; l <= p->nlevels; l++)
        json_array_append_new(a, counts_json(p->level_name[l], &g->level[l], l == p->nlevels));
    return a;
}

/* Each access node's counts at every level. */
static json_t *accesses_json(const struct augur_skel *skel, const struct augur_node *k,
                             const struct augur_sim_profile *p, const struct augur_interp *in)
{
    json_t *a;

    a = json_array();
    for (size_t i = 0; i < p->naccesses; i++) {
        uint32_t id = augur_interp_access_node(in, (unsigned)i);
        const struct augur_node *n = skel->nodes[id];
        json_t *g = json_object();

        json_object_set_new(g, "node", json_integer(id));
        json_object_set_new(g, "line", json_integer(n->loc.line));
        json_object_set_new(g, "col", json_integer(n->loc.col));
        json_object_set_new(g, "array", json_string(k->u.kernel.arrays[n->u.access.array].name));
        json_object_set_new(g, "mode",
                            json_string(n->u.access.mode == AUGUR_ACCESS_READ    ? "load"
                                        : n->u.access.mode == AUGUR_ACCESS_WRITE ? "store"
                                                                                 : "update"));
        json_object_set_new(g, "accesses", json_integer((json_int_t)p->accesses[i].events));
        json_object_set_new(g, "levels", group_levels(p, &p->accesses[i]));
        json_array_append_new(a, g);
    }
    return a;
}

/* The branches the simulated predictors got wrong, most first. */
static json_t *mispredicted_json(const struct augur_skel *skel, const struct augur_node *k,
                                 const struct augur_interp *in)
{
    size_t nw;
    struct wrong *w = mispredicted(skel, k, in, &nw);
    json_t *a = json_array();

    for (size_t i = 0; i < nw; i++) {
        const struct augur_node *n = skel->nodes[w[i].node];
        json_t *g = json_object();

        json_object_set_new(g, "node", json_integer(w[i].node));
        json_object_set_new(g, "kind", json_string(n->kind == AUGUR_NODE_LOOP ? "loop" : "if"));
        json_object_set_new(g, "line", json_integer(n->loc.line));
        json_object_set_new(g, "col", json_integer(n->loc.col));
        json_object_set_new(g, "executions",
                            json_integer((json_int_t)augur_interp_node_count(in, w[i].node, -1)));
        json_object_set_new(g, "mispredicted", json_integer((json_int_t)w[i].count));
        json_array_append_new(a, g);
    }
    augur_free(w);
    return a;
}

/* CUDA: the ifs and loops the warps reached, the most divergent first. */
static json_t *divergent_json(const struct augur_skel *skel, const struct augur_node *k,
                              const struct augur_interp *in)
{
    size_t ns;
    struct split *w = divergent(skel, k, in, &ns);
    json_t *a = json_array();

    for (size_t i = 0; i < ns; i++) {
        const struct augur_node *n = skel->nodes[w[i].node];

        json_array_append_new(a, json_pack("{s:i,s:s,s:i,s:i,s:I,s:I}", "node",
                                           (json_int_t)w[i].node, "kind", branch_kind(n), "line",
                                           (json_int_t)n->loc.line, "col", (json_int_t)n->loc.col,
                                           "warp_branches", (json_int_t)w[i].branches, "divergent",
                                           (json_int_t)w[i].divergent));
    }
    augur_free(w);
    return a;
}

static json_t *result_json(const struct augur_skel *skel, const struct augur_node *k,
                           const struct augur_dataset *ds, const struct augur_machine *m,
                           const char *mpath, const struct augur_sim_profile *p,
                           const struct augur_interp *in)
{
    json_t *doc = json_object(), *a;

    json_object_set_new(doc, "kernel", json_string(k->u.kernel.name));
    json_object_set_new(doc, "file",
                        json_string(k->loc.file < skel->nfiles ? skel->files[k->loc.file] : ""));
    json_object_set_new(doc, "dataset", json_string(ds->path));
    json_object_set_new(doc, "rows", json_integer(ds->coo.nrows));
    json_object_set_new(doc, "cols", json_integer(ds->coo.ncols));
    json_object_set_new(doc, "nnz", json_integer((json_int_t)augur_dataset_nnz_full(ds)));
    json_object_set_new(doc, "machine", json_string(m->name));
    json_object_set_new(doc, "machine_file", json_string(mpath));
    json_object_set_new(doc, "threads", json_integer(p->stats.nthreads));
    json_object_set_new(doc, "runs", json_integer(p->rounds));
    json_object_set_new(doc, "accesses", json_integer((json_int_t)p->events));
    json_object_set_new(doc, "timing", json_pack("{s:f}", "simulation", p->seconds));
    if (p->stats.grid) {
        json_object_set_new(doc, "grid", json_integer((json_int_t)p->stats.grid));
        json_object_set_new(doc, "block", json_integer((json_int_t)p->stats.block));
        json_object_set_new(doc, "warp_jobs", json_integer((json_int_t)p->warp_jobs));
        json_object_set_new(doc, "warp_loads", json_integer((json_int_t)p->warp_loads));
        json_object_set_new(doc, "warp_lanes", json_integer((json_int_t)p->warp_lanes));
        json_object_set_new(doc, "run_max_loads", json_integer((json_int_t)p->run_max_loads));
        json_object_set_new(doc, "warp_branches", json_integer((json_int_t)p->stats.warp_branches));
        json_object_set_new(doc, "branch_lanes", json_integer((json_int_t)p->stats.branch_lanes));
        json_object_set_new(doc, "divergent_branches",
                            json_integer((json_int_t)p->stats.divergent_branches));
        json_object_set_new(doc, "divergent", divergent_json(skel, k, in));
        a = json_array();
        for (unsigned l = 0; l <= p->nlevels; l++)
            json_array_append_new(a, json_integer((json_int_t)p->warp_load_reach[l]));
        json_object_set_new(doc, "warp_load_reach", a);
    }
    a = json_array();
    for (unsigned l = 0; l <= p->nlevels; l++)
        json_array_append_new(a, counts_json(p->level_name[l], &p->level[l], l == p->nlevels));
    json_object_set_new(doc, "levels", a);
    a = json_array();
    for (size_t i = 0; i < p->nlines; i++) {
        json_t *g = json_object();

        json_object_set_new(
            g, "file",
            json_string(p->lines[i].file < skel->nfiles ? skel->files[p->lines[i].file] : ""));
        json_object_set_new(g, "line", json_integer(p->lines[i].key));
        json_object_set_new(g, "accesses", json_integer((json_int_t)p->lines[i].events));
        json_object_set_new(g, "levels", group_levels(p, &p->lines[i]));
        if (k->u.kernel.cuda) {
            json_object_set_new(g, "warp_instructions",
                                json_integer((json_int_t)p->lines[i].warp_jobs));
            json_object_set_new(g, "warp_lanes", json_integer((json_int_t)p->lines[i].warp_lanes));
        }
        json_array_append_new(a, g);
    }
    json_object_set_new(doc, "lines", a);
    a = json_array();
    for (size_t i = 0; i < p->narrays; i++) {
        struct augur_interp_array ia;
        json_t *g = json_object();

        augur_interp_array(in, (unsigned)i, &ia);
        json_object_set_new(g, "name", json_string(ia.name));
        json_object_set_new(g, "target", ia.target ? json_string(ia.target) : json_null());
        json_object_set_new(g, "address", json_integer((json_int_t)ia.base));
        json_object_set_new(g, "elements", json_integer((json_int_t)ia.extent));
        json_object_set_new(g, "elem_size", json_integer(ia.elem_size));
        json_object_set_new(g, "accesses", json_integer((json_int_t)p->arrays[i].events));
        json_object_set_new(g, "levels", group_levels(p, &p->arrays[i]));
        json_array_append_new(a, g);
    }
    json_object_set_new(doc, "arrays", a);
    json_object_set_new(doc, "accesses_by_node", accesses_json(skel, k, p, in));
    json_object_set_new(doc, "mispredicted", mispredicted_json(skel, k, in));
    a = json_array();
    for (unsigned t = 0; t < p->stats.nthreads; t++) {
        json_t *g = json_object();

        json_object_set_new(g, "thread", json_integer(t));
        json_object_set_new(g, "accesses", json_integer((json_int_t)p->thread[t].events));
        json_object_set_new(g, "iterations", json_integer((json_int_t)p->thread[t].iterations));
        json_object_set_new(g, "chunks", json_integer((json_int_t)p->thread[t].chunks));
        json_object_set_new(g, "operations", json_integer((json_int_t)p->thread[t].ops));
        json_array_append_new(a, g);
    }
    json_object_set_new(doc, "threads_work", a);
    json_object_set_new(doc, "parallel_phases", json_integer((json_int_t)p->stats.parallel));
    json_object_set_new(doc, "imbalance", json_real(p->stats.imbalance));
    a = json_object();
    for (int i = 0; i < AUGUR_OPK_COUNT; i++)
        if (p->ops[i])
            json_object_set_new(a, augur_opkind_name((enum augur_opkind)i),
                                json_integer((json_int_t)p->ops[i]));
    json_object_set_new(doc, "operations", a);
    return doc;
}

/* ---- the command -------------------------------------------------------------------------------
 */

/* Parses the options; returns CLI_OK with *path set, -1 after --help, or an exit status. */
/* One of simulate's own options: CLI_OK, -1 after --help, or an exit status. */
static int simulate_option(struct opts *o, struct augur_simulate_opts *so, int opt, const char *arg,
                           const char *given)
{
    uint64_t v;

    switch (opt) {
    case 'o':
        o->output = arg;
        break;
    case 't':
        if (cli_parse_u64("simulate", "--threads", arg, 1, AUGUR_CACHESIM_MAX_THREADS, &v))
            return CLI_USAGE;
        o->threads = (unsigned)v;
        break;
    case 'S':
        if (cli_parse_u64("simulate", "--sms", arg, 1, AUGUR_CACHESIM_MAX_THREADS, &v))
            return CLI_USAGE;
        o->sms = (unsigned)v;
        break;
    case 'l':
        o->launch = arg;
        if (augur_skel_launch_parse(arg, &so->grid, &so->block) < 0)
            return cli_usage_error("simulate",
                                   "--launch needs GRID,BLOCK (two positive numbers, or "
                                   "expressions such as (n + 255) / 256,256), not '%s'",
                                   arg);
        break;
    case 'r':
        if (cli_parse_u64("simulate", "--round", arg, 1, INT32_MAX, &v))
            return CLI_USAGE;
        o->round = (int64_t)v;
        o->round_given = true;
        break;
    case 'R':
        o->rounds = true;
        break;
    case 'n':
        if (cli_parse_u64("simulate", "--runs", arg, 1, 1000000, &v))
            return CLI_USAGE;
        o->runs = (unsigned)v;
        break;
    case 'w':
        o->warm = true;
        break;
    case 'q':
        if (cli_parse_u64("simulate", "--quantum", arg, 1, 1u << 30, &v))
            return CLI_USAGE;
        o->quantum = (unsigned)v;
        break;
    case 'L':
        if (strcmp(arg, "malloc") == 0)
            o->align = 0;
        else if (cli_parse_u64("simulate", "--layout", arg, 16, UINT64_C(1) << 30, &o->align))
            return CLI_USAGE;
        else if (o->align & (o->align - 1))
            return cli_usage_error(
                "simulate", "--layout alignment %" PRIu64 " is not a power of two", o->align);
        break;
    case 0x130:
        o->place = arg;
        break;
    case 'B':
        o->probs = arg;
        break;
    case 'N':
        o->trips = arg;
        break;
    case 'x':
        if (cli_parse_u64("simulate", "--seed", arg, 0, UINT64_MAX, &o->seed))
            return CLI_USAGE;
        break;
    case 'P':
        o->no_prefetch = true;
        break;
    case 'F':
        o->no_flush = true;
        break;
    case 'T':
        o->trace = arg;
        break;
    case 'k':
        if (cli_parse_u64("simulate", "--top", arg, 1, UINT32_MAX, &v))
            return CLI_USAGE;
        o->top = (unsigned)v;
        break;
    case 'j':
        cli_json = true;
        break;
    case 'h':
        cmd_simulate_help(stdout);
        return -1;
    default:
        return cli_usage_error("simulate", "unknown or incomplete option '%s'", given);
    }
    return CLI_OK;
}

static int parse_args(int argc, char **argv, struct opts *o, struct augur_simulate_opts *so,
                      int *nopt, const char **path)
{
    static const struct option longopts[] = {
        CLI_KERNEL_LONGOPTS,
        { "threads", required_argument, NULL, 't' },
        { "sms", required_argument, NULL, 'S' },
        { "launch", required_argument, NULL, 'l' },
        { "round", required_argument, NULL, 'r' },
        { "rounds", no_argument, NULL, 'R' },
        { "runs", required_argument, NULL, 'n' },
        { "warm", no_argument, NULL, 'w' },
        { "quantum", required_argument, NULL, 'q' },
        { "layout", required_argument, NULL, 'L' },
        { "place", required_argument, NULL, 0x130 },
        { "prob", required_argument, NULL, 'B' },
        { "trips", required_argument, NULL, 'N' },
        { "seed", required_argument, NULL, 'x' },
        { "no-prefetch", no_argument, NULL, 'P' },
        { "no-flush", no_argument, NULL, 'F' },
        { "trace", required_argument, NULL, 'T' },
        { "output", required_argument, NULL, 'o' },
        { "top", required_argument, NULL, 'k' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        CLI_LOAD_LONGOPTS,
        CLI_NCU_LONGOPTS,
        CLI_GPU_USE_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    /* the options of this command's own run, which the profile stage (-o) does not take */
    static const char own_run_opts[] = "SnwqLpBNPFT";
    int opt, rc;

    *nopt = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            *nopt = i;
            break;
        }
    opterr = 0;
    while ((opt = getopt_long(*nopt, argv, "ho:p:", longopts, NULL)) != -1) {
        int used = cli_load_option("simulate", opt, optarg, &o->load);

        if (!used)
            used = cli_kernel_option("simulate", opt, optarg, &o->k);
        if (!used)
            used = cli_ncu_option("simulate", opt, optarg, &o->ncu);
        if (!used)
            used = cli_gpu_use_option("simulate", opt, optarg, &o->gpu);
        if (used == CLI_USAGE)
            return CLI_USAGE;
        if (used)
            continue;
        if (opt > 0 && opt < 0x100 && strchr(own_run_opts, opt))
            o->own_run = true;
        rc = simulate_option(o, so, opt, optarg, argv[optind - 1]);
        if (rc != CLI_OK)
            return rc;
    }
    if (optind >= *nopt)
        return cli_usage_error("simulate",
                               "missing the kernel file (FILE.c, FILE.cu or FILE.skel)");
    if (optind + 1 < *nopt)
        return cli_usage_error("simulate", "one kernel file at a time ('%s' is extra)",
                               argv[optind + 1]);
    if (!o->k.data)
        return cli_usage_error("simulate", "missing --data DATASET");
    if (o->output && o->own_run)
        return cli_usage_error("simulate",
                               "-o writes the counts augur predict models: --sms, --runs, "
                               "--warm, --quantum, --layout, --place, --prob, --trips, "
                               "--no-prefetch, --no-flush and --trace do not apply");
    if (o->output && o->ncu.path)
        return cli_usage_error("simulate", "-o writes the profile stage; --ncu compares with "
                                           "augur predict --profile FILE --ncu CSV");
    *path = argv[optind];
    return CLI_OK;
}

/* -o: the counts of one call as augur predict models them, written as the profile stage. */
static int write_profile(const struct opts *o, struct augur_predict_ctx *ctx,
                         const struct augur_skel *skel, const struct augur_node *kernel,
                         const struct augur_machine *m, const struct augur_simulate_opts *so)
{
    struct augur_predict_opts po;
    struct augur_predict_result *r = NULL;
    struct augur_diag diag;
    int rc = CLI_OK;

    memset(&po, 0, sizeof(po));
    augur_diag_init(&diag);
    po.threads = o->threads;
    po.seed = o->seed;
    po.rounds = o->rounds;
    po.round = o->round_given ? (uint32_t)o->round : 0;
    po.grid = so->grid;
    po.block = so->block;
    po.bound = so->bound;
    po.on_warn = cli_interp_warning;
    po.on_progress = cli_progress_fn();
    /* a kernel with a round parameter is a level-synchronous BFS: one call is all its rounds */
    for (uint32_t i = 0; i < kernel->u.kernel.nsyms && !po.round; i++)
        if (augur_bind_uses_round(kernel->u.kernel.syms[i].bind))
            po.rounds = true;
    rc = augur_predict_run(ctx, skel, kernel, m, &po, &r, &diag);
    cli_progress_done();
    if (rc != 0 || augur_profile_save(r, o->output, &diag) != 0)
        rc = cli_diag_error(&diag);
    else if (!cli_json)
        printf("profile %s: kernel %s, %u thread%s, %" PRIu64 " accesses simulated, %zu lines\n",
               o->output, r->kernel_name, r->threads, r->threads == 1 ? "" : "s", r->sim_events,
               r->work.nlines);
    else
        rc = cli_print_json(json_pack("{s:s,s:s,s:i,s:I,s:I}", "profile", o->output, "kernel",
                                      r->kernel_name, "threads", (int)r->threads,
                                      "simulated_accesses", (json_int_t)r->sim_events, "lines",
                                      (json_int_t)r->work.nlines));
    augur_predict_result_free(r);
    return rc;
}

/* --ncu: the simulated launch's counts per call beside Nsight Compute's (no time: nothing priced).
 */
static int compare_ncu(struct opts *o, const struct augur_node *kernel,
                       const struct augur_machine *m, const struct augur_sim_profile *prof)
{
    struct augur_workload w;
    struct augur_diag diag;
    int rc;

    if (o->rounds)
        return cli_error("--ncu compares one launch, and --rounds simulates a search's rounds: "
                         "give --round R for the launch Nsight Compute read");
    memset(&w, 0, sizeof(w));
    w.nlevels = prof->nlevels;
    augur_diag_init(&diag);
    if (prof->warp_loads &&
        augur_workload_gpu(prof, m, o->runs > 1 ? o->runs : 1, 1,
                           o->occ.warps_per_block ? &o->occ : NULL, &w, &diag) != 0)
        return cli_diag_error(&diag);
    rc = cli_ncu_compare(&o->ncu, kernel->u.kernel.name, &w, 0);
    augur_workload_release(&w);
    return rc;
}

/* The result: text or JSON, with --ncu's comparison. */
static int show(struct opts *o, const struct augur_skel *skel, const struct augur_node *kernel,
                const struct augur_dataset *ds, const struct augur_machine *m, const char *mpath,
                const struct augur_simulation *sim)
{
    struct augur_diag diag;
    int rc;

    augur_diag_init(&diag);
    if (kernel->u.kernel.cuda && sim->profile->stats.block) {
        struct augur_gpu_block_use use;

        cli_ncu_block_use(&o->ncu, kernel->u.kernel.name, &o->gpu);
        use = o->gpu.use;

        use.shared_bytes += augur_gpu_static_shared(kernel);
        if (augur_gpu_occupancy(m, sim->profile->stats.block, &use, &o->occ, &diag) != 0)
            return cli_diag_error(&diag);
    }
    if (o->ncu.path && (rc = compare_ncu(o, kernel, m, sim->profile)) != CLI_OK)
        return rc;
    if (cli_json) {
        json_t *doc = result_json(skel, kernel, ds, m, mpath, sim->profile, sim->interp);

        if (o->occ.warps_per_block)
            json_object_set_new(doc, "occupancy", augur_occupancy_to_json(&o->occ));
        if (o->ncu.path)
            json_object_set_new(doc, "ncu", cli_ncu_json(&o->ncu));
        return cli_print_json(doc);
    }
    print_text(o, skel, kernel, ds, m, mpath, sim->profile, sim->interp);
    if (o->ncu.path)
        cli_ncu_print(&o->ncu, !o->warm && o->runs <= 1);
    return cli_flush_stdout();
}

int cmd_simulate(int argc, char **argv)
{
    struct opts o;
    struct augur_diag diag;
    struct augur_skel *skel = NULL;
    struct augur_dataset *ds = NULL;
    struct augur_machine *m = NULL;
    struct augur_predict_ctx *ctx = NULL;
    struct augur_simulation *sim = NULL;
    struct augur_simulate_opts so;
    const struct augur_node *kernel = NULL;
    char mpath[PATH_MAX];
    int nopt = argc, rc;
    const char *path = NULL;

    memset(&o, 0, sizeof(o));
    memset(&so, 0, sizeof(so));
    o.ncu.id = -1;
    augur_diag_init(&diag);
    rc = parse_args(argc, argv, &o, &so, &nopt, &path);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    so.bound.stored_only = o.k.stored_only;
    so.bound.ell_width = o.k.ell_width;
    so.bound.tile_size = o.k.tile_size;
    if (o.k.source && cli_bfs_source("simulate", o.k.source, &so.bound))
        return CLI_USAGE;
    {
        struct cli_kernel_opts ko = { "simulate",           o.k.function, o.k.bind,   o.launch,
                                      o.k.compile_commands, o.k.templ,    o.k.no_shim };

        rc = cli_load_kernel(&ko, path, nopt < argc ? argc - nopt - 1 : 0,
                             nopt < argc ? argv + nopt + 1 : NULL, &skel, &kernel);
    }
    if (rc || (o.ncu.path && (rc = cli_ncu_load(&o.ncu)) != CLI_OK))
        goto out;
    rc = CLI_FAILED;
    if (!cli_find_machine(o.k.machine, mpath, sizeof(mpath))) {
        rc = cli_error("no machine file: give --machine FILE or set AUGUR_MACHINE");
        goto out;
    }
    if (augur_machine_load(mpath, &m, &diag) != 0) {
        rc = cli_diag_error(&diag);
        goto out;
    }
    cli_machine_host_check(m, false);
    rc = cli_load_dataset(o.k.data, &o.load, &ds);
    if (rc)
        goto out;
    if (o.output) {
        rc = augur_predict_ctx_new(ds, NULL, NULL, &ctx, &diag) != 0
                 ? cli_diag_error(&diag)
                 : write_profile(&o, ctx, skel, kernel, m, &so);
        goto out;
    }
    rc = CLI_FAILED;
    so.threads = o.threads;
    so.sms = o.sms;
    so.round = o.round_given ? (uint32_t)o.round : 0;
    so.rounds = o.rounds;
    so.runs = o.runs;
    so.warm = o.warm;
    so.no_flush = o.no_flush;
    so.no_prefetch = o.no_prefetch;
    so.quantum = o.quantum;
    so.align = o.align;
    so.place = o.place;
    so.probs = o.probs;
    so.trips = o.trips;
    so.seed = o.seed;
    so.trace = o.trace;
    so.on_warn = cli_interp_warning;
    so.on_progress = cli_progress_fn();
    if (augur_predict_ctx_new(ds, NULL, NULL, &ctx, &diag) != 0 ||
        augur_simulate_run(ctx, skel, kernel, m, &so, &sim, &diag) != 0) {
        rc = cli_diag_error(&diag);
        goto out;
    }
    cli_progress_done();
    o.threads = sim->threads;
    rc = show(&o, skel, kernel, ds, m, mpath, sim);
out:
    cli_ncu_release(&o.ncu);
    augur_simulation_free(sim);
    augur_predict_ctx_free(ctx);
    augur_dataset_free(ds);
    augur_machine_free(m);
    augur_skel_free(skel);
    return rc;
}
