// A C++ kernel whose matrix and output are std::vector members of structs
// passed by reference: augur measure builds each struct once, fills its
// vectors from the data, and reads the output's own storage for the work check.
#include <vector>

struct Csr {
    int nrows;
    std::vector<int> rowptr, col;
    std::vector<double> val;
};

struct Out {
    std::vector<double> y;
};

void csr_into(const Csr &A, const std::vector<double> &x, Out &out)
{
    for (int i = 0; i < A.nrows; i++) {
        double s = 0;

        for (int j = A.rowptr[i]; j < A.rowptr[i + 1]; j++)
            s += A.val[j] * x[A.col[j]];
        out.y[i] = s;
    }
}
