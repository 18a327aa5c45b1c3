/* one label-propagation sweep for connected components */
int cc_sweep(int n, const int *rowptr, const int *col, const int *label, int *newlabel)
{
    int changed = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : changed)
    for (int i = 0; i < n; i++) {
        int best = label[i];
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
            int l = label[col[k]];
            if (l < best)
                best = l;
        }
        newlabel[i] = best;
        changed += best != label[i];
    }
    return changed;
}
