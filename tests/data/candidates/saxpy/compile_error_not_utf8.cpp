// Does not compile, and its error lines hold bytes that are not UTF-8: ÿþ â‚ (cut mid-character).
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    const char* s = "café ÿþ â‚";
    undeclared_é(s);
}
