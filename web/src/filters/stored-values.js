// A filtered grey image as stored values: the store's `?render=dicom` answer (the derived DICOM object of the filtered
// stored values at the source's depth, with its rescale and photometric interpretation) parsed, and windowed here
// for whatever window the viewport shows, so window/level and presets stay live on a filtered image with no request.
// The windowing is the store's own (image-codec Window.apply and DicomImage.render): PS3.3 C.11.2.1.2.1 linear on
// the modality value (stored × slope + intercept), rounded half up, then MONOCHROME1 inverted. So for one window the
// pixels equal what `?render=png&window=…&filter=…` answers.
import * as dicomParser from 'dicom-parser';

/**
 * The grey stored values of a DICOM Part 10 object (one frame, uncompressed):
 * { width, height, bitsStored, signed, slope, intercept, monochrome1, values: Int32Array (row by row) }.
 * Throws an Error that says what is not served (colour, compressed, more than 16 bits).
 */
export function parseStoredValues(bytes) {
  let ds;
  try {
    ds = dicomParser.parseDicom(bytes);
  } catch (e) {
    throw new Error(`The store's DICOM answer could not be read: ${e?.exception ?? e?.message ?? e}`);
  }
  const photometric = (ds.string('x00280004') ?? '').trim();
  const samples = ds.uint16('x00280002') ?? 1;
  if (samples !== 1 || !/^MONOCHROME[12]$/.test(photometric)) {
    throw new Error(`The store's DICOM answer is ${photometric || 'without a photometric interpretation'}, not grey`);
  }
  const syntax = (ds.string('x00020010') ?? '').replace(/\0/g, '').trim();
  if (syntax !== '1.2.840.10008.1.2.1' && syntax !== '1.2.840.10008.1.2') {
    throw new Error(`The store's DICOM answer has transfer syntax ${syntax}; uncompressed little endian was expected`);
  }
  const width = ds.uint16('x00280011'), height = ds.uint16('x00280010');
  const allocated = ds.uint16('x00280100'), bitsStored = ds.uint16('x00280101') ?? allocated;
  const signed = ds.uint16('x00280103') === 1;
  if (!(allocated === 8 || allocated === 16) || !(bitsStored >= 1 && bitsStored <= allocated)) {
    throw new Error(`The store's DICOM answer has ${bitsStored} of ${allocated} bits per pixel; 1–16 stored in 8 or 16 were expected`);
  }
  const pixels = ds.elements.x7fe00010;
  const count = width * height;
  if (!pixels || pixels.encapsulatedPixelData || pixels.length < count * allocated / 8) {
    throw new Error(`The store's DICOM answer holds no ${width}×${height} uncompressed pixel data`);
  }
  // Only the Bits Stored bits count, sign-extended when signed (as the store's decoder reads them).
  const mask = (1 << bitsStored) - 1, sign = 1 << (bitsStored - 1);
  const view = new DataView(ds.byteArray.buffer, ds.byteArray.byteOffset + pixels.dataOffset, count * allocated / 8);
  const values = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const v = (allocated === 16 ? view.getUint16(2 * i, true) : view.getUint8(i)) & mask;
    values[i] = signed && (v & sign) ? v - (1 << bitsStored) : v;
  }
  let slope = ds.floatString('x00281053') ?? 1;
  if (!Number.isFinite(slope) || slope === 0) slope = 1; // as the store reads it
  const intercept = ds.floatString('x00281052') ?? 0;
  return { width, height, bitsStored, signed, slope, intercept: Number.isFinite(intercept) ? intercept : 0,
    monochrome1: photometric === 'MONOCHROME1', values };
}

/** image-codec Window.apply: the 8-bit output (0..255) of modality value x through window { center, width }. */
export function windowValue(x, { center, width }) {
  const c = center - 0.5, half = (width - 1) / 2;
  if (x <= c - half) return 0;
  if (x > c + half) return 255;
  // Math.round rounds halves up, as Java's Math.round does.
  return Math.max(0, Math.min(255, Math.round(((x - c) / (width - 1) + 0.5) * 255)));
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const opaqueGrey = (y) => (LITTLE_ENDIAN ? (0xff000000 | (y << 16) | (y << 8) | y) >>> 0 : ((y << 24) | (y << 16) | (y << 8) | 0xff) >>> 0);

/**
 * The window applied to every stored value: RGBA pixels (opaque grey) into `imageData` (width × height of the
 * image). A lookup table over the 2^bitsStored values, as the store builds it.
 */
export function windowInto(imageData, stored, window) {
  const offset = stored.signed ? 1 << (stored.bitsStored - 1) : 0;
  const lut = new Uint32Array(1 << stored.bitsStored);
  for (let i = 0; i < lut.length; i++) {
    const y = windowValue((i - offset) * stored.slope + stored.intercept, window);
    lut[i] = opaqueGrey(stored.monochrome1 ? 255 - y : y);
  }
  const out = new Uint32Array(imageData.data.buffer, imageData.data.byteOffset, stored.width * stored.height);
  const { values } = stored;
  for (let p = 0; p < values.length; p++) out[p] = lut[values[p] + offset];
  return imageData;
}
