#ifndef CPIDFD_SHIM_H
#define CPIDFD_SHIM_H

// pidfd_open(2) and pidfd_send_signal(2), which glibc declares (since 2.36) in
// <sys/pidfd.h>; Swift's Glibc module does not include that header, and the other way
// in, syscall(SYS_pidfd_open, ...), is variadic, so Swift cannot call it.
#include <sys/pidfd.h>

#endif
