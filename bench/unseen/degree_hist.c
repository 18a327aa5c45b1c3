/* degree histogram with OpenMP atomics on integers */
void degree_hist(int n, const int *rowptr, int *hist, int nbins)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        int d = rowptr[i + 1] - rowptr[i];
        int b = d < nbins ? d : nbins - 1;
#pragma omp atomic
        hist[b]++;
    }
}
