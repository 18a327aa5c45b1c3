/*
 * hand.h - what a programmer writes to time a kernel by hand: a Matrix Market
 * reader (both triangles of a symmetric matrix, pattern entries 1.0), CSR and
 * CSC built from it, and a timer (one warm-up call, then calls until at least
 * 10 and 0.2 s, the median). bench/measure_vs_hand.sh compares its times with
 * augur measure's generated drivers on the same kernels and data.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct coo {
    int n, m; /* rows, columns */
    long nnz;
    int *r, *c; /* 0-based */
    double *v;
};

static void die(const char *what)
{
    fprintf(stderr, "hand driver: %s\n", what);
    exit(1);
}

static void read_mtx(const char *path, struct coo *a)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int sym = 0, pattern = 0;
    long declared, k = 0;

    if (!f || !fgets(line, sizeof(line), f))
        die("cannot read the matrix");
    for (char *p = line; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    sym = strstr(line, "symmetric") != NULL || strstr(line, "hermitian") != NULL;
    pattern = strstr(line, "pattern") != NULL;
    do
        if (!fgets(line, sizeof(line), f))
            die("no size line");
    while (line[0] == '%');
    if (sscanf(line, "%d %d %ld", &a->n, &a->m, &declared) != 3)
        die("bad size line");
    a->r = malloc(sizeof(int) * 2 * declared);
    a->c = malloc(sizeof(int) * 2 * declared);
    a->v = malloc(sizeof(double) * 2 * declared);
    if (!a->r || !a->c || !a->v)
        die("out of memory");
    while (fgets(line, sizeof(line), f)) {
        int i, j;
        double v = 1.0;

        if (line[0] == '%' || sscanf(line, "%d %d %lf", &i, &j, &v) < 2)
            continue;
        a->r[k] = i - 1, a->c[k] = j - 1, a->v[k++] = pattern ? 1.0 : v;
        if (sym && i != j)
            a->r[k] = j - 1, a->c[k] = i - 1, a->v[k++] = pattern ? 1.0 : v;
    }
    a->nnz = k;
    fclose(f);
}

/* Compressed rows (by_col 0) or columns (1): ptr[n + 1], idx, val, in input order within each. */
static void compress(const struct coo *a, int by_col, int **ptr, int **idx, double **val)
{
    int n = by_col ? a->m : a->n;
    int *p = calloc((size_t)n + 2, sizeof(int)), *fill = calloc((size_t)n + 1, sizeof(int));

    *idx = malloc(sizeof(int) * (size_t)a->nnz);
    *val = malloc(sizeof(double) * (size_t)a->nnz);
    if (!p || !fill || !*idx || !*val)
        die("out of memory");
    for (long k = 0; k < a->nnz; k++)
        p[(by_col ? a->c[k] : a->r[k]) + 1]++;
    for (int i = 0; i < n; i++)
        p[i + 1] += p[i];
    for (long k = 0; k < a->nnz; k++) {
        int key = by_col ? a->c[k] : a->r[k], at = p[key] + fill[key]++;

        (*idx)[at] = by_col ? a->r[k] : a->c[k];
        (*val)[at] = a->v[k];
    }
    free(fill);
    *ptr = p;
}

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* Times call(ud): a warm-up, then at least 10 calls and 0.2 s; prints the median seconds. */
static void time_calls(void (*call)(void *), void *ud)
{
    double t[100000], start = now();
    int n = 0;

    call(ud);
    while (n < 10 || (now() - start < 0.2 && n < 100000)) {
        double t0 = now();

        call(ud);
        t[n++] = now() - t0;
    }
    qsort(t, (size_t)n, sizeof(double), cmp_double);
    printf("%.6e\n", t[n / 2]);
}
