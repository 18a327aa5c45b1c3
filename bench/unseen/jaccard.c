/* Jaccard similarity of the two endpoints of every stored edge (sorted rows). */
void jaccard(int n, const int *rowptr, const int *col, float *jac)
{
    for (int u = 0; u < n; u++) {
        for (int e = rowptr[u]; e < rowptr[u + 1]; e++) {
            int v = col[e];
            int a = rowptr[u], aend = rowptr[u + 1];
            int b = rowptr[v], bend = rowptr[v + 1];
            int common = 0;
            while (a < aend && b < bend) {
                int ca = col[a], cb = col[b];
                if (ca == cb) {
                    common++;
                    a++;
                    b++;
                } else if (ca < cb) {
                    a++;
                } else {
                    b++;
                }
            }
            int uni = (aend - rowptr[u]) + (bend - rowptr[v]) - common;
            jac[e] = uni > 0 ? (float)common / (float)uni : 0.0f;
        }
    }
}
