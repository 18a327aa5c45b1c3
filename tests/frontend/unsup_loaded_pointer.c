/* An output reached through a pointer loaded from memory, out[1][i]: augur
   cannot tell which array the element lies in, and says that the store is
   left out instead of dropping it in silence. ((*out)[i] alone is the array
   out points to: tests/frontend/deref_output.c.) */
void rowsum(int n, const int *rowptr, const double *val, double **out)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;

        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            s += val[k];
        out[1][i] = s;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: unsup_loaded_pointer.c:12:9: unsupported: cannot tell which array this element lies in (a subscript of a pointer loaded from memory, such as p[j][i]): the store is left out
// CHECK: load val[k] @11:18
