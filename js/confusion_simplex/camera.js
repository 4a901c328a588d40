// View geometry of the confusion simplex: an orthographic turntable camera.
//
// Points arrive as centred isometric coordinates (x, y, z) = (FN − TN/3, FP − TN/3,
// TP − TN/3) minus the centroid, generated from N in lattice.js. Here they are only rotated,
// scaled and projected. View coordinates: X to the right, Y up, Z towards the viewer.

/** Circumradius of the tetrahedron of size N (every vertex is this far from the centroid). */
export const circumradius = (N) => (N * Math.sqrt(3)) / 2;

/**
 * Base orientation (rows = view axes X, Y, Z in simplex coordinates): TP up, FP to
 * the right, FN to the left, TN in front, FN and FP at the back. This is the mirror
 * image of the right-handed (FN, FP, TP) axes (determinant −1): the isometric map
 * preserves distances either way, and only this orientation shows the suggested view.
 */
export const BASE = [
  [-1 / Math.SQRT2, 1 / Math.SQRT2, 0],
  [-1 / Math.sqrt(27), -1 / Math.sqrt(27), 5 / Math.sqrt(27)],
  [-5 / Math.sqrt(54), -5 / Math.sqrt(54), -2 / Math.sqrt(54)],
];

export const DEG = Math.PI / 180;
/** Default camera: a little to the side and from a little above. */
export const DEFAULT_CAMERA = Object.freeze({ yaw: -25 * DEG, pitch: 18 * DEG, zoom: 1 });
export const PITCH_LIMIT = 89 * DEG;
export const ZOOM_LIMITS = [0.5, 12];
/** Fraction of half the canvas that the circumsphere fills at zoom 1 (room for labels). */
export const FILL = 0.86;

const multiply = (a, b) =>
  a.map((row) => [0, 1, 2].map((j) => row[0] * b[0][j] + row[1] * b[1][j] + row[2] * b[2][j]));

/**
 * Rotation of the turntable: yaw about the vertical (TP) axis, then pitch about
 * the screen's horizontal axis (pitch > 0 looks from above).
 * @returns {number[][]} 3 × 3 rows
 */
export function turntable(yaw, pitch) {
  const cy = Math.cos(yaw);
  const sy = Math.sin(yaw);
  const cp = Math.cos(pitch);
  const sp = Math.sin(pitch);
  const ry = [
    [cy, 0, sy],
    [0, 1, 0],
    [-sy, 0, cy],
  ];
  const rx = [
    [1, 0, 0],
    [0, cp, -sp],
    [0, sp, cp],
  ];
  return multiply(rx, ry);
}

/** Full 3 × 3 map from simplex coordinates to view coordinates. */
export function viewRotation(camera) {
  return multiply(turntable(camera.yaw, camera.pitch), BASE);
}

/** CSS pixels per simplex unit. */
export function viewScale(N, width, height, zoom = 1) {
  return (zoom * FILL * 0.5 * Math.min(width, height)) / Math.max(circumradius(N), 1e-9);
}

/** Rotate one point: [X, Y, Z] in view coordinates (simplex units). */
export function rotate(m, [x, y, z]) {
  return [
    m[0][0] * x + m[0][1] * y + m[0][2] * z,
    m[1][0] * x + m[1][1] * y + m[1][2] * z,
    m[2][0] * x + m[2][1] * y + m[2][2] * z,
  ];
}

/**
 * Screen position of a simplex point: [sx, sy, depth] with sx, sy in CSS pixels from
 * the canvas's top-left corner and depth = view Z (larger is nearer).
 */
export function projectPoint(camera, N, width, height, xyz) {
  const [X, Y, Z] = rotate(viewRotation(camera), xyz);
  const s = viewScale(N, width, height, camera.zoom);
  return [width / 2 + s * X, height / 2 - s * Y, Z];
}

/**
 * Column-major 4 × 4 matrix taking simplex coordinates to WebGL clip space; the
 * same projection as projectPoint (NDC y up), with depth −Z / (2·circumradius)
 * so that nearer points have smaller depth and the whole simplex stays in range
 * at any zoom.
 * @returns {Float32Array}
 */
export function clipMatrix(camera, N, width, height) {
  const m = viewRotation(camera);
  const s = viewScale(N, width, height, camera.zoom);
  const sx = (2 * s) / width;
  const sy = (2 * s) / height;
  const sz = -1 / (2 * Math.max(circumradius(N), 1e-9));
  const out = new Float32Array(16);
  for (let j = 0; j < 3; j++) {
    out[4 * j] = sx * m[0][j];
    out[4 * j + 1] = sy * m[1][j];
    out[4 * j + 2] = sz * m[2][j];
  }
  out[15] = 1;
  return out;
}

/** Apply a column-major 4 × 4 matrix to [x, y, z, 1] → [x, y, z, w]. */
export function applyMatrix(mat, [x, y, z]) {
  return [0, 1, 2, 3].map((i) => mat[i] * x + mat[4 + i] * y + mat[8 + i] * z + mat[12 + i]);
}

const clamp = (v, [lo, hi]) => Math.min(hi, Math.max(lo, v));

/** Camera after a drag of (dx, dy) CSS pixels: right turns the simplex, down tips it towards the viewer. */
export function dragCamera(camera, dx, dy, radiansPerPixel = 0.01) {
  return {
    ...camera,
    yaw: wrapAngle(camera.yaw + dx * radiansPerPixel),
    pitch: clamp(camera.pitch + dy * radiansPerPixel, [-PITCH_LIMIT, PITCH_LIMIT]),
  };
}

/** Camera after a zoom by `factor` (clamped to ZOOM_LIMITS). */
export function zoomCamera(camera, factor) {
  return { ...camera, zoom: clamp(camera.zoom * factor, ZOOM_LIMITS) };
}

/** Zoom factor for a wheel event's deltaY (pixels): up zooms in. */
export const wheelFactor = (deltaY) => Math.exp(-clamp(deltaY, [-200, 200]) * 0.0015);

/** Angle wrapped to (−π, π]. */
export function wrapAngle(a) {
  const t = (((a + Math.PI) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  return t === 0 ? Math.PI : t - Math.PI;
}

/** Keyboard control: the camera after a key, or null when the key is not ours. */
export function keyCamera(camera, key, step = 5 * DEG) {
  switch (key) {
    case "ArrowLeft":
      return { ...camera, yaw: wrapAngle(camera.yaw - step) };
    case "ArrowRight":
      return { ...camera, yaw: wrapAngle(camera.yaw + step) };
    case "ArrowUp":
      return { ...camera, pitch: clamp(camera.pitch - step, [-PITCH_LIMIT, PITCH_LIMIT]) };
    case "ArrowDown":
      return { ...camera, pitch: clamp(camera.pitch + step, [-PITCH_LIMIT, PITCH_LIMIT]) };
    case "+":
    case "=":
      return zoomCamera(camera, 1.2);
    case "-":
    case "_":
      return zoomCamera(camera, 1 / 1.2);
    case "0":
    case "Home":
      return { ...DEFAULT_CAMERA };
    default:
      return null;
  }
}

/** "yaw,pitch" in whole degrees, for data-rotation. */
export const rotationLabel = (camera) =>
  `${Math.round(camera.yaw / DEG)},${Math.round(camera.pitch / DEG)}`;

/**
 * Lattice point size in CSS pixels: about 0.6 of the spacing between neighbouring
 * matrices on screen (√2·stride simplex units), between 1 and 7.
 */
export function latticePointSize(N, width, height, zoom, stride = 1) {
  const spacing = Math.SQRT2 * stride * viewScale(N, width, height, zoom);
  return Math.min(7, Math.max(1, 0.6 * spacing));
}
