#ifndef CSDBUS_SHIM_H
#define CSDBUS_SHIM_H
// Types and constants only: the module has no `link`, and AnnouncerCore opens
// libsystemd.so.0 with dlopen when desktop notifications are asked for (see
// SdBus/Libsystemd.swift).
#include <systemd/sd-bus.h>
#endif
