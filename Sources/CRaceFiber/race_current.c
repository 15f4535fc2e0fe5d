#include "race_current.h"

_Thread_local void *deeplink_race_current = 0;
