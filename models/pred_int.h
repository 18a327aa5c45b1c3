/*
 * pred_int.h - the predictor's private declarations: the model registry (module: models).
 */
#ifndef AUGUR_PRED_INT_H
#define AUGUR_PRED_INT_H

#include "augur/models.h"

/*
 * Every model, in the order `augur predict` lists them. A new model is one
 * file defining augur_model_<name> and one entry here.
 */
/* clang-format off */
#define AUGUR_MODELS(X) \
    X(bw)               \
    X(opa)              \
    X(skope)
/* clang-format on */

#define X(n) extern const struct augur_model_ops augur_model_##n;
AUGUR_MODELS(X)
#undef X

/*
 * The machine as the workload-driven models read it at a thread count,
 * every default filled in (docs/models.md, "Machine rates").
 */
struct pred_rates {
    unsigned threads;
    double clock_ghz;
    double loads_per_cycle, stores_per_cycle, fp_ops_per_cycle, int_ops_per_cycle, issue_width;
    double inflight, window, mlp, branch_miss_cycles, atomic_cycles, atomic_mlp, region_ns,
        chain_cycles, chain_loop_instr, chunk_ns;
    double region1_ns;                /* a region of one thread: 0 unless the machine gives it */
    double fadd_latency, fma_latency; /* cycles a loop-carried add, multiply-add waits */
    int fused_chains;   /* the machine's core.fused_chains: 1 fused, 0 split, -1 not given */
    double fdiv_cycles; /* cycles a division holds the divider */
    /* the ops section: cycles of operations no calibration measures */
    double op_fmath, op_idiv, op_conflict, op_reduce, fsqrt_per_fdiv;
    double overlap_norm; /* model.overlap_norm: the L^p norm issue, memory and chains add in */
    double instr;        /* the kernel's loads, stores and operations per call */
    double accesses;     /* its memory accesses (events) per call */
    double chained;      /* of its updates, those a recent update of the same element chains */
    unsigned nlevels;    /* caches; index nlevels is memory */
    double latency_ns[AUGUR_WORK_MAX_LEVELS];
    double bw_gbs[AUGUR_WORK_MAX_LEVELS];     /* all threads together, read from the level */
    double line_bytes[AUGUR_WORK_MAX_LEVELS]; /* a transfer from the level */
    const struct augur_curve_point *mem_curve;
    uint32_t nmem_curve;
    /*
     * Misses in flight for a request served at level i: as many as the
     * window of instructions holds of those served there or further, at
     * most mlp (docs/models.md, "Misses in flight").
     */
    double inflight_at[AUGUR_WORK_MAX_LEVELS];
    double transfer_ns; /* a line passing between cores, at its misses in flight; 0: none given */
    double atomic_transfer_ns; /* the same for a locked update: one at a time */
    double branch_left; /* of the workload's mispredictions, the share the predictor leaves */
    /* the machine's branch_run_cycles and branch_run_left curves (none: n 0) */
    const struct augur_curve_point *run_cycles, *run_left;
    uint32_t nrun_cycles, nrun_left;
    const struct augur_curve_point *chain_runs; /* cycles per update by chain length */
    uint32_t nchain_runs;
    double alloc_ns; /* the busiest thread's fresh memory per call: its pages' faults */
    double gather_cycles, scatter_cycles; /* per element */
};

/*
 * Fills r from machine m for threads threads and the workload's levels.
 * Returns 0, or AUGUR_EMODEL naming what the machine lacks.
 */
int pred_rates_of(const struct augur_machine *m, const struct augur_workload *w,
                  struct pred_rates *r, struct augur_diag *diag);

/*
 * Cycles a line's mispredicted branches cost the thread per call: each
 * rare outcome at the cost the machine's curve gives its mean run (the
 * calibrated miss cost scaled by the curve), times the share a replayed
 * pattern leaves: the larger of what the predictor's capacity and its
 * history's reach over the run leave.
 */
double pred_branch_cycles(const struct pred_rates *r, const struct augur_work_line *l);

/* Cycles one instruction of kind k takes to issue (reciprocal throughput). */
double pred_op_cycles(const struct pred_rates *r, enum augur_opkind k);

/*
 * Nanoseconds one request served by level i (1 .. nlevels, nlevels memory)
 * costs a thread when up to m requests overlap: the latency over m, not
 * below the thread's share of the level's bandwidth.
 */
double pred_serve_ns(const struct pred_rates *r, unsigned i, double m);

/*
 * Nanoseconds one request of a direct (affine) access served by level i
 * costs a thread: the hardware prefetchers run ahead of a stream, so it
 * waits for the level's bandwidth, not its latency (the latency over the
 * misses in flight where the machine gives no bandwidth).
 */
double pred_stream_ns(const struct pred_rates *r, unsigned i);

/*
 * The GPU forms of Model 1 and Model 2 (pred_gpu.c), for a workload with
 * gpu_given: same contracts as the models' predict and explain.
 */
int pred_gpu_bw_predict(const struct augur_model_input *mi, struct augur_prediction *out,
                        struct augur_diag *diag);
int pred_gpu_bw_explain(const struct augur_model_input *mi, struct augur_buf *buf,
                        struct augur_diag *diag);
int pred_gpu_opa_predict(const struct augur_model_input *mi, struct augur_prediction *out,
                         struct augur_diag *diag);
int pred_gpu_opa_explain(const struct augur_model_input *mi, struct augur_buf *buf,
                         struct augur_diag *diag);

/* True when the models read a CUDA kernel's GPU counts. */
static inline bool pred_is_gpu(const struct augur_model_input *in)
{
    return in && !in->bw && !in->opa && in->work && in->machine && in->work->gpu_given;
}

#endif
