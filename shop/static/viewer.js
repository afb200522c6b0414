/**
 * The print shop's 3D view (issue 27): every part and plate of a done kit, turned, zoomed and
 * moved with a finger or the mouse, in the kit's colours with its symbol layer.
 *
 * job.html loads this module before job.js; it waits for job.js's "tablesmith:kit" event
 * (detail: the job's state: manifest, files) and only then loads three.js (vendored in
 * ./three/, the bare name "three" mapped by the page's import map), so a page whose kit never
 * finishes never downloads it. It renders on demand (a turn, a resize, a load), never in a
 * loop, to spare a phone's battery, and uses no secure-context API (plain http on the LAN).
 * Where WebGL or import maps are missing it says so in one line.
 *
 * The symbol layer: a part with a colour change at ``colour_change_mm`` (the top of the first
 * layer in the symbol colour) is drawn in its body colour below ``colour_change_mm -
 * layer_height`` and in the symbol colour above it: the mesh twice, each copy clipped by a
 * horizontal plane there (the kit is Z-up with z = 0 on the bed, and so is this scene).
 */
import { layout, symbolFrom } from "./viewer-layout.js";

const root = document.getElementById("viewer");
const strings = JSON.parse(document.getElementById("shop-strings").textContent);
const BACKGROUND = 0x0a0e17;

document.addEventListener("tablesmith:kit", (event) => open(event.detail), { once: true });

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The choices: every part (one copy per colour it is printed in), then every plate. */
function choices(manifest) {
  const parts = new Map(manifest.parts.map((part) => [part.name, part]));
  const list = manifest.parts.map((part) => ({
    key: "part:" + part.name,
    label: `${part.name} ×${part.count}`,
    copies: (part.colours.length ? part.colours : [{ colour: manifest.settings.board_colour }])
      .map((entry) => ({ part, colour: entry.colour })),
  }));
  for (const plate of manifest.plates) {
    const name = plate.file.replace(/^.*\//, "").replace(/\.3mf$/, "");
    const copies = [];
    for (const [part, count] of Object.entries(plate.parts)) {
      for (let i = 0; i < count; i += 1) copies.push({ part: parts.get(part), colour: plate.colour });
    }
    list.push({ key: "plate:" + name, label: name, copies, plate });
  }
  return list;
}

async function open(state) {
  root.hidden = false;
  const note = el("p", { class: "viewer-note small", id: "viewer-note", "aria-live": "polite" },
    strings.view_loading);
  root.replaceChildren(note);
  let lib;
  try {
    const [THREE, controls, loader] = await Promise.all([
      import("three"), import("./three/OrbitControls.js"), import("./three/STLLoader.js"),
    ]);
    lib = { THREE, OrbitControls: controls.OrbitControls, STLLoader: loader.STLLoader };
  } catch (error) {
    note.textContent = strings.view_no_webgl;  // no import maps (an old browser)
    return;
  }
  const list = choices(state.manifest);
  const pick = el("select", { id: "viewer-pick" });
  for (const [group, prefix] of [[strings.parts, "part:"], [strings.plates, "plate:"]]) {
    const optgroup = el("optgroup", { label: group });
    for (const choice of list.filter((c) => c.key.startsWith(prefix))) {
      optgroup.append(el("option", { value: choice.key }, choice.label));
    }
    pick.append(optgroup);
  }
  const reset = el("button", { type: "button", class: "mid", id: "viewer-reset" }, strings.view_reset);
  const label = el("label", { class: "viewer-pick" }, strings.view_show + " ");
  label.append(pick);
  const bar = el("div", { class: "viewer-bar" });
  bar.append(label, reset);
  const stage = el("div", { class: "viewer-stage", id: "viewer-stage" });
  const hint = el("p", { class: "viewer-hint small" }, strings.view_hint);
  root.replaceChildren(bar, stage, note, hint);
  let view;
  try {
    view = createView(lib, stage, state);
  } catch (error) {
    root.replaceChildren(note);
    note.textContent = strings.view_no_webgl;
    return;
  }
  const show = async () => {
    const choice = list.find((c) => c.key === pick.value);
    delete root.dataset.shown;
    note.textContent = strings.view_loading;
    try {
      if (await view.show(choice)) {
        note.textContent = choice.plate ? strings.view_grid : "";
        root.dataset.shown = choice.key;
      }
    } catch (error) {
      note.textContent = strings.view_failed;
    }
  };
  pick.addEventListener("change", show);
  reset.addEventListener("click", () => view.frame());
  show();
}

/** The renderer, scene, camera, lights and controls in ``stage``; throws without WebGL. */
function createView({ THREE, OrbitControls, STLLoader }, stage, state) {
  const settings = state.manifest.settings;
  THREE.Object3D.DEFAULT_UP.set(0, 0, 1);  // the kit is Z-up: cameras and lights follow
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.setClearColor(BACKGROUND);
  renderer.localClippingEnabled = true;
  stage.append(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(30, 1, 1, 4000);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x40444c, 1.6));
  const key = new THREE.DirectionalLight(0xffffff, 1.8);  // follows the camera, from above left
  scene.add(key, key.target);
  const controls = new OrbitControls(camera, renderer.domElement);
  const loader = new STLLoader();
  const geometries = new Map();
  const materials = new Map();
  const edges = new Map();  // a part's creases, drawn as thin dark lines: engravings show
  const crease = new THREE.LineBasicMaterial({ color: 0x000000, transparent: true, opacity: 0.4 });
  const bedShape = new THREE.PlaneGeometry(1, 1);  // scaled to the printer's bed
  const bedLook = new THREE.MeshStandardMaterial({ color: 0x232b3a, roughness: 1 });
  let shown = null;
  let token = 0;
  let pending = false;

  function render() {
    const offset = new THREE.Vector3(-0.6, 0.9, 0.2).applyQuaternion(camera.quaternion);
    key.position.copy(camera.position).addScaledVector(offset, camera.position.distanceTo(controls.target));
    key.target.position.copy(controls.target);
    key.target.updateMatrixWorld();
    renderer.render(scene, camera);
  }
  function request() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; render(); });
  }
  function resize() {
    const width = stage.clientWidth || 1;
    const height = stage.clientHeight || 1;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    request();
  }
  controls.addEventListener("change", request);
  if (window.ResizeObserver) new ResizeObserver(resize).observe(stage);
  else window.addEventListener("resize", resize);
  resize();

  function geometry(part) {
    if (!geometries.has(part.name)) {
      const url = state.files["asteroids/" + part.file];
      geometries.set(part.name, loader.loadAsync(url).then((loaded) => {
        loaded.computeBoundingBox();
        const box = loaded.boundingBox;  // centred on the bed's origin, standing on z = 0
        loaded.translate(-(box.min.x + box.max.x) / 2, -(box.min.y + box.max.y) / 2, -box.min.z);
        loaded.computeBoundingBox();
        return loaded;
      }, (error) => {
        geometries.delete(part.name);  // the next choice of it tries again
        throw error;
      }));
    }
    return geometries.get(part.name);
  }
  function material(colour, clip) {
    const name = colour + (clip ? `${clip.normal.z}:${clip.constant}` : "");
    if (!materials.has(name)) {
      materials.set(name, new THREE.MeshStandardMaterial({
        color: new THREE.Color(colour), roughness: 0.75, metalness: 0,
        clippingPlanes: clip ? [clip] : [],
      }));
    }
    return materials.get(name);
  }
  function meshes(copy, loaded, symbol) {
    if (!edges.has(copy.part.name)) edges.set(copy.part.name, new THREE.EdgesGeometry(loaded, 40));
    const lines = new THREE.LineSegments(edges.get(copy.part.name), crease);
    const change = copy.part.colour_change_mm;
    if (change === null || change === undefined) return [new THREE.Mesh(loaded, material(copy.colour)), lines];
    // a hair above the layer's bottom: the floor of an engraving at that height is body colour
    const z = change - settings.layer_height + 1e-3;
    return [
      new THREE.Mesh(loaded, material(copy.colour, new THREE.Plane(new THREE.Vector3(0, 0, -1), z))),
      new THREE.Mesh(loaded, material(symbol, new THREE.Plane(new THREE.Vector3(0, 0, 1), -z))),
      lines,
    ];
  }

  async function show(choice) {
    const mine = ++token;
    const loaded = await Promise.all(choice.copies.map((copy) => geometry(copy.part)));
    if (mine !== token) return false;  // another choice came meanwhile
    const group = new THREE.Group();
    const copies = new THREE.Group();  // framed; the bed around them is not
    group.add(copies);
    const sizes = loaded.map((g) => g.boundingBox.getSize(new THREE.Vector3()));
    const spots = layout(sizes, settings, Boolean(choice.plate));
    choice.copies.forEach((copy, i) => {
      for (const mesh of meshes(copy, loaded[i], symbolFrom(choice.plate, settings))) {
        mesh.position.set(spots.at[i][0], spots.at[i][1], 0);
        copies.add(mesh);
      }
    });
    if (spots.bed) {
      const bed = new THREE.Mesh(bedShape, bedLook);
      bed.scale.set(spots.bed[0], spots.bed[1], 1);
      bed.position.z = -0.05;
      group.add(bed);
    }
    if (shown) scene.remove(shown.parent);
    shown = copies;
    scene.add(group);
    frame();
    render();
    return true;
  }

  /** Look at the shown object from the front and above, as near as keeps all of it in view. */
  function frame() {
    if (!shown) return;
    const box = new THREE.Box3().setFromObject(shown);
    const centre = box.getCenter(new THREE.Vector3());
    const back = new THREE.Vector3(0.35, -1, 1.1).normalize();  // from the camera to the centre, reversed
    const right = new THREE.Vector3().crossVectors(back.clone().negate(), camera.up).normalize();
    const up = new THREE.Vector3().crossVectors(right, back.clone().negate());
    const tanV = Math.tan(THREE.MathUtils.degToRad(camera.fov / 2));
    const tanH = tanV * camera.aspect;
    let distance = 0;
    for (const x of [box.min.x, box.max.x]) {
      for (const y of [box.min.y, box.max.y]) {
        for (const z of [box.min.z, box.max.z]) {
          const corner = new THREE.Vector3(x, y, z).sub(centre);
          const along = corner.dot(back);
          distance = Math.max(distance,
            along + Math.abs(corner.dot(right)) * 1.08 / tanH,
            along + Math.abs(corner.dot(up)) * 1.08 / tanV);
        }
      }
    }
    camera.position.copy(centre).addScaledVector(back, distance);
    camera.near = distance / 50;
    camera.far = distance * 20;
    camera.updateProjectionMatrix();
    controls.target.copy(centre);
    controls.minDistance = distance / 8;
    controls.maxDistance = distance * 4;
    controls.update();
    request();
  }

  return { show, frame };
}
