/*
 * The library of the JNI-vs-FFM benchmark (issue 20): the same C functions reached two ways from Java.
 *
 *   plain C (for the Foreign Function & Memory API, org.medjava.bench.ffm.FfmCalls):
 *     mjb_empty()                       an empty call
 *     mjb_pass(src, dst, n)             a frame handed over: touches its first and last byte, so the cost measured
 *                                       is the passing (copies, pinning), not work on the pixels
 *     mjb_prepare(filter, params), mjb_run(params, impl, src, dst, w, h), mjb_release(params)
 *                                       c-reference's mj_parse_params / mj_run (whole image), -O2 like the
 *                                       JNI bridge's reference build
 *   JNI (class org.medjava.bench.ffm.JniCalls): the same functions behind the usual JNI ways of passing arrays:
 *     copy in/out (Get/SetByteArrayRegion into native buffers), pinned (GetPrimitiveArrayCritical, as the
 *     filter bridge medjava_jni.c does today), off-heap (direct ByteBuffers, GetDirectBufferAddress).
 */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "medjava_filters.h"

#define JNI_FN(name) Java_org_medjava_bench_ffm_JniCalls_##name

/* ---- plain C ------------------------------------------------------------------------------------------------ */

void mjb_empty(void)
{
}

int mjb_pass(const uint8_t *src, uint8_t *dst, int64_t n)
{
    dst[0] = src[0];
    dst[n - 1] = src[n - 1];
    return dst[0];
}

/* Parsed parameters of a filter, or NULL for a bad filter id or parameter. */
void *mjb_prepare(const char *filter_id, const char *params)
{
    char err[256];
    mj_params *parsed = (mj_params *)malloc(sizeof(mj_params));
    if (parsed == NULL)
        return NULL;
    if (mj_parse_params(filter_id, params, parsed, err, sizeof(err)) != MJ_OK) {
        free(parsed);
        return NULL;
    }
    return parsed;
}

/* The filter over the whole width x height RGB image; dst must hold a copy of src. Returns an MJ_* code. */
int mjb_run(const void *params, int impl, const uint8_t *src, uint8_t *dst, int width, int height)
{
    mj_region region;
    region.x = 0;
    region.y = 0;
    region.w = width;
    region.h = height;
    return mj_run((const mj_params *)params, impl, src, dst, width, height, region);
}

void mjb_release(void *params)
{
    free(params);
}

/* ---- JNI ---------------------------------------------------------------------------------------------------- */

JNIEXPORT void JNICALL JNI_FN(emptyCall)(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    mjb_empty();
}

JNIEXPORT jlong JNICALL JNI_FN(allocate)(JNIEnv *env, jclass cls, jlong bytes)
{
    (void)env;
    (void)cls;
    return (jlong)(intptr_t)malloc((size_t)bytes);
}

JNIEXPORT void JNICALL JNI_FN(free)(JNIEnv *env, jclass cls, jlong address)
{
    (void)env;
    (void)cls;
    free((void *)(intptr_t)address);
}

/* Copy in, call, copy out: the arrays go through native buffers of the same size (scratch_in, scratch_out). */
JNIEXPORT jint JNICALL JNI_FN(passCopy)(JNIEnv *env, jclass cls, jbyteArray src, jbyteArray dst, jlong scratch_in,
                                        jlong scratch_out)
{
    jsize n = (*env)->GetArrayLength(env, src);
    uint8_t *in = (uint8_t *)(intptr_t)scratch_in;
    uint8_t *out = (uint8_t *)(intptr_t)scratch_out;
    int rc;
    (void)cls;
    (*env)->GetByteArrayRegion(env, src, 0, n, (jbyte *)in);
    rc = mjb_pass(in, out, n);
    (*env)->SetByteArrayRegion(env, dst, 0, n, (const jbyte *)out);
    return rc;
}

/* Pinned: the Java heap memory itself, as the filter bridge does. */
JNIEXPORT jint JNICALL JNI_FN(passCritical)(JNIEnv *env, jclass cls, jbyteArray src, jbyteArray dst)
{
    jsize n = (*env)->GetArrayLength(env, src);
    uint8_t *in;
    uint8_t *out;
    int rc;
    (void)cls;
    in = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, src, NULL);
    if (in == NULL)
        return -1;
    out = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, dst, NULL);
    if (out == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, src, in, JNI_ABORT);
        return -1;
    }
    rc = mjb_pass(in, out, n);
    (*env)->ReleasePrimitiveArrayCritical(env, dst, out, 0);
    (*env)->ReleasePrimitiveArrayCritical(env, src, in, JNI_ABORT);
    return rc;
}

/* Off-heap: direct ByteBuffers, no copy and no pinning. */
JNIEXPORT jint JNICALL JNI_FN(passDirect)(JNIEnv *env, jclass cls, jobject src, jobject dst)
{
    uint8_t *in = (uint8_t *)(*env)->GetDirectBufferAddress(env, src);
    uint8_t *out = (uint8_t *)(*env)->GetDirectBufferAddress(env, dst);
    (void)cls;
    if (in == NULL || out == NULL)
        return -1;
    return mjb_pass(in, out, (*env)->GetDirectBufferCapacity(env, src));
}

JNIEXPORT jlong JNICALL JNI_FN(prepare)(JNIEnv *env, jclass cls, jstring filter_id, jstring params)
{
    const char *id = (*env)->GetStringUTFChars(env, filter_id, NULL);
    const char *text = (*env)->GetStringUTFChars(env, params, NULL);
    void *parsed = (id != NULL && text != NULL) ? mjb_prepare(id, text) : NULL;
    (void)cls;
    if (id != NULL)
        (*env)->ReleaseStringUTFChars(env, filter_id, id);
    if (text != NULL)
        (*env)->ReleaseStringUTFChars(env, params, text);
    return (jlong)(intptr_t)parsed;
}

JNIEXPORT void JNICALL JNI_FN(release)(JNIEnv *env, jclass cls, jlong params)
{
    (void)env;
    (void)cls;
    mjb_release((void *)(intptr_t)params);
}

/* The filter on pinned arrays (GetPrimitiveArrayCritical), exactly as medjava_jni.c runs it. */
JNIEXPORT jint JNICALL JNI_FN(runCritical)(JNIEnv *env, jclass cls, jlong params, jint impl, jbyteArray src,
                                           jbyteArray dst, jint width, jint height)
{
    uint8_t *in;
    uint8_t *out;
    int rc;
    (void)cls;
    if (params == 0 || (*env)->GetArrayLength(env, src) != 3 * width * height
        || (*env)->GetArrayLength(env, dst) != 3 * width * height)
        return MJ_ERR_ARG;
    in = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, src, NULL);
    if (in == NULL)
        return MJ_ERR_NOMEM;
    out = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, dst, NULL);
    if (out == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, src, in, JNI_ABORT);
        return MJ_ERR_NOMEM;
    }
    rc = mjb_run((const void *)(intptr_t)params, impl, in, out, width, height);
    (*env)->ReleasePrimitiveArrayCritical(env, dst, out, 0);
    (*env)->ReleasePrimitiveArrayCritical(env, src, in, JNI_ABORT);
    return rc;
}
