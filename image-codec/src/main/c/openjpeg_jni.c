/*
 * JNI bridge from org.medjava.codec.dicom.Jpeg2000 to OpenJPEG (JPEG 2000, ISO/IEC 15444-1), Debian's libopenjp2-7:
 * one call decodes a whole frame (a J2K codestream, or a JP2 file as some writers put in DICOM) from memory, one
 * encodes a frame as a J2K codestream. The inverse component transform (RCT or ICT) is OpenJPEG's, so a
 * YBR_RCT/YBR_ICT frame comes out as RGB. Samples are pixel-interleaved, 1 byte each up to 8 bits, else 2 (little
 * endian, two's complement when signed), both ways.
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

/* A codestream being written: grows as OpenJPEG writes (and may seek back to patch a marker's length). */
typedef struct {
    OPJ_BYTE *data;
    OPJ_SIZE_T size;
    OPJ_SIZE_T capacity;
    OPJ_SIZE_T pos;
} output;

static OPJ_BOOL out_reserve(output *o, OPJ_SIZE_T end) {
    if (end <= o->capacity) {
        return OPJ_TRUE;
    }
    OPJ_SIZE_T capacity = o->capacity < 65536 ? 65536 : o->capacity;
    while (capacity < end) {
        capacity *= 2;
    }
    OPJ_BYTE *grown = realloc(o->data, capacity);
    if (grown == NULL) {
        return OPJ_FALSE;
    }
    o->data = grown;
    o->capacity = capacity;
    return OPJ_TRUE;
}

static OPJ_SIZE_T out_write(void *buffer, OPJ_SIZE_T n, void *user) {
    output *o = user;
    if (!out_reserve(o, o->pos + n)) {
        return (OPJ_SIZE_T) -1;
    }
    memcpy(o->data + o->pos, buffer, n);
    o->pos += n;
    if (o->pos > o->size) {
        o->size = o->pos;
    }
    return n;
}

static OPJ_OFF_T out_skip(OPJ_OFF_T n, void *user) {
    output *o = user;
    if (n < 0 && (OPJ_SIZE_T) -n > o->pos) {
        return -1;
    }
    if (n > 0 && !out_reserve(o, o->pos + (OPJ_SIZE_T) n)) {
        return -1;
    }
    o->pos += n;
    if (o->pos > o->size) {
        memset(o->data + o->size, 0, o->pos - o->size);
        o->size = o->pos;
    }
    return n;
}

static OPJ_BOOL out_seek(OPJ_OFF_T n, void *user) {
    output *o = user;
    if (n < 0 || !out_reserve(o, (OPJ_SIZE_T) n)) {
        return OPJ_FALSE;
    }
    if ((OPJ_SIZE_T) n > o->size) {
        memset(o->data + o->size, 0, (OPJ_SIZE_T) n - o->size);
        o->size = (OPJ_SIZE_T) n;
    }
    o->pos = (OPJ_SIZE_T) n;
    return OPJ_TRUE;
}

/*
 * Encodes one frame as a J2K codestream (no JP2 box, as DICOM holds it): one tile, one quality layer, 64x64 code
 * blocks, LRCP, no component transform (RGB stays RGB, so Photometric Interpretation is unchanged), up to 5
 * decomposition levels (fewer for a small image). lossless: the reversible 5-3 wavelet, every sample kept; else the
 * irreversible 9-7 aiming at ratio:1. samples as the decoder returns them, at precision bits.
 */
JNIEXPORT jbyteArray JNICALL Java_org_medjava_codec_dicom_Jpeg2000_compress(JNIEnv *env, jclass cls,
                                                                          jbyteArray samples, jint width,
                                                                          jint height, jint bits,
                                                                          jint components, jboolean is_signed,
                                                                          jboolean lossless, jint ratio) {
    (void) cls;
    int bytes = bits > 8 ? 2 : 1;
    size_t expected = (size_t) width * (size_t) height * (size_t) components * (size_t) bytes;
    if (width < 1 || height < 1 || components < 1 || components > 4 || bits < 1 || bits > 16
            || (!lossless && ratio < 1) || (size_t) (*env)->GetArrayLength(env, samples) != expected) {
        throw_error(env, "JPEG 2000 encoding failed", "samples do not match the frame's size");
        return NULL;
    }
    jbyteArray result = NULL;
    char error[256] = "";
    output o = {NULL, 0, 0, 0};
    opj_codec_t *codec = NULL;
    opj_stream_t *stream = NULL;
    opj_image_cmptparm_t parts[4];
    memset(parts, 0, sizeof parts);
    for (int c = 0; c < components; c++) {
        parts[c].dx = 1;
        parts[c].dy = 1;
        parts[c].w = (OPJ_UINT32) width;
        parts[c].h = (OPJ_UINT32) height;
        parts[c].prec = (OPJ_UINT32) bits;
        parts[c].sgnd = is_signed == JNI_TRUE;
    }
    opj_image_t *image = opj_image_create((OPJ_UINT32) components, parts,
                                          components == 3 ? OPJ_CLRSPC_SRGB : OPJ_CLRSPC_GRAY);
    jbyte *in = (*env)->GetByteArrayElements(env, samples, NULL);
    if (image == NULL || in == NULL) {
        throw_error(env, "JPEG 2000 encoding failed", "out of memory");
        goto done;
    }
    image->x0 = 0;
    image->y0 = 0;
    image->x1 = (OPJ_UINT32) width;
    image->y1 = (OPJ_UINT32) height;
    size_t pixels = (size_t) width * (size_t) height;
    int shift = 32 - bits;
    const uint8_t *from = (const uint8_t *) in;
    for (size_t p = 0; p < pixels; p++) {
        for (int c = 0; c < components; c++) {
            int32_t v = bytes == 2 ? (int32_t) (from[0] | from[1] << 8) : from[0];
            v = is_signed == JNI_TRUE ? (int32_t) ((uint32_t) v << shift) >> shift
                                      : (int32_t) ((uint32_t) v & (uint32_t) ((1ull << bits) - 1u));
            image->comps[c].data[p] = v;
            from += bytes;
        }
    }
    (*env)->ReleaseByteArrayElements(env, samples, in, JNI_ABORT);
    in = NULL;
    opj_cparameters_t parameters;
    opj_set_default_encoder_parameters(&parameters);
    parameters.tcp_numlayers = 1;
    parameters.cp_disto_alloc = 1;
    parameters.tcp_rates[0] = lossless ? 0 : (float) ratio;
    parameters.irreversible = lossless ? 0 : 1;
    parameters.tcp_mct = 0;
    int resolutions = 6;
    while (resolutions > 1 && ((width >> (resolutions - 1)) < 1 || (height >> (resolutions - 1)) < 1)) {
        resolutions--;
    }
    parameters.numresolution = resolutions;
    codec = opj_create_compress(OPJ_CODEC_J2K);
    stream = opj_stream_create(OPJ_J2K_STREAM_CHUNK_SIZE, OPJ_FALSE);
    if (codec == NULL || stream == NULL) {
        throw_error(env, "cannot create a JPEG 2000 encoder", NULL);
        goto done;
    }
    opj_set_error_handler(codec, keep_error, error);
    opj_set_warning_handler(codec, ignore, NULL);
    opj_set_info_handler(codec, ignore, NULL);
    opj_stream_set_user_data(stream, &o, NULL);
    opj_stream_set_write_function(stream, out_write);
    opj_stream_set_skip_function(stream, out_skip);
    opj_stream_set_seek_function(stream, out_seek);
    if (!opj_setup_encoder(codec, &parameters, image) || !opj_start_compress(codec, image, stream)
            || !opj_encode(codec, stream) || !opj_end_compress(codec, stream)) {
        throw_error(env, "JPEG 2000 encoding failed", error);
        goto done;
    }
    if (o.size > 0x7FFFFFF0u) {
        throw_error(env, "JPEG 2000 encoding failed", "codestream too large");
        goto done;
    }
    result = (*env)->NewByteArray(env, (jsize) o.size);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, (jsize) o.size, (const jbyte *) o.data);
    }
done:
    if (in != NULL) {
        (*env)->ReleaseByteArrayElements(env, samples, in, JNI_ABORT);
    }
    if (stream != NULL) {
        opj_stream_destroy(stream);
    }
    if (codec != NULL) {
        opj_destroy_codec(codec);
    }
    if (image != NULL) {
        opj_image_destroy(image);
    }
    free(o.data);
    return result;
}

/* The OpenJPEG version linked at run time. */
JNIEXPORT jstring JNICALL Java_org_medjava_codec_dicom_Jpeg2000_version(JNIEnv *env, jclass cls) {
    (void) cls;
    return (*env)->NewStringUTF(env, opj_version());
}
