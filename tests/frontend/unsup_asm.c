/* Inline assembly is not analysed; the loop around it is. */
void with_asm(int n, double *y)
{
    for (int i = 0; i < n; i++) {
        __asm__ volatile("" ::: "memory");
        y[i] = 1.0;
    }
}
