// libautogemm.so is autogemm_impl linked whole; this file only gives the shared target a source.
// The exported symbols are the AUTOGEMM_API functions of include/autogemm/autogemm.h.
#include "autogemm/autogemm.h"
