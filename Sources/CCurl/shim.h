// libcurl, built with nghttp2 (Debian's libcurl4-openssl-dev): the APNs client's HTTP/2.
//
// curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic, and
// Swift cannot call a C variadic function. Each wrapper below fixes the type of
// the one argument that follows the option: the type curl documents for it.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

static inline CURLcode summit_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode summit_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

// Strings (curl copies them), lists, buffers and callback user data.
static inline CURLcode summit_curl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this shape.
static inline CURLcode summit_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLMcode summit_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLcode summit_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode summit_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

// CURLOPT_READFUNCTION: what an upload (an SMTP message) reads its bytes from.
static inline CURLcode summit_curl_easy_setopt_read_callback(CURL *handle, CURLoption option, curl_read_callback value) {
    return curl_easy_setopt(handle, option, value);
}
