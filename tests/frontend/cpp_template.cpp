// A C++ function template that nothing in the file instantiates: analysed
// as --template instantiates it (its header blanked, I and T declared), as
// a CUDA template kernel is; augur measure calls it with those arguments.
template <class I, class T>
void csr_apply(const I nrows, const I rowptr[], const I col[], const T val[], const T x[],
               T y[])
{
    for (I i = 0; i < nrows; i++) {
        T sum = y[i];

        for (I k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}

// RUN: %augur skeleton %s --template I=int,T=double 2>&1 | FileCheck %s
// CHECK: note: template kernel 'csr_apply' analysed with I=int, T=double
// CHECK: kernel csr_apply @"{{.*}}cpp_template.cpp":5:1 template("int, double")
// CHECK: param nrows i32 @5:16 bind n (inferred)
// CHECK: array rowptr i32[] global param @5:31 bind csr.rowptr (inferred)
// CHECK: array val f64[] global param @5:64 bind csr.val (inferred)
// CHECK: load x[col[k]] @12:29 indirect(col)
