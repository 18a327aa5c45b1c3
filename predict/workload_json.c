/*
 * workload_json.c - a prediction's workload as JSON and back: the profile
 * stage file (profile.c), and `augur predict --json` runs that `augur train
 * model` refits the machine from without simulating them again (module:
 * predict).
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "predict_int.h"

static json_t *reals(const double *v, size_t n)
{
    json_t *a = json_array();

    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_real(v[i]));
    return a;
}

static json_t *line_json(const struct augur_work_line *l, unsigned nlevels)
{
    json_t *j = json_object(), *ops = json_object(), *el = json_object();

    json_object_set_new(j, "file", json_integer(l->file));
    json_object_set_new(j, "line", json_integer(l->line));
    json_object_set_new(j, "loop", json_integer(l->loop));
    json_object_set_new(j, "accesses", json_real(l->accesses));
    json_object_set_new(j, "loads", json_real(l->loads));
    json_object_set_new(j, "stores", json_real(l->stores));
    json_object_set_new(j, "bytes", json_real(l->bytes));
    json_object_set_new(j, "irregular", json_real(l->irregular));
    json_object_set_new(j, "irregular_bytes", json_real(l->irregular_bytes));
    json_object_set_new(j, "served", reals(l->served, nlevels + 1));
    json_object_set_new(j, "irr_served", reals(l->irr_served, nlevels + 1));
    json_object_set_new(j, "atomic_served", reals(l->atomic_served, nlevels + 1));
    json_object_set_new(j, "transfers", reals(l->transfers, nlevels + 1));
    json_object_set_new(j, "fill_bytes", reals(l->fill_bytes, nlevels + 1));
    json_object_set_new(j, "writeback_bytes", reals(l->writeback_bytes, nlevels + 1));
    json_object_set_new(j, "row_misses", json_real(l->row_misses));
    json_object_set_new(j, "branch_misses", json_real(l->branch_misses));
    json_object_set_new(j, "branch_run", json_real(l->branch_run));
    json_object_set_new(j, "dep_misses", reals(l->dep_misses, nlevels + 1));
    json_object_set_new(j, "guessed", json_real(l->guessed));
    json_object_set_new(j, "guessed_dep", reals(l->guessed_dep, nlevels + 1));
    json_object_set_new(j, "atomics", json_real(l->atomics));
    json_object_set_new(j, "chained", json_real(l->chained));
    json_object_set_new(j, "chain_len", json_real(l->chain_len));
    json_object_set_new(j, "chain_dist", reals(l->chain_dist, AUGUR_CHAIN_BUCKETS));
    json_object_set_new(j, "chain_lens", reals(l->chain_lens, AUGUR_CHAIN_LENS));
    if (l->carried_iters > 0) {
        json_t *car = json_object();

        for (int k = 0; k < AUGUR_OPK_COUNT; k++)
            if (l->carried[k] > 0)
                json_object_set_new(car, augur_opkind_name((enum augur_opkind)k),
                                    json_real(l->carried[k]));
        json_object_set_new(j, "carried", car);
        json_object_set_new(j, "carried_iters", json_real(l->carried_iters));
        json_object_set_new(j, "carried_runs", json_real(l->carried_runs));
        json_object_set_new(j, "carried_len", json_real(l->carried_len));
        json_object_set_new(j, "carried_lens", reals(l->carried_lens, AUGUR_CARRIED_LENS));
        json_object_set_new(j, "carried_lens_len", reals(l->carried_lens_len, AUGUR_CARRIED_LENS));
    }
    for (int k = 0; k < AUGUR_OPK_COUNT; k++)
        if (l->instr[k] > 0 || l->elems[k] > 0) {
            json_object_set_new(ops, augur_opkind_name((enum augur_opkind)k),
                                json_real(l->instr[k]));
            json_object_set_new(el, augur_opkind_name((enum augur_opkind)k),
                                json_real(l->elems[k]));
        }
    json_object_set_new(j, "instr", ops);
    json_object_set_new(j, "elems", el);
    return j;
}

json_t *augur_workload_to_json(const struct augur_workload *w)
{
    json_t *j = json_object(), *names = json_array(), *lines = json_array();

    json_object_set_new(j, "threads", json_integer(w->threads));
    for (unsigned i = 0; i <= w->nlevels; i++)
        json_array_append_new(names, json_string(w->level_name[i]));
    json_object_set_new(j, "levels", names);
    json_object_set_new(j, "total", line_json(&w->total, w->nlevels));
    for (size_t i = 0; i < w->nlines; i++)
        json_array_append_new(lines, line_json(&w->lines[i], w->nlevels));
    json_object_set_new(j, "lines", lines);
    json_object_set_new(j, "irr_requests", reals(w->irr_requests, w->nlevels + 1));
    json_object_set_new(j, "irr_hits", reals(w->irr_hits, w->nlevels + 1));
    json_object_set_new(j, "footprint_bytes", json_real(w->footprint_bytes));
    {
        json_t *ov = json_array();

        for (unsigned i = 0; i <= w->nlevels; i++)
            json_array_append_new(ov, reals(w->overlap[i], AUGUR_WORK_NWINDOWS));
        json_object_set_new(j, "overlap", ov);
    }
    json_object_set_new(j, "flops", json_real(w->flops));
    json_object_set_new(j, "busiest_share", json_real(w->busiest_share));
    json_object_set_new(j, "simd_util", json_real(w->simd_util));
    json_object_set_new(j, "calls", json_real(w->calls));
    json_object_set_new(j, "parallel", json_real(w->parallel));
    json_object_set_new(j, "chunks", json_real(w->chunks));
    json_object_set_new(j, "dealt_share", json_real(w->dealt_share));
    json_object_set_new(j, "alloc_bytes", json_real(w->alloc_bytes));
    json_object_set_new(j, "alloc_blocks", json_real(w->alloc_blocks));
    json_object_set_new(j, "avg_mimd", json_real(w->avg_mimd));
    json_object_set_new(j, "tile_size", json_real(w->tile_size));
    json_object_set_new(j, "tile_edges", json_real(w->tile_edges));
    json_object_set_new(j, "load_steps", json_real(w->load_steps));
    if (w->nrounds) {
        json_t *rs = json_array();

        for (uint32_t k = 0; k < w->nrounds; k++)
            json_array_append_new(rs,
                                  json_pack("{s:f,s:o}", "accesses", w->rounds[k].accesses,
                                            "served", reals(w->rounds[k].served, w->nlevels + 1)));
        json_object_set_new(j, "rounds", rs);
    }
    if (w->gpu_given) {
        const struct augur_work_gpu *g = &w->gpu;

        json_object_set_new(
            j, "gpu",
            json_pack("{s:f,s:f,s:f,s:f,s:o,s:o,s:o,s:f,s:f,s:f}", "jobs", g->jobs, "max_warp_jobs",
                      g->max_warp_jobs, "slots", g->slots, "launches", g->launches, "sector_hits",
                      reals(g->sector_hits, w->nlevels + 1), "read_sectors",
                      reals(g->read_sectors, w->nlevels), "load_reach",
                      reals(g->load_reach, w->nlevels + 1), "row_hits", g->row_hits, "row_misses",
                      g->row_misses, "dram_write_bytes", g->dram_write_bytes));
        if (g->branches > 0) {
            json_t *o = json_object_get(j, "gpu");

            json_object_set_new(o, "branches", json_real(g->branches));
            json_object_set_new(o, "divergent_branches", json_real(g->divergent_branches));
        }
    }
    return j;
}

/* A non-negative finite number, or -1. */
/* A name printed back as it is: not empty, no control character. */
static bool plain_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return false;
    return true;
}

static double num(json_t *j)
{
    double v;

    if (!json_is_number(j))
        return -1;
    v = json_number_value(j);
    return v >= 0 && v < 1e300 ? v : -1;
}

static int reals_back(json_t *a, double *out, unsigned n, const char *what, char *err, size_t size)
{
    if (!json_is_array(a) || json_array_size(a) != n) {
        snprintf(err, size, "workload: '%s' needs %u numbers", what, n);
        return -1;
    }
    for (unsigned i = 0; i < n; i++)
        if ((out[i] = num(json_array_get(a, i))) < 0) {
            snprintf(err, size, "workload: '%s'[%u] is not a number >= 0", what, i);
            return -1;
        }
    return 0;
}

/* The operation kind named key, or -1. */
static int opkind_of(const char *key)
{
    for (int k = 0; k < AUGUR_OPK_COUNT; k++)
        if (strcmp(key, augur_opkind_name((enum augur_opkind)k)) == 0)
            return k;
    return -1;
}

static int line_back(json_t *j, struct augur_work_line *l, unsigned nlevels, char *err, size_t size)
{
    static const char *const fields[] = { "accesses",   "loads",         "stores",
                                          "bytes",      "irregular",     "irregular_bytes",
                                          "row_misses", "branch_misses", "chained" };
    double *dst[] = { &l->accesses,   &l->loads,         &l->stores,
                      &l->bytes,      &l->irregular,     &l->irregular_bytes,
                      &l->row_misses, &l->branch_misses, &l->chained };
    json_t *ops, *el;
    const char *key;
    json_t *v;

    if (!json_is_object(j)) {
        snprintf(err, size, "workload: a line is not an object");
        return -1;
    }
    memset(l, 0, sizeof(*l));
    l->file = (uint32_t)json_integer_value(json_object_get(j, "file"));
    l->line = (uint32_t)json_integer_value(json_object_get(j, "line"));
    /* runs saved before lines knew their loop: 0, the kernel's lines one group */
    l->loop = (uint32_t)json_integer_value(json_object_get(j, "loop"));
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        if ((*dst[i] = num(json_object_get(j, fields[i]))) < 0) {
            snprintf(err, size, "workload: line %u: '%s' is missing, negative or over 1e300",
                     l->line, fields[i]);
            return -1;
        }
    if (reals_back(json_object_get(j, "served"), l->served, nlevels + 1, "served", err, size) ||
        reals_back(json_object_get(j, "fill_bytes"), l->fill_bytes, nlevels + 1, "fill_bytes", err,
                   size) ||
        reals_back(json_object_get(j, "writeback_bytes"), l->writeback_bytes, nlevels + 1,
                   "writeback_bytes", err, size))
        return -1;
    /* runs saved before the split: every request priced as an indirect one */
    if (!json_object_get(j, "irr_served"))
        memcpy(l->irr_served, l->served, sizeof(l->served));
    else if (reals_back(json_object_get(j, "irr_served"), l->irr_served, nlevels + 1, "irr_served",
                        err, size))
        return -1;
    /* runs saved before atomics were counted: none */
    if (json_object_get(j, "atomic_served") &&
        reals_back(json_object_get(j, "atomic_served"), l->atomic_served, nlevels + 1,
                   "atomic_served", err, size))
        return -1;
    /* runs saved before chains had a weighted length: 0, the mean chain */
    if (json_object_get(j, "chain_len") &&
        !((l->chain_len = num(json_object_get(j, "chain_len"))) >= 0)) {
        snprintf(err, size, "workload: line %u: 'chain_len' is not a number >= 0", l->line);
        return -1;
    }
    /* runs saved before chains had distances: every link the next access back */
    if (!json_object_get(j, "chain_dist"))
        l->chain_dist[0] = l->chained;
    else if (reals_back(json_object_get(j, "chain_dist"), l->chain_dist, AUGUR_CHAIN_BUCKETS,
                        "chain_dist", err, size))
        return -1;
    /* runs saved before chains had lengths: all 0, chain_len stands for them */
    if (json_object_get(j, "chain_lens") &&
        reals_back(json_object_get(j, "chain_lens"), l->chain_lens, AUGUR_CHAIN_LENS, "chain_lens",
                   err, size))
        return -1;
    /* runs saved before atomics were counted: none */
    if (json_object_get(j, "atomics") &&
        !((l->atomics = num(json_object_get(j, "atomics"))) >= 0)) {
        snprintf(err, size, "workload: line %u: 'atomics' is not a number >= 0", l->line);
        return -1;
    }
    /* runs saved before branch runs were counted: 0, not known */
    if (json_object_get(j, "branch_run") &&
        !((l->branch_run = num(json_object_get(j, "branch_run"))) >= 0)) {
        snprintf(err, size, "workload: line %u: 'branch_run' is not a number >= 0", l->line);
        return -1;
    }
    /* runs saved before they were counted: no branch waits for a load */
    if (json_object_get(j, "dep_misses") &&
        reals_back(json_object_get(j, "dep_misses"), l->dep_misses, nlevels + 1, "dep_misses", err,
                   size))
        return -1;
    /* runs saved before branches went through a simulated predictor: none */
    if (json_object_get(j, "guessed") &&
        !((l->guessed = num(json_object_get(j, "guessed"))) >= 0)) {
        snprintf(err, size, "workload: line %u: 'guessed' is not a number >= 0", l->line);
        return -1;
    }
    if (json_object_get(j, "guessed_dep") &&
        reals_back(json_object_get(j, "guessed_dep"), l->guessed_dep, nlevels + 1, "guessed_dep",
                   err, size))
        return -1;
    /* runs saved before coherence was simulated: no transfers */
    if (json_object_get(j, "transfers") && reals_back(json_object_get(j, "transfers"), l->transfers,
                                                      nlevels + 1, "transfers", err, size))
        return -1;
    /* runs saved before loop-carried operations were counted have none */
    if (json_object_get(j, "carried")) {
        json_t *car = json_object_get(j, "carried");

        if (!json_is_object(car) ||
            (l->carried_iters = num(json_object_get(j, "carried_iters"))) < 0 ||
            (l->carried_runs = num(json_object_get(j, "carried_runs"))) < 0) {
            snprintf(err, size,
                     "workload: line %u: bad 'carried', 'carried_iters' or "
                     "'carried_runs'",
                     l->line);
            return -1;
        }
        /* runs saved before it was counted: the mean length */
        if (json_object_get(j, "carried_len") &&
            (l->carried_len = num(json_object_get(j, "carried_len"))) < 0) {
            snprintf(err, size, "workload: line %u: 'carried_len' is not a number >= 0", l->line);
            return -1;
        }
        /* runs saved before chains were counted by length: the weighted length alone */
        if (json_object_get(j, "carried_lens") &&
            (reals_back(json_object_get(j, "carried_lens"), l->carried_lens, AUGUR_CARRIED_LENS,
                        "carried_lens", err, size) ||
             reals_back(json_object_get(j, "carried_lens_len"), l->carried_lens_len,
                        AUGUR_CARRIED_LENS, "carried_lens_len", err, size)))
            return -1;
        json_object_foreach(car, key, v)
        {
            int k = opkind_of(key);

            if (k < 0 || (l->carried[k] = num(v)) < 0) {
                snprintf(err, size, "workload: line %u: bad carried operation '%s'", l->line, key);
                return -1;
            }
        }
    }
    ops = json_object_get(j, "instr");
    el = json_object_get(j, "elems");
    if (!json_is_object(ops) || !json_is_object(el)) {
        snprintf(err, size, "workload: line %u: 'instr' and 'elems' must be objects", l->line);
        return -1;
    }
    json_object_foreach(ops, key, v)
    {
        int k = opkind_of(key);

        if (k < 0 || (l->instr[k] = num(v)) < 0 ||
            (l->elems[k] = num(json_object_get(el, key))) < 0) {
            snprintf(err, size, "workload: line %u: bad operation '%s'", l->line, key);
            return -1;
        }
    }
    return 0;
}

/* The GPU counts and the rounds of a saved workload (both optional). */
static int extras_back(json_t *j, struct augur_workload *w, char *err, size_t size)
{
    json_t *rs = json_object_get(j, "rounds"), *g = json_object_get(j, "gpu");

    if (json_object_get(j, "load_steps") &&
        (w->load_steps = num(json_object_get(j, "load_steps"))) < 0) {
        snprintf(err, size, "workload: 'load_steps' is negative");
        return -1;
    }
    if (rs) {
        if (!json_is_array(rs) || json_array_size(rs) == 0 || json_array_size(rs) > UINT32_MAX) {
            snprintf(err, size, "workload: 'rounds' must be a list of rounds");
            return -1;
        }
        w->nrounds = (uint32_t)json_array_size(rs);
        w->rounds = augur_calloc(w->nrounds, sizeof(*w->rounds));
        for (uint32_t k = 0; k < w->nrounds; k++) {
            json_t *r = json_array_get(rs, k);

            if ((w->rounds[k].accesses = num(json_object_get(r, "accesses"))) < 0) {
                snprintf(err, size,
                         "workload: round %u: 'accesses' is missing, negative or over 1e300",
                         k + 1);
                return -1;
            }
            if (reals_back(json_object_get(r, "served"), w->rounds[k].served, w->nlevels + 1,
                           "rounds.served", err, size))
                return -1;
        }
    }
    if (g) {
        struct augur_work_gpu *o = &w->gpu;
        const char *keys[] = { "jobs",     "max_warp_jobs", "slots",           "launches",
                               "row_hits", "row_misses",    "dram_write_bytes" };
        double *dst[] = { &o->jobs,     &o->max_warp_jobs, &o->slots,           &o->launches,
                          &o->row_hits, &o->row_misses,    &o->dram_write_bytes };

        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
            if ((*dst[i] = num(json_object_get(g, keys[i]))) < 0) {
                snprintf(err, size, "workload: gpu.%s is missing, negative or over 1e300", keys[i]);
                return -1;
            }
        if (reals_back(json_object_get(g, "sector_hits"), o->sector_hits, w->nlevels + 1,
                       "gpu.sector_hits", err, size) ||
            reals_back(json_object_get(g, "load_reach"), o->load_reach, w->nlevels + 1,
                       "gpu.load_reach", err, size))
            return -1;
        /* optional (zeros without it): the sectors the loads asked of each cache */
        if (json_object_get(g, "read_sectors") &&
            reals_back(json_object_get(g, "read_sectors"), o->read_sectors, w->nlevels,
                       "gpu.read_sectors", err, size))
            return -1;
        /* optional (zeros without them): the warp branches, the divergent ones no more */
        if (json_object_get(g, "branches") &&
            ((o->branches = num(json_object_get(g, "branches"))) < 0 ||
             (o->divergent_branches = num(json_object_get(g, "divergent_branches"))) < 0 ||
             o->divergent_branches > o->branches)) {
            snprintf(err, size,
                     "workload: gpu.branches and gpu.divergent_branches must be numbers, "
                     "the divergent no more than the branches");
            return -1;
        }
        w->gpu_given = true;
    }
    return 0;
}

static int workload_back(json_t *j, struct augur_workload *w, char *err, size_t size)
{
    static const char *const fields[] = { "footprint_bytes", "flops",      "busiest_share",
                                          "simd_util",       "calls",      "parallel",
                                          "tile_size",       "tile_edges", "chunks",
                                          "avg_mimd" };
    json_t *names, *lines;
    double *dst[10];
    size_t n;

    memset(w, 0, sizeof(*w));
    dst[0] = &w->footprint_bytes;
    dst[1] = &w->flops;
    dst[2] = &w->busiest_share;
    dst[3] = &w->simd_util;
    dst[4] = &w->calls;
    dst[5] = &w->parallel;
    dst[6] = &w->tile_size;
    dst[7] = &w->tile_edges;
    dst[8] = &w->chunks;
    dst[9] = &w->avg_mimd;
    if (!json_is_object(j)) {
        snprintf(err, size, "no 'workload' object (run augur predict --json)");
        return -1;
    }
    names = json_object_get(j, "levels");
    lines = json_object_get(j, "lines");
    n = json_array_size(names);
    if (n < 2 || n > AUGUR_WORK_MAX_LEVELS || !json_is_array(lines)) {
        snprintf(err, size, "workload: 'levels' needs 2 to %d names and 'lines' a list",
                 AUGUR_WORK_MAX_LEVELS);
        return -1;
    }
    w->nlevels = (unsigned)n - 1;
    for (size_t i = 0; i < n; i++) {
        const char *s = json_string_value(json_array_get(names, i));

        if (!s || !plain_name(s)) {
            snprintf(err, size, "workload: level %zu has no name or a control character in it", i);
            return -1;
        }
        snprintf(w->level_name[i], sizeof(w->level_name[i]), "%s", s);
    }
    w->threads = (unsigned)json_integer_value(json_object_get(j, "threads"));
    if (w->threads < 1 || w->threads > AUGUR_CACHESIM_MAX_THREADS) {
        snprintf(err, size, "workload: 'threads' must be 1 to %d", AUGUR_CACHESIM_MAX_THREADS);
        return -1;
    }
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        if ((*dst[i] = num(json_object_get(j, fields[i]))) < 0) {
            snprintf(err, size, "workload: '%s' is missing, negative or over 1e300", fields[i]);
            return -1;
        }
    /* runs saved before it was counted: every thread keeps its own part */
    if (json_object_get(j, "dealt_share") &&
        !((w->dealt_share = num(json_object_get(j, "dealt_share"))) >= 0 && w->dealt_share <= 1)) {
        snprintf(err, size, "workload: 'dealt_share' must be 0 to 1");
        return -1;
    }
    /* runs saved before it was counted allocate nothing */
    if (json_object_get(j, "alloc_bytes") &&
        (w->alloc_bytes = num(json_object_get(j, "alloc_bytes"))) < 0) {
        snprintf(err, size, "workload: 'alloc_bytes' is negative");
        return -1;
    }
    w->alloc_blocks = w->alloc_bytes > 0 ? 1 : 0;
    if (json_object_get(j, "alloc_blocks") &&
        (w->alloc_blocks = num(json_object_get(j, "alloc_blocks"))) < 0) {
        snprintf(err, size, "workload: 'alloc_blocks' is negative");
        return -1;
    }
    /* runs saved before the epochs were counted: none measured */
    if (json_object_get(j, "overlap")) {
        json_t *ov = json_object_get(j, "overlap");

        if (!json_is_array(ov) || json_array_size(ov) != w->nlevels + 1) {
            snprintf(err, size, "workload: 'overlap' needs %u lists", w->nlevels + 1);
            return -1;
        }
        for (unsigned i = 0; i <= w->nlevels; i++)
            if (reals_back(json_array_get(ov, i), w->overlap[i], AUGUR_WORK_NWINDOWS, "overlap",
                           err, size) < 0)
                return -1;
    }
    if (reals_back(json_object_get(j, "irr_requests"), w->irr_requests, w->nlevels + 1,
                   "irr_requests", err, size) ||
        reals_back(json_object_get(j, "irr_hits"), w->irr_hits, w->nlevels + 1, "irr_hits", err,
                   size) ||
        line_back(json_object_get(j, "total"), &w->total, w->nlevels, err, size))
        return -1;
    w->nlines = json_array_size(lines);
    w->lines = augur_calloc(w->nlines ? w->nlines : 1, sizeof(*w->lines));
    for (size_t i = 0; i < w->nlines; i++)
        if (line_back(json_array_get(lines, i), &w->lines[i], w->nlevels, err, size)) {
            augur_workload_release(w);
            return -1;
        }
    return 0;
}

int augur_workload_from_json(const json_t *cj, struct augur_workload *w, struct augur_diag *diag)
{
    json_t *j = (json_t *)cj; /* jansson's getters take no const */
    char err[200];

    if (workload_back(j, w, err, sizeof(err)) == 0 && extras_back(j, w, err, sizeof(err)) == 0)
        return 0;
    augur_workload_release(w);
    return augur_diag_set(diag, AUGUR_EPARSE, NULL, 0, 0, "%s", err);
}

int augur_saved_run_parse(const char *text, size_t len, const char *path,
                          struct augur_saved_run *out, struct augur_diag *diag)
{
    json_error_t je;
    json_t *doc, *meas;
    const char *ds, *slash;
    struct augur_diag wd;
    int rc;

    doc = json_loadb(text, len, 0, &je);
    if (!doc && je.line > 0)
        return augur_diag_set(diag, AUGUR_EPARSE, path, (uint32_t)je.line,
                              (uint32_t)(je.column > 0 ? je.column : 1), "%s", je.text);
    if (!doc)
        return augur_diag_set(diag, AUGUR_EPARSE, path, 0, 0, "%s", je.text);
    meas = json_object_get(json_object_get(doc, "measured"), "median");
    ds = json_string_value(json_object_get(doc, "dataset"));
    if (!json_is_number(meas) || !(json_number_value(meas) > 0) || !ds) {
        json_decref(doc);
        return augur_diag_set(diag, AUGUR_EPARSE, path, 0, 0,
                              "no measured time or dataset (run augur predict --measure --json)");
    }
    memset(out, 0, sizeof(*out));
    out->measured = json_number_value(meas);
    slash = strrchr(ds, '/');
    snprintf(out->dataset, sizeof(out->dataset), "%s", slash ? slash + 1 : ds);
    augur_diag_init(&wd);
    rc = augur_workload_from_json(json_object_get(doc, "workload"), &out->work, &wd);
    json_decref(doc);
    if (rc)
        return augur_diag_set(diag, rc, path, 0, 0, "%s", wd.msg);
    return 0;
}
