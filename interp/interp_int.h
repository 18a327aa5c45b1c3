/*
 * interp_int.h - what the files of the skeleton interpreter share: the
 * bytecode, the run-time arrays and thread contexts (module: interp).
 */
#ifndef AUGUR_INTERP_INT_H
#define AUGUR_INTERP_INT_H

#include <stdint.h>

#include "augur/interp.h"

/*
 * Opcodes. Registers hold integers normalised to their type (signed types
 * sign-extended, unsigned zero-extended, bool 0/1) and floating values as
 * double (f32 values rounded to float). a is the destination register, b
 * and c the sources, d a jump target or table index, e a count slot.
 */
/* clang-format off */
#define INTERP_OPS(X)                                                                    \
    X(END) X(JMP) X(JZ) X(JNZ) X(JLTS) X(JLTU) X(JLES) X(JLEU) X(JEQ) X(JNE)             \
    X(MOV) X(LDI) X(ADD) X(SUB) X(MUL) X(ADDI) X(ADD32S) X(ADD32U) X(ADDI32S) X(ADDI32U) \
    X(DIVS) X(DIVU) X(MODS) X(MODU) X(SHL) X(SHRS) X(SHRU) X(AND) X(OR) X(XOR)           \
    X(NEG) X(BNOT) X(LNOT) X(MINS) X(MINU) X(MAXS) X(MAXU)                               \
    X(LTS) X(LTU) X(LES) X(LEU) X(EQ) X(NE)                                              \
    X(SEXT8) X(SEXT16) X(SEXT32) X(ZEXT8) X(ZEXT16) X(ZEXT32) X(BOOL)                    \
    X(FADD) X(FSUB) X(FMUL) X(FDIV) X(FNEG) X(FMIN) X(FMAX) X(FLT) X(FLE) X(FEQ) X(FNE)  \
    X(F32) X(I2F) X(U2F) X(F2I) X(F2U)                                                   \
    X(LD32U) X(LD32S) X(LD64) X(LD) X(ST) X(EV) X(EVL) X(CNT) X(PROB) X(RAND) X(TRIPS)   \
    X(FORK) X(JOIN) X(WSBEGIN) X(WSNEXT) X(WSEND) X(BARRIER) X(SINGLE) X(MASTER)         \
    X(NOP) X(LDS) X(STS)
/* clang-format on */

enum interp_op {
#define X(o) OP_##o,
    INTERP_OPS(X)
#undef X
        OP_COUNT
};

/* One instruction: 24 bytes. */
struct ins {
    uint8_t op;
    uint8_t x; /* a type, event flags, a relation */
    uint16_t a, b, c;
    uint32_t d;
    uint32_t e;
    union {
        int64_t i;
        double f;
    } imm;
};

/* Where an array's instance lives. */
enum arr_kind {
    ARR_GLOBAL,  /* one instance, bound to the dataset */
    ARR_PRIVATE, /* local space: one per simulator thread, made at its first access */
    ARR_SHARED,  /* CUDA __shared__: one per block */
};

/* An array instance as a context sees it. */
struct rt_arr {
    uint8_t *data;   /* element values, NULL when the slice never reads them */
    uint64_t extent; /* 0 until a private or shared instance is made */
    uint64_t base;   /* simulated address of element 0 */
    uint32_t esize;
    uint32_t owner; /* the instance's owner (private: simulator thread + 1; 0: none) */
};

/* Static facts about an array, fixed at compile and bind time. */
struct arr_info {
    enum arr_kind kind;
    enum augur_type elem;
    uint32_t esize;
    bool needs_data; /* read by the slice */
    bool written;    /* stored into with a value by the slice */
    const char *target;
    uint64_t extent; /* global arrays */
    uint8_t *data;   /* global arrays with data: the working copy (or the bound data itself) */
    uint8_t *orig;   /* written arrays: the bound contents, for augur_interp_reset_data() */
    bool aliased;    /* data is the bound data (read only, same representation): not freed */
    uint64_t base;   /* global arrays */
    bool is_level;   /* bound to a search's level array (the source says) */
    bool by_round;   /* its target's contents follow the round (bfs.*) */
    uint64_t target_count; /* elements its target holds */
};

/* A worksharing loop: its schedule and where its operands are. */
struct wsinfo {
    enum augur_sched sched;
    uint16_t chunk_reg; /* 0xffff: chunk below */
    uint16_t var;       /* loop variable register */
    uint16_t ops;       /* lb, lb in the comparison type, bound, step: four registers from here */
    enum augur_type vtype, ctype;
    enum augur_op rel; /* LT, LE, GT, GE, NE */
    bool nowait;
    uint32_t node;      /* local node index + 1 (count slot) */
    uint32_t exit_pc;   /* the WSEND */
    uint32_t red, nred; /* its array-section reductions: reds[red .. red + nred) */
    uint64_t chunk;     /* without chunk_reg: the schedule override's chunk (0: none) */
};

/*
 * An array-section reduction of a worksharing loop (reduction(+: y[lo:len])):
 * at the end of the loop each thread combines its partial into the original,
 * a read and a write of every element of the section, as libgomp does.
 */
struct redinfo {
    uint32_t array;
    int32_t lo_sym, len_sym; /* the bound's sym, or -1: the constant below */
    bool lo_shared, len_shared;
    int64_t lo, len; /* len < 0: up to the array's extent */
    uint32_t node;   /* the loop's access to the array whose line and count the events take */
    uint32_t slot;   /* its count slot */
    uint32_t per;    /* count per element: 1 on an update (two events each), else 2 */
    uint16_t size;   /* bytes per event: the access's */
};

/* A parallel region. */
struct forkinfo {
    uint16_t nt_reg; /* num_threads register, 0xffff: none */
    uint32_t node;
    uint32_t shared, nshared; /* its shared scalars: fork_shared[shared .. shared + nshared) */
};

/* A thread's progress in a worksharing loop. */
struct ws_priv {
    uint64_t seq; /* the team's worksharing construct number */
    uint32_t ws;  /* wsinfo index */
    uint64_t tstate;
    uint64_t cur, end; /* iterations of the current chunk left: [cur, end) */
    int64_t lb, step;
    bool solo;  /* a team of one (nested): every iteration */
    bool dealt; /* dynamic or guided, in a team of two or more */
    uint64_t niter, done;
};

/* A worksharing construct's shared progress (dynamic, guided, single). */
struct ws_shared {
    uint64_t seq;
    unsigned nleft; /* threads that have not finished it */
    struct augur_omp_loop loop;
    bool taken; /* single: a thread has taken it */
};

#define INTERP_WS_DEPTH 8

enum ctx_state { CTX_RUN, CTX_BLOCKED, CTX_DONE };

/* One simulated thread of execution: OpenMP thread or CUDA thread. */
struct ctx {
    union augur_value *r;
    struct rt_arr *arr;
    uint64_t *cnt; /* count slots of its simulator thread */
    uint32_t pc;
    enum ctx_state state;
    unsigned tid;       /* thread number in its team (CUDA: in its block) */
    unsigned simthread; /* simulator thread (events, caches, counts) */
    uint32_t warp;
    uint8_t lane;
    uint64_t clock; /* events so far */
    uint64_t phase_start;
    unsigned depth; /* parallel regions entered (1: in the team; more: nested teams of one) */
    uint64_t wsseq; /* worksharing constructs met in the current team */
    struct ws_priv ws[INTERP_WS_DEPTH];
    unsigned nws;
    int64_t saved_thread[INTERP_WS_DEPTH], saved_nthreads[INTERP_WS_DEPTH];
};

#define INTERP_MAX_SUBS 16
/* Bytes of values the interpreter holds for one array (bound, private or shared). */
#define INTERP_MAX_HELD (UINT64_C(1) << 34)
#define INTERP_EVCAP    AUGUR_INTERP_EVENT_BATCH

struct interp_sub {
    augur_event_fn *fn;
    void *ud;
};

struct trace_writer;

/*
 * A core's branch predictor, as the interpreter's conditional jumps feed it:
 * a TAGE (Seznec and Michaud, 2006), the design today's cores build on. A
 * table of 2-bit counters by the jump's address gives its bias; tagged
 * tables, indexed by the address and the last few to hundreds of outcomes
 * of every jump (a geometric series), learn the patterns and correlations
 * that decide it. The longest history whose entry matches predicts; a miss
 * allocates an entry with a longer one. The long histories tell apart the
 * places of a run of outcomes that later calls replay, as a core's do. The
 * sizes are the machine's (struct augur_bp_config). Odd fold widths (the
 * defaults' 13 index and 11 tag bits) keep a loop's own test, taken on
 * every other outcome, from filling the same half of a fold with ones.
 */
#define BP_MAX_THREADS 256 /* a CPU's cores, not a GPU's threads: each has its own tables */

struct bp_entry {
    uint16_t tag; /* 0: empty */
    int8_t ctr;   /* -4 .. 3: taken when >= 0 */
    uint8_t useful;
};

/* The last len outcomes folded into bits bits, kept up to date one outcome at a time. */
struct bp_fold {
    uint32_t value;
    uint8_t bits;
    uint8_t out; /* where the outcome leaving the history sits: its length mod bits */
};

/* The predictor's shape, from struct augur_bp_config: the same for every thread. */
struct bp_shape {
    uint32_t ntables;
    uint32_t tbits, tagbits, bbits; /* log2 of the entries of a tagged table; tag; log2 bias */
    uint32_t hmask;                 /* outcomes kept - 1: a power of two above the longest */
    uint64_t age_mask;              /* the useful bits age when clock & age_mask is 0 */
    uint32_t hist[AUGUR_INTERP_BP_MAX_TABLES];
};

struct bpred {
    uint32_t head;  /* the newest outcome's slot in hist */
    uint64_t clock; /* jumps seen: the useful bits age every 2^aging jumps */
    struct bp_fold index[AUGUR_INTERP_BP_MAX_TABLES], tag[AUGUR_INTERP_BP_MAX_TABLES];
    uint8_t *hist;           /* hmask + 1 outcomes */
    uint8_t *bias;           /* 1 << bbits counters */
    struct bp_entry *tagged; /* ntables << tbits entries, table by table */
    void *mem;               /* the three in one block */
    size_t bytes;
};

/*
 * CUDA: the warp branch instructions of the block being run. A warp's lanes
 * run in step, so the k-th time its lanes reach one conditional jump is one
 * instruction, whichever turn each lane reached it in (as the simulator
 * makes memory instructions, sim/sim_run.c); it diverges when some of the
 * lanes there take the jump and some do not. A block's instructions are
 * counted when it ends (the blocks run one after another).
 */
struct warp_branch {
    uint32_t reached, taken; /* lanes */
};

struct warp_branch_list { /* one warp's instructions at one jump, by occurrence */
    struct warp_branch *b;
    uint32_t n, cap;
};

struct warp_branches {
    int32_t *site;       /* per pc: its conditional jump's number, or -1; NULL: no jumps */
    uint32_t *site_node; /* per jump: its node, less the kernel's id */
    uint32_t nsites;
    uint32_t wpb;                   /* warps per block of the launch the tables are sized for */
    uint32_t *occ;                  /* per thread of the block and site: the times it reached it */
    struct warp_branch_list *lists; /* per warp of the block and site */
    uint64_t *node_instr, *node_divergent; /* per node of the kernel */
};

struct augur_interp {
    const struct augur_skel *skel;
    const struct augur_node *kernel;
    struct augur_source src; /* the data: a copy of the caller's, its ud borrowed */
    struct augur_interp_opts opts;
    uint32_t nnodes;  /* nodes of the kernel (ids kernel->id ...) */
    uint32_t narrays; /* the kernel's arrays */
    uint32_t nsyms;
    struct arr_info *ainfo;
    /* code */
    struct ins *code;
    uint32_t ncode;
    uint32_t *code_node; /* pc -> node id, for messages */
    uint32_t nregs;
    union augur_value *init_regs; /* syms bound, constants; copied into contexts */
    struct wsinfo *ws;
    uint32_t nws;
    struct forkinfo *forks;
    uint32_t nforks;
    struct redinfo *reds;
    uint32_t nreds;
    uint32_t *fork_shared;    /* sym indices of the regions' shared scalars */
    union augur_value *svals; /* the values of shared scalars while a team runs */
    int32_t cur_fork;         /* the region the team runs, or -1 */
    uint16_t lane_reg;
    int32_t sym_reg_thread, sym_reg_nthreads; /* omp.thread / omp.nthreads, or -1 */
    int32_t cuda_sym[13]; /* threadIdx.xyz blockIdx.xyz blockDim.xyz gridDim.xyz warpSize */
    int32_t round_sym;    /* the param whose binding reads the round (round, round-1), or -1 */
    uint32_t *acc_node;   /* access number -> node id */
    uint32_t naccesses;
    int32_t *node_acc; /* local node index -> access number or -1 */
    /* execution */
    unsigned nthreads; /* OpenMP team size or CUDA SMs: simulator threads */
    unsigned nctx;
    struct ctx *ctx;
    union augur_value *regfile; /* nctx x nregs */
    struct rt_arr *arrfile;     /* nctx x narrays */
    uint64_t *counts;           /* nthreads x (nnodes + 1) */
    struct bpred *bp;           /* per simulator thread (CPU kernels), or NULL */
    bool bp_off;                /* augur_interp_predict_branches(in, false) */
    struct bp_shape bps;
    uint64_t *mispredicts;   /* per node of the kernel: its jumps the predictor got wrong */
    struct warp_branches wb; /* CUDA kernels */
    unsigned team_size;
    bool team_active;
    unsigned arrived; /* threads waiting at the current barrier */
    unsigned joined;  /* threads at the end of the parallel region */
    struct ws_shared *wsh;
    unsigned nwsh, capwsh;
    /* private and shared array instances, owned here */
    uint8_t **inst;
    size_t ninst, capinst;
    uint64_t heap_cur, map_cur; /* the simulated allocator */
    uint64_t layout_heap0, layout_map0;
    /* events */
    struct augur_event *evbuf;
    size_t nev;
    struct interp_sub subs[INTERP_MAX_SUBS];
    unsigned nsubs;
    struct trace_writer *trace;
    /* random stand-ins */
    uint64_t rng;
    bool warned_opaque;
    /* limits and statistics */
    uint64_t max_steps, steps;
    struct augur_interp_stats stats;
    struct augur_thread_work *work;
    uint64_t level_stores; /* stores into bfs.level arrays in the current run */
    double phase_means;    /* sum over parallel phases of the mean events per thread */
    struct rt_arr *garr;   /* the arrays as a run starts (globals bound, the rest unmade) */
    /* the first error of a run */
    int err;
    struct augur_diag *diag;
};

/* ---- interp_compile.c ---- */
int interp_compile(struct augur_interp *in, struct augur_diag *diag);
/* The source location of a node id. */
void interp_where(const struct augur_interp *in, uint32_t node, const char **file, uint32_t *line,
                  uint32_t *col);
/* Reports a run-time failure at node id; returns AUGUR_ERUN. */
int interp_fail(struct augur_interp *in, uint32_t node, const char *fmt, ...) AUGUR_PRINTF(3, 4);
/* Sends a warning at node id to opts.on_warn. */
void interp_warn(struct augur_interp *in, uint32_t node, const char *fmt, ...) AUGUR_PRINTF(3, 4);

/* ---- interp_eval.c: the tree evaluator for extents and bind-time values ---- */
/*
 * Evaluates e over the registers r (syms) and the arrays arr; the value is
 * converted to type. Returns 0 or an error (index out of range, opaque
 * value, division by zero) reported at node.
 */
int interp_eval(struct augur_interp *in, const struct augur_expr *e, const union augur_value *r,
                const struct rt_arr *arr, uint32_t node, union augur_value *out);
/* Converts v of type from into type to (normalised). */
union augur_value interp_convert(union augur_value v, enum augur_type from, enum augur_type to);
/* Normalises an integer of type t held in 64 bits. */
int64_t interp_norm(int64_t v, enum augur_type t);
/* Reads / writes one element value of type t at p. */
union augur_value interp_read(const uint8_t *p, enum augur_type t);

/* ---- interp_bind.c: bindings to the source's data, and the layout ---- */
/* Fills ainfo's static facts (kinds, element sizes, which arrays the slice reads). */
void interp_prepare(struct augur_interp *in);
int interp_bind(struct augur_interp *in, struct augur_diag *diag);
/* Places a new instance of bytes bytes in the simulated address space. */
uint64_t interp_place(struct augur_interp *in, uint64_t bytes);
/*
 * Refills the arrays bound to bfs.* targets for round r (levels below r
 * kept, the rest unvisited; the frontier, visited nodes and parents to match).
 */
void interp_levels_for_round(struct augur_interp *in, int64_t round);

/* ---- interp_run.c ---- */
int interp_flush(struct augur_interp *in);

/* ---- interp_trace.c ---- */
void interp_trace_free(struct trace_writer *t);
/* The value of the round param (round_sym >= 0) at round r: its binding evaluated there. */
int interp_round_value(struct augur_interp *in, int64_t r, int64_t *out, struct augur_diag *diag);

#endif
