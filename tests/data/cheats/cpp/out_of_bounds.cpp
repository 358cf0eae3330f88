// expect: runtime_error
// Hopes the harness keeps its buffers packed in one arena with the expected
// output right after the inputs: reads "y's answer" past the end of z, and
// spills its own answer past the end of y over whatever the harness compares
// against next.
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    const float* expected = z + N;
    for (int64_t i = 0; i < N; ++i) y[i] = expected[i];
    for (int64_t i = 0; i < N; ++i) y[N + i] = a * x[i] + z[i];
}
