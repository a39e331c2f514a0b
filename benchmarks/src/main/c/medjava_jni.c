/*
 * JNI bridge from the benchmarks to the C reference filters (c-reference/).
 *
 * Compiled once per optimization level; JNI_CLASS names the Java class the build belongs to
 * (CFiltersO2, CFiltersNative), so both libraries can be loaded into one JVM side by side.
 *
 * The pixel arrays are never copied: run() pins both Java byte[] (runGray16() both short[]) with
 * GetPrimitiveArrayCritical and hands the C filter the Java heap memory itself.
 *
 * impl is MJ_IMPL_STRAIGHTFORWARD, MJ_IMPL_OPTIMIZED or MJ_IMPL_VECTORIZED (the intrinsics kernels, whose
 * AVX-512/AVX2/scalar path simdLevel() names); a filter without a vectorized kernel yet returns MJ_ERR_ARG.
 */
#include <jni.h>
#include <stdlib.h>
#include <string.h>

#include "medjava_filters.h"

#ifndef JNI_CLASS
#error "compile with -DJNI_CLASS=<simple class name>"
#endif
#ifndef MJ_BUILD_FLAGS
#define MJ_BUILD_FLAGS "unknown"
#endif

#define JNI_PASTE(a, b, c) a##b##c
#define JNI_EXPAND(a, b, c) JNI_PASTE(a, b, c)
#define JNI_FN(name) JNI_EXPAND(Java_org_medjava_bench_jni_, JNI_CLASS, _##name)

static void throw_new(JNIEnv *env, const char *class_name, const char *message)
{
    jclass cls = (*env)->FindClass(env, class_name);
    if (cls != NULL)
        (*env)->ThrowNew(env, cls, message);
}

/* Parses and validates the parameters once; returns an opaque handle for run(). */
JNIEXPORT jlong JNICALL JNI_FN(prepare)(JNIEnv *env, jclass cls, jstring filter_id, jstring params)
{
    const char *id;
    const char *text;
    char err[256];
    mj_params *parsed;
    int rc;
    (void)cls;
    if (filter_id == NULL || params == NULL) {
        throw_new(env, "java/lang/NullPointerException", "filter id and params are required");
        return 0;
    }
    parsed = (mj_params *)malloc(sizeof(mj_params));
    if (parsed == NULL) {
        throw_new(env, "java/lang/OutOfMemoryError", "mj_params");
        return 0;
    }
    id = (*env)->GetStringUTFChars(env, filter_id, NULL);
    text = (*env)->GetStringUTFChars(env, params, NULL);
    if (id == NULL || text == NULL) { /* OutOfMemoryError already pending */
        if (id != NULL)
            (*env)->ReleaseStringUTFChars(env, filter_id, id);
        free(parsed);
        return 0;
    }
    err[0] = '\0';
    rc = mj_parse_params(id, text, parsed, err, sizeof(err));
    (*env)->ReleaseStringUTFChars(env, filter_id, id);
    (*env)->ReleaseStringUTFChars(env, params, text);
    if (rc != MJ_OK) {
        free(parsed);
        throw_new(env, "java/lang/IllegalArgumentException", err[0] ? err : mj_strerror(rc));
        return 0;
    }
    return (jlong)(intptr_t)parsed;
}

/*
 * Runs the filter over the whole width x height image. dst must already hold a copy of src
 * (the caller copies, as every benchmark variant does). Returns an MJ_* code.
 */
JNIEXPORT jint JNICALL JNI_FN(run)(JNIEnv *env, jclass cls, jlong handle, jint impl,
                                   jbyteArray src, jbyteArray dst, jint width, jint height)
{
    const mj_params *params = (const mj_params *)(intptr_t)handle;
    jsize need;
    jbyte *in;
    jbyte *out;
    mj_region region;
    int rc;
    (void)cls;
    if (params == NULL || src == NULL || dst == NULL || width < 1 || height < 1)
        return MJ_ERR_ARG;
    need = (jsize)(3 * (size_t)width * (size_t)height);
    if ((*env)->GetArrayLength(env, src) != need || (*env)->GetArrayLength(env, dst) != need)
        return MJ_ERR_ARG;
    region.x = 0;
    region.y = 0;
    region.w = width;
    region.h = height;
    in = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, src, NULL);
    if (in == NULL)
        return MJ_ERR_NOMEM;
    out = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, dst, NULL);
    if (out == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, src, in, JNI_ABORT);
        return MJ_ERR_NOMEM;
    }
    rc = mj_run(params, impl, (const uint8_t *)in, (uint8_t *)out, width, height, region);
    (*env)->ReleasePrimitiveArrayCritical(env, dst, out, 0);
    (*env)->ReleasePrimitiveArrayCritical(env, src, in, JNI_ABORT);
    return rc;
}

/*
 * The same for 16-bit grey data (docs/xv-filters-16bit.md): src and dst are Java short[] of width x height words,
 * bits_stored 1..16, is_signed 0/1; dst must hold a copy of src. Returns an MJ_* code (MJ_ERR_ARG for a bad format
 * or size). The values are not scanned against the range (the benchmark's input is valid by construction).
 */
JNIEXPORT jint JNICALL JNI_FN(runGray16)(JNIEnv *env, jclass cls, jlong handle, jint impl, jshortArray src,
                                         jshortArray dst, jint width, jint height, jint bits_stored,
                                         jboolean is_signed)
{
    const mj_params *params = (const mj_params *)(intptr_t)handle;
    jsize need;
    jshort *in;
    jshort *out;
    mj_region region;
    mj_gray_format fmt;
    int rc;
    (void)cls;
    if (params == NULL || src == NULL || dst == NULL || width < 1 || height < 1)
        return MJ_ERR_ARG;
    need = (jsize)((size_t)width * (size_t)height);
    if ((*env)->GetArrayLength(env, src) != need || (*env)->GetArrayLength(env, dst) != need)
        return MJ_ERR_ARG;
    region.x = 0;
    region.y = 0;
    region.w = width;
    region.h = height;
    fmt.bits_stored = bits_stored;
    fmt.is_signed = is_signed ? 1 : 0;
    in = (jshort *)(*env)->GetPrimitiveArrayCritical(env, src, NULL);
    if (in == NULL)
        return MJ_ERR_NOMEM;
    out = (jshort *)(*env)->GetPrimitiveArrayCritical(env, dst, NULL);
    if (out == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, src, in, JNI_ABORT);
        return MJ_ERR_NOMEM;
    }
    rc = mj_run_gray16(params, impl, (const uint16_t *)in, (uint16_t *)out, width, height, fmt, region);
    (*env)->ReleasePrimitiveArrayCritical(env, dst, out, 0);
    (*env)->ReleasePrimitiveArrayCritical(env, src, in, JNI_ABORT);
    return rc;
}

JNIEXPORT void JNICALL JNI_FN(release)(JNIEnv *env, jclass cls, jlong handle)
{
    (void)env;
    (void)cls;
    free((void *)(intptr_t)handle);
}

/* Compiler and flags this library was built with, for the report's environment block. */
JNIEXPORT jstring JNICALL JNI_FN(buildInfo)(JNIEnv *env, jclass cls)
{
    (void)cls;
    return (*env)->NewStringUTF(env, "gcc " __VERSION__ ", " MJ_BUILD_FLAGS);
}

/* The code path of the vectorized kernels in this process: "avx512", "avx2" or "scalar" (MJ_SIMD caps it). */
JNIEXPORT jstring JNICALL JNI_FN(simdLevel)(JNIEnv *env, jclass cls)
{
    (void)cls;
    return (*env)->NewStringUTF(env, mj_simd_level());
}

JNIEXPORT jstring JNICALL JNI_FN(errorText)(JNIEnv *env, jclass cls, jint code)
{
    (void)cls;
    return (*env)->NewStringUTF(env, mj_strerror(code));
}
