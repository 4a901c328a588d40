// Decoding of the binary buffers that the Python widgets send.
//
// ipywidgets hands a `bytes` traitlet to JavaScript as a DataView over the
// message's buffer. Python always encodes little-endian (numpy "<f4", "<u4",
// "<i4"), so on every platform JupyterLab runs on (little-endian) a typed array
// over the same memory is a zero-copy view. When the view is not aligned to the
// element size, we copy element by element through the DataView instead.

/**
 * Normalise whatever the widget model returns for a bytes traitlet to a DataView.
 * @param {DataView|ArrayBuffer|ArrayBufferView|null|undefined} value
 * @returns {DataView}
 */
export function asDataView(value) {
  if (value == null) return new DataView(new ArrayBuffer(0));
  if (value instanceof DataView) return value;
  if (value instanceof ArrayBuffer) return new DataView(value);
  if (ArrayBuffer.isView(value)) {
    return new DataView(value.buffer, value.byteOffset, value.byteLength);
  }
  throw new TypeError(`expected binary data, got ${Object.prototype.toString.call(value)}`);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function decode(value, Ctor, getter) {
  const view = asDataView(value);
  const size = Ctor.BYTES_PER_ELEMENT;
  if (view.byteLength % size !== 0) {
    throw new RangeError(
      `buffer of ${view.byteLength} bytes is not a whole number of ${size}-byte elements`,
    );
  }
  const length = view.byteLength / size;
  if (LITTLE_ENDIAN && view.byteOffset % size === 0) {
    return new Ctor(view.buffer, view.byteOffset, length);
  }
  const out = new Ctor(length);
  for (let i = 0; i < length; i++) out[i] = view[getter](i * size, true);
  return out;
}

/** Little-endian float32 buffer → Float32Array (zero-copy when aligned). */
export const decodeFloat32 = (value) => decode(value, Float32Array, "getFloat32");
/** Little-endian int32 buffer → Int32Array (zero-copy when aligned). */
export const decodeInt32 = (value) => decode(value, Int32Array, "getInt32");
/** Little-endian uint32 buffer → Uint32Array (zero-copy when aligned). */
export const decodeUint32 = (value) => decode(value, Uint32Array, "getUint32");
/** Little-endian uint16 buffer → Uint16Array (zero-copy when aligned). */
export const decodeUint16 = (value) => decode(value, Uint16Array, "getUint16");
/** Little-endian float64 buffer → Float64Array (zero-copy when aligned). */
export const decodeFloat64 = (value) => decode(value, Float64Array, "getFloat64");
