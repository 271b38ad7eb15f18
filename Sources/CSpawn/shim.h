#ifndef CSPAWN_SHIM_H
#define CSPAWN_SHIM_H

// glibc's <spawn.h> defines POSIX_SPAWN_SETSID (glibc's ABI since 2.26) only when
// __USE_GNU is set, which it is not for Swift's Glibc module, so Swift cannot see it.
// Defining _GNU_SOURCE here is no way out: it would give the headers <spawn.h> pulls
// in (<sys/types.h>, <sys/select.h>) other definitions than the ones every other C
// module here sees, and Clang refuses such a mismatch (fd_set's fds_bits). So those
// headers come first, with the usual feature set, and __USE_GNU is set for the text
// of <spawn.h> alone, which only adds declarations.
#include <features.h>
#include <sched.h>
#include <sys/types.h>
#include <signal.h>

#ifndef __USE_GNU
#define __USE_GNU 1
#define CSPAWN_SET_USE_GNU 1
#endif
#include <spawn.h>
#ifdef CSPAWN_SET_USE_GNU
#undef __USE_GNU
#undef CSPAWN_SET_USE_GNU
#endif

/// For posix_spawnattr_setflags: the child starts a new session, as setsid(2) does.
static const short cspawn_setsid = POSIX_SPAWN_SETSID;

#endif
