/*
 * t_measure_sched.c - tests of the copy of a kernel's file that augur
 * measure compiles to time a schedule the source does not say
 * (rt_sched_rewrite, module: measure): which directives say
 * schedule(runtime) afterwards, that the lines keep their numbers, and the
 * refusals (_Pragma, a macro, no directive) that would otherwise time the
 * source's own schedule.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "augur/augur.h"
#include "measure/measure_int.h"
#include "tap.h"

static unsigned count_lines(const char *s, size_t n)
{
    unsigned c = 0;

    for (size_t i = 0; i < n; i++)
        c += s[i] == '\n';
    return c;
}

/*
 * Rewrites text for the kernel defined on line kline, column kcol, whose worksharing loops are on
 * lines[]; checks the result is want (NULL: a refusal whose message holds says).
 */
static void rewrite_at(const char *what, const char *text, uint32_t kline, uint32_t kcol,
                       const uint32_t *lines, size_t nlines, const char *want, uint32_t ndir,
                       const char *says)
{
    struct augur_buf out;
    struct augur_diag d;
    uint32_t n = 0;
    char name[200];
    int rc;

    augur_buf_init(&out);
    augur_diag_init(&d);
    rc = rt_sched_rewrite("k.c", text, strlen(text), kline, kcol, lines, nlines, &out, &n, &d);
    if (want) {
        snprintf(name, sizeof(name), "%s: rewritten", what);
        if (!ok(rc == 0, name))
            tap_diag("%s", d.msg);
        snprintf(name, sizeof(name), "%s: the text", what);
        is_str(rc == 0 && out.s ? out.s : "", want, name);
        snprintf(name, sizeof(name), "%s: %u directive%s", what, ndir, ndir == 1 ? "" : "s");
        is_int(n, ndir, name);
        snprintf(name, sizeof(name), "%s: the lines keep their numbers", what);
        is_int(count_lines(out.s ? out.s : "", out.len), count_lines(text, strlen(text)), name);
    } else {
        snprintf(name, sizeof(name), "%s: refused (%s)", what, says);
        ok(rc == AUGUR_EUNSUP && strstr(d.msg, says) && !strcmp(d.file, "k.c"), name);
        if (!strstr(d.msg, says))
            tap_diag("message: %s", d.msg);
    }
    augur_buf_release(&out);
}

static void rewrite(const char *what, const char *text, uint32_t kline, const uint32_t *lines,
                    size_t nlines, const char *want, uint32_t ndir, const char *says)
{
    rewrite_at(what, text, kline, 1, lines, nlines, want, ndir, says);
}

static void test_rewrites(void)
{
    static const uint32_t l3[] = { 3 }, l4[] = { 4 }, l5[] = { 5 }, l6[] = { 6 }, l7[] = { 7 };

    rewrite("a schedule clause replaced",
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for schedule(static)\n"
            "    for (int i = 0; i < n; i++)\n"
            "        y[i] = 0;\n"
            "}\n",
            1, l4, 1,
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for schedule(runtime)\n"
            "    for (int i = 0; i < n; i++)\n"
            "        y[i] = 0;\n"
            "}\n",
            1, NULL);
    rewrite("a clause added after the directive's name",
            "double k(int n, double *y)\n"
            "{\n"
            "    double s = 0;\n"
            "  #  pragma   omp parallel for reduction(+:s) // rows\n"
            "    for (int i = 0; i < n; i++)\n"
            "        s += y[i];\n"
            "    return s;\n"
            "}\n",
            1, l5, 1,
            "double k(int n, double *y)\n"
            "{\n"
            "    double s = 0;\n"
            "  #  pragma   omp parallel for schedule(runtime) reduction(+:s) // rows\n"
            "    for (int i = 0; i < n; i++)\n"
            "        s += y[i];\n"
            "    return s;\n"
            "}\n",
            1, NULL);
    rewrite("continued lines: the clause across a splice",
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for \\\n"
            "    schedule(dynamic, \\\n"
            "             64) nowait\n"
            "    for (int i = 0; i < n; i++)\n"
            "        y[i] = 0;\n"
            "}\n",
            1, l6, 1,
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for \\\n"
            "    schedule(runtime)\\\n"
            " nowait\n"
            "    for (int i = 0; i < n; i++)\n"
            "        y[i] = 0;\n"
            "}\n",
            1, NULL);
    rewrite("continued lines: the directive's name across a splice",
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel \\\n"
            "    for\n"
            "    for (int i = 0; i < n; i++)\n"
            "        y[i] = 0;\n"
            "}\n",
            1, l5, 1,
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel \\\n"
            "    for schedule(runtime)\n"
            "    for (int i = 0; i < n; i++)\n"
            "        y[i] = 0;\n"
            "}\n",
            1, NULL);
    rewrite("omp for simd in a parallel region; comments and another pragma before the loop",
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel num_threads(2)\n"
            "    {\n"
            "#pragma omp for simd /* schedule(static) */ schedule(guided, 4) nowait\n"
            "        /* the rows */\n"
            "\n"
            "#pragma GCC ivdep\n"
            "        for (int i = 0; i < n; i++)\n"
            "            y[i] = 0;\n"
            "    }\n"
            "}\n",
            1, (const uint32_t[]){ 9 }, 1,
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel num_threads(2)\n"
            "    {\n"
            "#pragma omp for simd /* schedule(static) */ schedule(runtime) nowait\n"
            "        /* the rows */\n"
            "\n"
            "#pragma GCC ivdep\n"
            "        for (int i = 0; i < n; i++)\n"
            "            y[i] = 0;\n"
            "    }\n"
            "}\n",
            1, NULL);
    rewrite("only the kernel's directives: another function's stay",
            "void other(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for schedule(static)\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "}\n"
            "static const char *s = \"{ #pragma omp for }\";\n"
            "void k(int n, double *y)\n"
            "{\n"
            "    const char *t = \"}\"; char c = '{';\n"
            "#pragma omp parallel for dist_schedule(static) schedule(static, 8)\n"
            "    for (int i = 0; i < n; i++) y[i] = t[0] + c;\n"
            "}\n"
            "void after(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for\n"
            "    for (int i = 0; i < n; i++) y[i] = 2;\n"
            "}\n",
            7, (const uint32_t[]){ 11 }, 1,
            "void other(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for schedule(static)\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "}\n"
            "static const char *s = \"{ #pragma omp for }\";\n"
            "void k(int n, double *y)\n"
            "{\n"
            "    const char *t = \"}\"; char c = '{';\n"
            "#pragma omp parallel for dist_schedule(static) schedule(runtime)\n"
            "    for (int i = 0; i < n; i++) y[i] = t[0] + c;\n"
            "}\n"
            "void after(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for\n"
            "    for (int i = 0; i < n; i++) y[i] = 2;\n"
            "}\n",
            1, NULL);
    rewrite("an inlined helper's loop: its directive too",
            "static void helper(int n, double *y)\n"
            "{\n"
            "#pragma omp for\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "}\n"
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel\n"
            "    helper(n, y);\n"
            "}\n",
            6, l4, 1,
            "static void helper(int n, double *y)\n"
            "{\n"
            "#pragma omp for schedule(runtime)\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "}\n"
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel\n"
            "    helper(n, y);\n"
            "}\n",
            1, NULL);
    rewrite("two loops, a directive comment across lines",
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for /* a comment\n"
            "   over two lines */ schedule(dynamic)\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "#pragma omp parallel for\n"
            "    for (int i = 0; i < n; i++) y[i] += 1;\n"
            "}\n",
            1, (const uint32_t[]){ 5, 7 }, 2,
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for /* a comment\n"
            "   over two lines */ schedule(runtime)\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "#pragma omp parallel for schedule(runtime)\n"
            "    for (int i = 0; i < n; i++) y[i] += 1;\n"
            "}\n",
            2, NULL);

    rewrite_at("a string continued over a splice, a kernel column past its line's end",
               "void k(int n, double *y)\n"
               "{\n"
               "    const char *s = \"a\\\n"
               "b\";\n"
               "#pragma omp parallel for\n"
               "    for (int i = 0; i < n; i++) y[i] = s[0];\n"
               "}\n",
               1, 400, (const uint32_t[]){ 6 }, 1,
               "void k(int n, double *y)\n"
               "{\n"
               "    const char *s = \"a\\\n"
               "b\";\n"
               "#pragma omp parallel for schedule(runtime)\n"
               "    for (int i = 0; i < n; i++) y[i] = s[0];\n"
               "}\n",
               1, NULL);

    /* refusals */
    rewrite("_Pragma in the kernel",
            "void k(int n, double *y)\n"
            "{\n"
            "    _Pragma(\"omp parallel for\")\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "}\n",
            1, l4, 1, NULL, 0, "_Pragma");
    rewrite("a directive from a macro",
            "#define PFOR _Pragma(\"omp parallel for schedule(static)\")\n"
            "void k(int n, double *y)\n"
            "{\n"
            "    PFOR\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "}\n",
            2, l5, 1, NULL, 0, "no '#pragma omp ... for' line right before it");
    rewrite("a loop whose nearest directive is not a loop's",
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "}\n",
            1, l4, 1, NULL, 0, "no '#pragma omp ... for' line right before it");
    rewrite("code between the directive and the loop",
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp parallel for\n"
            "    LOOP_OVER(i, n)\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "}\n",
            1, l5, 1, NULL, 0, "no '#pragma omp ... for' line right before it");
    rewrite("no worksharing directive at all",
            "void k(int n, double *y)\n"
            "{\n"
            "#pragma omp simd\n"
            "    for (int i = 0; i < n; i++) y[i] = 1;\n"
            "}\n",
            1, NULL, 0, NULL, 0, "no OpenMP worksharing directive");
    rewrite("a declaration, no body", "void k(int n, double *y);\n", 1, l3, 0, NULL, 0,
            "cannot find the kernel's body");
    rewrite("a loop line past the file", "void k(int n)\n{\n}\n", 1, l7, 1, NULL, 0,
            "no '#pragma omp ... for' line");
}

int main(void)
{
    test_rewrites();
    return tap_done();
}
