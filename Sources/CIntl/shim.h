#ifndef CINTL_SHIM_H
#define CINTL_SHIM_H

// glibc's own gettext (dgettext, dngettext, bindtextdomain, bind_textdomain_codeset),
// which Swift's Glibc module does not show: no library beyond libc.
#include <libintl.h>

#endif
