#ifndef CSPEECHD_SHIM_H
#define CSPEECHD_SHIM_H
#include <libspeechd.h>
#endif
