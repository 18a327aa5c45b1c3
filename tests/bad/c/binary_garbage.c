void f(int n)
{}