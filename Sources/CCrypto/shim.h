// libcrypto (OpenSSL 3, Debian libssl-dev): signature checks for bearer tokens.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/hmac.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <openssl/param_build.h>
#include <openssl/core_names.h>

// Public keys from the numbers a JWK carries (RFC 7518 §6), built with OpenSSL 3's key
// management. Written here in C because the selection macros do not import into Swift.

/// An RSA public key from the big-endian modulus and exponent; NULL when they do not make one.
static inline EVP_PKEY *ratings_rsa_public_key(const unsigned char *n, size_t n_length, const unsigned char *e, size_t e_length) {
    EVP_PKEY *key = NULL;
    BIGNUM *modulus = BN_bin2bn(n, (int)n_length, NULL), *exponent = BN_bin2bn(e, (int)e_length, NULL);
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    if (modulus && exponent && builder && context
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus)
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent)
        && (params = OSSL_PARAM_BLD_to_param(builder)) != NULL
        && EVP_PKEY_fromdata_init(context) == 1) {
        if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
    }
    OSSL_PARAM_free(params);
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_BLD_free(builder);
    BN_free(modulus);
    BN_free(exponent);
    return key;
}

/// A P-256 public key from its 32-byte big-endian coordinates; NULL when the point is not on the curve.
static inline EVP_PKEY *ratings_p256_public_key(const unsigned char *x, const unsigned char *y) {
    unsigned char point[65];
    point[0] = 0x04;
    for (int i = 0; i < 32; i++) { point[1 + i] = x[i]; point[33 + i] = y[i]; }
    EVP_PKEY *key = NULL;
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (builder && context
        && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point)
        && (params = OSSL_PARAM_BLD_to_param(builder)) != NULL
        && EVP_PKEY_fromdata_init(context) == 1) {
        if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
    }
    if (key) {
        EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
        if (!check || EVP_PKEY_public_check(check) != 1) { EVP_PKEY_free(key); key = NULL; }
        EVP_PKEY_CTX_free(check);
    }
    OSSL_PARAM_free(params);
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_BLD_free(builder);
    return key;
}
