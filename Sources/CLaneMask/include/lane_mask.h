// The mask of a sixteen-lane byte comparison as sixteen bits, for the core's referrer scan and form
// decoding. Header-only: Swift inlines it, so on x86-64 the mask is the one `pmovmskb` that also
// tests the comparison, where portable Swift SIMD has no such operation and spent eleven
// instructions rebuilding it (two multiplications) in every block that held a match.
#ifndef DEEPLINK_LANE_MASK_H
#define DEEPLINK_LANE_MASK_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Sixteen comparison lanes, each all ones (true) or all zeros (false): Swift's
/// `SIMDMask<SIMD16<Int8>>` storage, imported as `SIMD16<Int8>`.
typedef int8_t deeplink_lanes16 __attribute__((ext_vector_type(16)));

/// Bit `i` set where lane `i` of `lanes` is true (its high bit is set). The core calls it on
/// x86-64 only (SSE2 is part of it); elsewhere it keeps its portable Swift form, and this loop only
/// keeps the header whole.
static inline uint32_t deeplink_lane_mask(deeplink_lanes16 lanes) {
#if defined(__SSE2__)
    return (uint32_t)_mm_movemask_epi8((__m128i)lanes);
#else
    uint32_t mask = 0;
    for (int lane = 0; lane < 16; lane++) {
        if (lanes[lane] < 0) mask |= (uint32_t)1 << lane;
    }
    return mask;
#endif
}

#endif
