/*
 * JNI bridge from org.medjava.codec.dicom.CharLs to CharLS (JPEG-LS, ISO/IEC 14495-1), Debian's libcharls2.
 * Two calls, each a whole frame at a time: decode (codestream -> samples) and encode (samples -> codestream).
 * Samples of more than 8 bits are 16-bit words in host byte order (little endian on the platforms built for).
 * Errors are thrown as java.lang.IllegalArgumentException carrying CharLS's message; CharLs.java words them.
 */
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <charls/charls.h>

static void throw_error(JNIEnv *env, const char *what, charls_jpegls_errc error) {
    char message[256];
    const char *reason = error == CHARLS_JPEGLS_ERRC_SUCCESS ? "" : charls_get_error_message(error);
    snprintf(message, sizeof message, "%s%s%s", what, *reason ? ": " : "", reason);
    jclass type = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
    if (type != NULL) {
        (*env)->ThrowNew(env, type, message);
    }
}

/*
 * info receives: width, height, bits per sample, components, interleave mode, NEAR (of component 0). A frame whose
 * decoded size is not expected_size (when > 0) is not decoded: info is filled and null returned, so the caller can say
 * how it differs from the DICOM header before any memory is spent on it.
 */
JNIEXPORT jbyteArray JNICALL Java_org_medjava_codec_dicom_CharLs_decode(JNIEnv *env, jclass cls, jbyteArray source,
                                                                        jintArray info, jlong expected_size) {
    (void) cls;
    jsize length = (*env)->GetArrayLength(env, source);
    jbyte *in = (*env)->GetByteArrayElements(env, source, NULL);
    if (in == NULL) {
        return NULL;
    }
    jbyteArray result = NULL;
    void *out = NULL;
    charls_jpegls_decoder *decoder = charls_jpegls_decoder_create();
    if (decoder == NULL) {
        throw_error(env, "cannot create a JPEG-LS decoder", CHARLS_JPEGLS_ERRC_SUCCESS);
        goto done;
    }
    charls_jpegls_errc error = charls_jpegls_decoder_set_source_buffer(decoder, in, (size_t) length);
    if (error == CHARLS_JPEGLS_ERRC_SUCCESS) {
        error = charls_jpegls_decoder_read_header(decoder);
    }
    charls_frame_info frame;
    int32_t near_lossless = 0;
    charls_interleave_mode interleave = CHARLS_INTERLEAVE_MODE_NONE;
    size_t size = 0;
    if (error == CHARLS_JPEGLS_ERRC_SUCCESS) {
        error = charls_jpegls_decoder_get_frame_info(decoder, &frame);
    }
    if (error == CHARLS_JPEGLS_ERRC_SUCCESS) {
        error = charls_jpegls_decoder_get_near_lossless(decoder, 0, &near_lossless);
    }
    if (error == CHARLS_JPEGLS_ERRC_SUCCESS) {
        error = charls_jpegls_decoder_get_interleave_mode(decoder, &interleave);
    }
    if (error == CHARLS_JPEGLS_ERRC_SUCCESS) {
        error = charls_jpegls_decoder_get_destination_size(decoder, 0, &size);
    }
    if (error != CHARLS_JPEGLS_ERRC_SUCCESS) {
        throw_error(env, "JPEG-LS header unreadable", error);
        goto done;
    }
    if (expected_size > 0 && (jlong) size != expected_size) {
        jint values[6] = {(jint) frame.width, (jint) frame.height, frame.bits_per_sample, frame.component_count,
                          (jint) interleave, near_lossless};
        (*env)->SetIntArrayRegion(env, info, 0, 6, values);
        goto done;
    }
    if (size > 0x7FFFFFF0u) {
        throw_error(env, "JPEG-LS frame too large", CHARLS_JPEGLS_ERRC_SUCCESS);
        goto done;
    }
    out = malloc(size == 0 ? 1 : size);
    if (out == NULL) {
        throw_error(env, "out of memory for a JPEG-LS frame", CHARLS_JPEGLS_ERRC_SUCCESS);
        goto done;
    }
    error = charls_jpegls_decoder_decode_to_buffer(decoder, out, size, 0);
    if (error != CHARLS_JPEGLS_ERRC_SUCCESS) {
        throw_error(env, "JPEG-LS data could not be decoded", error);
        goto done;
    }
    jint values[6] = {(jint) frame.width, (jint) frame.height, frame.bits_per_sample, frame.component_count,
                      (jint) interleave, near_lossless};
    (*env)->SetIntArrayRegion(env, info, 0, 6, values);
    result = (*env)->NewByteArray(env, (jsize) size);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, (jsize) size, out);
    }
done:
    free(out);
    charls_jpegls_decoder_destroy(decoder);
    (*env)->ReleaseByteArrayElements(env, source, in, JNI_ABORT);
    return result;
}

JNIEXPORT jbyteArray JNICALL Java_org_medjava_codec_dicom_CharLs_encode(JNIEnv *env, jclass cls, jbyteArray samples,
                                                                        jint width, jint height, jint bits,
                                                                        jint components, jint interleave,
                                                                        jint near_lossless) {
    (void) cls;
    jsize length = (*env)->GetArrayLength(env, samples);
    jbyte *in = (*env)->GetByteArrayElements(env, samples, NULL);
    if (in == NULL) {
        return NULL;
    }
    jbyteArray result = NULL;
    void *out = NULL;
    charls_jpegls_encoder *encoder = charls_jpegls_encoder_create();
    if (encoder == NULL) {
        throw_error(env, "cannot create a JPEG-LS encoder", CHARLS_JPEGLS_ERRC_SUCCESS);
        goto done;
    }
    charls_frame_info frame = {(uint32_t) width, (uint32_t) height, bits, components};
    charls_jpegls_errc error = charls_jpegls_encoder_set_frame_info(encoder, &frame);
    if (error == CHARLS_JPEGLS_ERRC_SUCCESS) {
        error = charls_jpegls_encoder_set_near_lossless(encoder, near_lossless);
    }
    if (error == CHARLS_JPEGLS_ERRC_SUCCESS && components > 1) {
        error = charls_jpegls_encoder_set_interleave_mode(encoder, (charls_interleave_mode) interleave);
    }
    size_t size = 0;
    if (error == CHARLS_JPEGLS_ERRC_SUCCESS) {
        error = charls_jpegls_encoder_get_estimated_destination_size(encoder, &size);
    }
    if (error != CHARLS_JPEGLS_ERRC_SUCCESS) {
        throw_error(env, "JPEG-LS encoder parameters refused", error);
        goto done;
    }
    out = malloc(size);
    if (out == NULL) {
        throw_error(env, "out of memory for a JPEG-LS codestream", CHARLS_JPEGLS_ERRC_SUCCESS);
        goto done;
    }
    size_t written = 0;
    error = charls_jpegls_encoder_set_destination_buffer(encoder, out, size);
    if (error == CHARLS_JPEGLS_ERRC_SUCCESS) {
        error = charls_jpegls_encoder_encode_from_buffer(encoder, in, (size_t) length, 0);
    }
    if (error == CHARLS_JPEGLS_ERRC_SUCCESS) {
        error = charls_jpegls_encoder_get_bytes_written(encoder, &written);
    }
    if (error != CHARLS_JPEGLS_ERRC_SUCCESS) {
        throw_error(env, "JPEG-LS encoding failed", error);
        goto done;
    }
    result = (*env)->NewByteArray(env, (jsize) written);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, (jsize) written, out);
    }
done:
    free(out);
    charls_jpegls_encoder_destroy(encoder);
    (*env)->ReleaseByteArrayElements(env, samples, in, JNI_ABORT);
    return result;
}

/* The CharLS version linked at run time, for messages and the README's check. */
JNIEXPORT jstring JNICALL Java_org_medjava_codec_dicom_CharLs_version(JNIEnv *env, jclass cls) {
    (void) cls;
    return (*env)->NewStringUTF(env, charls_get_version_string());
}
