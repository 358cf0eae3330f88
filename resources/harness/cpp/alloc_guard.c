/* Linked into every candidate with -Wl,--wrap=malloc,... so that an allocation
 * refused by the memory limit is reported as `oom` rather than as the crash
 * that usually follows a NULL result. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* g++ compiles .c files as C++: keep C names for the linker. */
#ifdef __cplusplus
extern "C" {
#endif

void* __real_malloc(size_t size);
void* __real_calloc(size_t n, size_t size);
void* __real_realloc(void* p, size_t size);
void* __real_aligned_alloc(size_t alignment, size_t size);
int __real_posix_memalign(void** out, size_t alignment, size_t size);

static void ks_report_oom(size_t bytes) {
    char line[96];
    int n = snprintf(line, sizeof line, "\nKS-OOM bytes=%zu\n", bytes);
    if (n > 0) (void)!write(2, line, (size_t)n);
}

void* __wrap_malloc(size_t size) {
    void* p = __real_malloc(size);
    if (!p && size) ks_report_oom(size);
    return p;
}
void* __wrap_calloc(size_t n, size_t size) {
    void* p = __real_calloc(n, size);
    if (!p && n && size) ks_report_oom(n * size);
    return p;
}
void* __wrap_realloc(void* old, size_t size) {
    void* p = __real_realloc(old, size);
    if (!p && size) ks_report_oom(size);
    return p;
}
void* __wrap_aligned_alloc(size_t alignment, size_t size) {
    void* p = __real_aligned_alloc(alignment, size);
    if (!p && size) ks_report_oom(size);
    return p;
}
int __wrap_posix_memalign(void** out, size_t alignment, size_t size) {
    int rc = __real_posix_memalign(out, alignment, size);
    if (rc == ENOMEM) ks_report_oom(size);
    return rc;
}

#ifdef __cplusplus
}
#endif
