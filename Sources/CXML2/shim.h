/* SPDX-License-Identifier: Apache-2.0 */
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
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <string.h>

// xmlFree is a global function pointer, which Swift 6 will not touch
// without a concurrency annotation; this is a plain function instead.
static inline void alarmd_xml_free(void *pointer) { xmlFree(pointer); }

// What alarmd_xml_read found besides the document.
typedef struct {
    // The most nodes (elements, attributes, namespace declarations,
    // comments, processing instructions, CDATA sections) the tree may get;
    // text nodes, one at most between two of those, come on top.
    long maxNodes;
    long nodes;
    // The reply has a DOCTYPE: parsing stopped at its name, before any
    // declaration in it was read.
    int declaresDTD;
    // Parsing stopped when the tree would have had more than maxNodes.
    int tooManyNodes;
    // libxml2's first error when the document is not well-formed (0 if it is).
    int errorCode;
    int errorLine;
    char errorMessage[128];
} alarmd_xml_outcome;

static inline alarmd_xml_outcome *alarmd_xml_outcome_of(void *context) {
    return (alarmd_xml_outcome *)((xmlParserCtxtPtr)context)->_private;
}

// Counts `count` nodes; stops the parser (no more callbacks) past the limit.
static inline int alarmd_xml_admit(void *context, long count) {
    alarmd_xml_outcome *outcome = alarmd_xml_outcome_of(context);
    outcome->nodes += count;
    if (outcome->nodes <= outcome->maxNodes) return 1;
    outcome->tooManyNodes = 1;
    xmlStopParser((xmlParserCtxtPtr)context);
    return 0;
}

// A DOCTYPE is where entities (internal, external, parameter) are declared:
// no reply needs one, so parsing ends at `<!DOCTYPE name`, before its
// internal subset is read, and nothing in it is ever loaded or expanded.
static void alarmd_xml_refuse_doctype(void *context, const xmlChar *name, const xmlChar *externalID, const xmlChar *systemID) {
    (void)name; (void)externalID; (void)systemID;
    alarmd_xml_outcome_of(context)->declaresDTD = 1;
    xmlStopParser((xmlParserCtxtPtr)context);
}

static void alarmd_xml_start_element(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *URI,
                                     int namespaceCount, const xmlChar **namespaces, int attributeCount, int defaultedCount,
                                     const xmlChar **attributes) {
    if (alarmd_xml_admit(context, 1L + namespaceCount + attributeCount))
        xmlSAX2StartElementNs(context, localname, prefix, URI, namespaceCount, namespaces, attributeCount, defaultedCount, attributes);
}

static void alarmd_xml_comment(void *context, const xmlChar *value) {
    if (alarmd_xml_admit(context, 1)) xmlSAX2Comment(context, value);
}

static void alarmd_xml_processing_instruction(void *context, const xmlChar *target, const xmlChar *data) {
    if (alarmd_xml_admit(context, 1)) xmlSAX2ProcessingInstruction(context, target, data);
}

static void alarmd_xml_cdata(void *context, const xmlChar *value, int length) {
    if (alarmd_xml_admit(context, 1)) xmlSAX2CDataBlock(context, value, length);
}

// Errors are kept in the outcome, never printed on stderr.
static void alarmd_xml_silent(void *context, xmlErrorPtr error) { (void)context; (void)error; }

// Parses `size` bytes into a tree, or returns NULL (the outcome says why).
// `options` must not ask for entity substitution or DTD loading; the
// DOCTYPE hook makes both moot, and parsing never goes past maxNodes.
static inline xmlDocPtr alarmd_xml_read(const char *bytes, int size, int options, alarmd_xml_outcome *outcome) {
    xmlParserCtxtPtr context = xmlCreateMemoryParserCtxt(bytes, size);
    if (context == NULL) return NULL;
    xmlCtxtUseOptions(context, options);
    context->_private = outcome;
    context->sax->internalSubset = alarmd_xml_refuse_doctype;
    context->sax->externalSubset = alarmd_xml_refuse_doctype;
    context->sax->startElementNs = alarmd_xml_start_element;
    context->sax->comment = alarmd_xml_comment;
    context->sax->processingInstruction = alarmd_xml_processing_instruction;
    context->sax->cdataBlock = alarmd_xml_cdata;
    context->sax->serror = alarmd_xml_silent;
    context->sax->error = NULL;
    context->sax->warning = NULL;
    xmlParseDocument(context);
    xmlDocPtr document = context->myDoc;
    context->myDoc = NULL;
    if (!context->wellFormed || outcome->declaresDTD || outcome->tooManyNodes) {
        xmlErrorPtr error = xmlCtxtGetLastError(context);
        if (error != NULL) {
            outcome->errorCode = error->code;
            outcome->errorLine = error->line;
            if (error->message != NULL) strncpy(outcome->errorMessage, error->message, sizeof outcome->errorMessage - 1);
        }
        if (outcome->errorCode == 0) outcome->errorCode = -1;
        if (document != NULL) xmlFreeDoc(document);
        document = NULL;
    }
    xmlFreeParserCtxt(context);
    return document;
}
