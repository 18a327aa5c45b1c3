/* A kernel that does not compile: the error is libclang's, named by line. */
void broken(int n, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = 2.0 * y[i]
}
