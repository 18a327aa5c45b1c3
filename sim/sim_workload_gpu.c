/*
 * sim_workload_gpu.c - a CUDA kernel's simulation as the GPU models read it:
 * the warps' jobs, the sectors each level served, the DRAM rows, W_max
 * (module: sim).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "augur/sim.h"

#define SECTOR_BYTES 32.0 /* NVIDIA's unit of transfer below L1 */

/* x rounded up to a multiple of unit (0: x). */
static uint64_t round_up(uint64_t x, uint64_t unit)
{
    return unit > 1 ? (x + unit - 1) / unit * unit : x;
}

int augur_gpu_occupancy(const struct augur_machine *m, uint64_t block,
                        const struct augur_gpu_block_use *use, struct augur_gpu_occupancy *out,
                        struct augur_diag *diag)
{
    const struct augur_machine_gpu *g = &m->gpu;
    uint64_t ws = g->warp_size ? g->warp_size : 32, wpb = (block + ws - 1) / ws,
             per_sm = UINT32_MAX;
    const char *limit = "warps";

    memset(out, 0, sizeof(*out));
    if (use)
        out->use = *use;
    if (!block || wpb > UINT32_MAX)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "occupancy: a block of %llu threads",
                              (unsigned long long)block);
    if (g->max_warps_per_sm) {
        if (wpb > g->max_warps_per_sm)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "a block of %llu threads is %llu warps, more than an SM of "
                                  "'%s' holds (%u): the launch fails on this GPU",
                                  (unsigned long long)block, (unsigned long long)wpb, m->name,
                                  g->max_warps_per_sm);
        per_sm = g->max_warps_per_sm / wpb;
    }
    if (g->max_blocks_per_sm && g->max_blocks_per_sm < per_sm) {
        per_sm = g->max_blocks_per_sm;
        limit = "blocks";
    }
    if (use && use->regs && g->registers_per_sm) {
        uint64_t per_block = round_up((uint64_t)use->regs * ws, g->register_alloc_unit) * wpb;

        if (per_block > g->registers_per_sm)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "a block of %llu threads at %u registers each takes %llu "
                                  "registers, more than an SM of '%s' has (%u): the launch "
                                  "fails on this GPU",
                                  (unsigned long long)block, use->regs,
                                  (unsigned long long)per_block, m->name, g->registers_per_sm);
        if (g->registers_per_sm / per_block < per_sm) {
            per_sm = g->registers_per_sm / per_block;
            limit = "registers";
        }
    }
    if (use && use->shared_bytes && g->shared_memory_per_sm) {
        uint64_t per_block =
            round_up(use->shared_bytes + g->shared_reserved_per_block, g->shared_alloc_unit);

        if (per_block > g->shared_memory_per_sm)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "a block's %llu bytes of shared memory do not fit an SM of "
                                  "'%s' (%llu): the launch fails on this GPU",
                                  (unsigned long long)use->shared_bytes, m->name,
                                  (unsigned long long)g->shared_memory_per_sm);
        if (g->shared_memory_per_sm / per_block < per_sm) {
            per_sm = g->shared_memory_per_sm / per_block;
            limit = "shared memory";
        }
    }
    if (per_sm == UINT32_MAX)
        per_sm = 1; /* a machine file without the limits: one block at a time */
    out->warps_per_block = (uint32_t)wpb;
    out->blocks_per_sm = (uint32_t)per_sm;
    out->warps_per_sm = (uint32_t)(per_sm * wpb);
    out->occupancy = g->max_warps_per_sm ? (double)out->warps_per_sm / g->max_warps_per_sm : 0;
    out->limit = limit;
    return 0;
}

uint64_t augur_gpu_static_shared(const struct augur_node *kernel)
{
    uint64_t bytes = 0;

    for (uint32_t i = 0; i < kernel->u.kernel.narrays; i++) {
        const struct augur_array *a = &kernel->u.kernel.arrays[i];

        if (a->space == AUGUR_SPACE_SHARED && a->extent && a->extent->kind == AUGUR_EXPR_INT &&
            a->extent->u.i > 0)
            bytes += (uint64_t)a->extent->u.i * a->elem_size;
    }
    return bytes;
}

int augur_workload_gpu(const struct augur_sim_profile *prof, const struct augur_machine *m,
                       double calls, double launches, const struct augur_gpu_occupancy *occ,
                       struct augur_workload *w, struct augur_diag *diag)
{
    struct augur_gpu_occupancy limits;
    const struct augur_machine_gpu *g = &m->gpu;
    uint64_t sms = g->sms ? g->sms : m->cores, ws = g->warp_size ? g->warp_size : 32;
    uint64_t block = prof->stats.block, grid = prof->stats.grid, wpb, per_sm, nslots, most = 0;
    const struct augur_cache_counts *mem;
    double *slot = NULL, busiest = 0, filled = 0, read_share;
    const uint64_t *reach = prof->warp_load_reach; /* the busiest slot's loads by deepest level */
    uint64_t slot_reach[AUGUR_CACHESIM_MAX_LEVELS + 1] = { 0 };
    unsigned nl = prof->nlevels;

    if (!prof->warp_loads || !block || !grid)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "GPU workload: the simulation ran no CUDA launch");
    if (!sms || !(calls > 0))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "GPU workload: machine '%s' gives no SM count", m->name);
    wpb = (block + ws - 1) / ws;
    /* blocks resident per SM: the occupancy's, and no more than the launch has */
    if (!occ && augur_gpu_occupancy(m, block, NULL, &limits, diag) != 0)
        return diag ? diag->code : AUGUR_EINVAL;
    per_sm = (occ ? occ : &limits)->blocks_per_sm;
    if (per_sm > (grid + sms - 1) / sms)
        per_sm = (grid + sms - 1) / sms;
    if (per_sm == 0)
        per_sm = 1;
    nslots = sms * per_sm * wpb;
    memset(&w->gpu, 0, sizeof(w->gpu));
    if (prof->nwarps && (slot = augur_calloc(nslots, sizeof(*slot)))) {
        /* block b runs on SM b mod sms (as the simulator deals them), in the slot its turn gives */
        for (size_t id = 0; id < prof->nwarps; id++) {
            uint64_t b = id / wpb, s = ((b % sms) * per_sm + (b / sms) % per_sm) * wpb + id % wpb;

            slot[s] += prof->jobs_per_warp[id];
        }
        for (uint64_t s = 0; s < nslots; s++) {
            if (slot[s] > busiest) {
                busiest = slot[s];
                most = s;
            }
            filled += slot[s] > 0;
        }
        augur_free(slot);
        if (prof->reach_per_warp && busiest > 0) {
            /* the warps that took the busiest slot's turns */
            for (size_t id = 0; id < prof->nwarps; id++) {
                uint64_t b = id / wpb,
                         s = ((b % sms) * per_sm + (b / sms) % per_sm) * wpb + id % wpb;
                const uint32_t *r = prof->reach_per_warp + id * (AUGUR_CACHESIM_MAX_LEVELS + 1);

                if (s != most)
                    continue;
                for (unsigned l = 0; l <= AUGUR_CACHESIM_MAX_LEVELS; l++)
                    slot_reach[l] += r[l];
            }
            reach = slot_reach;
        }
    } else {
        /* no table: the jobs spread evenly over the slots the launch fills */
        filled = (double)(grid * wpb < nslots ? grid * wpb : nslots);
        busiest = (double)prof->warp_loads / filled;
    }
    /* runs one after another (a BFS's rounds): each waits for its own busiest warp */
    if (launches > 1 && (double)prof->run_max_loads > busiest) {
        busiest = (double)prof->run_max_loads;
        reach = prof->run_max_reach;
    }
    w->gpu.jobs = (double)prof->warp_loads / calls;
    w->gpu.max_warp_jobs = busiest / calls;
    w->gpu.slots = filled;
    w->gpu.launches = launches;
    /* loads only: Pai et al. AGP'17 does not model writes, which no warp waits for */
    for (unsigned l = 0; l < nl && l < AUGUR_WORK_MAX_LEVELS - 1; l++) {
        const struct augur_cache_counts *c = &prof->level[l];
        uint64_t reads = c->sector_accesses - c->sector_writes;
        uint64_t read_misses = c->sector_misses - c->sector_write_misses;

        w->gpu.sector_hits[l] = (double)(reads - read_misses) / calls;
        w->gpu.read_sectors[l] = (double)reads / calls;
        w->gpu.load_reach[l] = (double)reach[l] / calls;
    }
    if (nl < AUGUR_WORK_MAX_LEVELS)
        w->gpu.load_reach[nl] = (double)reach[nl] / calls;
    mem = &prof->level[nl];
    read_share = mem->accesses ? (double)(mem->accesses - mem->writes) / (double)mem->accesses : 0;
    w->gpu.sector_hits[nl] = (double)mem->fill_bytes / SECTOR_BYTES / calls;
    w->gpu.row_hits = (double)mem->row_hits * read_share / calls;
    w->gpu.row_misses = (double)mem->row_misses * read_share / calls;
    w->gpu.dram_write_bytes = (double)prof->level[nl].writeback_bytes / calls;
    w->gpu.branches = (double)prof->stats.warp_branches / calls;
    w->gpu.divergent_branches = (double)prof->stats.divergent_branches / calls;
    w->gpu_given = true;
    return 0;
}
