/*
 * loaded_pointer.c - stores through an element of a loaded pointer,
 * out[1][i], which the skeleton leaves out (a note says so): augur measure
 * passes out as NULL, the call crashes, and the error names out
 * (tests/t_measure.sh).
 */
void scale_into(int n, const double *x, double **out)
{
    for (int i = 0; i < n; i++)
        out[1][i] = 2.0 * x[i];
}
