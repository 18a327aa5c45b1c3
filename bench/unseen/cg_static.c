/* One conjugate-gradient matrix-vector step in the NPB style: 1-based arrays and sizes as file statics. */
#define NA 14000
#define NONZER 11
#define NZ (NA * (NONZER + 1) * (NONZER + 1))

static int naa, nzz;
static int firstrow, lastrow;
static int colidx[NZ + 1];
static int rowstr[NA + 2];
static double a[NZ + 1];
static double p[NA + 3], q[NA + 3];

static void cg_matvec(void)
{
    int j, k;
    double sum;

    for (j = 1; j <= lastrow - firstrow + 1; j++) {
        sum = 0.0;
        for (k = rowstr[j]; k < rowstr[j + 1]; k++) {
            sum = sum + a[k] * p[colidx[k]];
        }
        q[j] = sum;
    }
}
