/*
 * sim_config.c - the cache simulator's configuration from a machine file:
 * levels, sharing by thread placement, policies, DRAM rows (module: sim).
 */
#include <stdio.h>
#include <string.h>

#include "augur/sim.h"

/* every cache a machine file accepts fits the simulator, every predictor the interpreter */
_Static_assert(AUGUR_MACHINE_MAX_HISTORIES <= AUGUR_INTERP_BP_MAX_TABLES, "tables fit");
_Static_assert(AUGUR_MACHINE_MAX_BYTES <= AUGUR_CACHESIM_MAX_BYTES &&
                   AUGUR_MACHINE_MAX_LINE <= AUGUR_CACHESIM_MAX_LINE,
               "machine caches fit the simulator");

int augur_cache_config_from_machine(const struct augur_machine *m, unsigned nthreads,
                                    struct augur_cache_config *cfg, struct augur_diag *diag)
{
    const char *file = m->path && m->path[0] ? m->path : NULL;
    uint32_t units, tpc = m->threads_per_core ? m->threads_per_core : 1, per_unit = 1, i;

    memset(cfg, 0, sizeof(*cfg));
    if (nthreads == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, file, 0, 0, "0 simulator threads");
    if (m->ncaches == 0)
        return augur_diag_set(diag, AUGUR_EMODEL, file, 0, 0,
                              "machine '%s' has no cache levels to simulate", m->name);
    if (m->ncaches > AUGUR_CACHESIM_MAX_LEVELS)
        return augur_diag_set(diag, AUGUR_EMODEL, file,
                              m->caches[AUGUR_CACHESIM_MAX_LEVELS].loc.line,
                              m->caches[AUGUR_CACHESIM_MAX_LEVELS].loc.col,
                              "machine '%s': the simulator takes at most %d cache levels", m->name,
                              AUGUR_CACHESIM_MAX_LEVELS);
    units = m->kind == AUGUR_MACHINE_GPU ? (m->gpu.sms ? m->gpu.sms : m->cores) : m->cores;
    if (units) {
        uint64_t most = m->kind == AUGUR_MACHINE_GPU ? units : (uint64_t)units * tpc;

        if (nthreads > most)
            return augur_diag_set(diag, AUGUR_ERANGE, file, m->loc_cores.line, m->loc_cores.col,
                                  "%u threads, but machine '%s' runs at most %llu", nthreads,
                                  m->name, (unsigned long long)most);
        per_unit = (nthreads + units - 1) / units;
    }
    cfg->nlevels = m->ncaches;
    for (i = 0; i < m->ncaches; i++) {
        const struct augur_machine_cache *c = &m->caches[i];
        struct augur_cache_level_config *lc = &cfg->level[i];

        if (!c->size || !c->line)
            return augur_diag_set(diag, AUGUR_EMODEL, file, c->loc.line, c->loc.col,
                                  "machine '%s': cache %s gives no %s, which the simulator needs",
                                  m->name, c->name, c->size ? "line size" : "size");
        snprintf(lc->name, sizeof(lc->name), "%.15s", c->name);
        lc->size = c->size;
        lc->line = c->line;
        lc->sector = c->sector;
        lc->ways = c->ways > 0 ? (uint32_t)c->ways : 0;
        lc->shared_by = (c->shared_by ? c->shared_by : 1) * per_unit;
        lc->inclusive = c->inclusive == 1;
        lc->write_policy = c->write_policy == AUGUR_WRITE_THROUGH ? AUGUR_CACHE_WRITE_THROUGH
                                                                  : AUGUR_CACHE_WRITE_BACK;
        lc->write_allocate_set = c->write_alloc >= 0;
        lc->write_allocate = c->write_alloc == 1;
        lc->prefetch = c->prefetch == AUGUR_PREFETCH_NEXT_LINE ? AUGUR_CACHE_PREFETCH_NEXT_LINE
                       : c->prefetch == AUGUR_PREFETCH_STRIDE  ? AUGUR_CACHE_PREFETCH_STRIDE
                                                               : AUGUR_CACHE_PREFETCH_NONE;
        lc->stride_entries = m->core.stride_entries
                                 ? m->core.stride_entries
                                 : augur_machine_cpu_defaults()->core.stride_entries;
        lc->replacement =
            c->replacement == AUGUR_REPL_ADAPTIVE ? AUGUR_CACHE_ADAPTIVE : AUGUR_CACHE_LRU;
    }
    cfg->dram.row_bytes = m->memory.row_buffer_bytes ? m->memory.row_buffer_bytes : 256;
    cfg->dram.banks = m->memory.banks ? m->memory.banks : 16;
    cfg->dram.policy = m->kind == AUGUR_MACHINE_GPU ? AUGUR_DRAM_LRU : AUGUR_DRAM_OPEN_BANK;
    cfg->coherent = m->kind != AUGUR_MACHINE_GPU;
    if (cfg->dram.policy == AUGUR_DRAM_LRU && cfg->dram.banks > 256)
        cfg->dram.banks = 256;
    return 0;
}

bool augur_bp_config_from_machine(const struct augur_machine *m, struct augur_bp_config *out)
{
    const struct augur_machine_bpred *d = &augur_machine_cpu_defaults()->branch_predictor,
                                     *g = &m->branch_predictor;
    const struct augur_machine_bpred *h = g->nhistories ? g : d;

    if (m->kind != AUGUR_MACHINE_CPU)
        return false;
    memset(out, 0, sizeof(*out));
    out->bias_entries = g->bias_entries ? g->bias_entries : d->bias_entries;
    out->tagged_entries = g->tagged_entries ? g->tagged_entries : d->tagged_entries;
    out->tag_bits = g->tag_bits ? g->tag_bits : d->tag_bits;
    out->aging_log2 = g->aging_log2 ? g->aging_log2 : d->aging_log2;
    out->ntables = h->nhistories;
    memcpy(out->history, h->histories, h->nhistories * sizeof(*h->histories));
    return true;
}

void augur_codegen_from_machine(const struct augur_machine *m, struct augur_codegen *out)
{
    const struct augur_machine_simd *d = &augur_machine_cpu_defaults()->simd;

    out->pack_bytes = m->simd.pack_bytes ? m->simd.pack_bytes : d->pack_bytes;
    out->register_elems = m->simd.register_elems ? m->simd.register_elems : d->register_elems;
}

void augur_sim_streams_from_machine(const struct augur_machine *m, struct augur_sim_opts *so)
{
    const struct augur_machine_core *d = &augur_machine_cpu_defaults()->core;

    so->streams = m->core.prefetch_streams ? m->core.prefetch_streams : d->prefetch_streams;
    so->stream_reach = m->core.prefetch_reach ? m->core.prefetch_reach : d->prefetch_reach;
}
