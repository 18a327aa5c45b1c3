/* tetrahedral mesh: gather 4 vertex values per cell, scatter-add back */
void tet_gather_scatter(int ncells, const int *cells, const double *u, double *r)
{
    for (int c = 0; c < ncells; c++) {
        double s = 0.0;
        for (int v = 0; v < 4; v++)
            s += u[cells[4 * c + v]];
        s *= 0.25;
        for (int v = 0; v < 4; v++)
            r[cells[4 * c + v]] += s;
    }
}
