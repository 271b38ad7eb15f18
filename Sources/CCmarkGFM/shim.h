#ifndef CCMARKGFM_SHIM_H
#define CCMARKGFM_SHIM_H
// Types and constants only: the module has no `link`, and AnnouncerCore opens
// libcmark-gfm with dlopen when Markdown is asked for (see Markdown/Libcmark.swift).
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>
#endif
