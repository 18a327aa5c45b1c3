void f(int n, double *a)
{
    /* never closed
    a[0] = 1;
}
