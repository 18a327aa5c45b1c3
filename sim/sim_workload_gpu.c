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

int augur_workload_gpu(const struct augur_sim_profile *prof, const struct augur_machine *m,
                       double calls, double launches, struct augur_workload *w,
                       struct augur_diag *diag)
{
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
    /* blocks resident per SM: the warp and block limits, and no more than the launch has */
    per_sm = g->max_warps_per_sm ? g->max_warps_per_sm / wpb : 1;
    if (g->max_blocks_per_sm && per_sm > g->max_blocks_per_sm)
        per_sm = g->max_blocks_per_sm;
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
    w->gpu_given = true;
    return 0;
}
