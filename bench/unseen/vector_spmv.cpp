// CSR SpMV in C++ as users write it: std::vector parameters, the row count
// from the output's size(), an OpenMP loop over the rows.
#include <cstddef>
#include <vector>

void vector_spmv(const std::vector<int> &rowptr, const std::vector<int> &col,
                 const std::vector<double> &val, const std::vector<double> &x,
                 std::vector<double> &y)
{
    const std::size_t n = y.size();

#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; i++) {
        double sum = 0.0;

        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}
