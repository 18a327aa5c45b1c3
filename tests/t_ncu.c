/*
 * t_ncu.c - tests of the Nsight Compute CSV reader (augur_ncu_*, module:
 * measure): the raw and details pages of tests/data/ncu/ (an H100's counts
 * of three kernels) read to the same values in base units; the kernel's
 * own name from demangled, templated and mangled names; one launch or the
 * median of several; units and thousands separators; and the refusals,
 * each naming file:line.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "augur/augur.h"
#include "tap.h"

#define HEAD "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\""

static struct augur_ncu *parse(const char *text, struct augur_diag *d)
{
    struct augur_ncu *n = NULL;

    augur_diag_init(d);
    augur_ncu_parse(text, strlen(text), "t.csv", &n, d);
    return n;
}

/* A refusal of text whose message holds says, at line (0: any). */
static void refuses(const char *what, const char *text, int code, uint32_t line, const char *says)
{
    struct augur_diag d;
    struct augur_ncu *n = parse(text, &d);
    char msg[1200];

    augur_diag_format(&d, msg, sizeof(msg));
    ok(!n && d.code == code && (!line || d.line == line) && strstr(msg, says), what);
    if (n || d.code != code || (line && d.line != line) || !strstr(msg, says))
        diag("code %d line %u: %s", d.code, d.line, msg);
    augur_ncu_free(n);
}

static void the_two_pages(void)
{
    const char *src = getenv("AUGUR_SOURCE_DIR");
    static const char *const pages[] = { "raw", "details" };
    double first[AUGUR_NCU_NQUANTITIES];

    for (int p = 0; p < 2; p++) {
        char path[1024], name[128];
        struct augur_ncu *n = NULL;
        struct augur_ncu_launch l;
        struct augur_diag d;
        uint32_t count = 0;

        snprintf(path, sizeof(path), "%s/tests/data/ncu/h100_fe_4elt2_%s.csv", src ? src : ".",
                 pages[p]);
        augur_diag_init(&d);
        snprintf(name, sizeof(name), "the %s page reads", pages[p]);
        if (!ok(augur_ncu_load(path, &n, &d) == 0, name)) {
            diag("%s", d.msg);
            continue;
        }
        is_int(n->details, p == 1, "  as the page it is");
        is_int(n->nlaunches, 3, "  three launches");
        is_str(n->launches[2].name, "fv_kernel2", "  the kernel's own name");
        ok(augur_ncu_select(n, "spmv_csr_scalar_kernel", -1, &l, &count, &d) == 0 && count == 1,
           "  the SpMV launch is found by name");
        is_double(l.value[AUGUR_NCU_SECONDS], 5.38e-6, 1e-9, "  usecond to seconds");
        is_double(l.value[AUGUR_NCU_DRAM_READ], 969220, 1e-9, "  Kbyte to bytes");
        is_double(l.value[AUGUR_NCU_L1_SECTORS], 151043, 0, "  \"151,043\" sectors");
        ok(isnan(l.value[AUGUR_NCU_REGISTERS]), "  a metric the file lacks is NaN");
        ok(l.block[0] == 256 && l.grid[0] == 44 && l.grid[1] == 1, "  block and grid");
        if (p == 0)
            memcpy(first, l.value, sizeof(first));
        else
            ok(memcmp(first, l.value, sizeof(first)) == 0, "  the same values as the raw page");
        ok(augur_ncu_select(n, "fv_kernel1", 2, &l, &count, &d) == AUGUR_ENOENT &&
               strstr(d.msg, "no launch 2 of kernel 'fv_kernel1'") &&
               strstr(d.msg, "'spmv_csr_scalar_kernel', 'fv_kernel1', 'fv_kernel2'"),
           "  an ID of another kernel is refused, naming the kernels");
        augur_ncu_free(n);
    }
}

static void names_and_launches(void)
{
    static const char *const text =
        "app output\n==PROF== Disconnected\n" HEAD ",\"gpu__time_duration.sum\"\n"
        "\"\",\"\",\"\",\"\",\"msecond\"\n"
        "\"3\",\"void ns::bfs<float, 256>(int, float *)\",\"(256, 1, 1)\",\"(9, 1, 1)\",\"1\"\n"
        "\"4\",\"bfs(int, float *)\",\"(256, 1, 1)\",\"(9, 1, 1)\",\"3\"\r\n"
        "\"5\",\"_ZN2ns3bfsIfLi256EEEviPf\",\"(256, 1, 1)\",\"(9, 1, 1)\",\"2\"\n"
        "\"6\",\"_Z5otherPf\",\"(1, 1, 1)\",\"(1, 1, 1)\",\"1,000\"\n"
        "\"7\",\"bfs\",\"(256, 1, 1)\",\"(9, 1, 1)\",\"n/a\"\n";
    struct augur_diag d;
    struct augur_ncu *n = parse(text, &d);
    struct augur_ncu_launch l;
    uint32_t count = 0;

    if (!ok(n != NULL, "a raw page after the application's output reads")) {
        diag("%s", d.msg);
        return;
    }
    is_str(n->launches[0].name, "bfs", "a templated name in a namespace: its function");
    is_str(n->launches[2].name, "bfs", "a mangled nested name");
    is_str(n->launches[3].name, "other", "a mangled name");
    ok(augur_ncu_select(n, "bfs", -1, &l, &count, &d) == 0 && count == 4,
       "every launch of the kernel");
    is_double(l.value[AUGUR_NCU_SECONDS], 2e-3, 1e-12, "their median, n/a left out");
    ok(augur_ncu_select(n, "bfs", 4, &l, &count, &d) == 0 && count == 1 && l.id == 4,
       "one launch by its ID");
    is_double(l.value[AUGUR_NCU_SECONDS], 3e-3, 1e-12, "  its value");
    ok(augur_ncu_select(n, "other", -1, &l, &count, &d) == 0 &&
           fabs(l.value[AUGUR_NCU_SECONDS] - 1.0) < 1e-12,
       "a thousands separator");
    ok(augur_ncu_select(n, "spmv", -1, &l, &count, &d) == AUGUR_ENOENT &&
           strstr(d.msg, "no launch of kernel 'spmv'"),
       "a kernel the file lacks");
    augur_ncu_free(n);
}

static void details_labels(void)
{
    static const char *const text =
        HEAD ",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
             "\"0\",\"k(int)\",\"(128, 1, 1)\",\"(4, 1, 1)\",\"GPU Speed Of Light Throughput\","
             "\"Duration\",\"usecond\",\"12.50\"\n"
             "\"0\",\"k(int)\",\"(128, 1, 1)\",\"(4, 1, 1)\",\"GPU Speed Of Light Throughput\","
             "\"Memory Throughput\",\"%\",\"81.2\"\n"
             "\"0\",\"k(int)\",\"(128, 1, 1)\",\"(4, 1, 1)\",\"Launch Statistics\","
             "\"Registers Per Thread\",\"register/thread\",\"40\"\n"
             "\"0\",\"k(int)\",\"(128, 1, 1)\",\"(4, 1, 1)\",\"Launch Statistics\","
             "\"Static Shared Memory Per Block\",\"Kbyte/block\",\"2.05\"\n"
             "\"0\",\"k(int)\",\"(128, 1, 1)\",\"(4, 1, 1)\",\"Source Counters\","
             "\"Branch Efficiency\",\"%\",\"87.5\"\n"
             "\"1\",\"k(int)\",\"(128, 1, 1)\",\"(4, 1, 1)\",\"GPU Speed Of Light Throughput\","
             "\"Duration\",\"nsecond\",\"12,700\"\n";
    struct augur_diag d;
    struct augur_ncu *n = parse(text, &d);

    if (!ok(n != NULL, "the details page of the default sections reads")) {
        diag("%s", d.msg);
        return;
    }
    is_int(n->nlaunches, 2, "  a launch per ID");
    is_double(n->launches[0].value[AUGUR_NCU_SECONDS], 12.5e-6, 1e-12, "  Duration");
    is_double(n->launches[0].value[AUGUR_NCU_REGISTERS], 40, 0, "  Registers Per Thread");
    is_double(n->launches[0].value[AUGUR_NCU_SHARED_STATIC], 2050, 1e-12, "  Kbyte/block");
    is_double(n->launches[0].value[AUGUR_NCU_BRANCH_EFF], 87.5, 0, "  Branch Efficiency");
    is_double(n->launches[1].value[AUGUR_NCU_SECONDS], 12.7e-6, 1e-12, "  nsecond");
    augur_ncu_free(n);
}

static void comparison(void)
{
    struct augur_ncu_launch l;
    struct augur_workload w;
    struct augur_ncu_row rows[AUGUR_NCU_NQUANTITIES];
    size_t n;

    memset(&l, 0, sizeof(l));
    for (int q = 0; q < AUGUR_NCU_NQUANTITIES; q++)
        l.value[q] = NAN;
    l.value[AUGUR_NCU_SECONDS] = 4e-6;
    l.value[AUGUR_NCU_WARP_LOADS] = 100;
    l.value[AUGUR_NCU_L2_SECTORS] = 80;
    l.value[AUGUR_NCU_DRAM_READ] = 3200;
    l.value[AUGUR_NCU_REGISTERS] = 32;
    memset(&w, 0, sizeof(w));
    w.nlevels = 2;
    snprintf(w.level_name[0], sizeof(w.level_name[0]), "L1");
    snprintf(w.level_name[1], sizeof(w.level_name[1]), "L2");
    w.gpu_given = true;
    w.gpu.jobs = 110;
    w.gpu.read_sectors[0] = 400;
    w.gpu.read_sectors[1] = 90;
    w.gpu.sector_hits[2] = 120; /* sectors from DRAM */
    n = augur_ncu_compare(&l, &w, 5e-6, rows);
    is_int(n, 4, "the quantities both have are compared");
    ok(rows[0].q == AUGUR_NCU_SECONDS && rows[0].augur == 5e-6, "  the time given");
    ok(rows[1].q == AUGUR_NCU_WARP_LOADS && rows[1].augur == 110, "  warp loads: the jobs");
    ok(rows[2].q == AUGUR_NCU_L2_SECTORS && rows[2].augur == 90, "  L2's sectors read");
    ok(rows[3].q == AUGUR_NCU_DRAM_READ && rows[3].augur == 3840, "  DRAM bytes: sectors x 32");
    is_int(augur_ncu_compare(&l, &w, 0, rows), 3, "no time given: none compared");
    l.value[AUGUR_NCU_DIVERGENT] = 30;
    l.value[AUGUR_NCU_BRANCH_EFF] = 75;
    is_int(augur_ncu_compare(&l, &w, 0, rows), 3, "branches not counted: not compared");
    w.gpu.branches = 200;
    w.gpu.divergent_branches = 40;
    n = augur_ncu_compare(&l, &w, 0, rows);
    is_int(n, 5, "branches counted: the divergent ones and the efficiency compared");
    ok(n == 5 && rows[3].q == AUGUR_NCU_DIVERGENT && rows[3].augur == 40, "  divergent branches");
    ok(n == 5 && rows[4].q == AUGUR_NCU_BRANCH_EFF && rows[4].augur == 80,
       "  branch efficiency: 1 - 40 / 200");
}

int main(void)
{
    the_two_pages();
    names_and_launches();
    details_labels();
    comparison();
    refuses("no header", "a,b\n1,2\n", AUGUR_EFORMAT, 0, "no Nsight Compute table");
    refuses("a header and nothing else", HEAD "\n", AUGUR_ETRUNC, 0, "row of units");
    refuses("a header, units and no launch", HEAD "\n\"\",\"\",\"\",\"\"\n", AUGUR_EFORMAT, 0,
            "no kernel launch");
    refuses("a row short of fields", HEAD "\n,,,\n\"0\",\"k\"\n", AUGUR_EPARSE, 3,
            "t.csv:3: 2 fields where the header has 4");
    refuses("an unclosed quote", HEAD "\n,,,\n\"0\",\"k,(1, 1, 1),(1, 1, 1)\n", AUGUR_EPARSE, 3,
            "not closed");
    refuses("text after a closing quote", HEAD "\n,,,\n\"0\"x,k,a,b\n", AUGUR_EPARSE, 3,
            "after a quoted field");
    refuses("an ID that is no number", HEAD "\n,,,\n\"zero\",k,a,b\n", AUGUR_EPARSE, 3,
            "ID 'zero'");
    refuses("a value that is no number",
            HEAD ",\"dram__bytes_read.sum\"\n,,,,byte\n0,k,a,b,\"12 MB\"\n", AUGUR_EPARSE, 3,
            "dram__bytes_read.sum: '12 MB' is no number");
    refuses("a misplaced thousands separator",
            HEAD ",\"dram__bytes_read.sum\"\n,,,,byte\n0,k,a,b,\"1,00\"\n", AUGUR_EPARSE, 3,
            "is no number");
    refuses("an unknown unit", HEAD ",\"dram__bytes_read.sum\"\n,,,,furlong\n0,k,a,b,1\n",
            AUGUR_EPARSE, 3, "unknown unit 'furlong'");
    refuses("a negative count", HEAD ",\"dram__bytes_read.sum\"\n,,,,byte\n0,k,a,b,-4\n",
            AUGUR_EPARSE, 3, "negative");
    return tap_done();
}
