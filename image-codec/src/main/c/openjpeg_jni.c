/*
 * JNI bridge from org.medjava.codec.dicom.Jpeg2000 to OpenJPEG (JPEG 2000, ISO/IEC 15444-1), Debian's libopenjp2-7:
 * one call decodes a whole frame (a J2K codestream, or a JP2 file as some writers put in DICOM) from memory. The
 * inverse component transform (RCT or ICT) is OpenJPEG's, so a YBR_RCT/YBR_ICT frame comes out as RGB. Samples are
 * returned pixel-interleaved, 1 byte each up to 8 bits, else 2 (little endian, two's complement when signed).
 * Errors are thrown as java.lang.IllegalArgumentException carrying OpenJPEG's last message; Jpeg2000.java words them.
 */
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openjpeg.h>

typedef struct {
    const OPJ_BYTE *data;
    OPJ_SIZE_T size;
    OPJ_SIZE_T pos;
} memory;

static OPJ_SIZE_T mem_read(void *buffer, OPJ_SIZE_T n, void *user) {
    memory *m = user;
    if (m->pos >= m->size) {
        return (OPJ_SIZE_T) -1;
    }
    OPJ_SIZE_T k = m->size - m->pos < n ? m->size - m->pos : n;
    memcpy(buffer, m->data + m->pos, k);
    m->pos += k;
    return k;
}

static OPJ_OFF_T mem_skip(OPJ_OFF_T n, void *user) {
    memory *m = user;
    if (n < 0) {
        if ((OPJ_SIZE_T) -n > m->pos) {
            n = -(OPJ_OFF_T) m->pos;
        }
    } else if ((OPJ_SIZE_T) n > m->size - m->pos) {
        n = (OPJ_OFF_T) (m->size - m->pos);
    }
    m->pos += n;
    return n;
}

static OPJ_BOOL mem_seek(OPJ_OFF_T n, void *user) {
    memory *m = user;
    if (n < 0 || (OPJ_SIZE_T) n > m->size) {
        return OPJ_FALSE;
    }
    m->pos = (OPJ_SIZE_T) n;
    return OPJ_TRUE;
}

/* OpenJPEG's last error message, kept for the exception (its messages end in a newline). */
static void keep_error(const char *message, void *user) {
    char *kept = user;
    snprintf(kept, 256, "%s", message);
    size_t n = strlen(kept);
    while (n > 0 && (kept[n - 1] == '\n' || kept[n - 1] == '\r' || kept[n - 1] == ' ')) {
        kept[--n] = '\0';
    }
}

static void ignore(const char *message, void *user) {
    (void) message;
    (void) user;
}

static void throw_error(JNIEnv *env, const char *what, const char *reason) {
    char message[384];
    snprintf(message, sizeof message, "%s%s%s", what, reason && *reason ? ": " : "", reason ? reason : "");
    jclass type = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
    if (type != NULL) {
        (*env)->ThrowNew(env, type, message);
    }
}

/*
 * info receives: width, height, bits (the largest component precision), components, signed (0/1). A frame that is not expected_width x expected_height x expected_components (when
 * expected_width > 0) is not decoded: info is filled from the header and null returned.
 */
JNIEXPORT jbyteArray JNICALL Java_org_medjava_codec_dicom_Jpeg2000_decode(JNIEnv *env, jclass cls,
                                                                          jbyteArray source, jintArray info,
                                                                          jint expected_width,
                                                                          jint expected_height,
                                                                          jint expected_components) {
    (void) cls;
    jsize length = (*env)->GetArrayLength(env, source);
    jbyte *in = (*env)->GetByteArrayElements(env, source, NULL);
    if (in == NULL) {
        return NULL;
    }
    jbyteArray result = NULL;
    uint8_t *out = NULL;
    opj_image_t *image = NULL;
    char error[256] = "";
    memory m = {(const OPJ_BYTE *) in, (OPJ_SIZE_T) length, 0};
    const unsigned char jp2[] = {0, 0, 0, 0x0C, 'j', 'P', ' ', ' '};
    OPJ_CODEC_FORMAT format = length >= 8 && memcmp(in, jp2, 8) == 0 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K;
    opj_codec_t *codec = opj_create_decompress(format);
    opj_stream_t *stream = opj_stream_create(OPJ_J2K_STREAM_CHUNK_SIZE, OPJ_TRUE);
    if (codec == NULL || stream == NULL) {
        throw_error(env, "cannot create a JPEG 2000 decoder", NULL);
        goto done;
    }
    opj_set_error_handler(codec, keep_error, error);
    opj_set_warning_handler(codec, ignore, NULL);
    opj_set_info_handler(codec, ignore, NULL);
    opj_stream_set_user_data(stream, &m, NULL);
    opj_stream_set_user_data_length(stream, (OPJ_UINT64) length);
    opj_stream_set_read_function(stream, mem_read);
    opj_stream_set_skip_function(stream, mem_skip);
    opj_stream_set_seek_function(stream, mem_seek);
    opj_dparameters_t parameters;
    opj_set_default_decoder_parameters(&parameters);
    if (!opj_setup_decoder(codec, &parameters) || !opj_read_header(stream, codec, &image) || image == NULL) {
        throw_error(env, "JPEG 2000 header unreadable", error);
        goto done;
    }
    int components = (int) image->numcomps;
    int width = (int) (image->x1 - image->x0);
    int height = (int) (image->y1 - image->y0);
    int bits = 0;
    int sign = 0;
    for (int c = 0; c < components; c++) {
        if ((int) image->comps[c].prec > bits) {
            bits = (int) image->comps[c].prec;
        }
        sign |= image->comps[c].sgnd != 0;
    }
    jint values[5] = {width, height, bits, components, sign};
    (*env)->SetIntArrayRegion(env, info, 0, 5, values);
    if (expected_width > 0 && (width != expected_width || height != expected_height
                               || components != expected_components)) {
        goto done;
    }
    if (components < 1 || components > 4 || bits < 1 || bits > 16) {
        throw_error(env, "JPEG 2000 frame has a layout DICOM does not use", NULL);
        goto done;
    }
    if (!opj_decode(codec, stream, image) || !opj_end_decompress(codec, stream)) {
        throw_error(env, "JPEG 2000 data could not be decoded", error);
        goto done;
    }
    for (int c = 0; c < components; c++) {
        if (image->comps[c].w != (OPJ_UINT32) width || image->comps[c].h != (OPJ_UINT32) height
                || image->comps[c].data == NULL) {
            throw_error(env, "JPEG 2000 frame has subsampled components, which DICOM does not use", NULL);
            goto done;
        }
    }
    int bytes = bits > 8 ? 2 : 1;
    size_t pixels = (size_t) width * (size_t) height;
    size_t size = pixels * (size_t) components * (size_t) bytes;
    if (size > 0x7FFFFFF0u) {
        throw_error(env, "JPEG 2000 frame too large", NULL);
        goto done;
    }
    out = malloc(size == 0 ? 1 : size);
    if (out == NULL) {
        throw_error(env, "out of memory for a JPEG 2000 frame", NULL);
        goto done;
    }
    for (int c = 0; c < components; c++) {
        const OPJ_INT32 *plane = image->comps[c].data;
        for (size_t p = 0; p < pixels; p++) {
            size_t at = (p * (size_t) components + (size_t) c) * (size_t) bytes;
            int32_t v = plane[p];
            out[at] = (uint8_t) v;
            if (bytes == 2) {
                out[at + 1] = (uint8_t) (v >> 8);
            }
        }
    }
    result = (*env)->NewByteArray(env, (jsize) size);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, (jsize) size, (const jbyte *) out);
    }
done:
    free(out);
    if (image != NULL) {
        opj_image_destroy(image);
    }
    if (stream != NULL) {
        opj_stream_destroy(stream);
    }
    if (codec != NULL) {
        opj_destroy_codec(codec);
    }
    (*env)->ReleaseByteArrayElements(env, source, in, JNI_ABORT);
    return result;
}

/* The OpenJPEG version linked at run time. */
JNIEXPORT jstring JNICALL Java_org_medjava_codec_dicom_Jpeg2000_version(JNIEnv *env, jclass cls) {
    (void) cls;
    return (*env)->NewStringUTF(env, opj_version());
}
