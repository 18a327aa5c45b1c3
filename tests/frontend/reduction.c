/* Irregular reduction over the edges of a mesh (seed 002, Fig. 1):
   X(IA(e,1)) += val, X(IA(e,2)) -= val, with IA stored as IA[2*e + k]. */
static double flux(double a, double b, double y)
{
    return (a - b) * y;
}

void irregular_reduction(int numEdges, const int *IA, const double *Y, double *X)
{
    for (int e = 0; e < numEdges; e++) {
        double val = flux(X[IA[2 * e]], X[IA[2 * e + 1]], Y[e]);
        X[IA[2 * e]] = X[IA[2 * e]] + val;
        X[IA[2 * e + 1]] = X[IA[2 * e + 1]] - val;
    }
}
