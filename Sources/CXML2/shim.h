// libxml2 for reading WebDAV multistatus replies (RFC 4918, 4791, 6578).
//
// Debian builds libxml2 with ICU, and its encoding.h then includes ICU's
// headers, whose types clash with the copy of ICU inside Foundation when one
// Swift module imports both. Nothing here uses ICU-backed encodings (the
// replies are UTF-8), so the flag is cleared before the headers that test
// it; xmlversion.h's include guard keeps it cleared.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>

// xmlFree is a global function pointer, which Swift 6 will not touch
// without a concurrency annotation; this is a plain function instead.
static inline void alarmd_xml_free(void *pointer) { xmlFree(pointer); }
