// SwiftPM builds a C target from at least one source file; everything is inline in the header.
#include "thread_affinity.h"
