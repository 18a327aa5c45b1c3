/*
 * t_skeleton.c - skeleton IR: builder, validator, text form round trip,
 * parse errors, JSON form and bindings (module: skeleton).
 */
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"
#include "tap.h"

static struct augur_srcloc at(uint32_t line, uint32_t col)
{
    struct augur_srcloc l = { 0, line, col };

    return l;
}

/* CSR SpMV built by hand, as the front end would. */
static struct augur_skel *build_spmv(void)
{
    struct augur_skel *s = augur_skel_new();
    struct augur_skel_builder *b = augur_skel_builder_new(s);
    struct augur_node *k, *loop, *inner, *acc, *ops;
    uint32_t n, i, j, rowptr, col, val, x, y;
    struct augur_opcount counts[] = {
        { AUGUR_OPK_FADD, AUGUR_T_F64, 1, false, false, 1, 0 },
        { AUGUR_OPK_FMUL, AUGUR_T_F64, 1, false, false, 1, 0 },
        { AUGUR_OPK_FADD, AUGUR_T_F64, 1, false, false, 1, 0 }, /* merged with the first */
    };
    const struct augur_expr *ei, *ej, *colj;
    struct augur_diag diag;

    augur_skel_add_file(s, "spmv.c");
    k = augur_skel_begin_kernel(b, "spmv", at(3, 6));
    (void)k;
    n = augur_skel_add_sym(b, "n", AUGUR_SYM_PARAM, AUGUR_T_I32, at(3, 15));
    i = augur_skel_add_sym(b, "i", AUGUR_SYM_LOCAL, AUGUR_T_I32, at(6, 12));
    j = augur_skel_add_sym(b, "j", AUGUR_SYM_LOCAL, AUGUR_T_I32, at(8, 14));
    rowptr = augur_skel_add_array(b, "rowptr", AUGUR_T_I32, 4, AUGUR_SPACE_GLOBAL, true, at(3, 29));
    col = augur_skel_add_array(b, "col", AUGUR_T_I32, 4, AUGUR_SPACE_GLOBAL, true, at(3, 48));
    val = augur_skel_add_array(b, "val", AUGUR_T_F64, 8, AUGUR_SPACE_GLOBAL, true, at(3, 67));
    x = augur_skel_add_array(b, "x", AUGUR_T_F64, 8, AUGUR_SPACE_GLOBAL, true, at(3, 86));
    y = augur_skel_add_array(b, "y", AUGUR_T_F64, 8, AUGUR_SPACE_GLOBAL, true, at(3, 97));
    ei = augur_expr_sym(s, AUGUR_T_I32, i);
    ej = augur_expr_sym(s, AUGUR_T_I32, j);
    loop = augur_skel_open(b, AUGUR_NODE_LOOP, at(6, 3));
    loop->u.loop.form = AUGUR_LOOP_FOR;
    loop->u.loop.var = (int32_t)i;
    loop->u.loop.init = augur_expr_int(s, AUGUR_T_I32, 0);
    loop->u.loop.cond = augur_expr_binary(s, AUGUR_OP_LT, ei, augur_expr_sym(s, AUGUR_T_I32, n));
    loop->u.loop.next = augur_expr_binary(s, AUGUR_OP_ADD, ei, augur_expr_int(s, AUGUR_T_I32, 1));
    loop->u.loop.parallel = true;
    loop->u.loop.omp.flags = AUGUR_OMP_PARALLEL | AUGUR_OMP_FOR;
    loop->u.loop.omp.sched = AUGUR_SCHED_DYNAMIC;
    loop->u.loop.omp.chunk = augur_expr_int(s, AUGUR_T_I32, 64);
    acc = augur_skel_leaf(b, AUGUR_NODE_ACCESS, at(8, 18));
    acc->u.access.array = rowptr;
    acc->u.access.type = AUGUR_T_I32;
    acc->u.access.index = ei;
    acc = augur_skel_leaf(b, AUGUR_NODE_ACCESS, at(8, 33));
    acc->u.access.array = rowptr;
    acc->u.access.type = AUGUR_T_I32;
    acc->u.access.index = augur_expr_binary(s, AUGUR_OP_ADD, ei, augur_expr_int(s, AUGUR_T_I32, 1));
    inner = augur_skel_open(b, AUGUR_NODE_LOOP, at(8, 5));
    inner->u.loop.form = AUGUR_LOOP_FOR;
    inner->u.loop.var = (int32_t)j;
    inner->u.loop.init = augur_expr_load(s, AUGUR_T_I32, rowptr, 0, ei);
    inner->u.loop.cond = augur_expr_binary(
        s, AUGUR_OP_LT, ej,
        augur_expr_load(s, AUGUR_T_I32, rowptr, 0,
                        augur_expr_binary(s, AUGUR_OP_ADD, ei, augur_expr_int(s, AUGUR_T_I32, 1))));
    inner->u.loop.next = augur_expr_binary(s, AUGUR_OP_ADD, ej, augur_expr_int(s, AUGUR_T_I32, 1));
    acc = augur_skel_leaf(b, AUGUR_NODE_ACCESS, at(9, 12));
    acc->u.access.array = val;
    acc->u.access.type = AUGUR_T_F64;
    acc->u.access.index = ej;
    acc = augur_skel_leaf(b, AUGUR_NODE_ACCESS, at(9, 23));
    acc->u.access.array = col;
    acc->u.access.type = AUGUR_T_I32;
    acc->u.access.index = ej;
    colj = augur_expr_load(s, AUGUR_T_I32, col, 0, ej);
    acc = augur_skel_leaf(b, AUGUR_NODE_ACCESS, at(9, 21));
    acc->u.access.array = x;
    acc->u.access.type = AUGUR_T_F64;
    acc->u.access.index = colj;
    acc->u.access.indirect = true;
    augur_skel_set_via(b, acc, &col, 1);
    ops = augur_skel_leaf(b, AUGUR_NODE_OPS, at(9, 7));
    augur_skel_set_ops(b, ops, counts, 3);
    augur_skel_close(b);
    acc = augur_skel_leaf(b, AUGUR_NODE_ACCESS, at(10, 5));
    acc->u.access.array = y;
    acc->u.access.mode = AUGUR_ACCESS_WRITE;
    acc->u.access.type = AUGUR_T_F64;
    acc->u.access.index = ei;
    augur_skel_close(b);
    augur_skel_end_kernel(b);
    augur_diag_init(&diag);
    if (augur_skel_builder_finish(b, &diag) != 0) {
        diag("finish: %s", diag.msg);
        augur_skel_builder_free(b);
        augur_skel_free(s);
        return NULL;
    }
    augur_skel_builder_free(b);
    return s;
}

static const char spmv_text[] =
    "augur-skeleton 1\n"
    "source \"spmv.c\"\n"
    "kernel spmv @\"spmv.c\":3:6  #0\n"
    "  param n i32 @3:15\n"
    "  local i i32 @6:12\n"
    "  local j i32 @8:14\n"
    "  array rowptr i32[] global param @3:29\n"
    "  array col i32[] global param @3:48\n"
    "  array val f64[] global param @3:67\n"
    "  array x f64[] global param @3:86\n"
    "  array y f64[] global param @3:97\n"
    "  for i = 0; i < n; i += 1 @6:3 parallel omp(parallel for schedule(dynamic, 64))  #1\n"
    "    load rowptr[i] @8:18  #2\n"
    "    load rowptr[i + 1] @8:33  #3\n"
    "    for j = rowptr[i]; j < rowptr[i + 1]; j += 1 @8:5  #4\n"
    "      load val[j] @9:12  #5\n"
    "      load col[j] @9:23  #6\n"
    "      load x[col[j]] @9:21 indirect(col)  #7\n"
    "      ops fadd.f64=2 fmul.f64=1 @9:7  #8\n"
    "    store y[i] @10:5  #9\n";

static char *format(const struct augur_skel *s)
{
    struct augur_buf buf;

    augur_buf_init(&buf);
    augur_skel_format(s, &buf);
    return augur_buf_detach(&buf, NULL);
}

static char *format_json(const struct augur_skel *s)
{
    struct augur_buf buf;

    augur_buf_init(&buf);
    augur_skel_format_json(s, &buf);
    return augur_buf_detach(&buf, NULL);
}

/* Parses text, dumps it and checks that it reads back to the same text. */
static void round_trip(const char *text, const char *name)
{
    struct augur_skel *s = NULL, *s2 = NULL;
    struct augur_diag diag;
    char *a = NULL, *b2 = NULL;
    char label[200];

    augur_diag_init(&diag);
    snprintf(label, sizeof(label), "%s: parses", name);
    if (!ok(augur_skel_parse(text, strlen(text), name, &s, &diag) == 0, label)) {
        diag("%s:%u:%u: %s", diag.file, diag.line, diag.col, diag.msg);
        return;
    }
    a = format(s);
    snprintf(label, sizeof(label), "%s: dump equals the input", name);
    is_str(a, text, label);
    snprintf(label, sizeof(label), "%s: dump parses again", name);
    if (ok(augur_skel_parse(a, strlen(a), name, &s2, &diag) == 0, label)) {
        b2 = format(s2);
        snprintf(label, sizeof(label), "%s: second dump identical", name);
        is_str(b2, a, label);
    }
    augur_free(a);
    augur_free(b2);
    augur_skel_free(s);
    augur_skel_free(s2);
}

static void test_build_and_dump(void)
{
    struct augur_skel *s = build_spmv();
    char *text, *json;

    if (!ok(s != NULL, "builder: spmv skeleton builds and validates"))
        return;
    is_int(s->nnodes, 10, "builder: 10 nodes");
    is_int(s->nodes[7]->kind, AUGUR_NODE_ACCESS, "builder: node 7 is an access");
    is_int(s->nodes[7]->parent->id, 4, "builder: node 7's parent is the inner loop");
    is_int(s->nodes[8]->u.ops.n, 2, "builder: ops merged to two kinds");
    text = format(s);
    is_str(text, spmv_text, "dump: spmv text form");
    round_trip(text, "spmv");
    json = format_json(s);
    ok(strstr(json, "\"index\": \"col[j]\"") != NULL, "json: index expression");
    ok(strstr(json, "\"via\": [\"col\"]") != NULL, "json: via list");
    ok(strstr(json, "\"schedule\": \"dynamic\"") != NULL, "json: omp schedule");
    ok(strstr(json, "\"chunk\": \"64\"") != NULL, "json: omp chunk");
    augur_free(json);
    augur_free(text);
    augur_skel_free(s);
}

static void test_exprs(void)
{
    struct augur_skel *s = augur_skel_new();
    const struct augur_expr *a = augur_expr_int(s, AUGUR_T_I32, 6),
                            *b = augur_expr_int(s, AUGUR_T_I32, 4);
    const struct augur_expr *e;

    e = augur_expr_binary(s, AUGUR_OP_MUL, a, b);
    ok(e->kind == AUGUR_EXPR_INT && e->u.i == 24, "expr: constants fold");
    e = augur_expr_binary(s, AUGUR_OP_DIV, a, augur_expr_int(s, AUGUR_T_I32, 0));
    ok(e->kind == AUGUR_EXPR_BINARY, "expr: division by zero is not folded");
    e = augur_expr_int(s, AUGUR_T_I32, 0x1ffffffffLL);
    is_int(e->u.i, -1, "expr: i32 constants wrap");
    e = augur_expr_unary(s, AUGUR_OP_NEG, augur_expr_int(s, AUGUR_T_U32, 1));
    is_int(e->u.i, 4294967295LL, "expr: -1u is 4294967295");
    is_int(augur_type_arith(AUGUR_T_I32, AUGUR_T_U32), AUGUR_T_U32, "types: i32 + u32 is u32");
    is_int(augur_type_arith(AUGUR_T_I64, AUGUR_T_U32), AUGUR_T_I64, "types: i64 + u32 is i64");
    is_int(augur_type_arith(AUGUR_T_U8, AUGUR_T_I16), AUGUR_T_I32, "types: small types promote");
    is_int(augur_type_arith(AUGUR_T_I32, AUGUR_T_F32), AUGUR_T_F32, "types: int + f32 is f32");
    e = augur_expr_binary(s, AUGUR_OP_LT, augur_expr_fp(s, AUGUR_T_F64, 1.5), a);
    is_int(e->type, AUGUR_T_I32, "types: comparisons are i32");
    augur_skel_free(s);
}

/* Every construct of the text form, read and written back byte for byte. */
static const char full_text[] =
    "augur-skeleton 1\n"
    "source \"k.cu\"\n"
    "source \"helper.h\"\n"
    "kernel bfs @\"k.cu\":2:17 cuda launch((n + 255) / 256, 256)  #0\n"
    "  note unsupported @9:3 \"goto into a loop \\\"x\\\"\"\n"
    "  note warning \"no location\"\n"
    "  param n i32 @2:30 bind n (inferred)\n"
    "  param LEVEL i32 @2:40 bind round (cli)\n"
    "  param scale f64 bind =2.5 (pragma)\n"
    "  local node i32 @3:12\n"
    "  local e i32\n"
    "  local dst i32\n"
    "  local big u64\n"
    "  builtin threadIdx.x u32\n"
    "  builtin blockIdx.x u32\n"
    "  builtin blockDim.x u32\n"
    "  builtin gridDim.x u32\n"
    "  builtin lane i32\n"
    "  array level i32[n] global param @2:50 bind bfs.level (inferred)\n"
    "  array row_start i32[n + 1] global param bind csr.rowptr (cli)\n"
    "  array edge_dst u32[] global param bind csr.col (inferred)\n"
    "  array pts rec(24)[n] global param\n"
    "  array SM i32[256] shared @4:5\n"
    "  array x f64[] const bind vec(2*n) (pragma)\n"
    "  for node = (i32)(threadIdx.x + blockIdx.x * blockDim.x); node < n; node += "
    "(i32)(blockDim.x * gridDim.x) @5:3 parallel gridstride trips 12.5  #1\n"
    "    load level[node] @6:9 ldg  #2\n"
    "    if level[node] != LEVEL - 1 @6:5 prob 0.25  #3\n"
    "      continue @7:7  #4\n"
    "    else\n"
    "      ops iadd.i32=2 cmp.i32=1 @8:1  #5\n"
    "    for e = row_start[node]; ; e = e * 2 - -3 @9:5  #6\n"
    "      load edge_dst[e] @10:13  #7\n"
    "      set dst = (i32)edge_dst[e] @10:7  #8\n"
    "      store level[dst] = LEVEL @\"helper.h\":13:9 atomic indirect(edge_dst)  #9\n"
    "      update x[dst % 7] @14:1 x8 mask(lane < 3 && dst > 0) stream reuse indirect(edge_dst, "
    "level)  #10\n"
    "      load pts[node]{8 f64} @15:2  #11\n"
    "      set big = 18446744073709551615_u64 @16:1  #12\n"
    "      set dst = min(dst, max(-2147483648, pts[e]{16 i32})) ? ~dst : dst < 0 ? !dst : "
    "opaque(\"call rand\") @17:1  #13\n"
    "      break @18:1  #14\n"
    "    while dst > 0 @19:3 omp(simd)  #15\n"
    "      set dst = dst >> 1 << 2 & 3 | dst ^ 5 || dst <= 2 @20:1  #16\n"
    "    do @21:3  #17\n"
    "      sync threads @22:1  #18\n"
    "      call foo @23:1  #19\n"
    "      return @24:1  #20\n"
    "    while (dst + 1) * (dst - 1) >= 0\n"
    "    region critical @25:1  #21\n"
    "      update level[0] = 1.5e-07 * scale @26:1  #22\n"
    "  region parallel @27:1 omp(parallel num_threads(4) reduction(+: s) reduction(max: m))  #23\n"
    "    ops fadd.f32x16.m=3 fmul.f64.c3=4 ffma.f64=2 ffma.f64.c=1 ffma.f64x8.m.c=1 gather.f64x8=1 "
    "gather.f64x8.m=2 "
    "conflict.i32x16=1 @28:1  #24\n"
    "    sync barrier  #25\n"
    "kernel second @\"k.cu\":30:1  #26\n"
    "  local i i64\n"
    "  for i = 10_i64; i >= 0_i64; i -= 1_i64 @31:1 omp(parallel for simd nowait schedule(static) "
    "collapse(2))  #27\n"
    "    ops fsqrt.f32=1  #28\n";

static void test_full_round_trip(void)
{
    struct augur_skel *s = NULL;
    struct augur_diag diag;

    round_trip(full_text, "full");
    augur_diag_init(&diag);
    if (augur_skel_parse(full_text, strlen(full_text), "full", &s, &diag) == 0) {
        const struct augur_node *k = s->kernels[0];

        is_int(s->nnodes, 29, "full: 29 nodes");
        is_int(s->nkernels, 2, "full: two kernels");
        is_int(k->u.kernel.nnotes, 2, "full: notes kept");
        is_str(k->u.kernel.notes[0].msg, "goto into a loop \"x\"", "full: note text unescaped");
        is_int(s->nodes[9]->loc.file, 1, "full: location in another file");
        is_int(s->nodes[10]->u.access.lanes, 8, "full: lanes");
        is_int(s->nodes[3]->u.branch.nthen, 1, "full: then part");
        is_int(s->nodes[3]->nkids, 2, "full: then and else");
        is_str(k->u.kernel.arrays[5].bind, "vec(2*n)", "full: vec binding");
        ok(s->nodes[1]->u.loop.gridstride, "full: grid-stride flag");
        is_double(s->nodes[1]->u.loop.trips, 12.5, 0, "full: trips");
        is_int(s->nodes[12]->u.assign.value->u.i, -1, "full: u64 max stored as its bits");
        ok(augur_skel_find_kernel(s, "second") == s->kernels[1], "full: find kernel by name");
        ok(augur_skel_find_kernel(s, "third") == NULL, "full: unknown kernel");
    } else {
        diag("%u:%u: %s", diag.line, diag.col, diag.msg);
    }
    augur_skel_free(s);
}

struct bad_case {
    const char *text;
    uint32_t line, col;
    const char *msg;
};

static void test_parse_errors(void)
{
    static const struct bad_case cases[] = {
        { "", 1, 1, "first line must be" },
        { "augur-skeleton 2\n", 1, 1, "first line must be" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  for i = 0; i < 4; i += 1\n", 3, 7,
          "unknown name 'i'" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n  for i = 0; i < 4; j += 1\n", 4,
          21, "unknown name 'j'" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n  break\n", 4, 3,
          "'break' outside a loop" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n  set i = (1 + \n", 4, 15,
          "expected an expression" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n  set i = 1 @2\n", 4, 15,
          "expected ':'" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n      set i = 1\n", 4, 7,
          "unexpected indentation" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  array a i32[] global\n  load a[0] x0\n", 4,
          13, "lane count" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  array a i32[] global bind csr.nothing (cli)\n",
          3, 29, "unknown binding target 'csr.nothing'" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n  local i i64\n", 4, 9,
          "declared twice" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local min i32\n", 3, 9,
          "cannot be used as a name" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  ops fadd.f64=0x1\n", 3, 17,
          "expected KIND.TYPE=COUNT, found 'x1'" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  ops fadd.q64=1\n", 3, 7,
          "unknown type 'q64'" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  ops fadd.f64.c.m=1\n", 3, 7,
          "unexpected '.m' in an operation count" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  ops fadd.f64.c1=1\n", 3, 7,
          "bad chain count" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  ops fadd.f64.c5=4\n", 3, 20,
          "5 chains of 4 operations" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n  set i = 99999999999\n", 4, 11,
          "does not fit in i32" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n  do\n    set i = 1\n", 4, 3,
          "'do' needs a 'while COND' line" },
        { "augur-skeleton 1\nkernel k\n  local i i32\n  set i = 1 @3:4\n", 4, 13,
          "this location needs a file" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  builtin foo.x u32\n", 3, 11,
          "unknown builtin 'foo.x'" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n\tlocal i i32\n", 3, 1, "not tabs" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n  set i = \"x\n", 4, 11,
          "unterminated string" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  array a i32[] global\n  set a = 1\n", 4, 7,
          "expected a declared scalar" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n  for i = 0; i < 1; i += 1 "
          "omp(parallel fast)\n",
          4, 41, "unknown OpenMP word 'fast'" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  param p i32\n  for p = 0; p < 1; p += 1\n", 4,
          7, "must be a local" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\n  local i i32\n  if i prob 2\n", 4, 14,
          "at most 1" },
        { "augur-skeleton 1\nkernel k @\"a.c\":1:1\nkernel k @\"a.c\":2:1\n", 0, 0,
          "kernel 'k' appears twice" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct augur_skel *s = NULL;
        struct augur_diag diag;
        char label[160];
        int rc;

        augur_diag_init(&diag);
        rc = augur_skel_parse(cases[i].text, strlen(cases[i].text), "bad.skel", &s, &diag);
        snprintf(label, sizeof(label), "parse error %zu: %s", i, cases[i].msg);
        if (!ok(rc == AUGUR_EPARSE && s == NULL && strstr(diag.msg, cases[i].msg) &&
                    diag.line == cases[i].line && diag.col == cases[i].col &&
                    strcmp(diag.file, "bad.skel") == 0,
                label))
            diag("got %s:%u:%u: %s (rc %d)", diag.file, diag.line, diag.col, diag.msg, rc);
        augur_skel_free(s);
    }
}

static void test_validator(void)
{
    struct augur_skel *s = build_spmv();
    struct augur_diag diag;
    struct augur_node *acc;

    if (!s)
        return;
    augur_diag_init(&diag);
    ok(augur_skel_validate(s, &diag) == 0, "validate: a built skeleton is valid");
    acc = s->nodes[7];
    acc->u.access.nvia = 0;
    ok(augur_skel_validate(s, &diag) == AUGUR_EINVAL && strstr(diag.msg, "indirect") &&
           diag.line == 9 && diag.col == 21,
       "validate: indirect without via names the node");
    acc->u.access.nvia = 1;
    s->nodes[5]->id = 6;
    ok(augur_skel_validate(s, &diag) == AUGUR_EINVAL && strstr(diag.msg, "pre-order"),
       "validate: ids must be dense pre-order");
    s->nodes[5]->id = 5;
    s->kernels[0]->u.kernel.syms[0].name = "min";
    ok(augur_skel_validate(s, &diag) == AUGUR_EINVAL && strstr(diag.msg, "invalid name"),
       "validate: reserved names are refused");
    s->kernels[0]->u.kernel.syms[0].name = "n";
    ok(augur_skel_validate(s, &diag) == 0, "validate: valid again");
    augur_skel_free(s);
}

/* Inference on skeleton text, then the binding of one array or sym. */
static const char *bound(const struct augur_skel *s, const char *name)
{
    const struct augur_kernel_info *k = &s->kernels[0]->u.kernel;

    for (uint32_t i = 0; i < k->narrays; i++)
        if (!strcmp(k->arrays[i].name, name))
            return k->arrays[i].bind ? k->arrays[i].bind : "(none)";
    for (uint32_t i = 0; i < k->nsyms; i++)
        if (!strcmp(k->syms[i].name, name))
            return k->syms[i].bind ? k->syms[i].bind : "(none)";
    return "(absent)";
}

static const char bfs_text[] = "augur-skeleton 1\n"
                               "kernel bfs @\"bfs.c\":1:1\n"
                               "  param nnodes i32\n"
                               "  param LEVEL i32\n"
                               "  local node i32\n"
                               "  local e i32\n"
                               "  local dst i32\n"
                               "  local start i32\n"
                               "  array level i32[] global param\n"
                               "  array row_start i32[] global param\n"
                               "  array edge_dst i32[] global param\n"
                               "  for node = 0; node < nnodes; node += 1\n"
                               "    load level[node]\n"
                               "    if level[node] != LEVEL - 1\n"
                               "      continue\n"
                               "    load row_start[node]\n"
                               "    set start = row_start[node]\n"
                               "    for e = start; e < row_start[node + 1]; e += 1\n"
                               "      load edge_dst[e]\n"
                               "      set dst = edge_dst[e]\n"
                               "      load level[dst] indirect(edge_dst)\n"
                               "      if level[dst] == -1\n"
                               "        store level[dst] = LEVEL indirect(edge_dst)\n";

static const char coo_text[] = "augur-skeleton 1\n"
                               "kernel reduce @\"r.c\":1:1\n"
                               "  param nedges i32\n"
                               "  local e i32\n"
                               "  array IA i32[] global param\n"
                               "  array X f64[] global param\n"
                               "  array Y f64[] global param\n"
                               "  for e = 0; e < nedges; e += 1\n"
                               "    load IA[2 * e]\n"
                               "    load IA[2 * e + 1]\n"
                               "    load Y[e]\n"
                               "    update X[IA[2 * e]] indirect(IA)\n"
                               "    update X[IA[2 * e + 1]] indirect(IA)\n";

static const char edge_text[] = "augur-skeleton 1\n"
                                "kernel push @\"p.c\":1:1\n"
                                "  param ne i32\n"
                                "  local e i32\n"
                                "  array src i32[] global param\n"
                                "  array dst i32[] global param\n"
                                "  array w f64[] global param\n"
                                "  array x f64[] global param\n"
                                "  array y f64[] global param\n"
                                "  for e = 0; e < ne; e += 1\n"
                                "    load dst[e]\n"
                                "    load src[e]\n"
                                "    load w[e]\n"
                                "    load x[src[e]] indirect(src)\n"
                                "    update y[dst[e]] indirect(dst)\n";

static const char two_csr_text[] = "augur-skeleton 1\n"
                                   "kernel two @\"t.c\":1:1\n"
                                   "  param n i32\n"
                                   "  param L i32\n"
                                   "  local i i32\n"
                                   "  local j i32\n"
                                   "  array p i32[] global param\n"
                                   "  array q i32[] global param @1:20\n"
                                   "  for i = 0; i < n; i += 1\n"
                                   "    for j = p[i]; j < p[i + 1]; j += 1\n"
                                   "      load q[j]\n"
                                   "      if q[j] == 0\n"
                                   "        store q[j] = L\n";

/* A data-driven BFS: s is a node id, wl a worklist filled before it is read. */
static const char frontier_text[] = "augur-skeleton 1\n"
                                    "kernel frontier @\"f.c\":1:1\n"
                                    "  param s i32\n"
                                    "  local head i32\n"
                                    "  local tail i32\n"
                                    "  local v i32\n"
                                    "  local e i32\n"
                                    "  local d i32\n"
                                    "  array rp i32[] global param\n"
                                    "  array ci i32[] global param\n"
                                    "  array lv i32[] global param\n"
                                    "  array wl i32[] global param\n"
                                    "  set head = 0\n"
                                    "  set tail = 1\n"
                                    "  store lv[s] = 0\n"
                                    "  store wl[0] = s\n"
                                    "  while head < tail\n"
                                    "    load wl[head]\n"
                                    "    set v = wl[head]\n"
                                    "    set head = head + 1\n"
                                    "    load rp[v] indirect(wl)\n"
                                    "    load rp[v + 1] indirect(wl)\n"
                                    "    for e = rp[v]; e < rp[v + 1]; e += 1\n"
                                    "      load ci[e]\n"
                                    "      set d = ci[e]\n"
                                    "      load lv[d] indirect(ci)\n"
                                    "      if lv[d] == 2147483647\n"
                                    "        load lv[v] indirect(wl)\n"
                                    "        store lv[d] = lv[v] + 1 indirect(ci)\n"
                                    "        store wl[tail] = d\n"
                                    "        set tail = tail + 1\n";

/* A parameter stored into an array that nothing compares is no round; counts are degrees. */
static const char fill_text[] = "augur-skeleton 1\n"
                                "kernel fill @\"g.c\":1:1\n"
                                "  param n i32\n"
                                "  param c i32\n"
                                "  local i i32\n"
                                "  array out i32[] global param\n"
                                "  array cnt u32[] global param\n"
                                "  for i = 0; i < n; i += 1\n"
                                "    load cnt[i]\n"
                                "    if cnt[i] > 0\n"
                                "      store out[i] = c\n";

static struct augur_skel *parse_text(const char *text, const char *name)
{
    struct augur_skel *s = NULL;
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (augur_skel_parse(text, strlen(text), name, &s, &diag) != 0)
        diag("%s: %u:%u: %s", name, diag.line, diag.col, diag.msg);
    return s;
}

/* Struct members, as the front end names them (A->p). */
static const char member_text[] = "augur-skeleton 1\n"
                                  "kernel gaxpy @\"g.c\":1:1\n"
                                  "  param A->nz i32\n"
                                  "  param B->n i32\n"
                                  "  array A->p i32[] global param\n"
                                  "  array y f64[] global param\n"
                                  "  load A->p[0]\n"
                                  "  load y[B->n]\n";

/* Jagged diagonals with nothing bound (inference off): the messages name what fits. */
static const char unbound_text[] = "augur-skeleton 1\n"
                                   "kernel jds @\"jds.c\":1:1\n"
                                   "  param ndiag i32\n"
                                   "  local d i32\n"
                                   "  local r i32\n"
                                   "  array jd_ptr i32[] global param @1:10\n"
                                   "  array col i32[] global param @1:20\n"
                                   "  array val f64[] global param @1:30\n"
                                   "  array x f64[] global param @1:40\n"
                                   "  for d = 0; d < ndiag; d += 1\n"
                                   "    for r = jd_ptr[d]; r < jd_ptr[d + 1]; r += 1\n"
                                   "      load val[r]\n"
                                   "      load x[col[r]] indirect(col)\n";

static void test_bindings(void)
{
    struct augur_skel *s;
    struct augur_diag diag;

    augur_diag_init(&diag);
    ok(augur_bind_is_array_target("csr.rowptr"), "targets: csr.rowptr");
    ok(augur_bind_is_array_target("vec(n)") && augur_bind_is_array_target("vec(4*nnz)") &&
           augur_bind_is_array_target("vec(100)"),
       "targets: vec sizes");
    ok(!augur_bind_is_array_target("vec(q)") && !augur_bind_is_array_target("vec(0)") &&
           !augur_bind_is_array_target("vec()"),
       "targets: bad vec sizes refused");
    ok(augur_bind_is_scalar_target("=3") && augur_bind_is_scalar_target("nnz") &&
           !augur_bind_is_scalar_target("=x"),
       "targets: scalars");

    ok(augur_bind_is_array_target("csr.rowpairs") && augur_bind_is_array_target("jds.ptr") &&
           augur_bind_is_array_target("jds.perm") && augur_bind_is_array_target("bfs.frontier") &&
           augur_bind_is_array_target("bfs.visited") && augur_bind_is_array_target("bfs.parent"),
       "targets: rowpairs, jagged diagonals, BFS masks and parents");
    ok(augur_bind_is_array_target("bfs.level(-1)") && augur_bind_is_array_target("bfs.level(7)") &&
           !augur_bind_is_array_target("bfs.level(n)") &&
           !augur_bind_is_array_target("bfs.level()"),
       "targets: bfs.level with the unvisited nodes' value");
    ok(augur_bind_is_array_target("sell1.cs") && augur_bind_is_array_target("sell8.col") &&
           augur_bind_is_array_target("sell64.val") && augur_bind_is_array_target("sell32.cl"),
       "targets: SELL-C for C a power of two up to 64");
    ok(!augur_bind_is_array_target("sell3.cs") && !augur_bind_is_array_target("sell128.cs") &&
           !augur_bind_is_array_target("sell8.foo") && !augur_bind_is_array_target("sell0.cs") &&
           !augur_bind_is_array_target("sell.cs"),
       "targets: other chunk sizes and fields refused");
    ok(augur_bind_is_array_target("parts(nnz)") && augur_bind_is_array_target("owner(n)") &&
           augur_bind_is_array_target("iota(n)") &&
           augur_bind_is_array_target("vec(8*sell8.nchunks)") &&
           augur_bind_is_array_target("vec((n+7)/8*8)"),
       "targets: sizes are expressions of the scalar targets");
    ok(!augur_bind_is_array_target("parts(q)") && !augur_bind_is_array_target("iota(0)") &&
           !augur_bind_is_array_target("owner(n"),
       "targets: bad sizes refused");
    ok(augur_bind_is_array_target("csr1.rowptr") && augur_bind_is_array_target("csr1.col") &&
           augur_bind_is_array_target("coo1.row") && augur_bind_is_array_target("vec1(n)") &&
           augur_bind_is_array_target("jds1.perm") && augur_bind_is_array_target("sell81.cs") &&
           augur_bind_is_array_target("sell11.col") && augur_bind_is_array_target("deg1"),
       "targets: 1-based variants (a trailing 1 on the family's name)");
    ok(!augur_bind_is_array_target("csr2.rowptr") && !augur_bind_is_array_target("csr11.col") &&
           !augur_bind_is_array_target("vec1(q)"),
       "targets: no other variants");
    ok(augur_bind_is_scalar_target("n-1") && augur_bind_is_scalar_target("(n+7)/8") &&
           augur_bind_is_scalar_target("4*n") && augur_bind_is_scalar_target("jds.ndiag") &&
           augur_bind_is_scalar_target("sell8.nchunks") && augur_bind_is_scalar_target("round-1") &&
           augur_bind_is_scalar_target("nthreads*2"),
       "targets: scalar expressions");
    ok(!augur_bind_is_scalar_target("q-1") && !augur_bind_is_scalar_target("n+") &&
           !augur_bind_is_scalar_target("(n") && !augur_bind_is_scalar_target("sell3.nchunks") &&
           !augur_bind_is_scalar_target("n%2") && !augur_bind_is_scalar_target("csr.rowptr"),
       "targets: bad scalar expressions refused");

    s = parse_text(member_text, "member");
    if (s) {
        ok(augur_skel_bind(s, NULL, "A.p=csc.colptr,A.nz=-1,B.n=n-1,y=vec1(n)", AUGUR_BIND_CLI,
                           &diag) == 0,
           "bind: struct members with a dot");
        is_str(bound(s, "A->p"), "csc.colptr", "bind: A.p binds A->p");
        is_str(bound(s, "A->nz"), "=-1", "bind: A.nz binds A->nz");
        is_str(bound(s, "B->n"), "n-1", "bind: a scalar expression");
        is_str(bound(s, "y"), "vec1(n)", "bind: a 1-based vector");
        ok(augur_skel_bind(s, NULL, "B.n = (n + 7) / 8", AUGUR_BIND_CLI, &diag) == 0 &&
               !strcmp(bound(s, "B->n"), "(n+7)/8"),
           "bind: blanks in an expression are dropped");
        ok(augur_skel_bind(s, NULL, "B.n=4*nn", AUGUR_BIND_CLI, &diag) == AUGUR_EBIND &&
               strstr(diag.msg, "unknown name 'nn'") && strstr(diag.msg, "nnz") &&
               strstr(diag.msg, "sell8.nchunks"),
           "bind: an unknown name in an expression is named with the names that exist");
        ok(augur_skel_bind(s, NULL, "A.p=sell3.cs", AUGUR_BIND_CLI, &diag) == AUGUR_EBIND,
           "bind: SELL-3 refused");
        augur_skel_free(s);
    }
    s = parse_text(unbound_text, "unbound");
    if (s) {
        ok(augur_skel_check_bindings(s, NULL, &diag) == AUGUR_EBIND &&
               strstr(diag.msg, "--bind jd_ptr=TARGET (an offsets array: csr.rowptr") &&
               strstr(diag.msg, "jds.ptr"),
           "check: an offsets array's message names the offsets targets");
        ok(augur_skel_bind(s, NULL, "jd_ptr=jds.ptr", AUGUR_BIND_CLI, &diag) == 0 &&
               augur_skel_check_bindings(s, NULL, &diag) == AUGUR_EBIND &&
               strstr(diag.msg, "--bind col=TARGET (an index array: csr.col"),
           "check: an index array's message names the index targets");
        ok(augur_skel_bind(s, NULL, "col=jds.col", AUGUR_BIND_CLI, &diag) == 0 &&
               augur_skel_check_bindings(s, NULL, &diag) == AUGUR_EBIND &&
               strstr(diag.msg, "--bind val=TARGET (csr.val, coo.val"),
           "check: a real array's message names the value targets");
        ok(augur_skel_bind(s, NULL, "val=jds.val,x=vec(m)", AUGUR_BIND_CLI, &diag) == 0 &&
               augur_skel_check_bindings(s, NULL, &diag) == AUGUR_EBIND &&
               strstr(diag.msg, "--bind ndiag=TARGET (n, m, nnz, an expression such as n-1"),
           "check: a scalar's message names the scalar targets");
        augur_skel_free(s);
    }

    s = parse_text(bfs_text, "bfs");
    if (s) {
        ok(augur_skel_infer_bindings(s, &diag) == 0, "infer bfs: no conflict");
        is_str(bound(s, "row_start"), "csr.rowptr", "infer bfs: row_start is the row pointer");
        is_str(bound(s, "edge_dst"), "csr.col", "infer bfs: edge_dst is the column array");
        is_str(bound(s, "level"), "bfs.level(-1)",
               "infer bfs: level is a BFS level, tested against -1 for the unvisited nodes");
        is_str(bound(s, "LEVEL"), "round", "infer bfs: LEVEL is the round");
        is_str(bound(s, "nnodes"), "n", "infer bfs: nnodes bounds the rows");
        ok(augur_skel_check_bindings(s, NULL, &diag) == 0, "infer bfs: everything bound");
        ok(augur_skel_bind(s, NULL, "level=vec(n),LEVEL=3", AUGUR_BIND_CLI, &diag) == 0,
           "bind: command line");
        is_str(bound(s, "level"), "vec(n)", "bind: cli replaces an inferred binding");
        is_str(bound(s, "LEVEL"), "=3", "bind: a literal value");
        ok(augur_skel_bind(s, NULL, "level=csr.col", AUGUR_BIND_PRAGMA, &diag) == 0 &&
               !strcmp(bound(s, "level"), "vec(n)"),
           "bind: a pragma does not replace the command line");
        ok(augur_skel_bind(s, NULL, "nosuch=vec(n)", AUGUR_BIND_CLI, &diag) == AUGUR_EBIND &&
               strstr(diag.msg, "'nosuch'"),
           "bind: unknown name");
        ok(augur_skel_bind(s, NULL, "level=n", AUGUR_BIND_CLI, &diag) == AUGUR_EBIND &&
               strstr(diag.msg, "not an array binding"),
           "bind: scalar target for an array");
        ok(augur_skel_bind(s, NULL, "dst=n", AUGUR_BIND_CLI, &diag) == AUGUR_EBIND &&
               strstr(diag.msg, "not a kernel parameter"),
           "bind: locals cannot be bound");
        ok(augur_skel_bind(s, NULL, "level", AUGUR_BIND_CLI, &diag) == AUGUR_EBIND,
           "bind: missing target");
        augur_skel_free(s);
    }
    s = parse_text(coo_text, "coo");
    if (s) {
        ok(augur_skel_infer_bindings(s, &diag) == 0, "infer reduction: no conflict");
        is_str(bound(s, "IA"), "edges.pairs", "infer reduction: IA holds both ends of each edge");
        is_str(bound(s, "Y"), "vec(nnz)", "infer reduction: Y has one value per edge");
        is_str(bound(s, "X"), "vec(n)", "infer reduction: X is a node vector");
        is_str(bound(s, "nedges"), "nnz", "infer reduction: nedges by name");
        augur_skel_free(s);
    }
    s = parse_text(edge_text, "edges");
    if (s) {
        ok(augur_skel_infer_bindings(s, &diag) == 0, "infer edges: no conflict");
        is_str(bound(s, "src"), "coo.row", "infer edges: src by name");
        is_str(bound(s, "dst"), "coo.col", "infer edges: dst by name");
        is_str(bound(s, "x"), "vec(n)", "infer edges: x through src");
        is_str(bound(s, "y"), "vec(m)", "infer edges: y through dst");
        is_str(bound(s, "w"), "coo.val", "infer edges: w, read per edge beside src and dst");
        is_str(bound(s, "ne"), "nnz", "infer edges: ne bounds the edges");
        augur_skel_free(s);
    }
    s = parse_text(frontier_text, "frontier");
    if (s) {
        ok(augur_skel_infer_bindings(s, &diag) == 0, "infer frontier: no conflict");
        is_str(bound(s, "s"), "=0", "infer frontier: s indexes arrays, a node id: node 0");
        is_str(bound(s, "wl"), "vec(n)", "infer frontier: wl is a worklist of n nodes");
        is_str(bound(s, "lv"), "bfs.level", "infer frontier: lv is compared and set to lv + 1");
        is_str(bound(s, "rp"), "csr.rowptr", "infer frontier: rp is the row pointer");
        is_str(bound(s, "ci"), "csr.col", "infer frontier: ci is the column array");
        ok(augur_skel_check_bindings(s, NULL, &diag) == 0, "infer frontier: everything bound");
        augur_skel_free(s);
    }
    s = parse_text(fill_text, "fill");
    if (s) {
        ok(augur_skel_infer_bindings(s, &diag) == 0, "infer fill: no conflict");
        is_str(bound(s, "out"), "vec(n)", "infer fill: out is never compared: no level array");
        is_str(bound(s, "c"), "(none)", "infer fill: c is stored but is no round");
        is_str(bound(s, "cnt"), "deg", "infer fill: integers per node, only read: the degrees");
        augur_skel_free(s);
    }
    s = parse_text(two_csr_text, "conflict");
    if (s) {
        ok(augur_skel_infer_bindings(s, &diag) == AUGUR_EBIND && strstr(diag.msg, "'q'") &&
               strstr(diag.msg, "csr.val") && strstr(diag.msg, "bfs.level") && diag.line == 1 &&
               diag.col == 20,
           "infer: a conflict names the array and its line");
        ok(augur_skel_check_bindings(s, NULL, &diag) == AUGUR_EBIND && strstr(diag.msg, "'p'"),
           "check: unbound array named");
        augur_skel_free(s);
    }
}

int main(void)
{
    test_exprs();
    test_build_and_dump();
    test_full_round_trip();
    test_parse_errors();
    test_validator();
    test_bindings();
    return tap_done();
}
