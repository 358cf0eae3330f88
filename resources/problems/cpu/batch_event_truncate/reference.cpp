// Reference Batch Event Truncate: one sequential pass over the users, plain
// loops, single thread.
//
//   out_outer_lengths[u] = min(outer_lengths[u], KEEP)
//   out_inner_lengths    = inner lengths of the kept events, compacted, then 0s
//   out_values           = values of the kept events, compacted, then 0.0f
//
// The kept events of a user are its first min(outer, KEEP) events; events and
// values keep their order.

void batch_event_truncate(const int64_t* outer_lengths, const int64_t* inner_lengths, const float* values,
                          int64_t* out_outer_lengths, int64_t* out_inner_lengths, float* out_values, int64_t U,
                          int64_t NE, int64_t NV, int64_t KEEP) {
    int64_t ev = 0;     // next input event
    int64_t val = 0;    // next input value
    int64_t oev = 0;    // next output event
    int64_t oval = 0;   // next output value
    for (int64_t u = 0; u < U; ++u) {
        const int64_t events = outer_lengths[u];
        const int64_t kept = events < KEEP ? events : KEEP;
        out_outer_lengths[u] = kept;
        for (int64_t e = 0; e < events; ++e) {
            const int64_t len = inner_lengths[ev];
            if (e < kept) {
                out_inner_lengths[oev++] = len;
                for (int64_t i = 0; i < len; ++i) out_values[oval++] = values[val + i];
            }
            val += len;
            ++ev;
        }
    }
    for (; oev < NE; ++oev) out_inner_lengths[oev] = 0;
    for (; oval < NV; ++oval) out_values[oval] = 0.0f;
}
