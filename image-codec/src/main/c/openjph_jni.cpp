/*
 * JNI bridge from org.medjava.codec.dicom.Htj2k to OpenJPH (High-Throughput JPEG 2000, ISO/IEC 15444-15), Debian's
 * libopenjph0.9: one call decodes a whole frame (an HTJ2K codestream) from memory, one encodes a frame losslessly. The inverse component transform is
 * OpenJPH's, so a frame coded with it comes out as RGB. Samples are returned pixel-interleaved, 1 byte each up to
 * 8 bits, else 2 (little endian, two's complement when signed), clipped to the component's range as OpenJPH's own
 * ojph_expand writes them. OpenJPH reports errors through a handler that must not return: ours throws a C++
 * exception with the message, turned here into java.lang.IllegalArgumentException; warnings and information are
 * dropped (never printed on the store's console).
 */
#include <jni.h>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
#include <openjph/ojph_arch.h>
#include <openjph/ojph_codestream.h>
#include <openjph/ojph_file.h>
#include <openjph/ojph_mem.h>
#include <openjph/ojph_message.h>
#include <openjph/ojph_params.h>
#include <openjph/ojph_version.h>

namespace {

class throwing_error : public ojph::message_error {
public:
    void operator()(int code, const char *file, int line, const char *fmt, ...) override {
        (void) code;
        (void) file;
        (void) line;
        char message[256];
        va_list args;
        va_start(args, fmt);
        vsnprintf(message, sizeof message, fmt, args);
        va_end(args);
        throw std::runtime_error(message);
    }
};

class silent_warning : public ojph::message_warning {
public:
    void operator()(int, const char *, int, const char *, ...) override {
    }
};

class silent_info : public ojph::message_info {
public:
    void operator()(int, const char *, int, const char *, ...) override {
    }
};

throwing_error errors;
silent_warning warnings;
silent_info infos;

struct quiet {
    quiet() {
        ojph::configure_error(&errors);
        ojph::configure_warning(&warnings);
        ojph::configure_info(&infos);
    }
} configured;

void throw_error(JNIEnv *env, const std::string &message) {
    jclass type = env->FindClass("java/lang/IllegalArgumentException");
    if (type != nullptr) {
        env->ThrowNew(type, message.c_str());
    }
}

}  // namespace

/*
 * info receives: width, height, bits (the largest component depth), components, signed (0/1). A frame that is not
 * expected_width x expected_height x expected_components (when expected_width > 0) is not decoded: info is filled
 * from the header and null returned.
 */
extern "C" JNIEXPORT jbyteArray JNICALL Java_org_medjava_codec_dicom_Htj2k_decode(JNIEnv *env, jclass,
                                                                                  jbyteArray source, jintArray info,
                                                                                  jint expected_width,
                                                                                  jint expected_height,
                                                                                  jint expected_components) {
    jsize length = env->GetArrayLength(source);
    std::vector<ojph::ui8> data(static_cast<size_t>(length));
    env->GetByteArrayRegion(source, 0, length, reinterpret_cast<jbyte *>(data.data()));
    try {
        ojph::mem_infile file;
        file.open(data.data(), data.size());
        ojph::codestream codestream;
        codestream.read_headers(&file);
        ojph::param_siz siz = codestream.access_siz();
        ojph::point extent = siz.get_image_extent();
        ojph::point offset = siz.get_image_offset();
        int width = static_cast<int>(extent.x - offset.x);
        int height = static_cast<int>(extent.y - offset.y);
        int components = static_cast<int>(siz.get_num_components());
        int bits = 0;
        int sign = 0;
        for (int c = 0; c < components; c++) {
            int depth = static_cast<int>(siz.get_bit_depth(static_cast<ojph::ui32>(c)));
            bits = depth > bits ? depth : bits;
            sign |= siz.is_signed(static_cast<ojph::ui32>(c)) ? 1 : 0;
            ojph::point d = siz.get_downsampling(static_cast<ojph::ui32>(c));
            if (d.x != 1 || d.y != 1) {
                throw std::runtime_error("subsampled components, which DICOM does not use");
            }
        }
        jint values[5] = {width, height, bits, components, sign};
        env->SetIntArrayRegion(info, 0, 5, values);
        if (expected_width > 0 && (width != expected_width || height != expected_height
                                   || components != expected_components)) {
            codestream.close();
            return nullptr;
        }
        if (components < 1 || components > 4 || bits < 1 || bits > 16) {
            throw std::runtime_error("a layout DICOM does not use");
        }
        int bytes = bits > 8 ? 2 : 1;
        size_t row = static_cast<size_t>(width) * static_cast<size_t>(components) * static_cast<size_t>(bytes);
        size_t size = row * static_cast<size_t>(height);
        if (size > 0x7FFFFFF0u) {
            throw std::runtime_error("frame too large");
        }
        std::vector<ojph::ui8> out(size == 0 ? 1 : size);
        std::vector<int32_t> low(static_cast<size_t>(components));
        std::vector<int32_t> high(static_cast<size_t>(components));
        for (int c = 0; c < components; c++) {
            int depth = static_cast<int>(siz.get_bit_depth(static_cast<ojph::ui32>(c)));
            bool is_signed = siz.is_signed(static_cast<ojph::ui32>(c));
            low[c] = is_signed ? -(1 << (depth - 1)) : 0;
            high[c] = is_signed ? (1 << (depth - 1)) - 1 : (1 << depth) - 1;
        }
        codestream.set_planar(false);
        codestream.create();
        bool planar = codestream.is_planar();
        // lines come component after component for each row, or (planar) all rows of one component after another
        int outer = planar ? components : height;
        int inner = planar ? height : components;
        for (int i = 0; i < outer; i++) {
            for (int j = 0; j < inner; j++) {
                ojph::ui32 comp = 0;
                ojph::line_buf *line = codestream.pull(comp);
                int y = planar ? j : i;
                int c = static_cast<int>(comp);
                if (line == nullptr || c >= components || line->size < static_cast<size_t>(width)) {
                    throw std::runtime_error("a line missing from the codestream");
                }
                ojph::ui8 *to = out.data() + static_cast<size_t>(y) * row + static_cast<size_t>(c * bytes);
                for (int x = 0; x < width; x++) {
                    int32_t v = line->i32[x];
                    v = v < low[c] ? low[c] : v > high[c] ? high[c] : v;
                    to[0] = static_cast<ojph::ui8>(v);
                    if (bytes == 2) {
                        to[1] = static_cast<ojph::ui8>(v >> 8);
                    }
                    to += components * bytes;
                }
            }
        }
        codestream.close();
        jbyteArray result = env->NewByteArray(static_cast<jsize>(size));
        if (result != nullptr) {
            env->SetByteArrayRegion(result, 0, static_cast<jsize>(size), reinterpret_cast<const jbyte *>(out.data()));
        }
        return result;
    } catch (const std::exception &e) {
        throw_error(env, std::string("HTJ2K data could not be decoded: ") + e.what());
    }
    return nullptr;
}

/*
 * Encodes one frame losslessly as HTJ2K: the reversible 5-3 wavelet (5 levels, or fewer for a small image), 64x64 code
 * blocks, RPCL progression (so a client can take a resolution-first prefix), the reversible colour transform for
 * three components. samples: pixel-interleaved, 1 byte each up to 8 bits, else 2 (little endian; two's complement
 * when signed).
 */
extern "C" JNIEXPORT jbyteArray JNICALL Java_org_medjava_codec_dicom_Htj2k_encode(JNIEnv *env, jclass,
                                                                                  jbyteArray samples, jint width,
                                                                                  jint height, jint bits,
                                                                                  jint components, jboolean is_signed) {
    try {
        int bytes = bits > 8 ? 2 : 1;
        size_t expected = static_cast<size_t>(width) * static_cast<size_t>(height) * static_cast<size_t>(components)
                          * static_cast<size_t>(bytes);
        if (width < 1 || height < 1 || components < 1 || components > 4 || bits < 1 || bits > 16
                || static_cast<size_t>(env->GetArrayLength(samples)) != expected) {
            throw std::runtime_error("samples do not match the frame's size");
        }
        std::vector<ojph::ui8> in(expected);
        env->GetByteArrayRegion(samples, 0, static_cast<jsize>(expected), reinterpret_cast<jbyte *>(in.data()));
        ojph::codestream codestream;
        ojph::param_siz siz = codestream.access_siz();
        siz.set_image_extent(ojph::point(static_cast<ojph::ui32>(width), static_cast<ojph::ui32>(height)));
        siz.set_num_components(static_cast<ojph::ui32>(components));
        for (int c = 0; c < components; c++) {
            siz.set_component(static_cast<ojph::ui32>(c), ojph::point(1, 1), static_cast<ojph::ui32>(bits),
                              is_signed == JNI_TRUE);
        }
        siz.set_image_offset(ojph::point(0, 0));
        siz.set_tile_size(ojph::size(static_cast<ojph::ui32>(width), static_cast<ojph::ui32>(height)));
        siz.set_tile_offset(ojph::point(0, 0));
        ojph::param_cod cod = codestream.access_cod();
        int levels = 5;
        while (levels > 0 && ((width >> levels) < 1 || (height >> levels) < 1)) {
            levels--;
        }
        cod.set_num_decomposition(static_cast<ojph::ui32>(levels));
        cod.set_block_dims(64, 64);
        cod.set_progression_order("RPCL");
        cod.set_color_transform(components == 3);
        cod.set_reversible(true);
        codestream.set_planar(false);
        ojph::mem_outfile out;
        out.open();
        codestream.write_headers(&out);
        ojph::ui32 comp = 0;
        ojph::line_buf *line = codestream.exchange(nullptr, comp);
        int shift = 32 - bits;
        for (int y = 0; y < height; y++) {
            for (int c = 0; c < components; c++) {
                const ojph::ui8 *from = in.data() + (static_cast<size_t>(y) * static_cast<size_t>(width)
                                                     * static_cast<size_t>(components) + comp) * bytes;
                for (int x = 0; x < width; x++) {
                    int32_t v = bytes == 2 ? static_cast<int32_t>(from[0] | from[1] << 8) : from[0];
                    if (is_signed == JNI_TRUE) {
                        v = static_cast<int32_t>(static_cast<uint32_t>(v) << shift) >> shift;
                    } else {
                        v &= static_cast<int32_t>((1u << bits) - 1u);
                    }
                    line->i32[x] = v;
                    from += components * bytes;
                }
                line = codestream.exchange(line, comp);
            }
        }
        codestream.flush();
        size_t size = static_cast<size_t>(out.tell());
        jbyteArray result = env->NewByteArray(static_cast<jsize>(size));
        if (result != nullptr) {
            env->SetByteArrayRegion(result, 0, static_cast<jsize>(size), reinterpret_cast<const jbyte *>(out.get_data()));
        }
        codestream.close();
        return result;
    } catch (const std::exception &e) {
        throw_error(env, std::string("HTJ2K encoding failed: ") + e.what());
    }
    return nullptr;
}

#define MEDJAVA_TEXT(x) #x
#define MEDJAVA_VERSION(a, b, c) MEDJAVA_TEXT(a) "." MEDJAVA_TEXT(b) "." MEDJAVA_TEXT(c)

/* The OpenJPH version this bridge was built against (0.9 has no run-time version call). */
extern "C" JNIEXPORT jstring JNICALL Java_org_medjava_codec_dicom_Htj2k_version(JNIEnv *env, jclass) {
    return env->NewStringUTF(MEDJAVA_VERSION(OPENJPH_VERSION_MAJOR, OPENJPH_VERSION_MINOR, OPENJPH_VERSION_PATCH));
}
