// Placeholder so the component links before the loader lands; replaced by the config work.
#include "flightrec/config/config.h"
