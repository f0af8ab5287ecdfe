/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_sized.c -- the size-checked structs of the public API at the boundary
 * (include/attnrank.h "size-checked structs"): the check of the caller's size
 * field, inputs read into a full copy with defaults past the caller's size,
 * outputs written as the caller's prefix of a full copy. */
#include "api/api_impl.h"

#include <string.h>

size_t api_size_get(const void *p)
{
    size_t size;
    memcpy(&size, p, sizeof size);   /* the first member of every size-checked struct */
    return size;
}

ar_status api_size_check(size_t size, size_t min, const char *type)
{
    if (size >= min)
        return AR_OK;
    ar_error_set("%s.size %zu is smaller than %zu, its size in API 0.3 (set it with ATTNRANK_INIT(&x) or to "
                 "sizeof x)", type, size, min);
    return AR_EINVAL;
}

ar_status api_size_out_check(const void *p, size_t min, const char *type, const char *null_msg)
{
    if (!p) {
        ar_error_set("%s", null_msg);
        return AR_EINVAL;
    }
    return api_size_check(api_size_get(p), min, type);
}

void api_size_in(void *full, const void *defaults, size_t full_size, const void *src)
{
    size_t size = api_size_get(src);
    size_t k = size < full_size ? size : full_size;
    if (defaults)
        memcpy(full, defaults, full_size);
    else
        memset(full, 0, full_size);
    memcpy((char *)full + sizeof size, (const char *)src + sizeof size, k - sizeof size);
    memcpy(full, &full_size, sizeof full_size);
}

void api_size_out(void *dst, const void *full, size_t full_size)
{
    size_t size = api_size_get(dst);
    size_t k = size < full_size ? size : full_size;
    memcpy((char *)dst + sizeof size, (const char *)full + sizeof size, k - sizeof size);
}

void api_size_zero(void *dst, size_t min, size_t full_size)
{
    if (!dst)
        return;
    size_t size = api_size_get(dst);
    if (size < min)
        return;
    size_t k = size < full_size ? size : full_size;
    memset((char *)dst + sizeof size, 0, k - sizeof size);
}
