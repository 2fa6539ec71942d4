#include <openssl/sha.h>
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
// ES256 provider tokens for APNs: the .p8 key, signing, and DER signatures into r‖s.
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
// JWS keys: public keys built from a JWK's numbers, and the numbers read back.
#include <openssl/param_build.h>
#include <openssl/core_names.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>

// A public key from its numbers. In C because a parameter builder keeps the pointers
// it is given (names and data) until the parameters are made: Swift's bridged strings
// and arrays live only for one call.
static inline EVP_PKEY *summit_key_from_params(const char *type, OSSL_PARAM_BLD *builder, int selection) {
    EVP_PKEY *key = NULL;
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(builder);
    EVP_PKEY_CTX *context = params ? EVP_PKEY_CTX_new_from_name(NULL, type, NULL) : NULL;
    if (context == NULL || EVP_PKEY_fromdata_init(context) != 1
        || EVP_PKEY_fromdata(context, &key, selection, params) != 1) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
    return key;
}

static inline EVP_PKEY *summit_rsa_public_key(const unsigned char *n, size_t n_length, const unsigned char *e, size_t e_length) {
    EVP_PKEY *key = NULL;
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    BIGNUM *modulus = BN_bin2bn(n, (int)n_length, NULL), *exponent = BN_bin2bn(e, (int)e_length, NULL);
    if (builder && modulus && exponent
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus) == 1
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent) == 1) {
        key = summit_key_from_params("RSA", builder, EVP_PKEY_PUBLIC_KEY);
    }
    BN_free(modulus);
    BN_free(exponent);
    OSSL_PARAM_BLD_free(builder);
    return key;
}

// `point` is the uncompressed point: 0x04, x, y.
static inline EVP_PKEY *summit_p256_public_key(const unsigned char *point, size_t length) {
    EVP_PKEY *key = NULL;
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    if (builder
        && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, length) == 1) {
        key = summit_key_from_params("EC", builder, EVP_PKEY_PUBLIC_KEY);
    }
    OSSL_PARAM_BLD_free(builder);
    return key;
}

// A private RSA key from a JWK's eight numbers, in the JWK's order: n, e, d, p, q, dp, dq, qi.
static inline EVP_PKEY *summit_rsa_private_key(const unsigned char *const parts[8], const size_t lengths[8]) {
    static const char *const names[8] = {
        OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
        OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
        OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
    };
    EVP_PKEY *key = NULL;
    BIGNUM *numbers[8] = {0};
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    int pushed = builder != NULL;
    for (int i = 0; i < 8 && pushed; i++) {
        numbers[i] = BN_bin2bn(parts[i], (int)lengths[i], NULL);
        pushed = numbers[i] != NULL && OSSL_PARAM_BLD_push_BN(builder, names[i], numbers[i]) == 1;
    }
    if (pushed) key = summit_key_from_params("RSA", builder, EVP_PKEY_KEYPAIR);
    for (int i = 0; i < 8; i++) BN_clear_free(numbers[i]);
    OSSL_PARAM_BLD_free(builder);
    return key;
}

// A private P-256 key from its uncompressed point and its scalar d.
static inline EVP_PKEY *summit_p256_private_key(const unsigned char *point, size_t length, const unsigned char *d, size_t d_length) {
    EVP_PKEY *key = NULL;
    BIGNUM *scalar = BN_bin2bn(d, (int)d_length, NULL);
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    if (builder && scalar
        && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, length) == 1
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, scalar) == 1) {
        key = summit_key_from_params("EC", builder, EVP_PKEY_KEYPAIR);
    }
    BN_clear_free(scalar);
    OSSL_PARAM_BLD_free(builder);
    return key;
}
