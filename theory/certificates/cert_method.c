/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_method.c -- the certificate methods' one name table (see cert_method.h). */
#include "theory/certificates/cert_method.h"

#include <string.h>

static const char *const names[AR_METHOD_COUNT] = {
    [AR_METHOD_NONE] = "",
    [AR_METHOD_TRIVIAL] = "trivial",
    [AR_METHOD_DIAGDOM] = "diagdom",
    [AR_METHOD_INVNORM] = "invnorm",
    [AR_METHOD_INVNORM_VARAH] = "invnorm-varah",
    [AR_METHOD_SVD] = "svd",
    [AR_METHOD_SYMEIG] = "symeig",
    [AR_METHOD_PCHOL] = "pchol",
    [AR_METHOD_RSVD] = "rsvd",
    [AR_METHOD_RSYM] = "rsym",
    [AR_METHOD_PROJECTION] = "projection",
    [AR_METHOD_L1LP] = "l1lp",
    [AR_METHOD_CLUSTER] = "cluster",
    [AR_METHOD_BALL_DIAGDOM] = "ball-diagdom",
    [AR_METHOD_BALL_CLUSTER] = "ball-cluster",
    [AR_METHOD_TENSOR_CHEB] = "tensor-cheb",
    [AR_METHOD_POLYNOMIAL] = "polynomial",
    [AR_METHOD_CIRCULANT_BLOCKS] = "circulant-blocks",
    [AR_METHOD_CIRCULANT_L1LP] = "circulant-l1lp",
    [AR_METHOD_CIRCULANT_PROJECTION] = "circulant-projection",
    [AR_METHOD_PACKING_DIAGDOM] = "packing-diagdom",
};

const char *ar_method_name(ar_method_t m)
{
    return (unsigned)m < AR_METHOD_COUNT && names[m] ? names[m] : "unknown";
}

/* 1 and *out set if s is a printed name, else 0 (no message). */
static int lookup(const char *s, ar_method_t *out)
{
    for (int m = 0; s && m < AR_METHOD_COUNT; m++)
        if (names[m] && strcmp(s, names[m]) == 0) {
            *out = (ar_method_t)m;
            return 1;
        }
    return 0;
}

ar_status ar_method_parse(const char *s, ar_method_t *out)
{
    if (lookup(s, out))
        return AR_OK;
    ar_error_set("unknown certificate method '%s'", s ? s : "(null)");
    return AR_EINVAL;
}

int ar_method_is_trivial(ar_method_t m)
{
    return m == AR_METHOD_TRIVIAL || m == AR_METHOD_NONE;
}

int ar_method_is_ball(ar_method_t m)
{
    return m == AR_METHOD_BALL_DIAGDOM || m == AR_METHOD_BALL_CLUSTER;
}

ar_method_t ar_method_ball(ar_method_t m)
{
    return m == AR_METHOD_DIAGDOM ? AR_METHOD_BALL_DIAGDOM : m == AR_METHOD_CLUSTER ? AR_METHOD_BALL_CLUSTER : m;
}

int ar_method_label_trivial(const char *label)
{
    const char *slash = strrchr(label, '/');
    ar_method_t m;
    return !*label || (lookup(slash ? slash + 1 : label, &m) && m == AR_METHOD_TRIVIAL);
}
