void host(int n, float *a) { for (int i = 0; i < n; i++) a[i] = 0; }
