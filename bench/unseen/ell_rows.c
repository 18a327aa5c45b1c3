/* ELL row-major SpMV */
void ell_spmv(int n, int width, const int *idx, const double *val, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int k = 0; k < width; k++)
            s += val[i * width + k] * x[idx[i * width + k]];
        y[i] = s;
    }
}
