#include <math.h>
/* per-entry weights by a switch on the column's residue, then a sqrt */
void weigh(int n, const int *rowptr, const int *col, const float *val, float *y)
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        int k = rowptr[i];
        do {
            if (k >= rowptr[i + 1])
                break;
            switch (col[k] & 3) {
            case 0:
                s += val[k];
                break;
            case 1:
                s -= val[k];
                break;
            default:
                s += 0.5f * val[k];
            }
            k++;
        } while (1);
        y[i] = sqrtf(fabsf(s));
    }
}
