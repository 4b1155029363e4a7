/* SPDX-License-Identifier: Apache-2.0 */
// libcurl for alarmd's CalDAV client. curl_easy_setopt and curl_easy_getinfo
// are variadic, which Swift cannot call: these typed wrappers are the only
// way in, one per argument type libcurl documents for the options used.
#include <curl/curl.h>

static inline CURLcode alarmd_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode alarmd_curl_setopt_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode alarmd_curl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode alarmd_curl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

typedef size_t (*alarmd_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode alarmd_curl_setopt_callback(CURL *curl, CURLoption option, alarmd_curl_data_callback callback) {
    return curl_easy_setopt(curl, option, callback);
}

static inline CURLcode alarmd_curl_response_code(CURL *curl, long *code) {
    return curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, code);
}

// CURLAUTH_* are macros with casts, which Swift does not import.
static inline long alarmd_curl_auth_basic(void) { return (long)CURLAUTH_BASIC; }
static inline long alarmd_curl_auth_digest(void) { return (long)CURLAUTH_DIGEST; }
