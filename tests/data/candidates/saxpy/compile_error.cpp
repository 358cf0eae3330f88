// Does not compile: a missing semicolon and an undeclared name.
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i]
    undeclared_name = 3;
}
