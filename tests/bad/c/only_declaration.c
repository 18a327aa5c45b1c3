void f(int n, double *a);
