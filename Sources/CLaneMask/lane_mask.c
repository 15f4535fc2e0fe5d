// Everything is in include/lane_mask.h (static inline, so that Swift inlines it); SwiftPM needs a
// source file in a C target.
#include "lane_mask.h"
