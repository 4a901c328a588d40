// WebGL drawing of the simplex with regl (bundled; no CDN). Everything here is
// GPU plumbing: the per-point attributes come from layers.js, the matrices from camera.js.
import createREGL from "regl";
import { DIM } from "./layers.js";
import { recolourLattice, splatLattice, splatTarget } from "./splat.js";

const CONTEXT_ATTRIBUTES = {
  alpha: true,
  premultipliedAlpha: true,
  // No multisampling: with software WebGL (SwiftShader) it costs 2–3× the frame time.
  antialias: false,
  depth: true,
  // Keep the last frame readable (screenshots, pixel tests).
  preserveDrawingBuffer: true,
};

const POINTS_VERT = `
precision highp float;
attribute vec3 position;
attribute vec4 colour;
attribute float emph;
uniform mat4 clip;
uniform float size;
uniform float pass;
uniform float dimAlpha;
varying vec4 vColour;
varying float vRound;
void main() {
  bool dim = emph < 0.5;
  if ((pass < 0.5 && dim) || (pass > 0.5 && !dim)) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    gl_PointSize = 0.0;
    return;
  }
  gl_Position = clip * vec4(position, 1.0);
  float shade = 1.0 - 0.3 * clamp(gl_Position.z + 0.5, 0.0, 1.0);
  float s = emph > 1.5 ? size * 1.8 : size;
  gl_PointSize = s;
  float a = dim ? dimAlpha : 1.0;
  vColour = vec4(colour.rgb * shade * a, a);
  vRound = s > 2.5 ? 1.0 : 0.0;
}`;

const POINTS_FRAG = `
precision mediump float;
varying vec4 vColour;
varying float vRound;
void main() {
  if (vRound > 0.5) {
    vec2 d = gl_PointCoord - 0.5;
    if (dot(d, d) > 0.25) discard;
  }
  gl_FragColor = vColour;
}`;

const CLOUD_VERT = `
precision highp float;
attribute vec3 position;
attribute float size;
attribute float alpha;
uniform mat4 clip;
uniform float scale;
varying float vAlpha;
void main() {
  gl_Position = clip * vec4(position, 1.0);
  gl_Position.z = -1.0;
  gl_PointSize = size * scale;
  vAlpha = alpha;
}`;

const CLOUD_FRAG = `
precision mediump float;
uniform vec3 colour;
varying float vAlpha;
void main() {
  vec2 d = gl_PointCoord - 0.5;
  float r2 = dot(d, d);
  if (r2 > 0.25) discard;
  float a = vAlpha * (r2 > 0.12 ? 1.0 : 0.45);
  gl_FragColor = vec4(colour * a, a);
}`;

const FLAT_VERT = `
precision highp float;
attribute vec3 position;
uniform mat4 clip;
uniform float size;
void main() {
  gl_Position = clip * vec4(position, 1.0);
  gl_Position.z = -1.0;
  gl_PointSize = size;
}`;

const FLAT_FRAG = `
precision mediump float;
uniform vec4 colour;
void main() { gl_FragColor = vec4(colour.rgb * colour.a, colour.a); }`;

const RING_FRAG = `
precision mediump float;
uniform vec4 colour;
uniform vec4 halo;
void main() {
  vec2 d = gl_PointCoord - 0.5;
  float r = sqrt(dot(d, d));
  if (r > 0.5) discard;
  vec4 c = r > 0.3 ? colour : (r > 0.2 ? halo : vec4(0.0));
  gl_FragColor = vec4(c.rgb * c.a, c.a);
}`;

// The lattice splatted on the CPU (splat.js): one textured quad, premultiplied RGBA.
const IMAGE_VERT = `
precision highp float;
attribute vec2 corner;
varying vec2 uv;
void main() {
  uv = 0.5 * (corner + 1.0);
  gl_Position = vec4(corner, 0.0, 1.0);
}`;

const IMAGE_FRAG = `
precision mediump float;
uniform sampler2D image;
varying vec2 uv;
void main() { gl_FragColor = texture2D(image, uv); }`;

/** Renderer names of software WebGL, where the CPU splats the lattice faster than WebGL draws points. */
export const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software/i;

/** The WebGL renderer's name (unmasked when the browser allows), or "". */
export function rendererName(gl) {
  try {
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) || "");
  } catch {
    return "";
  }
}

const PREMULTIPLIED = {
  enable: true,
  func: { srcRGB: "one", srcAlpha: "one", dstRGB: "one minus src alpha", dstAlpha: "one minus src alpha" },
};

/**
 * A WebGL context for `canvas`, or null when the browser has none.
 */
export function webglContext(canvas) {
  try {
    return canvas.getContext("webgl", CONTEXT_ATTRIBUTES) || canvas.getContext("experimental-webgl", CONTEXT_ATTRIBUTES);
  } catch {
    return null;
  }
}

/**
 * The renderer: GPU buffers and draw commands. Throws when regl cannot start.
 *
 * `splat`: draw the lattice points on the CPU (splat.js) and show them as one texture;
 * by default when the WebGL renderer is software (SOFTWARE_RENDERER), where drawing
 * each point as a GL primitive is the slow part of a frame.
 */
export function createRenderer(gl, { splat = SOFTWARE_RENDERER.test(rendererName(gl)) } = {}) {
  const regl = createREGL({ gl, optionalExtensions: ["OES_element_index_uint"] });
  // CPU copies of the lattice for splatting (the arrays are not modified).
  const cpu = { positions: new Float32Array(0), colours: new Uint8Array(0), codes: new Uint8Array(0), focus: null };
  let target = null;
  let image = null;
  let imageSize = "";
  // What the last splat was drawn from: when only the colours changed since (a new
  // metric, no dimmed points), the pixels are recoloured instead of splatted again.
  let splatted = null;
  // A picture splatted ahead for a lattice the kernel announced (prepare): when the frame
  // that draws it has the same inputs, its pixels are only recoloured (issue 24). `spare`
  // is the target it drew into last time, reused.
  let prepared = null;
  let spare = null;
  const sameInputs = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
  const drawImage = splat
    ? regl({
        vert: IMAGE_VERT,
        frag: IMAGE_FRAG,
        attributes: { corner: [-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1] },
        uniforms: { image: regl.prop("image") },
        count: 6,
        primitive: "triangles",
        depth: { enable: false, mask: false },
        blend: { enable: true, func: { srcRGB: "one", srcAlpha: "one", dstRGB: "one minus src alpha", dstAlpha: "one minus src alpha" } },
      })
    : null;
  const uint32Elements = regl.hasExtension("OES_element_index_uint");
  const lattice = {
    position: regl.buffer({ usage: "static", type: "float", data: new Float32Array(3) }),
    colour: regl.buffer({ usage: "static", type: "uint8", data: new Uint8Array(4) }),
    emph: regl.buffer({ usage: "dynamic", type: "uint8", data: new Uint8Array(1) }),
    count: 0,
    hasDim: false,
    focus: null, // element buffer of the opaque points when the others are dimmed
    focusCount: 0,
  };
  const cloud = {
    position: regl.buffer({ usage: "static", type: "float", data: new Float32Array(3) }),
    size: regl.buffer({ usage: "static", type: "float", data: new Float32Array(1) }),
    alpha: regl.buffer({ usage: "static", type: "float", data: new Float32Array(1) }),
    count: 0,
  };
  const edges = { position: regl.buffer({ usage: "static", type: "float", data: new Float32Array(36) }), count: 0 };
  const marker = { position: regl.buffer({ usage: "dynamic", type: "float", data: new Float32Array(3) }), count: 0 };

  // Every lattice point, or only the focus points (elements): one shader, same attributes.
  const pointsSpec = {
    vert: POINTS_VERT,
    frag: POINTS_FRAG,
    attributes: {
      position: { buffer: lattice.position, size: 3 },
      colour: { buffer: lattice.colour, size: 4, normalized: true },
      emph: { buffer: lattice.emph, size: 1 },
    },
    uniforms: {
      clip: regl.prop("clip"),
      size: regl.prop("size"),
      pass: regl.prop("pass"),
      dimAlpha: regl.prop("dimAlpha"),
    },
    count: regl.prop("count"),
    primitive: "points",
    depth: { enable: true, mask: regl.prop("depthMask") },
    blend: { enable: regl.prop("blend"), func: PREMULTIPLIED.func },
  };
  const drawPoints = regl(pointsSpec);
  const drawFocus = regl({ ...pointsSpec, elements: () => lattice.focus });
  // Number of opaque points among the first `limit` (they are drawn twice otherwise counted).
  let focusSorted = new Uint32Array(0);
  const focusBelow = (limit) => {
    let lo = 0;
    let hi = focusSorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (focusSorted[mid] < limit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const drawCloud = regl({
    vert: CLOUD_VERT,
    frag: CLOUD_FRAG,
    attributes: {
      position: { buffer: cloud.position, size: 3 },
      size: { buffer: cloud.size, size: 1 },
      alpha: { buffer: cloud.alpha, size: 1 },
    },
    uniforms: { clip: regl.prop("clip"), scale: regl.prop("scale"), colour: regl.prop("colour") },
    count: regl.prop("count"),
    primitive: "points",
    depth: { enable: false, mask: false },
    blend: PREMULTIPLIED,
  });
  const drawEdges = regl({
    vert: FLAT_VERT,
    frag: FLAT_FRAG,
    attributes: { position: { buffer: edges.position, size: 3 } },
    uniforms: { clip: regl.prop("clip"), colour: regl.prop("colour"), size: 1 },
    count: regl.prop("count"),
    primitive: "lines",
    depth: { enable: false, mask: false },
    blend: PREMULTIPLIED,
  });
  const drawMarker = regl({
    vert: FLAT_VERT,
    frag: RING_FRAG,
    attributes: { position: { buffer: marker.position, size: 3 } },
    uniforms: {
      clip: regl.prop("clip"),
      colour: regl.prop("colour"),
      halo: regl.prop("halo"),
      size: regl.prop("size"),
    },
    count: 1,
    primitive: "points",
    depth: { enable: false, mask: false },
    blend: PREMULTIPLIED,
  });

  return {
    maxPointSize: regl.limits.pointSizeDims[1],
    /** How the lattice is drawn: "splat" (CPU image, software WebGL) or "points" (GL points). */
    mode: splat ? "splat" : "points",
    setPositions(positions) {
      if (splat) cpu.positions = positions;
      else lattice.position({ usage: "static", type: "float", data: positions.length ? positions : new Float32Array(3) });
      lattice.count = positions.length / 3;
    },
    setColours(rgba) {
      if (splat) cpu.colours = rgba;
      else lattice.colour({ usage: "static", type: "uint8", data: rgba.length ? rgba : new Uint8Array(4) });
    },
    /** Emphasis codes; `focus` = indices of the opaque points (drawn by index when dimming). */
    setEmphasis(codes, hasDim, focus) {
      if (splat) {
        cpu.codes = codes;
        cpu.focus = hasDim && focus ? focus : null;
        lattice.hasDim = hasDim;
        lattice.focusCount = cpu.focus ? cpu.focus.length : 0;
        focusSorted = cpu.focus ?? new Uint32Array(0);
        return;
      }
      lattice.emph({ usage: "dynamic", type: "uint8", data: codes.length ? codes : new Uint8Array(1) });
      lattice.hasDim = hasDim;
      if (lattice.focus) lattice.focus.destroy();
      lattice.focus = null;
      lattice.focusCount = 0;
      const fits = uint32Elements || codes.length <= 65536;
      if (hasDim && focus && focus.length && fits) {
        const data = uint32Elements ? focus : new Uint16Array(focus);
        lattice.focus = regl.elements({ primitive: "points", type: uint32Elements ? "uint32" : "uint16", data });
        lattice.focusCount = focus.length;
        focusSorted = focus;
      }
    },
    setCloud(xyz, sizes, alphas) {
      cloud.position({ usage: "static", type: "float", data: xyz.length ? xyz : new Float32Array(3) });
      cloud.size({ usage: "static", type: "float", data: sizes.length ? sizes : new Float32Array(1) });
      cloud.alpha({ usage: "static", type: "float", data: alphas.length ? alphas : new Float32Array(1) });
      cloud.count = sizes.length;
    },
    setEdges(vertices) {
      const pairs = [
        [0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3],
      ]; // prettier-ignore
      const data = new Float32Array(36);
      if (vertices.length === 4) pairs.flat().forEach((v, i) => data.set(vertices[v], 3 * i));
      edges.position({ usage: "static", type: "float", data });
      edges.count = vertices.length === 4 ? 12 : 0;
    },
    setMarker(xyz) {
      if (xyz.length === 3) marker.position({ usage: "dynamic", type: "float", data: new Float32Array(xyz) });
      marker.count = xyz.length === 3 ? 1 : 0;
    },
    /**
     * Splat, ahead of its frame, the picture of a lattice whose codes are still being
     * computed (software WebGL only): which point wins each pixel depends on the positions,
     * the emphasis, the camera and the size, not on the colours. A later `draw` with the
     * same positions and emphasis arrays, camera and size recolours these pixels instead
     * of splatting again. Dimmed points (blended) are not prepared.
     * @returns {boolean} whether a picture was prepared
     */
    prepare({ positions, codes, clip, pointSize, dpr }) {
      const count = Math.floor(positions.length / 3);
      const w = gl.drawingBufferWidth;
      const h = gl.drawingBufferHeight;
      if (!splat || !count || codes.length !== count || !w || !h || codes.some((c) => c === DIM)) return false;
      const into = splatTarget(w, h, spare && spare !== target ? spare : null);
      const points = { positions, colours: new Uint8Array(4 * count), codes, count, hasDim: false, focus: null };
      splatLattice(into, points, { clip, size: pointSize * dpr, dimAlpha: 0, maxSize: this.maxPointSize });
      const size = Math.min(pointSize * dpr, this.maxPointSize);
      prepared = { inputs: [positions, codes, count, size, w, h, ...clip], target: into };
      return true;
    },
    /**
     * Draw one frame. `counts`: whether colours/emphasis match the positions.
     * @returns {number} lattice points drawn
     */
    /**
     * Draw one frame: the first `limit` lattice points (all by default) and, when the
     * others are dimmed, every opaque point whatever the limit.
     * @returns {number} lattice points drawn
     */
    draw({ clip, pointSize, dimAlpha, dpr, theme, ready, limit }) {
      regl.poll();
      regl.clear({ color: [0, 0, 0, 0], depth: 1 });
      const count = ready ? Math.min(lattice.count, limit ?? lattice.count) : 0;
      let drawn = 0;
      if (edges.count) drawEdges({ clip, colour: theme.edge, count: edges.count });
      if (count && splat) {
        const w = gl.drawingBufferWidth;
        const h = gl.drawingBufferHeight;
        target = splatTarget(w, h, target);
        const size = Math.min(pointSize * dpr, this.maxPointSize);
        const inputs = [cpu.positions, cpu.codes, count, size, w, h, ...clip];
        const same = splatted && sameInputs(splatted.inputs, inputs);
        if (same && !lattice.hasDim && splatted.target === target) {
          if (splatted.colours !== cpu.colours) recolourLattice(target, cpu.positions, cpu.colours, clip);
        } else if (!lattice.hasDim && prepared && sameInputs(prepared.inputs, inputs)) {
          // The same pixels as a new splat: the winners were found ahead, the colours are new.
          spare = target;
          target = prepared.target;
          prepared = null;
          recolourLattice(target, cpu.positions, cpu.colours, clip);
        } else {
          const points = { ...cpu, count, hasDim: lattice.hasDim };
          splatLattice(target, points, { clip, size: pointSize * dpr, dimAlpha, maxSize: this.maxPointSize });
        }
        splatted = lattice.hasDim ? null : { inputs, target, colours: cpu.colours };
        const data = { width: w, height: h, data: target.rgba };
        if (!image || imageSize !== `${w}x${h}`) {
          if (image) image.destroy();
          image = regl.texture({ ...data, format: "rgba", type: "uint8", min: "nearest", mag: "nearest" });
          imageSize = `${w}x${h}`;
        } else {
          image.subimage(data);
        }
        drawImage({ image });
        drawn = cpu.focus ? count + lattice.focusCount - focusBelow(count) : count;
      } else if (count) {
        const size = Math.min(pointSize * dpr, this.maxPointSize);
        const common = { clip, size };
        if (lattice.hasDim && lattice.focus) {
          drawFocus({ ...common, pass: 0, dimAlpha: 1, count: lattice.focusCount, depthMask: true, blend: false });
          drawPoints({ ...common, pass: 1, dimAlpha, count, depthMask: false, blend: true });
          drawn = count + lattice.focusCount - focusBelow(count);
        } else {
          drawPoints({ ...common, pass: 0, dimAlpha: 1, count, depthMask: true, blend: false });
          if (lattice.hasDim) drawPoints({ ...common, pass: 1, dimAlpha, count, depthMask: false, blend: true });
          drawn = count;
        }
      }
      if (cloud.count) drawCloud({ clip, scale: dpr, colour: theme.cloud, count: cloud.count });
      if (marker.count) drawMarker({ clip, colour: theme.accent, halo: theme.halo, size: Math.min(18 * dpr, this.maxPointSize) });
      regl._gl.flush();
      return drawn;
    },
    destroy() {
      regl.destroy();
    },
  };
}
