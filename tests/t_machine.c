/*
 * t_machine.c - machine model files: the shipped machines load, validate and
 * round-trip through the canonical dump; bad files fail at the right line:col.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"
#include "tap.h"

static char *dump_string(const struct augur_machine *m)
{
    struct augur_buf b;

    augur_buf_init(&b);
    augur_machine_dump_buf(&b, m);
    return augur_buf_detach(&b, NULL);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Loads dir/name, checks the round trip; returns the machine (caller frees) or NULL. */
static struct augur_machine *load_and_roundtrip(const char *dir, const char *name)
{
    char path[2048], label[256];
    struct augur_machine *m = NULL, *m2 = NULL, *m3 = NULL;
    struct augur_diag d;
    char *s1 = NULL, *s2 = NULL, *s3 = NULL;
    int rc;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    augur_diag_init(&d);
    rc = augur_machine_load(path, &m, &d);
    snprintf(label, sizeof(label), "%s loads and validates", name);
    if (!is_int(rc, 0, label)) {
        char msg[1200];

        augur_diag_format(&d, msg, sizeof(msg));
        diag("%s", msg);
        return NULL;
    }
    ok(augur_machine_validate(m, NULL) == 0, "validate() agrees with the loader");
    s1 = dump_string(m);
    rc = augur_machine_parse(s1, strlen(s1), "dump", &m2, &d);
    snprintf(label, sizeof(label), "%s: its dump loads", name);
    if (is_int(rc, 0, label)) {
        s2 = dump_string(m2);
        snprintf(label, sizeof(label), "%s: dump -> load -> dump is identical", name);
        is_str(s2, s1, label);
        /* and once more, from the second dump */
        if (augur_machine_parse(s2, strlen(s2), "dump2", &m3, NULL) == 0) {
            s3 = dump_string(m3);
            ok(strcmp(s3, s2) == 0, "third dump identical");
        }
    } else {
        char msg[1200];

        augur_diag_format(&d, msg, sizeof(msg));
        diag("%s\n%s", msg, s1);
    }
    augur_free(s1);
    augur_free(s2);
    augur_free(s3);
    augur_machine_free(m2);
    augur_machine_free(m3);
    return m;
}

static void test_shipped(void)
{
    const char *src = getenv("AUGUR_SOURCE_DIR");
    char dir[1024];
    DIR *dp;
    struct dirent *de;
    char *names[64];
    size_t n = 0, i;

    snprintf(dir, sizeof(dir), "%s/samples/machines", src ? src : ".");
    dp = opendir(dir);
    if (!ok(dp != NULL, "samples/machines exists")) {
        diag("looked in %s", dir);
        return;
    }
    while ((de = readdir(dp)) != NULL && n < 64) {
        size_t len = strlen(de->d_name);

        /* default-cpu.yml is the defaults, not a machine: test_defaults() checks it */
        if (len > 4 && strcmp(de->d_name + len - 4, ".yml") == 0 &&
            strcmp(de->d_name, "default-cpu.yml") != 0)
            names[n++] = augur_strdup(de->d_name);
    }
    closedir(dp);
    qsort(names, n, sizeof(names[0]), cmp_names);
    ok(n >= 8, "at least 8 machine files are shipped");
    for (i = 0; i < n; i++) {
        struct augur_machine *m = load_and_roundtrip(dir, names[i]);

        if (m && strcmp(names[i], "sandy-bridge-e5-2670.yml") == 0) {
            const struct augur_machine_cache *l3 = augur_machine_cache_find(m, "L3");

            is_int(m->kind, AUGUR_MACHINE_CPU, "snb: cpu");
            is_int(m->cores, 16, "snb: 16 cores");
            is_double(m->clock_ghz, 2.6, 0, "snb: 2.6 GHz");
            is_int(m->registers_bytes, 1120, "snb: 140 words of registers");
            is_int(m->ncaches, 3, "snb: three levels");
            is_int(m->caches[0].size, 32000, "snb: L1 = 4000 words (Table 1)");
            is_int(m->caches[1].size, 256000, "snb: L2 = 32000 words");
            ok(l3 && l3->size == 20000000 && l3->shared_by == 8, "snb: L3 20 MB for 8 cores");
            is_int(m->caches[0].ways, -1, "snb: associativity not given");
            is_double(augur_machine_bw_at(m->caches[0].bandwidth, m->caches[0].nbandwidth, 1),
                      35.31, 0, "snb: L1 bandwidth 35.31");
            is_double(augur_machine_bw_at(m->memory.bandwidth, m->memory.nbandwidth, 3), 38, 1e-12,
                      "snb: memory bandwidth at 3 threads interpolates 32..44");
            is_double(augur_machine_bw_at(m->memory.bandwidth, m->memory.nbandwidth, 6), 44, 0,
                      "snb: flat between 4 and 8");
            is_double(augur_machine_bw_at(m->memory.bandwidth, m->memory.nbandwidth, 64), 88.8, 0,
                      "snb: clamped beyond the table");
        }
        if (m && strcmp(names[i], "dev-xeon-2vcpu.yml") == 0) {
            is_int(m->caches[2].size, 37486592, "dev: L3 35.75 MiB");
            is_int(m->caches[2].ways, 11, "dev: L3 11-way");
            is_int(m->simd.width_bits, 512, "dev: AVX-512");
            is_int(m->memory.nmlp, 5, "dev: 5 MLP points");
            is_double(augur_machine_curve_at(m->memory.mlp, m->memory.nmlp, 6), 90.5, 1e-12,
                      "dev: service time at m=6 interpolates 105..76");
            is_double(augur_machine_curve_at(m->memory.mlp, m->memory.nmlp, 100), 72, 0,
                      "dev: clamped at the last point");
        }
        if (m && strcmp(names[i], "dev-epyc-2vcpu.yml") == 0) {
            is_int(m->core.nbranch_run_cycles, 11, "epyc: branch runs 1..1024, x2");
            is_int(m->core.nbranch_run_left, 11, "epyc: and the share left at each");
            is_double(m->core.branch_run_cycles[0].m, 1, 0, "epyc: the first run is 1");
            ok(m->core.branch_run_left[0].ns < 0.01 && m->core.branch_run_left[10].ns > 0.9,
               "epyc: short runs learned, long ones not");
        }
        if (m && strcmp(names[i], "tesla-k20m.yml") == 0) {
            is_int(m->kind, AUGUR_MACHINE_GPU, "k20m: gpu");
            is_int(m->gpu.sms, 13, "k20m: 13 SMs");
            is_int(m->caches[1].size, 1280000, "k20m: L2 1280 kB = 160,000 doubles");
            is_int(m->caches[1].line, 32, "k20m: 32-byte L2 lines");
            is_int(m->memory.nbandwidth, 1, "k20m: one DRAM bandwidth");
            is_int(m->memory.bandwidth[0].threads, 0, "k20m: ... for the whole device");
        }
        if (m && strcmp(names[i], "h100-sxm.yml") == 0) {
            is_int(m->ncaches, 2, "h100: L1 and L2");
            is_int(m->caches[0].size, 256u << 10, "h100: 256 KiB L1 per SM");
            is_int(m->caches[0].shared_by, 1, "h100: L1 private to its SM");
            is_int(m->caches[1].size, 50u << 20, "h100: 50 MiB L2");
            is_int(m->caches[1].sector, 32, "h100: 32-B sectors");
            is_int(m->gpu.max_warps_per_sm, 64, "h100: 64 warps per SM");
        }
        if (m && strcmp(names[i], "tesla-k40c.yml") == 0) {
            is_int(m->gpu.max_warps, 960, "k40c: 960 physical warps");
            is_int(m->memory.row_buffer_bytes, 256, "k40c: 256-byte DRAM blocks");
            is_int(m->gpu.sms * m->gpu.max_warps_per_sm, 960, "k40c: 15 SMs x 64 warps = 960");
            is_int(m->caches[0].size, 1536u << 10, "k40c: 1536 KiB L2");
        }
        if (m && strcmp(names[i], "knl-7250.yml") == 0) {
            is_int(m->caches[0].line, 64, "knl: 64-B lines");
            is_int(m->caches[1].ways, 16, "knl: L2 16-way");
            is_int(m->threads_per_core, 4, "knl: 4 threads a core");
        }
        if (m && strcmp(names[i], "westmere-xeon.yml") == 0) {
            is_int(m->caches[2].line, 64, "westmere: 64-B L3 lines");
            is_double(m->memory.latency_ns, 136, 0, "westmere: 136 ns to local memory");
        }
        augur_machine_free(m);
        augur_free(names[i]);
    }
}

/* Parses text and checks the error: code, line, column and a piece of the message. */
static void bad(const char *text, int code, unsigned line, unsigned col, const char *piece,
                const char *name)
{
    struct augur_machine *m = NULL;
    struct augur_diag d;
    int rc;

    augur_diag_init(&d);
    rc = augur_machine_parse(text, strlen(text), "bad.yml", &m, &d);
    if (!is_int(rc, code, name)) {
        augur_machine_free(m);
        return;
    }
    ok(m == NULL, "no machine on failure");
    is_str(d.file, "bad.yml", "names the file");
    if (!is_int(d.line, line, "line") | !is_int(d.col, col, "column") |
        !ok(strstr(d.msg, piece) != NULL, "message"))
        diag("message: %s", d.msg);
}

#define CPU_HEAD "name: t\nkind: cpu\ncores: 2\n"

static void test_bad(void)
{
    bad("name: t\nkind: cpu\ncaches: [\n", AUGUR_EPARSE, 4, 1, "YAML syntax error",
        "unterminated flow list");
    bad("name: t\nkind: cpu\n  cores: 2\n", AUGUR_EPARSE, 3, 8, "YAML syntax error",
        "bad indentation");
    bad("name: \"t\nkind: cpu\n", AUGUR_EPARSE, 3, 1, "YAML syntax error", "unterminated quote");
    bad("name: t\n\tkind: cpu\n", AUGUR_EPARSE, 2, 1, "YAML syntax error", "tab indentation");
    bad("name: t\nkind: \xff\n", AUGUR_EPARSE, 2, 7, "YAML", "invalid UTF-8");
    bad("", AUGUR_EMODEL, 1, 1, "empty", "empty file");
    bad("# only a comment\n", AUGUR_EMODEL, 1, 1, "empty", "comment only");
    bad("- 1\n- 2\n", AUGUR_EMODEL, 1, 1, "expected a mapping", "top level is a list");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB, line: 64}\n---\nname: u\n", AUGUR_EMODEL, 7,
        1, "one YAML document", "two documents");
    bad(CPU_HEAD "foo: 1\n", AUGUR_EMODEL, 4, 1, "unknown key 'foo' in machine", "unknown key");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 32 KiB\n    colour: red\n", AUGUR_EMODEL, 7, 5,
        "unknown key 'colour' in cache level", "unknown key in a cache level");
    bad(CPU_HEAD "cores: 4\n", AUGUR_EMODEL, 4, 1, "duplicate key 'cores'", "duplicate key");
    bad("kind: cpu\ncores: 2\n", AUGUR_EMODEL, 1, 1, "missing required field 'name'",
        "missing name");
    bad("name: t\ncores: 2\n", AUGUR_EMODEL, 1, 1, "missing required field 'kind'", "missing kind");
    bad("name: t\nkind: cpu\ncaches:\n  - {name: L1, size: 32 KiB}\n", AUGUR_EMODEL, 1, 1,
        "missing required field 'cores'", "cpu without cores");
    bad(CPU_HEAD "clock_ghz: 3\n", AUGUR_EMODEL, 1, 1, "missing required field 'caches'",
        "cpu without caches");
    bad(CPU_HEAD "caches:\n  - name: L1\n    line: 64\n", AUGUR_EMODEL, 5, 5,
        "missing required field 'size'", "cache without size");
    bad("name: t\nkind: cpu\ncores: -2\n", AUGUR_EMODEL, 3, 8, "must not be negative",
        "negative cores");
    bad("name: t\nkind: cpu\ncores: 0\n", AUGUR_EMODEL, 3, 8, "out of range", "zero cores");
    bad("name: t\nkind: cpu\ncores: two\n", AUGUR_EMODEL, 3, 8, "expected a whole number",
        "cores is not a number");
    bad("name: t\nkind: cpu\ncores: [2]\n", AUGUR_EMODEL, 3, 8, "got a list", "cores is a list");
    bad("name: t\nkind: cpu\ncores: 2.5\n", AUGUR_EMODEL, 3, 8, "expected a whole number",
        "fractional cores");
    bad("name: t\nkind: tpu\n", AUGUR_EMODEL, 2, 7,
        "unknown value 'tpu' (expected one of: cpu, gpu)", "unknown kind");
    bad(CPU_HEAD "clock_ghz: -1.5\n", AUGUR_EMODEL, 4, 12, "must be positive", "negative clock");
    bad(CPU_HEAD "clock_ghz: 250\n", AUGUR_EMODEL, 4, 12, "out of range", "absurd clock");
    bad(CPU_HEAD "clock_ghz: nan\n", AUGUR_EMODEL, 4, 12, "expected a number", "nan clock");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 2 TiB\n    line: 64\n", AUGUR_EMODEL, 6, 11,
        "absurd", "a cache larger than 1 TiB");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 32 KB\n", AUGUR_EMODEL, 6, 11, "ambiguous unit",
        "KB is ambiguous");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 32 parsecs\n", AUGUR_EMODEL, 6, 11,
        "unknown unit", "unknown unit");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 1.0005 kB\n    line: 64\n", AUGUR_EMODEL, 6, 11,
        "not a whole number of bytes", "fractional bytes");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 32 KiB\n    line: 48\n", AUGUR_EMODEL, 7, 11,
        "not a power of two", "line not a power of two");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 32 KiB\n    line: 64\n    ways: 7\n",
        AUGUR_EMODEL, 8, 11, "7 ways do not divide its 512 lines", "ways do not divide the lines");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 1000\n    line: 64\n", AUGUR_EMODEL, 6, 11,
        "not a whole number of 64-byte lines", "size not a multiple of the line");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 32\n    line: 64\n", AUGUR_EMODEL, 7, 11,
        "larger than the cache", "line larger than the cache");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 32 KiB\n    line: 64\n    sector: 128\n",
        AUGUR_EMODEL, 8, 13, "must divide the line", "sector larger than the line");
    bad(CPU_HEAD "caches:\n  - name: L1\n    size: 32 KiB\n    shared_by: 4\n", AUGUR_EMODEL, 7, 16,
        "shared_by 4 exceeds the 2 cores", "shared by more cores than there are");
    bad("name: t\nkind: cpu\ncores: 8\ncaches:\n  - {name: L1, size: 32 KiB, shared_by: 2}\n"
        "  - {name: L2, size: 1 MiB, shared_by: 3}\n",
        AUGUR_EMODEL, 6, 40, "not a multiple of L1's (2)", "sharing groups do not nest");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB}\n  - {name: L1, size: 1 MiB}\n",
        AUGUR_EMODEL, 6, 12, "given twice", "duplicate level name");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB, write_policy: write-around}\n",
        AUGUR_EMODEL, 5, 44, "expected one of: write-back, write-through", "bad write policy");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB, replacement: random}\n", AUGUR_EMODEL, 5,
        43, "expected one of: lru, adaptive", "bad replacement");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB, inclusive: maybe}\n", AUGUR_EMODEL, 5, 41,
        "expected true or false", "bad boolean");
    bad(CPU_HEAD "core:\n  fused_chains: often\n", AUGUR_EMODEL, 5, 17, "expected true or false",
        "bad fused_chains");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB, bandwidth_gbs: {1: 35, 4: 60}}\n",
        AUGUR_EMODEL, 5, 45, "given for 4 threads, but the machine runs 2",
        "bandwidth for more threads");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB, bandwidth_gbs: {2: 35, 1: 60}}\n",
        AUGUR_EMODEL, 5, 53, "ascending", "bandwidth thread counts out of order");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB, bandwidth_gbs: [[1, 35, 2]]}\n",
        AUGUR_EMODEL, 5, 46, "pair", "bandwidth entry not a pair");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB}\nmemory:\n  mlp: [[1, 300], [1, 200]]\n",
        AUGUR_EMODEL, 7, 20, "m must be ascending", "mlp curve out of order");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB}\nmemory:\n  row_buffer_bytes: 300\n",
        AUGUR_EMODEL, 7, 21, "not a power of two", "row buffer not a power of two");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB}\nmemory: {}\n", AUGUR_EMODEL, 6, 9,
        "empty section", "empty section");
    bad(CPU_HEAD "caches:\n  - {name: L1, size: 32 KiB}\ngpu:\n  sms: 4\n", AUGUR_EMODEL, 7, 3,
        "a gpu section in a machine of kind cpu", "gpu section in a cpu file");
    bad("name: g\nkind: gpu\nmemory:\n  bandwidth_gbs: 900\n", AUGUR_EMODEL, 1, 1,
        "missing required field 'gpu'", "gpu without gpu section");
    bad("name: g\nkind: gpu\ngpu:\n  warp_size: 24\n", AUGUR_EMODEL, 4, 14, "not a power of two",
        "warp size not a power of two");
    bad("name: g\nkind: gpu\ngpu: {sms: 2, max_warps_per_sm: 4, max_warps: 9}\n", AUGUR_EMODEL, 3,
        47, "exceeds sms x max_warps_per_sm", "max_warps beyond sms x per SM");
    bad("name: \"a\\x01b\"\nkind: cpu\n", AUGUR_EMODEL, 1, 7, "control characters",
        "control character in name");
    bad(CPU_HEAD "caches:\n  - {name: \"L 1\", size: 32 KiB}\n", AUGUR_EMODEL, 5, 12,
        "letters, digits", "space in a level name");
    bad(CPU_HEAD "model: {mimd_a: 1e400}\n", AUGUR_EMODEL, 4, 17, "expected a number",
        "overflowing number");
}

static void test_forms(void)
{
    const char *text = CPU_HEAD "caches:\n"
                                "  - name: L1\n"
                                "    size: '48 kB'\n"
                                "    line: 64 B\n"
                                "    ways: 0\n"
                                "    write_policy: write-through\n"
                                "    write_allocate: no\n"
                                "    prefetch: next-line\n"
                                "    replacement: adaptive\n"
                                "    bandwidth_gbs: [[1, 10.5], [2, 20]]\n"
                                "memory:\n"
                                "  bandwidth_gbs: 12.25\n"
                                "  mlp: {1: 100, 4: 40}\n"
                                "model: {mimd_a: -0.5, mimd_b: 3e-7}\n";
    const char *want = "# augur machine model (canonical form; see docs/machine.md)\n"
                       "name: \"t\"\n"
                       "kind: cpu\n"
                       "cores: 2\n"
                       "caches:\n"
                       "  - name: L1\n"
                       "    size: 48 kB\n"
                       "    line: 64\n"
                       "    ways: 0\n"
                       "    write_policy: write-through\n"
                       "    write_allocate: false\n"
                       "    prefetch: next-line\n"
                       "    replacement: adaptive\n"
                       "    bandwidth_gbs: {1: 10.5, 2: 20}\n"
                       "memory:\n"
                       "  bandwidth_gbs: 12.25\n"
                       "  mlp: [[1, 100], [4, 40]]\n"
                       "model:\n"
                       "  mimd_a: -0.5\n"
                       "  mimd_b: 3e-07\n";
    struct augur_machine *m = NULL;
    struct augur_diag d;
    char *s;

    augur_diag_init(&d);
    if (!is_int(augur_machine_parse(text, strlen(text), "forms.yml", &m, &d), 0,
                "quoted sizes, units, lists of pairs, maps and scalars load")) {
        diag("%s", d.msg);
        return;
    }
    is_int(m->caches[0].size, 48000, "48 kB = 48000 bytes");
    is_int(m->caches[0].ways, 0, "ways 0 = fully associative");
    is_int(m->caches[0].write_policy, AUGUR_WRITE_THROUGH, "write-through");
    is_int(m->caches[0].write_alloc, 0, "no write allocate");
    is_int(m->caches[0].inclusive, -1, "inclusive not given");
    is_int(m->caches[0].prefetch, AUGUR_PREFETCH_NEXT_LINE, "next-line prefetch");
    is_int(m->caches[0].replacement, AUGUR_REPL_ADAPTIVE, "adaptive replacement");
    is_int(m->memory.bandwidth[0].threads, 0, "a scalar bandwidth is for the whole machine");
    is_double(augur_machine_bw_at(m->memory.bandwidth, 1, 7), 12.25, 0, "... at any count");
    ok(m->model.given && m->model.mimd_a == -0.5, "model constants, negative allowed");
    s = dump_string(m);
    is_str(s, want, "canonical dump");
    augur_free(s);
    augur_machine_free(m);

    /* validate() on a machine changed in code */
    augur_machine_parse(text, strlen(text), "forms.yml", &m, NULL);
    m->caches[0].line = 48;
    augur_diag_init(&d);
    is_int(augur_machine_validate(m, &d), AUGUR_EMODEL, "validate catches an edited line size");
    is_int(d.line, 5, "... and names the level's line");
    ok(strstr(d.msg, "not a power of two") != NULL, "... and the reason");
    augur_machine_free(m);
}

static void test_load_errors(void)
{
    struct augur_machine *m = NULL;
    struct augur_diag d;

    augur_diag_init(&d);
    ok(augur_machine_load("/nonexistent/machine.yml", &m, &d) < 0 && m == NULL,
       "a missing file fails");
    ok(strstr(d.file, "nonexistent") != NULL, "... naming it");
}

/* The CPU defaults are data: every value the models fall back to is in default-cpu.yml. */
static void test_defaults(void)
{
    const struct augur_machine *d = augur_machine_cpu_defaults();
    const struct augur_machine_core *c = &d->core;
    struct augur_machine *m = NULL;
    struct augur_diag diag;
    const char *text = "name: t\nkind: cpu\ncores: 1\nclock_ghz: 2\n"
                       "caches:\n  - {name: L1, size: 32768, line: 64, latency_ns: 1}\n"
                       "memory: {latency_ns: 90}\n"
                       "ops: {idiv: 30}\nmodel: {overlap_norm: 8}\n";

    augur_diag_init(&diag);
    ok(d != NULL && d == augur_machine_cpu_defaults(), "the built-in defaults load, once");
    ok(c->loads_per_cycle > 0 && c->stores_per_cycle > 0 && c->fp_ops_per_cycle > 0 &&
           c->int_ops_per_cycle > 0 && c->issue_width > 0 && c->branch_miss_cycles > 0 &&
           c->region_ns > 0 && c->chain_cycles > 0 && c->fadd_latency > 0 && c->fma_latency > 0 &&
           c->fdiv_cycles > 0 && c->atomic_cycles > 0 && c->chunk_ns > 0 && c->inflight > 0 &&
           c->window > 0 && c->mlp > 0 && c->prefetch_streams > 0 && c->prefetch_reach > 0 &&
           c->stride_entries > 0,
       "every core default is given");
    ok(d->simd.gather_cycles_per_element > 0 && d->simd.scatter_cycles_per_element > 0 &&
           d->simd.pack_bytes > 0 && d->simd.register_elems > 0,
       "the SIMD and code generation defaults");
    ok(d->ops.fmath > 0 && d->ops.idiv > 0 && d->ops.conflict > 0 && d->ops.reduce > 0 &&
           d->ops.fsqrt_per_fdiv > 0,
       "every operation's cost");
    ok(d->model.overlap_norm >= 1, "the overlap norm");
    ok(c->chain_loop_instr > 0, "the chain loop's instructions");
    ok(d->branch_predictor.aging_log2 >= 8, "the predictor's aging period");
    ok(d->branch_predictor.given && d->branch_predictor.bias_entries &&
           d->branch_predictor.tagged_entries && d->branch_predictor.tag_bits &&
           d->branch_predictor.nhistories >= 1,
       "the branch predictor's sizes");
    if (is_int(augur_machine_parse(text, strlen(text), "t.yml", &m, &diag), 0,
               "a file may give ops and model values")) {
        ok(m->ops.idiv == 30 && m->ops.given && m->ops.fmath == 0, "ops: given and not given");
        ok(m->model.overlap_norm == 8, "model: overlap_norm");
    }
    augur_machine_free(m);
}

/* A file's branch predictor: read, dumped and read back, checked; the rest from the defaults. */
static void test_branch_predictor(void)
{
    const char *text =
        CPU_HEAD "caches:\n  - {name: L1, size: 32768, line: 64}\n"
                 "branch_predictor: {tagged_entries: 4096, histories: [4, 16, 64]}\n";
    struct augur_machine *m = NULL, *m2 = NULL;
    struct augur_bp_config bp;
    struct augur_diag d;
    char *dump;

    augur_diag_init(&d);
    if (!is_int(augur_machine_parse(text, strlen(text), "t.yml", &m, &d), 0,
                "a branch_predictor section"))
        return;
    ok(m->branch_predictor.given && m->branch_predictor.tagged_entries == 4096 &&
           m->branch_predictor.nhistories == 3 && m->branch_predictor.histories[2] == 64,
       "its values");
    dump = dump_string(m);
    ok(strstr(dump, "histories: [4, 16, 64]") != NULL, "the dump writes the list");
    if (is_int(augur_machine_parse(dump, strlen(dump), "dump", &m2, &d), 0, "and reads it back"))
        ok(m2->branch_predictor.nhistories == 3 && m2->branch_predictor.histories[1] == 16,
           "the same histories");
    ok(augur_bp_config_from_machine(m, &bp), "a CPU runs a predictor");
    ok(bp.tagged_entries == 4096 && bp.ntables == 3 && bp.history[0] == 4 &&
           bp.bias_entries == augur_machine_cpu_defaults()->branch_predictor.bias_entries &&
           bp.tag_bits == augur_machine_cpu_defaults()->branch_predictor.tag_bits,
       "the sizes it gives, the defaults for the rest");
    augur_free(dump);
    augur_machine_free(m);
    augur_machine_free(m2);
    bad(CPU_HEAD "branch_predictor: {histories: [5, 5]}\n", AUGUR_EMODEL, 4, 35,
        "ascending and distinct", "histories must ascend");
    bad(CPU_HEAD "branch_predictor: {histories: [1, 2, 3, 4, 5, 6, 7, 8, 9]}\n", AUGUR_EMODEL, 4,
        31, "give 1 to 8 numbers", "at most 8 tables");
    bad(CPU_HEAD "branch_predictor: {histories: 5}\n", AUGUR_EMODEL, 4, 31, "expected a list",
        "histories is a list");
    bad(CPU_HEAD "branch_predictor: {tagged_entries: 3000}\n", AUGUR_EMODEL, 4, 36, "power of two",
        "entries are a power of two");
    bad(CPU_HEAD "branch_predictor: {tag_bits: 16}\n", AUGUR_EMODEL, 4, 30, "out of range",
        "a tag fits 15 bits");
}

int main(void)
{
    test_shipped();
    test_bad();
    test_forms();
    test_load_errors();
    test_defaults();
    test_branch_predictor();
    return tap_done();
}
