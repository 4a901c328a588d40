import { describe, expect, it } from "vitest";
import { asDataView, decodeFloat32, decodeInt32, decodeUint32 } from "../shared/buffers.js";

describe("buffer decoding", () => {
  it("decodes an aligned DataView without copying", () => {
    const source = new Float32Array([0.5, -1.25, 3]);
    const out = decodeFloat32(new DataView(source.buffer));
    expect(Array.from(out)).toEqual([0.5, -1.25, 3]);
    expect(out.buffer).toBe(source.buffer);
  });

  it("decodes a misaligned little-endian view by copying", () => {
    const bytes = new Uint8Array(1 + 8);
    const dv = new DataView(bytes.buffer, 1, 8);
    dv.setFloat32(0, 2.5, true);
    dv.setFloat32(4, -7, true);
    const out = decodeFloat32(dv);
    expect(Array.from(out)).toEqual([2.5, -7]);
    expect(out.buffer).not.toBe(bytes.buffer);
  });

  it("decodes int32 and uint32, honouring the view's offset", () => {
    const ints = new Int32Array([9, -3, 4, 5]);
    expect(Array.from(decodeInt32(new DataView(ints.buffer, 4, 8)))).toEqual([-3, 4]);
    expect(Array.from(decodeUint32(new Uint32Array([0, 4294967295])))).toEqual([0, 4294967295]);
  });

  it("accepts ArrayBuffer, typed arrays and missing values", () => {
    expect(Array.from(decodeFloat32(new Float32Array([1, 2]).buffer))).toEqual([1, 2]);
    expect(decodeFloat32(null).length).toBe(0);
    expect(decodeFloat32(undefined).length).toBe(0);
    expect(asDataView(new Uint8Array(3)).byteLength).toBe(3);
  });

  it("rejects buffers that are not whole elements, and non-binary values", () => {
    expect(() => decodeFloat32(new DataView(new ArrayBuffer(6)))).toThrow(RangeError);
    expect(() => decodeFloat32([1, 2])).toThrow(TypeError);
  });
});
