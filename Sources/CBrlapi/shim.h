#ifndef CBRLAPI_SHIM_H
#define CBRLAPI_SHIM_H
// Types and constants only: the module has no `link`, and AnnouncerCore opens
// libbrlapi.so.0.8 with dlopen when braille is asked for (see Brlapi/Libbrlapi.swift).
#include <brlapi.h>
#endif
