/*
 * machine_file.c - machine model files: YAML loading through libyaml's document
 * API, a table-driven schema, validation and the canonical dump (module: machine).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "augur/machine.h"

#define MAX_FILE_BYTES (1u << 20) /* machine files are small; refuse more */
#define MAX_FIELDS     32         /* fields of one section: the bits of marks.seen */
#define MAX_STR        64         /* longest name */
#define LIST_CAP       AUGUR_MACHINE_MAX_HISTORIES /* entries of every T_U32LIST array */

/* ---- the schema ---------------------------------------------------------- */

enum ftype {
    T_STR,     /* const char *, printable text */
    T_CNAME,   /* const char *, a cache level name: letters, digits, '_', '-', '.' */
    T_KIND,    /* enum augur_machine_kind */
    T_U32,     /* uint32_t integer */
    T_SIZE32,  /* uint32_t bytes, units accepted */
    T_SIZE64,  /* uint64_t bytes, units accepted */
    T_WAYS,    /* int32_t, -1 when not given */
    T_F64,     /* double */
    T_BOOL,    /* int8_t, -1 when not given */
    T_WPOL,    /* uint8_t enum augur_write_policy */
    T_PREF,    /* uint8_t enum augur_prefetch */
    T_REPL,    /* uint8_t enum augur_replacement */
    T_BW,      /* struct augur_bw_point *, count at noff */
    T_CURVE,   /* struct augur_curve_point *, count at noff */
    T_U32LIST, /* uint32_t[LIST_CAP], ascending and distinct, count at noff */
    T_SECTION, /* a nested mapping: sub names its table */
    T_CACHES,  /* the list of cache levels */
};

enum { F_REQ = 1, F_POW2 = 2, F_SIGNED = 4 };

enum sect { S_TOP, S_CORE, S_SIMD, S_CACHE, S_MEMORY, S_GPU, S_OPS, S_BPRED, S_MODEL, S_COUNT };

struct field {
    const char *key;
    enum ftype type;
    size_t off;  /* of the value within the section's struct */
    size_t noff; /* T_BW, T_CURVE, T_U32LIST: of the uint32_t count */
    unsigned flags;
    double min, max; /* inclusive range of numbers (T_F64: min is exclusive unless F_SIGNED) */
    enum sect sub;   /* T_SECTION */
};

#define M(f)  offsetof(struct augur_machine, f)
#define CO(f) offsetof(struct augur_machine_core, f)
#define SI(f) offsetof(struct augur_machine_simd, f)
#define C(f)  offsetof(struct augur_machine_cache, f)
#define ME(f) offsetof(struct augur_machine_memory, f)
#define G(f)  offsetof(struct augur_machine_gpu, f)
#define MO(f) offsetof(struct augur_machine_model, f)
#define OP(f) offsetof(struct augur_machine_ops, f)
#define BP(f) offsetof(struct augur_machine_bpred, f)

static const struct field top_fields[] = {
    { "name", T_STR, M(name), 0, F_REQ, 0, 0, 0 },
    { "kind", T_KIND, M(kind), 0, F_REQ, 0, 0, 0 },
    { "host_id", T_STR, M(host_id), 0, 0, 0, 0, 0 },
    { "clock_ghz", T_F64, M(clock_ghz), 0, 0, 0, 20, 0 },
    { "cores", T_U32, M(cores), 0, 0, 1, AUGUR_MACHINE_MAX_CORES, 0 },
    { "threads_per_core", T_U32, M(threads_per_core), 0, 0, 1, 64, 0 },
    { "registers_bytes", T_SIZE64, M(registers_bytes), 0, 0, 1, 1 << 30, 0 },
    { "core", T_SECTION, M(core), 0, 0, 0, 0, S_CORE },
    { "simd", T_SECTION, M(simd), 0, 0, 0, 0, S_SIMD },
    { "caches", T_CACHES, M(caches), M(ncaches), 0, 0, 0, 0 },
    { "memory", T_SECTION, M(memory), 0, 0, 0, 0, S_MEMORY },
    { "gpu", T_SECTION, M(gpu), 0, 0, 0, 0, S_GPU },
    { "ops", T_SECTION, M(ops), 0, 0, 0, 0, S_OPS },
    { "branch_predictor", T_SECTION, M(branch_predictor), 0, 0, 0, 0, S_BPRED },
    { "model", T_SECTION, M(model), 0, 0, 0, 0, S_MODEL },
};

static const struct field core_fields[] = {
    { "loads_per_cycle", T_F64, CO(loads_per_cycle), 0, 0, 0, 64, 0 },
    { "stores_per_cycle", T_F64, CO(stores_per_cycle), 0, 0, 0, 64, 0 },
    { "fp_ops_per_cycle", T_F64, CO(fp_ops_per_cycle), 0, 0, 0, 64, 0 },
    { "int_ops_per_cycle", T_F64, CO(int_ops_per_cycle), 0, 0, 0, 64, 0 },
    { "issue_width", T_F64, CO(issue_width), 0, 0, 0, 64, 0 },
    { "branch_miss_cycles", T_F64, CO(branch_miss_cycles), 0, 0, 0, 1000, 0 },
    { "region_ns", T_F64, CO(region_ns), 0, 0, 0, 1e7, 0 },
    { "region1_ns", T_F64, CO(region1_ns), 0, 0, 0, 1e7, 0 },
    { "chain_cycles", T_F64, CO(chain_cycles), 0, 0, 0, 1000, 0 },
    { "chain_loop_instr", T_F64, CO(chain_loop_instr), 0, 0, 0, 1000, 0 },
    { "fadd_latency", T_F64, CO(fadd_latency), 0, 0, 0, 1000, 0 },
    { "fma_latency", T_F64, CO(fma_latency), 0, 0, 0, 1000, 0 },
    { "fused_chains", T_BOOL, CO(fused_chains), 0, 0, 0, 0, 0 },
    { "fdiv_cycles", T_F64, CO(fdiv_cycles), 0, 0, 0, 1000, 0 },
    { "atomic_cycles", T_F64, CO(atomic_cycles), 0, 0, 0, 10000, 0 },
    { "atomic_mlp", T_F64, CO(atomic_mlp), 0, 0, 0, 1024, 0 },
    { "chunk_ns", T_F64, CO(chunk_ns), 0, 0, 0, 1e6, 0 },
    { "inflight", T_F64, CO(inflight), 0, 0, 0, 4096, 0 },
    { "window", T_F64, CO(window), 0, 0, 0, 65536, 0 },
    { "mlp", T_F64, CO(mlp), 0, 0, 0, 1024, 0 },
    { "prefetch_streams", T_U32, CO(prefetch_streams), 0, 0, 1, 256, 0 },
    { "prefetch_reach", T_U32, CO(prefetch_reach), 0, 0, 1, 64, 0 },
    { "stride_entries", T_U32, CO(stride_entries), 0, F_POW2, 1, 65536, 0 },
    { "branch_learned", T_CURVE, CO(branch_learned), CO(nbranch_learned), F_SIGNED, 0, 1e12, 0 },
    { "branch_run_cycles", T_CURVE, CO(branch_run_cycles), CO(nbranch_run_cycles), 0, 0, 1e6, 0 },
    { "branch_run_left", T_CURVE, CO(branch_run_left), CO(nbranch_run_left), F_SIGNED, 0, 1e6, 0 },
    { "chain_runs", T_CURVE, CO(chain_runs), CO(nchain_runs), 0, 0, 1e6, 0 },
    { "first_touch", T_CURVE, CO(first_touch), CO(nfirst_touch), F_SIGNED, 0, 1e15, 0 },
    { "transfer", T_CURVE, CO(transfer), CO(ntransfer), 0, 0, 1e7, 0 },
};

static const struct field simd_fields[] = {
    { "width_bits", T_U32, SI(width_bits), 0, F_POW2, 8, 65536, 0 },
    { "gather_cycles_per_element", T_F64, SI(gather_cycles_per_element), 0, 0, 0, 1e4, 0 },
    { "scatter_cycles_per_element", T_F64, SI(scatter_cycles_per_element), 0, 0, 0, 1e4, 0 },
    { "pack_bytes", T_U32, SI(pack_bytes), 0, F_POW2, 4, 512, 0 },
    { "register_elems", T_U32, SI(register_elems), 0, 0, 1, 1024, 0 },
};

static const struct field cache_fields[] = {
    { "name", T_CNAME, C(name), 0, F_REQ, 0, 0, 0 },
    { "size", T_SIZE64, C(size), 0, F_REQ, 1, (double)AUGUR_MACHINE_MAX_BYTES, 0 },
    { "line", T_SIZE32, C(line), 0, F_POW2, 4, AUGUR_MACHINE_MAX_LINE, 0 },
    { "sector", T_SIZE32, C(sector), 0, F_POW2, 1, AUGUR_MACHINE_MAX_LINE, 0 },
    { "ways", T_WAYS, C(ways), 0, 0, 0, 1 << 24, 0 },
    { "shared_by", T_U32, C(shared_by), 0, 0, 1, AUGUR_MACHINE_MAX_CORES, 0 },
    { "inclusive", T_BOOL, C(inclusive), 0, 0, 0, 0, 0 },
    { "write_policy", T_WPOL, C(write_policy), 0, 0, 0, 0, 0 },
    { "write_allocate", T_BOOL, C(write_alloc), 0, 0, 0, 0, 0 },
    { "prefetch", T_PREF, C(prefetch), 0, 0, 0, 0, 0 },
    { "replacement", T_REPL, C(replacement), 0, 0, 0, 0, 0 },
    { "latency_ns", T_F64, C(latency_ns), 0, 0, 0, 1e6, 0 },
    { "latency_cycles", T_F64, C(latency_cycles), 0, 0, 0, 1e7, 0 },
    { "bandwidth_gbs", T_BW, C(bandwidth), C(nbandwidth), 0, 0, 1e6, 0 },
};

static const struct field memory_fields[] = {
    { "bandwidth_gbs", T_BW, ME(bandwidth), ME(nbandwidth), 0, 0, 1e6, 0 },
    { "latency_ns", T_F64, ME(latency_ns), 0, 0, 0, 1e7, 0 },
    { "latency_cycles", T_F64, ME(latency_cycles), 0, 0, 0, 1e8, 0 },
    { "row_buffer_bytes", T_SIZE32, ME(row_buffer_bytes), 0, F_POW2, 16, 1 << 20, 0 },
    { "banks", T_U32, ME(banks), 0, 0, 1, 65536, 0 },
    { "mlp", T_CURVE, ME(mlp), ME(nmlp), 0, 0, 1e7, 0 },
};

static const struct field gpu_fields[] = {
    { "sms", T_U32, G(sms), 0, 0, 1, 65536, 0 },
    { "warp_size", T_U32, G(warp_size), 0, F_POW2, 1, 1024, 0 },
    { "max_warps_per_sm", T_U32, G(max_warps_per_sm), 0, 0, 1, 4096, 0 },
    { "max_warps", T_U32, G(max_warps), 0, 0, 1, 1 << 24, 0 },
    { "max_blocks_per_sm", T_U32, G(max_blocks_per_sm), 0, 0, 1, 4096, 0 },
    { "registers_per_sm", T_U32, G(registers_per_sm), 0, 0, 1, 1 << 24, 0 },
    { "shared_memory_per_sm", T_SIZE64, G(shared_memory_per_sm), 0, 0, 1, 1 << 30, 0 },
    { "register_alloc_unit", T_U32, G(register_alloc_unit), 0, F_POW2, 1, 1 << 16, 0 },
    { "shared_alloc_unit", T_SIZE32, G(shared_alloc_unit), 0, F_POW2, 1, 1 << 20, 0 },
    { "shared_reserved_per_block", T_SIZE32, G(shared_reserved_per_block), 0, 0, 0, 1 << 20, 0 },
    { "l2_hit", T_CURVE, G(l2_hit), G(nl2_hit), 0, 0, 1e7, 0 },
    { "row_hit", T_CURVE, G(row_hit), G(nrow_hit), 0, 0, 1e7, 0 },
    { "row_miss", T_CURVE, G(row_miss), G(nrow_miss), 0, 0, 1e7, 0 },
    { "l1_hit", T_CURVE, G(l1_hit), G(nl1_hit), 0, 0, 1e7, 0 },
    { "launch_us", T_F64, G(launch_us), 0, 0, 0, 1e6, 0 },
    { "round_trip_us", T_F64, G(round_trip_us), 0, 0, 0, 1e6, 0 },
    { "empty_kernel_us", T_F64, G(empty_kernel_us), 0, 0, 0, 1e6, 0 },
};

static const struct field ops_fields[] = {
    { "fmath", T_F64, OP(fmath), 0, 0, 0, 1e4, 0 },
    { "idiv", T_F64, OP(idiv), 0, 0, 0, 1e4, 0 },
    { "conflict", T_F64, OP(conflict), 0, 0, 0, 1e4, 0 },
    { "reduce", T_F64, OP(reduce), 0, 0, 0, 1e4, 0 },
    { "fsqrt_per_fdiv", T_F64, OP(fsqrt_per_fdiv), 0, 0, 0, 100, 0 },
};

/* sizes a simulated thread's tables can take: at most 2 MiB of tagged entries each */
static const struct field bpred_fields[] = {
    { "bias_entries", T_U32, BP(bias_entries), 0, F_POW2, 16, 1 << 20, 0 },
    { "tagged_entries", T_U32, BP(tagged_entries), 0, F_POW2, 16, 1 << 16, 0 },
    { "tag_bits", T_U32, BP(tag_bits), 0, 0, 4, 15, 0 },
    { "histories", T_U32LIST, BP(histories), BP(nhistories), 0, 1, 4095, 0 },
    { "aging_log2", T_U32, BP(aging_log2), 0, 0, 8, 40, 0 },
};

static const struct field model_fields[] = {
    { "mimd_a", T_F64, MO(mimd_a), 0, F_SIGNED, -1e12, 1e12, 0 },
    { "mimd_b", T_F64, MO(mimd_b), 0, F_SIGNED, -1e12, 1e12, 0 },
    { "overlap_norm", T_F64, MO(overlap_norm), 0, 0, 0, 64, 0 },
};

struct section {
    const char *name;
    const struct field *fields;
    unsigned nfields;
};

#define NF(t) (unsigned)(sizeof(t) / sizeof((t)[0]))

static const struct section sections[S_COUNT] = {
    [S_TOP] = { "machine", top_fields, NF(top_fields) },
    [S_CORE] = { "core", core_fields, NF(core_fields) },
    [S_SIMD] = { "simd", simd_fields, NF(simd_fields) },
    [S_CACHE] = { "cache level", cache_fields, NF(cache_fields) },
    [S_MEMORY] = { "memory", memory_fields, NF(memory_fields) },
    [S_GPU] = { "gpu", gpu_fields, NF(gpu_fields) },
    [S_OPS] = { "ops", ops_fields, NF(ops_fields) },
    [S_BPRED] = { "branch_predictor", bpred_fields, NF(bpred_fields) },
    [S_MODEL] = { "model", model_fields, NF(model_fields) },
};

/* A section of more fields than marks can hold would overrun the next section's marks. */
_Static_assert(NF(top_fields) <= MAX_FIELDS && NF(core_fields) <= MAX_FIELDS &&
                   NF(simd_fields) <= MAX_FIELDS && NF(cache_fields) <= MAX_FIELDS &&
                   NF(memory_fields) <= MAX_FIELDS && NF(gpu_fields) <= MAX_FIELDS &&
                   NF(ops_fields) <= MAX_FIELDS && NF(bpred_fields) <= MAX_FIELDS &&
                   NF(model_fields) <= MAX_FIELDS,
               "a section has more fields than MAX_FIELDS");

static const char *const kind_names[] = { "cpu", "gpu" };
static const char *const wpol_names[] = { NULL, "write-back", "write-through" };
static const char *const pref_names[] = { NULL, "none", "next-line", "stride" };
static const char *const repl_names[] = { NULL, "lru", "adaptive" };

const char *augur_machine_kind_name(enum augur_machine_kind kind)
{
    return (unsigned)kind < 2 ? kind_names[kind] : "?";
}

const char *augur_write_policy_name(enum augur_write_policy p)
{
    return p == AUGUR_WRITE_BACK      ? "write-back"
           : p == AUGUR_WRITE_THROUGH ? "write-through"
                                      : "unset";
}

const char *augur_prefetch_name(enum augur_prefetch p)
{
    return (unsigned)p >= 1 && (unsigned)p <= 3 ? pref_names[p] : "unset";
}

const char *augur_replacement_name(enum augur_replacement r)
{
    return (unsigned)r >= 1 && (unsigned)r <= 2 ? repl_names[r] : "unset";
}

/* ---- loader context ------------------------------------------------------ */

/* Where each field of one section instance was given. */
struct marks {
    uint32_t seen; /* bit i: field i was given */
    struct augur_machine_loc self;
    struct augur_machine_loc at[MAX_FIELDS]; /* of the value */
};

struct loader {
    const char *file;
    struct augur_diag *diag;
    yaml_document_t *doc;
    struct augur_machine *m;
    struct marks mk[S_COUNT];
    struct marks cache_mk[AUGUR_MACHINE_MAX_CACHES];
};

static struct augur_machine_loc loc_of(const yaml_node_t *n)
{
    struct augur_machine_loc l;

    l.line = n->start_mark.line + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)n->start_mark.line + 1;
    l.col = n->start_mark.column + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)n->start_mark.column + 1;
    return l;
}

static int err_at(struct loader *ld, struct augur_machine_loc at, const char *fmt, ...)
    AUGUR_PRINTF(3, 4);

static int err_at(struct loader *ld, struct augur_machine_loc at, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    augur_diag_setv(ld->diag, AUGUR_EMODEL, ld->file, at.line, at.col, fmt, ap);
    va_end(ap);
    return AUGUR_EMODEL;
}

static const char *node_kind(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE:
        return "a scalar";
    case YAML_SEQUENCE_NODE:
        return "a list";
    case YAML_MAPPING_NODE:
        return "a mapping";
    default:
        return "nothing";
    }
}

static const char *scalar(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

/* ---- scalars ------------------------------------------------------------- */

/* A decimal integer without sign; false when it is not one or overflows. */
static bool parse_uint(const char *s, uint64_t *out)
{
    uint64_t v = 0;

    if (*s < '0' || *s > '9')
        return false;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return false;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    if (*s)
        return false;
    *out = v;
    return true;
}

/* A finite decimal number (no hex, inf or nan). */
static bool parse_double(const char *s, double *out)
{
    char *end;
    double v;
    const char *p;

    for (p = s; *p; p++)
        if (!strchr("0123456789+-.eE", *p))
            return false;
    if (!*s)
        return false;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

struct unit {
    const char *name;
    uint64_t mult;
};

static const struct unit size_units[] = {
    { "B", 1 },
    { "KiB", UINT64_C(1) << 10 },
    { "MiB", UINT64_C(1) << 20 },
    { "GiB", UINT64_C(1) << 30 },
    { "TiB", UINT64_C(1) << 40 },
    { "kB", UINT64_C(1000) },
    { "MB", UINT64_C(1000000) },
    { "GB", UINT64_C(1000000000) },
    { "TB", UINT64_C(1000000000000) },
};

/*
 * A size in bytes: "32768", "32 KiB", "35.75 MiB", "1280 kB". The result must
 * be a whole number of bytes. Returns NULL or the reason it is not a size.
 */
static const char *parse_size(const char *s, uint64_t *out)
{
    char num[64];
    size_t n = 0;
    const char *u;
    uint64_t mult = 1, whole;
    double v;
    unsigned i;

    while (s[n] && (s[n] == '.' || (s[n] >= '0' && s[n] <= '9')))
        n++;
    if (n == 0 || n >= sizeof(num))
        return "expected a size in bytes such as 32768 or '32 KiB'";
    memcpy(num, s, n);
    num[n] = '\0';
    u = s + n;
    while (*u == ' ')
        u++;
    if (*u) {
        if (strcmp(u, "KB") == 0 || strcmp(u, "K") == 0 || strcmp(u, "M") == 0 ||
            strcmp(u, "G") == 0)
            return "ambiguous unit: write KiB/MiB/GiB (powers of 1024) or kB/MB/GB (powers of 1000)";
        for (i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++)
            if (strcmp(u, size_units[i].name) == 0)
                break;
        if (i == sizeof(size_units) / sizeof(size_units[0]))
            return "unknown unit (expected B, KiB, MiB, GiB, TiB, kB, MB, GB or TB)";
        mult = size_units[i].mult;
    }
    if (parse_uint(num, &whole)) {
        if (mult && whole > UINT64_MAX / mult)
            return "size too large";
        *out = whole * mult;
        return NULL;
    }
    if (!parse_double(num, &v))
        return "expected a size in bytes such as 32768 or '32 KiB'";
    v *= (double)mult;
    if (v >= 1.8e19)
        return "size too large";
    if (v != floor(v))
        return "not a whole number of bytes";
    *out = (uint64_t)v;
    return NULL;
}

static bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static int parse_name(struct loader *ld, const yaml_node_t *n, bool cache_name, const char **out)
{
    const char *s = scalar(n);
    size_t len = n->data.scalar.length, i;

    if (len == 0 || len > MAX_STR)
        return err_at(ld, loc_of(n), "a name must have 1 to %d characters", MAX_STR);
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        bool ok = cache_name ? (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                   (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'
                             : c >= 0x20 && c != 0x7f;

        if (!ok)
            return err_at(ld, loc_of(n),
                          cache_name ? "a cache name may hold letters, digits, '_', '-' and '.'"
                                     : "a name may not hold control characters");
    }
    *out = augur_arena_strndup(&ld->m->arena, s, len);
    return 0;
}

static int parse_enum(struct loader *ld, const yaml_node_t *n, const char *const *names,
                      unsigned first, unsigned count, unsigned *out)
{
    unsigned i;
    char list[128] = "";

    for (i = first; i < count; i++)
        if (strcmp(scalar(n), names[i]) == 0) {
            *out = i;
            return 0;
        }
    for (i = first; i < count; i++) {
        strcat(list, i > first ? ", " : "");
        strcat(list, names[i]);
    }
    return err_at(ld, loc_of(n), "unknown value '%.40s' (expected one of: %s)", scalar(n), list);
}

/* A number checked against a field's range. */
static int parse_number(struct loader *ld, const yaml_node_t *n, const struct field *f,
                        const char *what, double *out)
{
    double v;

    if (n->type != YAML_SCALAR_NODE)
        return err_at(ld, loc_of(n), "%s: expected a number, got %s", what, node_kind(n));
    if (!parse_double(scalar(n), &v))
        return err_at(ld, loc_of(n), "%s: expected a number, got '%.40s'", what, scalar(n));
    if (f->flags & F_SIGNED) {
        if (v < f->min || v > f->max)
            return err_at(ld, loc_of(n), "%s: %g is out of range [%g, %g]", what, v, f->min,
                          f->max);
    } else if (v <= 0 && f->min == 0) {
        return err_at(ld, loc_of(n), "%s: must be positive (got %.40s)", what, scalar(n));
    } else if (v <= f->min || v > f->max) {
        return err_at(ld, loc_of(n), "%s: %g is out of range (must be > %g and <= %g)", what, v,
                      f->min, f->max);
    }
    *out = v;
    return 0;
}

static int parse_count(struct loader *ld, const yaml_node_t *n, const char *what, double min,
                       double max, bool pow2, uint64_t *out)
{
    uint64_t v;

    if (n->type != YAML_SCALAR_NODE)
        return err_at(ld, loc_of(n), "%s: expected an integer, got %s", what, node_kind(n));
    if (!parse_uint(scalar(n), &v)) {
        double d;

        if (parse_double(scalar(n), &d) && d < 0)
            return err_at(ld, loc_of(n), "%s: must not be negative (got %.40s)", what, scalar(n));
        return err_at(ld, loc_of(n), "%s: expected a whole number, got '%.40s'", what, scalar(n));
    }
    if ((double)v < min || (double)v > max)
        return err_at(ld, loc_of(n), "%s: %llu is out of range [%.0f, %.0f]", what,
                      (unsigned long long)v, min, max);
    if (pow2 && !is_pow2(v))
        return err_at(ld, loc_of(n), "%s: %llu is not a power of two", what, (unsigned long long)v);
    *out = v;
    return 0;
}

static int parse_size_field(struct loader *ld, const yaml_node_t *n, const struct field *f,
                            uint64_t *out)
{
    const char *why;
    uint64_t v;

    if (n->type != YAML_SCALAR_NODE)
        return err_at(ld, loc_of(n), "%s: expected a size, got %s", f->key, node_kind(n));
    if (scalar(n)[0] == '-')
        return err_at(ld, loc_of(n), "%s: must not be negative (got %.40s)", f->key, scalar(n));
    why = parse_size(scalar(n), &v);
    if (why)
        return err_at(ld, loc_of(n), "%s: %s (got '%.40s')", f->key, why, scalar(n));
    if (v == 0)
        return err_at(ld, loc_of(n), "%s: must be positive", f->key);
    if ((double)v > f->max)
        return err_at(ld, loc_of(n), "%s: %llu bytes is absurd (the limit is %.0f)", f->key,
                      (unsigned long long)v, f->max);
    if ((double)v < f->min)
        return err_at(ld, loc_of(n), "%s: %llu bytes is too small (at least %.0f)", f->key,
                      (unsigned long long)v, f->min);
    if ((f->flags & F_POW2) && !is_pow2(v))
        return err_at(ld, loc_of(n), "%s: %llu is not a power of two", f->key,
                      (unsigned long long)v);
    *out = v;
    return 0;
}

/* ---- tables: bandwidth per thread count and service-time curves --------- */

/* A pair [a, b] of a list. */
static int pair_nodes(struct loader *ld, const yaml_node_t *item, const char *what,
                      const yaml_node_t **a, const yaml_node_t **b)
{
    if (item->type != YAML_SEQUENCE_NODE ||
        item->data.sequence.items.top - item->data.sequence.items.start != 2)
        return err_at(ld, loc_of(item), "%s: each entry must be a pair [%s]", what,
                      strcmp(what, "bandwidth_gbs") == 0 ? "threads, GB/s" : "m, ns");
    *a = yaml_document_get_node(ld->doc, item->data.sequence.items.start[0]);
    *b = yaml_document_get_node(ld->doc, item->data.sequence.items.start[1]);
    return 0;
}

/* The (key, value) nodes of entry i of a mapping or a list of pairs. */
static int table_entry(struct loader *ld, const yaml_node_t *n, size_t i, const char *what,
                       const yaml_node_t **a, const yaml_node_t **b)
{
    if (n->type == YAML_MAPPING_NODE) {
        *a = yaml_document_get_node(ld->doc, n->data.mapping.pairs.start[i].key);
        *b = yaml_document_get_node(ld->doc, n->data.mapping.pairs.start[i].value);
        return 0;
    }
    return pair_nodes(ld, yaml_document_get_node(ld->doc, n->data.sequence.items.start[i]), what, a,
                      b);
}

static size_t table_len(const yaml_node_t *n)
{
    if (n->type == YAML_MAPPING_NODE)
        return (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
    return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
}

static int parse_bw(struct loader *ld, const yaml_node_t *n, const struct field *f,
                    struct augur_bw_point **out, uint32_t *nout)
{
    struct augur_bw_point *pts;
    size_t len, i;
    int rc;

    if (n->type == YAML_SCALAR_NODE) {
        pts = augur_arena_alloc(&ld->m->arena, sizeof(*pts));
        rc = parse_number(ld, n, f, f->key, &pts[0].gbs);
        if (rc)
            return rc;
        pts[0].threads = 0;
        *out = pts;
        *nout = 1;
        return 0;
    }
    len = table_len(n);
    if (len == 0 || len > AUGUR_MACHINE_MAX_POINTS)
        return err_at(ld, loc_of(n), "%s: give 1 to %d entries {threads: GB/s}", f->key,
                      AUGUR_MACHINE_MAX_POINTS);
    pts = augur_arena_alloc(&ld->m->arena, len * sizeof(*pts));
    for (i = 0; i < len; i++) {
        const yaml_node_t *a = NULL, *b = NULL;
        uint64_t t;

        rc = table_entry(ld, n, i, f->key, &a, &b);
        if (!rc)
            rc = parse_count(ld, a, "bandwidth_gbs thread count", 1, AUGUR_MACHINE_MAX_CORES * 64.0,
                             false, &t);
        if (!rc)
            rc = parse_number(ld, b, f, f->key, &pts[i].gbs);
        if (rc)
            return rc;
        pts[i].threads = (uint32_t)t;
        if (i > 0 && pts[i].threads <= pts[i - 1].threads)
            return err_at(ld, loc_of(a), "%s: thread counts must be ascending and distinct",
                          f->key);
    }
    *out = pts;
    *nout = (uint32_t)len;
    return 0;
}

static int parse_curve(struct loader *ld, const yaml_node_t *n, const struct field *f,
                       struct augur_curve_point **out, uint32_t *nout)
{
    struct augur_curve_point *pts;
    size_t len, i;
    int rc;

    if (n->type != YAML_SEQUENCE_NODE && n->type != YAML_MAPPING_NODE)
        return err_at(ld, loc_of(n), "%s: expected a list of pairs [m, ns], got %s", f->key,
                      node_kind(n));
    len = table_len(n);
    if (len == 0 || len > AUGUR_MACHINE_MAX_POINTS)
        return err_at(ld, loc_of(n), "%s: give 1 to %d pairs [m, ns]", f->key,
                      AUGUR_MACHINE_MAX_POINTS);
    pts = augur_arena_alloc(&ld->m->arena, len * sizeof(*pts));
    for (i = 0; i < len; i++) {
        const yaml_node_t *a = NULL, *b = NULL;

        rc = table_entry(ld, n, i, f->key, &a, &b);
        if (!rc)
            rc = parse_number(ld, a, f, "outstanding requests m", &pts[i].m);
        if (!rc)
            rc = parse_number(ld, b, f, "service time ns", &pts[i].ns);
        if (rc)
            return rc;
        if (i > 0 && pts[i].m <= pts[i - 1].m)
            return err_at(ld, loc_of(a), "%s: m must be ascending and distinct", f->key);
    }
    *out = pts;
    *nout = (uint32_t)len;
    return 0;
}

/* A list of integers in [f->min, f->max], ascending and distinct, at most LIST_CAP of them. */
static int parse_u32list(struct loader *ld, const yaml_node_t *n, const struct field *f,
                         uint32_t *out, uint32_t *nout)
{
    size_t len, i;
    int rc;

    if (n->type != YAML_SEQUENCE_NODE)
        return err_at(ld, loc_of(n), "%s: expected a list of numbers [a, b, ...], got %s", f->key,
                      node_kind(n));
    len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (len == 0 || len > LIST_CAP)
        return err_at(ld, loc_of(n), "%s: give 1 to %u numbers", f->key, LIST_CAP);
    for (i = 0; i < len; i++) {
        const yaml_node_t *a = yaml_document_get_node(ld->doc, n->data.sequence.items.start[i]);
        uint64_t u;

        if (a->type != YAML_SCALAR_NODE)
            return err_at(ld, loc_of(a), "%s: expected a number, got %s", f->key, node_kind(a));
        rc = parse_count(ld, a, f->key, f->min, f->max, false, &u);
        if (rc)
            return rc;
        out[i] = (uint32_t)u;
        if (i > 0 && out[i] <= out[i - 1])
            return err_at(ld, loc_of(a), "%s: the numbers must be ascending and distinct", f->key);
    }
    *nout = (uint32_t)len;
    return 0;
}

/* ---- sections ------------------------------------------------------------ */

static int parse_section(struct loader *ld, const yaml_node_t *n, enum sect s, void *base,
                         struct marks *mk);

static void cache_init(struct augur_machine_cache *c)
{
    memset(c, 0, sizeof(*c));
    c->ways = -1;
    c->inclusive = -1;
    c->write_alloc = -1;
}

static int parse_caches(struct loader *ld, const yaml_node_t *n)
{
    struct augur_machine *m = ld->m;
    size_t len, i;
    int rc;

    if (n->type != YAML_SEQUENCE_NODE)
        return err_at(ld, loc_of(n), "caches: expected a list of cache levels, got %s",
                      node_kind(n));
    len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (len == 0 || len > AUGUR_MACHINE_MAX_CACHES)
        return err_at(ld, loc_of(n), "caches: give 1 to %d levels", AUGUR_MACHINE_MAX_CACHES);
    m->caches = augur_arena_alloc(&m->arena, len * sizeof(*m->caches));
    for (i = 0; i < len; i++) {
        const yaml_node_t *item = yaml_document_get_node(ld->doc, n->data.sequence.items.start[i]);

        cache_init(&m->caches[i]);
        m->caches[i].loc = loc_of(item);
        rc = parse_section(ld, item, S_CACHE, &m->caches[i], &ld->cache_mk[i]);
        if (rc)
            return rc;
        m->ncaches = (uint32_t)i + 1;
    }
    return 0;
}

static int parse_field(struct loader *ld, const yaml_node_t *v, const struct field *f, void *base)
{
    char *p = (char *)base + f->off;
    uint64_t u = 0;
    double d = 0;
    unsigned e = 0;
    int rc;

    switch (f->type) {
    case T_SECTION:
        return parse_section(ld, v, f->sub, p, &ld->mk[f->sub]);
    case T_CACHES:
        return parse_caches(ld, v);
    case T_BW:
        return parse_bw(ld, v, f, (struct augur_bw_point **)p,
                        (uint32_t *)((char *)base + f->noff));
    case T_CURVE:
        return parse_curve(ld, v, f, (struct augur_curve_point **)p,
                           (uint32_t *)((char *)base + f->noff));
    case T_U32LIST:
        return parse_u32list(ld, v, f, (uint32_t *)p, (uint32_t *)((char *)base + f->noff));
    default:
        break;
    }
    if (v->type != YAML_SCALAR_NODE)
        return err_at(ld, loc_of(v), "%s: expected a single value, got %s", f->key, node_kind(v));
    switch (f->type) {
    case T_STR:
    case T_CNAME:
        return parse_name(ld, v, f->type == T_CNAME, (const char **)p);
    case T_KIND:
        rc = parse_enum(ld, v, kind_names, 0, 2, &e);
        if (!rc)
            *(enum augur_machine_kind *)p = (enum augur_machine_kind)e;
        return rc;
    case T_WPOL:
    case T_PREF:
    case T_REPL:
        rc = f->type == T_WPOL   ? parse_enum(ld, v, wpol_names, 1, 3, &e)
             : f->type == T_PREF ? parse_enum(ld, v, pref_names, 1, 4, &e)
                                 : parse_enum(ld, v, repl_names, 1, 3, &e);
        if (!rc)
            *(uint8_t *)p = (uint8_t)e;
        return rc;
    case T_BOOL:
        if (strcmp(scalar(v), "true") == 0 || strcmp(scalar(v), "yes") == 0)
            *(int8_t *)p = 1;
        else if (strcmp(scalar(v), "false") == 0 || strcmp(scalar(v), "no") == 0)
            *(int8_t *)p = 0;
        else
            return err_at(ld, loc_of(v), "%s: expected true or false, got '%.40s'", f->key,
                          scalar(v));
        return 0;
    case T_U32:
    case T_WAYS:
        rc = parse_count(ld, v, f->key, f->min, f->max, f->flags & F_POW2, &u);
        if (rc)
            return rc;
        if (f->type == T_WAYS)
            *(int32_t *)p = (int32_t)u;
        else
            *(uint32_t *)p = (uint32_t)u;
        return 0;
    case T_SIZE32:
    case T_SIZE64:
        rc = parse_size_field(ld, v, f, &u);
        if (rc)
            return rc;
        if (f->type == T_SIZE32)
            *(uint32_t *)p = (uint32_t)u;
        else
            *(uint64_t *)p = u;
        return 0;
    case T_F64:
        rc = parse_number(ld, v, f, f->key, &d);
        if (!rc)
            *(double *)p = d;
        return rc;
    default:
        AUGUR_BUG("field type %d", (int)f->type);
    }
}

static int parse_section(struct loader *ld, const yaml_node_t *n, enum sect s, void *base,
                         struct marks *mk)
{
    const struct section *sec = &sections[s];
    const yaml_node_pair_t *pair;
    unsigned i;
    int rc;

    if (n->type != YAML_MAPPING_NODE)
        return err_at(ld, loc_of(n), "%s: expected a mapping of keys, got %s", sec->name,
                      node_kind(n));
    mk->self = loc_of(n);
    if (s != S_TOP && s != S_CACHE && n->data.mapping.pairs.top == n->data.mapping.pairs.start)
        return err_at(ld, loc_of(n), "%s: empty section (leave it out instead)", sec->name);
    for (pair = n->data.mapping.pairs.start; pair < n->data.mapping.pairs.top; pair++) {
        const yaml_node_t *k = yaml_document_get_node(ld->doc, pair->key);
        const yaml_node_t *v = yaml_document_get_node(ld->doc, pair->value);

        if (k->type != YAML_SCALAR_NODE)
            return err_at(ld, loc_of(k), "%s: keys must be plain names, got %s", sec->name,
                          node_kind(k));
        for (i = 0; i < sec->nfields; i++)
            if (strcmp(scalar(k), sec->fields[i].key) == 0)
                break;
        if (i == sec->nfields) {
            char list[512] = "";
            unsigned j;

            for (j = 0; j < sec->nfields; j++) {
                strcat(list, j ? ", " : "");
                strcat(list, sec->fields[j].key);
            }
            return err_at(ld, loc_of(k), "unknown key '%.40s' in %s (expected one of: %s)",
                          scalar(k), sec->name, list);
        }
        if (mk->seen & (1u << i))
            return err_at(ld, loc_of(k), "duplicate key '%s' in %s (first given at line %u)",
                          sec->fields[i].key, sec->name, mk->at[i].line);
        mk->seen |= 1u << i;
        mk->at[i] = loc_of(v);
        rc = parse_field(ld, v, &sec->fields[i], base);
        if (rc)
            return rc;
    }
    for (i = 0; i < sec->nfields; i++)
        if ((sec->fields[i].flags & F_REQ) && !(mk->seen & (1u << i)))
            return err_at(ld, mk->self, "%s: missing required field '%s'", sec->name,
                          sec->fields[i].key);
    if (s == S_MEMORY)
        ld->m->has_memory = true;
    else if (s == S_GPU)
        ld->m->has_gpu = true;
    else if (s == S_MODEL)
        ld->m->model.given = true;
    else if (s == S_OPS)
        ld->m->ops.given = true;
    else if (s == S_BPRED)
        ld->m->branch_predictor.given = true;
    else if (s == S_CORE)
        ld->m->core.given = true;
    return 0;
}

/* ---- cross-field validation ---------------------------------------------- */

/* A problem found by check(): the section, the cache index, the field to blame. */
struct problem {
    enum sect sect;
    int cache;
    const char *key; /* NULL: the section as a whole */
    char msg[400];
};

static int problem(struct problem *p, enum sect s, int cache, const char *key, const char *fmt, ...)
    AUGUR_PRINTF(5, 6);

static int problem(struct problem *p, enum sect s, int cache, const char *key, const char *fmt, ...)
{
    va_list ap;

    p->sect = s;
    p->cache = cache;
    p->key = key;
    va_start(ap, fmt);
    vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
    va_end(ap);
    return -1;
}

static bool in_range(double v, double lo, double hi)
{
    return v > lo && v <= hi;
}

/* The per-field ranges, for machines that did not come through the loader. */
static int check_ranges(const struct augur_machine *m, struct problem *p)
{
    uint32_t i, j;

    if (!m->name || !m->name[0])
        return problem(p, S_TOP, -1, "name", "missing required field 'name'");
    if (m->clock_ghz != 0 && !in_range(m->clock_ghz, 0, 20))
        return problem(p, S_TOP, -1, "clock_ghz", "clock_ghz: %g is out of range", m->clock_ghz);
    if (m->cores > AUGUR_MACHINE_MAX_CORES || m->threads_per_core > 64)
        return problem(p, S_TOP, -1, "cores", "cores or threads_per_core out of range");
    if (m->ncaches > AUGUR_MACHINE_MAX_CACHES)
        return problem(p, S_TOP, -1, "caches", "more than %d cache levels",
                       AUGUR_MACHINE_MAX_CACHES);
    for (i = 0; i < m->ncaches; i++) {
        const struct augur_machine_cache *c = &m->caches[i];

        if (!c->name || !c->name[0])
            return problem(p, S_CACHE, (int)i, "name", "cache level %u has no name", i + 1);
        if (c->size == 0 || c->size > AUGUR_MACHINE_MAX_BYTES)
            return problem(p, S_CACHE, (int)i, "size", "cache %s: size %llu is absurd", c->name,
                           (unsigned long long)c->size);
        if (c->line && (!is_pow2(c->line) || c->line < 4 || c->line > AUGUR_MACHINE_MAX_LINE))
            return problem(p, S_CACHE, (int)i, "line",
                           "cache %s: line %u is not a power of two in [4, %u]", c->name, c->line,
                           AUGUR_MACHINE_MAX_LINE);
        if (c->sector && !is_pow2(c->sector))
            return problem(p, S_CACHE, (int)i, "sector",
                           "cache %s: sector %u is not a power of two", c->name, c->sector);
        if (c->ways < -1)
            return problem(p, S_CACHE, (int)i, "ways", "cache %s: ways is negative", c->name);
        if (c->latency_ns < 0 || c->latency_cycles < 0)
            return problem(p, S_CACHE, (int)i, "latency_ns", "cache %s: negative latency", c->name);
        for (j = 0; j < c->nbandwidth; j++)
            if (!in_range(c->bandwidth[j].gbs, 0, 1e6))
                return problem(p, S_CACHE, (int)i, "bandwidth_gbs",
                               "cache %s: bandwidth %g GB/s is out of range", c->name,
                               c->bandwidth[j].gbs);
    }
    return 0;
}

static int check(const struct augur_machine *m, struct problem *p)
{
    uint32_t units = m->kind == AUGUR_MACHINE_GPU ? (m->gpu.sms ? m->gpu.sms : m->cores) : m->cores;
    uint32_t threads = m->cores * (m->threads_per_core ? m->threads_per_core : 1);
    uint32_t i, j;

    if (check_ranges(m, p))
        return -1;
    if (m->kind == AUGUR_MACHINE_CPU) {
        if (!m->cores)
            return problem(p, S_TOP, -1, NULL,
                           "machine: missing required field 'cores' (kind cpu)");
        if (m->ncaches == 0)
            return problem(p, S_TOP, -1, NULL,
                           "machine: missing required field 'caches' (kind cpu)");
        if (m->has_gpu)
            return problem(p, S_TOP, -1, "gpu", "a gpu section in a machine of kind cpu");
    } else {
        if (!m->has_gpu)
            return problem(p, S_TOP, -1, NULL, "machine: missing required field 'gpu' (kind gpu)");
        if (m->gpu.sms && m->cores && m->cores != m->gpu.sms)
            return problem(p, S_TOP, -1, "cores", "cores (%u) differs from gpu.sms (%u)", m->cores,
                           m->gpu.sms);
        if (m->gpu.max_warps && m->gpu.max_warps_per_sm && m->gpu.sms &&
            (uint64_t)m->gpu.max_warps > (uint64_t)m->gpu.max_warps_per_sm * m->gpu.sms)
            return problem(p, S_GPU, -1, "max_warps",
                           "gpu.max_warps (%u) exceeds sms x max_warps_per_sm (%u x %u)",
                           m->gpu.max_warps, m->gpu.sms, m->gpu.max_warps_per_sm);
    }
    for (i = 0; i < m->ncaches; i++) {
        const struct augur_machine_cache *c = &m->caches[i];
        uint32_t sb = c->shared_by ? c->shared_by : 1;

        for (j = 0; j < i; j++)
            if (strcmp(m->caches[j].name, c->name) == 0)
                return problem(p, S_CACHE, (int)i, "name", "cache level name '%s' given twice",
                               c->name);
        if (c->line) {
            if (c->line > c->size)
                return problem(p, S_CACHE, (int)i, "line",
                               "cache %s: line (%u) is larger than the cache (%llu bytes)", c->name,
                               c->line, (unsigned long long)c->size);
            if (c->size % c->line)
                return problem(p, S_CACHE, (int)i, "size",
                               "cache %s: size %llu is not a whole number of %u-byte lines",
                               c->name, (unsigned long long)c->size, c->line);
            if (c->ways > 0 && (c->size / c->line) % (uint64_t)c->ways)
                return problem(p, S_CACHE, (int)i, "ways",
                               "cache %s: %d ways do not divide its %llu lines into whole sets",
                               c->name, c->ways, (unsigned long long)(c->size / c->line));
        } else if (c->ways > 0 && (uint64_t)c->ways > c->size) {
            return problem(p, S_CACHE, (int)i, "ways", "cache %s: more ways than bytes", c->name);
        }
        if (c->sector) {
            if (!c->line)
                return problem(p, S_CACHE, (int)i, "sector", "cache %s: sector needs line",
                               c->name);
            if (c->sector > c->line || c->line / c->sector > 64)
                return problem(p, S_CACHE, (int)i, "sector",
                               "cache %s: sector (%u) must divide the line (%u) into at most 64",
                               c->name, c->sector, c->line);
        }
        if (units && sb > units)
            return problem(p, S_CACHE, (int)i, "shared_by",
                           "cache %s: shared_by %u exceeds the %u %s", c->name, sb, units,
                           m->kind == AUGUR_MACHINE_GPU ? "SMs" : "cores");
        if (i > 0) {
            uint32_t up = m->caches[i - 1].shared_by ? m->caches[i - 1].shared_by : 1;

            if (sb % up)
                return problem(
                    p, S_CACHE, (int)i, "shared_by",
                    "cache %s: shared_by %u is not a multiple of %s's (%u): a level "
                    "further from the cores is shared by whole groups of the level above",
                    c->name, sb, m->caches[i - 1].name, up);
        }
        for (j = 0; j < c->nbandwidth; j++)
            if (m->kind == AUGUR_MACHINE_CPU && c->bandwidth[j].threads > threads)
                return problem(p, S_CACHE, (int)i, "bandwidth_gbs",
                               "cache %s: bandwidth given for %u threads, but the machine runs %u",
                               c->name, c->bandwidth[j].threads, threads);
    }
    if (m->has_memory && m->kind == AUGUR_MACHINE_CPU)
        for (j = 0; j < m->memory.nbandwidth; j++)
            if (m->memory.bandwidth[j].threads > threads)
                return problem(p, S_MEMORY, -1, "bandwidth_gbs",
                               "memory: bandwidth given for %u threads, but the machine runs %u",
                               m->memory.bandwidth[j].threads, threads);
    return 0;
}

/* Where field key of a section was given (the section itself when it was not). */
static struct augur_machine_loc field_loc(const struct marks *mk, enum sect s, const char *key)
{
    const struct section *sec = &sections[s];
    unsigned i;

    if (key)
        for (i = 0; i < sec->nfields; i++)
            if (strcmp(sec->fields[i].key, key) == 0 && (mk->seen & (1u << i)))
                return mk->at[i];
    return mk->self;
}

/* The file position of a problem, from the loader's marks. */
static struct augur_machine_loc problem_loc(const struct loader *ld, const struct problem *p)
{
    const struct marks *mk = p->sect == S_CACHE ? &ld->cache_mk[p->cache] : &ld->mk[p->sect];

    return field_loc(mk, p->sect, p->key);
}

int augur_machine_validate(const struct augur_machine *m, struct augur_diag *diag)
{
    struct problem p;
    struct augur_machine_loc at = { 0, 0 };

    if (!check(m, &p))
        return 0;
    if (p.sect == S_CACHE && p.cache >= 0 && (uint32_t)p.cache < m->ncaches)
        at = m->caches[p.cache].loc;
    else if (p.key && strcmp(p.key, "cores") == 0)
        at = m->loc_cores;
    return augur_diag_set(diag, AUGUR_EMODEL, m->path && m->path[0] ? m->path : NULL, at.line,
                          at.col, "%s", p.msg);
}

/* ---- loading ------------------------------------------------------------- */

/* Line and column of a byte offset, for libyaml's reader errors. */
static struct augur_machine_loc offset_loc(const char *text, size_t len, size_t off)
{
    struct augur_machine_loc l = { 1, 1 };
    size_t i;

    for (i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            l.line++;
            l.col = 1;
        } else {
            l.col++;
        }
    }
    return l;
}

static int syntax_error(const char *file, const char *text, size_t len, const yaml_parser_t *ps,
                        struct augur_diag *diag)
{
    struct augur_machine_loc at;

    if (ps->error == YAML_READER_ERROR) {
        at = offset_loc(text, len, ps->problem_offset);
        return augur_diag_set(diag, AUGUR_EPARSE, file, at.line, at.col, "YAML: %s",
                              ps->problem ? ps->problem : "cannot read the text");
    }
    if (ps->error == YAML_MEMORY_ERROR)
        AUGUR_BUG("libyaml ran out of memory");
    at.line = (uint32_t)ps->problem_mark.line + 1;
    at.col = (uint32_t)ps->problem_mark.column + 1;
    if (ps->context && ps->context_mark.line + 1 != at.line)
        return augur_diag_set(diag, AUGUR_EPARSE, file, at.line, at.col,
                              "YAML syntax error: %s (%s that starts at line %zu)", ps->problem,
                              ps->context, ps->context_mark.line + 1);
    if (ps->context)
        return augur_diag_set(diag, AUGUR_EPARSE, file, at.line, at.col,
                              "YAML syntax error: %s (%s)", ps->problem, ps->context);
    return augur_diag_set(diag, AUGUR_EPARSE, file, at.line, at.col, "YAML syntax error: %s",
                          ps->problem ? ps->problem : "malformed input");
}

/*
 * Parses a machine file; partial (the built-in defaults) checks each value's range but not that
 * the machine is complete (caches, cores).
 */
static int parse_machine(const char *text, size_t len, const char *name, bool partial,
                         struct augur_machine **out, struct augur_diag *diag)
{
    yaml_parser_t ps;
    yaml_document_t doc, extra;
    bool have_doc = false, have_extra = false;
    struct loader ld;
    struct augur_machine *m = NULL;
    const yaml_node_t *root;
    struct problem p;
    int rc;

    if (!name)
        name = "<machine>";
    if (!yaml_parser_initialize(&ps))
        AUGUR_BUG("libyaml parser initialization failed");
    yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
    if (!yaml_parser_load(&ps, &doc)) {
        rc = syntax_error(name, text, len, &ps, diag);
        goto out;
    }
    have_doc = true;
    root = yaml_document_get_root_node(&doc);
    if (!root) {
        rc = augur_diag_set(diag, AUGUR_EMODEL, name, 1, 1, "empty machine file");
        goto out;
    }
    if (!yaml_parser_load(&ps, &extra)) {
        rc = syntax_error(name, text, len, &ps, diag);
        goto out;
    }
    have_extra = true;
    if (yaml_document_get_root_node(&extra)) {
        const yaml_node_t *r2 = yaml_document_get_root_node(&extra);

        rc = augur_diag_set(diag, AUGUR_EMODEL, name, (uint32_t)r2->start_mark.line + 1,
                            (uint32_t)r2->start_mark.column + 1,
                            "a machine file holds one YAML document; found a second one");
        goto out;
    }

    m = augur_calloc(1, sizeof(*m));
    m->core.fused_chains = -1;
    augur_arena_init(&m->arena, 16 * 1024);
    m->path = augur_arena_strdup(&m->arena, name);
    memset(&ld, 0, sizeof(ld));
    ld.file = name;
    ld.diag = diag;
    ld.doc = &doc;
    ld.m = m;
    rc = parse_section(&ld, root, S_TOP, m, &ld.mk[S_TOP]);
    if (rc)
        goto out;
    m->loc_cores = field_loc(&ld.mk[S_TOP], S_TOP, "cores");
    if (partial ? check_ranges(m, &p) : check(m, &p)) {
        struct augur_machine_loc at = problem_loc(&ld, &p);

        rc = augur_diag_set(diag, AUGUR_EMODEL, name, at.line, at.col, "%s", p.msg);
        goto out;
    }
    *out = m;
    m = NULL;
    rc = 0;
out:
    augur_machine_free(m);
    if (have_extra)
        yaml_document_delete(&extra);
    if (have_doc)
        yaml_document_delete(&doc);
    yaml_parser_delete(&ps);
    return rc;
}

int augur_machine_parse(const char *text, size_t len, const char *name, struct augur_machine **out,
                        struct augur_diag *diag)
{
    return parse_machine(text, len, name, false, out, diag);
}

/* ---- the CPU defaults ------------------------------------------------------ */

/* samples/machines/default-cpu.yml, as the build embeds it (generated/default_cpu.c). */
extern const unsigned char augur_default_cpu_yml[];
extern const unsigned long augur_default_cpu_yml_len;

static struct augur_machine *cpu_defaults;
static pthread_once_t cpu_defaults_once = PTHREAD_ONCE_INIT;

static void parse_cpu_defaults(void)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (parse_machine((const char *)augur_default_cpu_yml, augur_default_cpu_yml_len,
                      "default-cpu.yml", true, &cpu_defaults, &diag) != 0)
        AUGUR_BUG("the built-in default-cpu.yml does not load: %s", diag.msg);
}

const struct augur_machine *augur_machine_cpu_defaults(void)
{
    pthread_once(&cpu_defaults_once, parse_cpu_defaults);
    return cpu_defaults;
}

int augur_machine_load(const char *path, struct augur_machine **out, struct augur_diag *diag)
{
    struct augur_buf buf;
    int rc;

    augur_buf_init(&buf);
    rc = augur_file_read(path, MAX_FILE_BYTES, &buf, NULL, diag);
    if (rc == AUGUR_ELIMIT)
        rc = augur_diag_set(diag, AUGUR_ELIMIT, path, 0, 0, "machine file larger than %u bytes",
                            MAX_FILE_BYTES);
    if (!rc)
        rc = augur_machine_parse(buf.s, buf.len, path, out, diag);
    augur_buf_release(&buf);
    return rc;
}

void augur_machine_free(struct augur_machine *m)
{
    if (!m)
        return;
    augur_arena_release(&m->arena);
    augur_free(m);
}

/* ---- queries ------------------------------------------------------------- */

const struct augur_machine_cache *augur_machine_cache_find(const struct augur_machine *m,
                                                           const char *name)
{
    uint32_t i;

    for (i = 0; i < m->ncaches; i++)
        if (strcmp(m->caches[i].name, name) == 0)
            return &m->caches[i];
    return NULL;
}

double augur_machine_bw_at(const struct augur_bw_point *bw, uint32_t nbw, uint32_t threads)
{
    uint32_t i;

    if (nbw == 0)
        return 0;
    if (threads <= bw[0].threads || nbw == 1)
        return bw[0].gbs;
    for (i = 1; i < nbw; i++)
        if (threads <= bw[i].threads) {
            double t0 = bw[i - 1].threads, t1 = bw[i].threads;

            return bw[i - 1].gbs + (bw[i].gbs - bw[i - 1].gbs) * ((double)threads - t0) / (t1 - t0);
        }
    return bw[nbw - 1].gbs;
}

double augur_machine_curve_at(const struct augur_curve_point *c, uint32_t n, double m)
{
    uint32_t i;

    if (n == 0)
        return 0;
    if (m <= c[0].m)
        return c[0].ns;
    for (i = 1; i < n; i++)
        if (m <= c[i].m)
            return c[i - 1].ns + (c[i].ns - c[i - 1].ns) * (m - c[i - 1].m) / (c[i].m - c[i - 1].m);
    return c[n - 1].ns;
}

/* ---- dump ---------------------------------------------------------------- */

/* The shortest decimal form that reads back as the same double. */
static void put_double(struct augur_buf *b, double v)
{
    char tmp[40];
    int prec;

    for (prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    augur_buf_puts(b, tmp);
}

/*
 * Bytes in the largest unit that holds them exactly: powers of 1000 when the
 * count is a multiple of 1000 (the papers' "kB"), else powers of 1024.
 */
static void put_size(struct augur_buf *b, uint64_t v)
{
    static const char *const iec[] = { "KiB", "MiB", "GiB", "TiB" };
    static const char *const si[] = { "kB", "MB", "GB", "TB" };
    int k;

    if (v >= 1000 && v % 1000 == 0) {
        for (k = 0; k < 3 && v % (UINT64_C(1000) * 1000) == 0; k++)
            v /= 1000;
        augur_buf_printf(b, "%llu %s", (unsigned long long)(v / 1000), si[k]);
        return;
    }
    if (v >= 1024 && v % 1024 == 0) {
        for (k = 0; k < 3 && v % (UINT64_C(1024) * 1024) == 0; k++)
            v /= 1024;
        augur_buf_printf(b, "%llu %s", (unsigned long long)(v / 1024), iec[k]);
        return;
    }
    augur_buf_printf(b, "%llu", (unsigned long long)v);
}

static void put_string(struct augur_buf *b, const char *s)
{
    augur_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            augur_buf_putc(b, '\\');
        augur_buf_putc(b, *s);
    }
    augur_buf_putc(b, '"');
}

/* Is field f of the section at base given? */
static bool field_given(const struct field *f, const void *base)
{
    const char *p = (const char *)base + f->off;

    switch (f->type) {
    case T_STR:
    case T_CNAME:
        return *(const char *const *)p != NULL;
    case T_KIND:
        return true;
    case T_U32:
    case T_SIZE32:
        return *(const uint32_t *)p != 0;
    case T_SIZE64:
        return *(const uint64_t *)p != 0;
    case T_WAYS:
        return *(const int32_t *)p >= 0;
    case T_F64:
        return *(const double *)p != 0;
    case T_BOOL:
        return *(const int8_t *)p >= 0;
    case T_WPOL:
    case T_PREF:
    case T_REPL:
        return *(const uint8_t *)p != 0;
    case T_BW:
    case T_CURVE:
    case T_U32LIST:
        return *(const uint32_t *)((const char *)base + f->noff) != 0;
    default:
        return false;
    }
}

static void dump_section(struct augur_buf *b, enum sect s, const void *base, int indent,
                         bool first_dash);

static void dump_value(struct augur_buf *b, const struct field *f, const void *base, int indent)
{
    const char *p = (const char *)base + f->off;
    const struct augur_machine *m = base;
    uint32_t i, n;

    switch (f->type) {
    case T_STR:
        put_string(b, *(const char *const *)p);
        break;
    case T_CNAME:
        augur_buf_puts(b, *(const char *const *)p);
        break;
    case T_KIND:
        augur_buf_puts(b, kind_names[*(const enum augur_machine_kind *)p]);
        break;
    case T_U32:
        augur_buf_printf(b, "%u", *(const uint32_t *)p);
        break;
    case T_SIZE32:
        put_size(b, *(const uint32_t *)p);
        break;
    case T_SIZE64:
        put_size(b, *(const uint64_t *)p);
        break;
    case T_WAYS:
        augur_buf_printf(b, "%d", (int)*(const int32_t *)p);
        break;
    case T_F64:
        put_double(b, *(const double *)p);
        break;
    case T_BOOL:
        augur_buf_puts(b, *(const int8_t *)p ? "true" : "false");
        break;
    case T_WPOL:
        augur_buf_puts(b, wpol_names[*(const uint8_t *)p]);
        break;
    case T_PREF:
        augur_buf_puts(b, pref_names[*(const uint8_t *)p]);
        break;
    case T_REPL:
        augur_buf_puts(b, repl_names[*(const uint8_t *)p]);
        break;
    case T_BW: {
        const struct augur_bw_point *bw = *(struct augur_bw_point *const *)p;

        n = *(const uint32_t *)((const char *)base + f->noff);
        if (n == 1 && bw[0].threads == 0) {
            put_double(b, bw[0].gbs);
            break;
        }
        augur_buf_putc(b, '{');
        for (i = 0; i < n; i++) {
            augur_buf_printf(b, "%s%u: ", i ? ", " : "", bw[i].threads);
            put_double(b, bw[i].gbs);
        }
        augur_buf_putc(b, '}');
        break;
    }
    case T_CURVE: {
        const struct augur_curve_point *c = *(struct augur_curve_point *const *)p;

        n = *(const uint32_t *)((const char *)base + f->noff);
        augur_buf_putc(b, '[');
        for (i = 0; i < n; i++) {
            augur_buf_puts(b, i ? ", [" : "[");
            put_double(b, c[i].m);
            augur_buf_puts(b, ", ");
            put_double(b, c[i].ns);
            augur_buf_putc(b, ']');
        }
        augur_buf_putc(b, ']');
        break;
    }
    case T_U32LIST:
        n = *(const uint32_t *)((const char *)base + f->noff);
        augur_buf_putc(b, '[');
        for (i = 0; i < n; i++)
            augur_buf_printf(b, "%s%u", i ? ", " : "", ((const uint32_t *)p)[i]);
        augur_buf_putc(b, ']');
        break;
    case T_SECTION:
        augur_buf_putc(b, '\n');
        dump_section(b, f->sub, p, indent + 2, false);
        break;
    case T_CACHES:
        augur_buf_putc(b, '\n');
        for (i = 0; i < m->ncaches; i++)
            dump_section(b, S_CACHE, &m->caches[i], indent + 4, true);
        break;
    }
}

static void dump_section(struct augur_buf *b, enum sect s, const void *base, int indent,
                         bool first_dash)
{
    const struct section *sec = &sections[s];
    unsigned i;
    bool first = true;

    for (i = 0; i < sec->nfields; i++) {
        const struct field *f = &sec->fields[i];

        if (f->type == T_SECTION) {
            const struct augur_machine *m = base;
            bool given = f->sub == S_CORE ? m->core.given
                         : f->sub == S_SIMD
                             ? m->simd.width_bits || m->simd.gather_cycles_per_element ||
                                   m->simd.scatter_cycles_per_element
                         : f->sub == S_MEMORY ? m->has_memory
                         : f->sub == S_GPU    ? m->has_gpu
                         : f->sub == S_OPS    ? m->ops.given
                         : f->sub == S_BPRED  ? m->branch_predictor.given
                                              : m->model.given;

            if (!given)
                continue;
        } else if (f->type == T_CACHES) {
            if (((const struct augur_machine *)base)->ncaches == 0)
                continue;
        } else if (!field_given(f, base)) {
            continue;
        }
        if (first && first_dash)
            augur_buf_printf(b, "%*s- ", indent - 2, "");
        else
            augur_buf_printf(b, "%*s", indent, "");
        first = false;
        augur_buf_printf(b, "%s:", f->key);
        if (f->type != T_SECTION && f->type != T_CACHES)
            augur_buf_putc(b, ' ');
        dump_value(b, f, base, indent);
        if (f->type != T_SECTION && f->type != T_CACHES)
            augur_buf_putc(b, '\n');
    }
    if (first && first_dash)
        augur_buf_printf(b, "%*s- {}\n", indent - 2, "");
}

void augur_machine_dump_buf(struct augur_buf *buf, const struct augur_machine *m)
{
    augur_buf_puts(buf, "# augur machine model (canonical form; see docs/machine.md)\n");
    dump_section(buf, S_TOP, m, 0, false);
}

void augur_machine_dump(FILE *fp, const struct augur_machine *m)
{
    struct augur_buf b;

    augur_buf_init(&b);
    augur_machine_dump_buf(&b, m);
    fwrite(b.s, 1, b.len, fp);
    augur_buf_release(&b);
}
