// A method defined in the file is a kernel candidate: the members of its
// object read as those of "this" (this->rowptr_), bound by inference as a
// struct parameter's. augur measure cannot build the object, and says so.
#include <vector>

class RowMatrix {
  public:
    void multiply(const double *x, double *y) const;

  private:
    int rows_;
    std::vector<int> rowptr_, col_;
    std::vector<double> val_;
};

void RowMatrix::multiply(const double *x, double *y) const
{
    for (int i = 0; i < rows_; i++) {
        double s = 0;

        for (int j = rowptr_[i]; j < rowptr_[i + 1]; j++)
            s += val_[j] * x[col_[j]];
        y[i] = s;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: not bound
// CHECK: kernel multiply @
// CHECK: param this->rows_ i32 @11:5 bind n (inferred)
// CHECK: array this->rowptr_ i32[] global param @12:5 bind csr.rowptr (inferred)
// CHECK: load x[this->col_[j]] @22:28 indirect(this->col_)
// RUN: %augur simulate %s --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: this->val_ 8
// RUN: not %augur measure %s --data %S/../data/graphs/small.el 2>&1 | FileCheck --check-prefix=MEASURE %s
// MEASURE: multiply is a method reading its object's members
