/* A switch on data: one branch per group of labels, the default last; a
   switch that falls through is left out with a note. */
double classify(int n, const int *rowptr, const int *col, const double *val, double *y)
{
    double t = 0;

    for (int i = 0; i < n; i++) {
        double s = 0;

        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
            switch (col[k] & 3) {
            case 0:
            case 2:
                s += val[k];
                break;
            default:
                s -= 0.5 * val[k];
                break;
            case 1:
                continue;
            }
        }
        y[i] = s;
        t += s;
    }
    return t;
}

int falls(int n, const int *a)
{
    int c = 0;

    for (int i = 0; i < n; i++) {
        switch (a[i]) {
        case 0:
            c++;
        case 1:
            c += 2;
            break;
        }
    }
    return c;
}

// RUN: %augur skeleton --function classify %s 2>&1 | FileCheck %s
// CHECK-NOT: unsupported
// CHECK: set switch = col[k] & 3 @11:13
// CHECK: if switch == 0 || switch == 2 @12:13
// CHECK-NEXT: load val[k] @14:22
// CHECK: else
// CHECK: if switch == 1 @19:13
// CHECK-NEXT: continue @20:17
// CHECK-NEXT: else
// CHECK-NEXT: load val[k] @17:28
// RUN: %augur skeleton --function falls %s 2>&1 | FileCheck --check-prefix=FALL %s
// FALL: switch.c:34:9: unsupported: this switch is not read (a case falls through
