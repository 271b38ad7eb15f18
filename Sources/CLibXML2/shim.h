#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H
/* Debian builds libxml2 with ICU, so its encoding.h includes the system's <unicode/ucnv.h>.
 * Every module that imports AnnouncerCore loads this module, and the tests also load
 * Foundation, whose _FoundationICU has another UErrorCode: the first `swift build
 * --build-tests`, indexing both modules, stopped on "'UErrorCode' has different
 * definitions in different modules". announce uses none of libxml2's ICU converters,
 * which only xmlCharEncodingHandler's last two fields name. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#endif
