// SwiftPM builds a C target from at least one source file; everything is inline in the header.
#include "cycle_counter.h"
